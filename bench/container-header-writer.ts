/**
 * Writes a UE5.5 container header (ContainerHeaderVersion.SoftPackageReferences) as
 * src/core/iostore/container-header.ts reads it (formats.md "Container header"): magic "IoCn",
 * version, container id, package ids, the store entries (two views each: imported packages and
 * shader map hashes, counted from the view field itself, data after all entries), no optional
 * segment packages, an empty container name batch, no localized packages or redirects, and no
 * soft package references.
 */
import { CONTAINER_HEADER_MAGIC, ContainerHeaderVersion } from '../src/core/iostore/container-header.js';
import { ByteWriter } from '../test/fixtures/byte-writer.js';
import { writeNameBatch } from './name-batch-writer.js';

export interface StoreEntrySpec {
  /** 16 hex digits. */
  packageId: string;
  importedPackages: string[];
  /** 40 hex digits each. */
  shaderMapHashes: string[];
}

const ENTRY_SIZE = 16;

export function writeContainerHeader(containerIdHex: string, entries: readonly StoreEntrySpec[]): Uint8Array {
  const w = new ByteWriter(64 + entries.length * 120);
  w.u32(CONTAINER_HEADER_MAGIC).i32(ContainerHeaderVersion.SoftPackageReferences);
  w.hex64(containerIdHex);
  w.u32(entries.length);
  for (const e of entries) w.hex64(e.packageId);

  // The store entry buffer: fixed entries, then each view's data in entry order.
  const buf = new ByteWriter(entries.length * 100);
  buf.zeros(entries.length * ENTRY_SIZE);
  const views: [number, number, number][] = []; // [view field offset, count, data offset]
  entries.forEach((e, i) => {
    const at = i * ENTRY_SIZE;
    views.push([at, e.importedPackages.length, buf.length]);
    for (const id of e.importedPackages) buf.hex64(id);
    views.push([at + 8, e.shaderMapHashes.length, buf.length]);
    for (const h of e.shaderMapHashes) buf.bytes(Buffer.from(h, 'hex'));
  });
  for (const [field, count, dataAt] of views) {
    buf.patchU32(field, count);
    buf.patchU32(field + 4, count === 0 ? 0 : dataAt - field);
  }
  const store = buf.finish();
  w.u32(store.length).bytes(store);
  w.u32(0).u32(0); // optional segment: no package ids, empty store entry buffer
  writeNameBatch(w, []); // container names
  w.u32(0); // localized packages
  w.u32(0); // package redirects
  w.u32(0); // no soft package references
  return w.finish();
}
