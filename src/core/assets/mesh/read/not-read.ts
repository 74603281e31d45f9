/** Why a mesh-like export's properties did not give what a reader needs, as one FormatError. */
import { FormatError } from '../../../errors.js';
import type { SourceExport } from '../../texture/read/package-source.js';

/**
 * The property stream's own error nested once (its file, path and byte offset, then `consequence`),
 * or, for unversioned properties not read without mappings, `unversioned` at the export's start.
 */
export function propertiesNotRead(exp: SourceExport, consequence: string, unversioned: string): FormatError {
  const stopped = exp.properties.errorData;
  if (stopped) return FormatError.within(null, stopped, `the property stream stops there, so ${consequence}`);
  if (exp.properties.error) return new FormatError(exp.file, `${exp.class} "${exp.name}" properties`, exp.base, `the property stream does not read, so ${consequence} (${exp.properties.error})`);
  return new FormatError(exp.file, `${exp.class} "${exp.name}" properties`, exp.base, unversioned);
}
