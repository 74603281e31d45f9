/** Rows of a classic hex dump: offset, 16 bytes in hex, and their printable ASCII. */

export const HEX_ROW_BYTES = 16;

export interface HexRow {
  offset: string;
  hex: string;
  ascii: string;
}

const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0').toUpperCase());

export function hexRowCount(length: number): number {
  return Math.ceil(length / HEX_ROW_BYTES);
}

export function hexRow(bytes: Uint8Array, row: number, base = 0): HexRow {
  const start = row * HEX_ROW_BYTES;
  const end = Math.min(start + HEX_ROW_BYTES, bytes.length);
  let hex = '';
  let ascii = '';
  for (let i = start; i < start + HEX_ROW_BYTES; i++) {
    if (i === start + 8) hex += ' '; // the classic gap between the two halves
    if (i < end) {
      const b = bytes[i]!;
      hex += HEX[b]! + ' ';
      ascii += b >= 0x20 && b < 0x7f ? String.fromCharCode(b) : '·';
    } else {
      hex += '   ';
    }
  }
  return { offset: (base + start).toString(16).toUpperCase().padStart(8, '0'), hex: hex.trimEnd(), ascii };
}
