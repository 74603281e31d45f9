/**
 * Font files read by an independent reader: fontconfig's fc-query (Debian's fontconfig), which
 * parses the file with FreeType and reports its family, style and outline format.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface ReferenceFont {
  family: string;
  style: string;
  /** "TrueType", "CFF". */
  format: string;
}

/** The font `bytes` as fc-query reads it (its first face); throws when it does not read as a font. */
export function queryFont(bytes: Uint8Array, extension: string): ReferenceFont {
  const dir = mkdtempSync(join(tmpdir(), 'pakscope-font-'));
  try {
    const file = join(dir, `font.${extension}`);
    writeFileSync(file, bytes);
    const out = execFileSync('fc-query', ['-i', '0', '-f', '%{family[0]}\\n%{style[0]}\\n%{fontformat}\\n', file], { encoding: 'utf8' });
    const [family = '', style = '', format = ''] = out.split('\n');
    return { family, style, format };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
