/**
 * "Save as …" of an asset view (texture, sound): in Electron the native save dialog, in browser
 * mode a typed path (remembered folder, "Overwrite" once the file exists). The view says how a
 * format is written and where its messages go; SavePathForm shows the typed-path form.
 */
import type { ConversionFormat } from '../../../shared/api.js';
import { formatSize } from './format.js';

const SAVE_DIR_KEY = 'pakscope.saveDir';

export interface ConversionSaverOptions<F extends ConversionFormat> {
  /** Electron: the save dialog (api.pickSaveFile); null when the user cancels. */
  pick(name: string, format: F): Promise<string | null>;
  /** Writes `format` to `destination` through the API; resolves with what was written. */
  write(format: F, destination: string, conflict: 'overwrite' | 'fail'): Promise<{ path: string; bytes: number }>;
  /** Where the saver's messages go (null clears). */
  note(text: string | null): void;
}

export class ConversionSaver<F extends ConversionFormat> {
  /** The format being written, while it is. */
  saving = $state<F | null>(null);
  /** Browser mode: the path typed for a save, and whether to replace an existing file. */
  asking = $state<{ format: F; path: string; exists: boolean } | null>(null);

  constructor(private readonly opts: ConversionSaverOptions<F>) {}

  /** Starts saving `format` as a file suggested as `name`. */
  async save(format: F, name: string): Promise<void> {
    if (this.saving) return;
    this.opts.note(null);
    if (typeof window !== 'undefined' && window.pakscope) {
      const file = await this.opts.pick(name, format).catch((e: unknown) => { this.opts.note(messageOf(e)); return null; });
      if (file) await this.write(format, file, 'overwrite');
      return;
    }
    let dir = '';
    try { dir = localStorage.getItem(SAVE_DIR_KEY) ?? localStorage.getItem('pakscope.exportDir') ?? ''; } catch { /* no storage */ }
    this.asking = { format, path: dir ? `${dir.replace(/[\\/]+$/, '')}/${name}` : '', exists: false };
  }

  /** Writes the typed path (browser mode); the form closes when the write works. */
  async submit(): Promise<void> {
    const asking = this.asking;
    if (!asking || !asking.path.trim()) return;
    if (await this.write(asking.format, asking.path.trim(), asking.exists ? 'overwrite' : 'fail')) this.asking = null;
  }

  private async write(format: F, destination: string, conflict: 'overwrite' | 'fail'): Promise<boolean> {
    this.saving = format;
    try {
      const r = await this.opts.write(format, destination, conflict);
      this.opts.note(`Saved ${r.path} (${formatSize(r.bytes)})`);
      try { localStorage.setItem(SAVE_DIR_KEY, r.path.replace(/[\\/][^\\/]*$/, '')); } catch { /* no storage */ }
      return true;
    } catch (e) {
      const m = messageOf(e);
      if (this.asking && / exists already/.test(m)) this.asking = { ...this.asking, exists: true };
      this.opts.note(m);
      return false;
    } finally {
      this.saving = null;
    }
  }
}

export function messageOf(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
