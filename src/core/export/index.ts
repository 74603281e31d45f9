/** Exporting files of an install: to a folder or a zip, raw or as JSON, and the file list as CSV/JSON. */
export { extractFiles } from './extract.js';
export { exportFileList, csvCell, type FileListFormat } from './file-list.js';
export { selectFiles, exportItems, type ExportItem } from './selection.js';
export {
  checkName, checkRelativePath, resolveInside, isInside, numberedName, UnsafePathError, MAX_NAME_BYTES, MAX_PATH_BYTES,
  type PathCheck,
} from './safe-path.js';
export { ZipLimitError, ZipBrokenError, ZIP_MAX_ENTRIES, ZIP_MAX_BYTES } from './zip-sink.js';
export { PackageJsonConverter } from './package-json.js';
export type {
  ExportSelection, ExportFormat, ConflictPolicy, ExportProgress, ExportOptions, ExportFailure, ExportSkip, ExportSummary,
} from './types.js';
