/**
 * What two lines of a package's versions mean, easily read as one thing: whether the header
 * states its file versions (unversionedPackage), and how the properties are stored, which the
 * PKG_UnversionedProperties flag says (propertyEncoding). `pakscope info` and the app's Summary
 * show the same words.
 */
export function versionNote(key: string, value: unknown): string | undefined {
  if (key === 'unversionedPackage') {
    return value ? 'the header states no file versions: read with the engine\'s' : 'the header states its file versions';
  }
  if (key === 'propertyEncoding') {
    return value === 'unversioned'
      ? 'PKG_UnversionedProperties: stored by class schema, read with mappings'
      : 'no PKG_UnversionedProperties flag: each property stored with its name and type';
  }
  return undefined;
}
