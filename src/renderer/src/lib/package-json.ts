/**
 * A package as one JSON document, as the JSON tab and "Save as JSON" give it: its parsed model
 * (summary, names, imports, exports, tables; thumbnails without their image bytes), each export
 * with its property values when they were read (`properties`, as `pakscope props --json` prints
 * them; null where the export has none).
 */
import type { PackagePropertiesView, PackageView } from '../../../shared/api.js';

export function packageJsonText(view: PackageView, props: PackagePropertiesView | null): string {
  const byIndex = new Map(props?.exports.map((e) => [e.index, e]) ?? []);
  const model = props
    ? { ...view.model, exports: view.model.exports.map((x) => ({ ...x, properties: byIndex.get(x.index)?.properties ?? null })) }
    : view.model;
  return JSON.stringify(model, (k, v: unknown) => (k === 'base64' ? undefined : v), 2);
}

/** "AC_Fixture.json" for "/Game/Fixtures/Animations/AC_Fixture". */
export function jsonFileName(packageName: string): string {
  const base = packageName.slice(packageName.lastIndexOf('/') + 1).replace(/[^\w.-]+/g, '_') || 'package';
  return `${base}.json`;
}
