/**
 * The API over HTTP, for the page served by the browser host (`npm run web`): POST /api/<method>
 * with the per-run token, events from GET /api/events (Server-Sent Events).
 */
import type { ApiEvent, ApiMethod, ApiRequest, ApiResult, PakScopeBridge } from '../../../shared/api.js';
import { decodeFrame, decodeJson, FRAME_TYPE } from '../../../shared/wire.js';

export const TOKEN_HEADER = 'x-pakscope-token';

/** The first wait before trying a lost host again, and the longest (the waits double in between). */
export const RETRY_FIRST_MS = 2_000;
export const RETRY_MAX_MS = 30_000;

/** The wait before the next try, after `previous` (0: the first). */
export function nextRetryDelay(previous: number): number {
  return previous <= 0 ? RETRY_FIRST_MS : Math.min(RETRY_MAX_MS, previous * 2);
}

export class WebClient implements PakScopeBridge {
  private readonly listeners = new Set<(event: ApiEvent) => void>();
  private source: EventSource | null = null;
  private readonly connectionListeners = new Set<(lost: boolean) => void>();
  /** The host stopped answering; the event stream is tried again after a growing wait. */
  private lost = false;
  private retryTimer: ReturnType<typeof setTimeout> | undefined;
  private retryDelay = 0;

  constructor(private readonly token: string, private readonly base = '') {
    // Back on line or back in front: try at once rather than at the end of a long wait.
    const now = () => { if (this.lost) this.retryNow(); };
    globalThis.addEventListener?.('online', now);
    globalThis.addEventListener?.('focus', now);
  }

  /** Told when the connection to the host is lost (true) and when it is back (false). */
  onConnection(listener: (lost: boolean) => void): () => void {
    this.connectionListeners.add(listener);
    return () => { this.connectionListeners.delete(listener); };
  }

  /** Tries the host again now (the page's "Retry now"). */
  retryNow(): void {
    clearTimeout(this.retryTimer);
    this.retryTimer = undefined;
    if (this.listeners.size > 0) this.openSource();
    else void this.appInfo().catch(() => undefined);
  }

  private setLost(lost: boolean): void {
    if (lost === this.lost) return;
    this.lost = lost;
    if (!lost) {
      this.retryDelay = 0;
      clearTimeout(this.retryTimer);
      this.retryTimer = undefined;
    }
    for (const l of [...this.connectionListeners]) l(lost);
  }

  /**
   * The host does not answer: stop EventSource's own retries (a refused connection logged to the
   * console every few seconds) and try again after a wait that doubles up to RETRY_MAX_MS.
   */
  private connectionFailed(): void {
    this.source?.close();
    this.source = null;
    this.setLost(true);
    if (this.retryTimer !== undefined) return;
    this.retryDelay = nextRetryDelay(this.retryDelay);
    this.retryTimer = setTimeout(() => {
      this.retryTimer = undefined;
      this.retryNow();
    }, this.retryDelay);
  }

  private openSource(): void {
    this.source?.close();
    // EventSource cannot send headers, so the token goes in the query.
    const source = new EventSource(`${this.base}/api/events?token=${encodeURIComponent(this.token)}`);
    this.source = source;
    source.onopen = () => this.setLost(false);
    source.onerror = () => {
      // A stream that drops and cannot reconnect at once: handled here, with a quieter schedule.
      if (this.source === source) this.connectionFailed();
    };
    source.onmessage = (m) => {
      let event: ApiEvent;
      try {
        event = JSON.parse(m.data as string) as ApiEvent;
      } catch {
        return;
      }
      for (const l of [...this.listeners]) l(event);
    };
  }

  private async call<M extends ApiMethod>(method: M, req: ApiRequest<M>): Promise<ApiResult<M>> {
    let res: Response;
    try {
      res = await fetch(`${this.base}/api/${method}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', [TOKEN_HEADER]: this.token },
        body: JSON.stringify(req ?? null),
      });
    } catch {
      this.connectionFailed();
      throw new Error('the PakScope host does not answer (was `npm run web` stopped?)');
    }
    if (this.lost) {
      // The host answers again: the event stream too.
      this.setLost(false);
      if (this.listeners.size > 0 && !this.source) this.openSource();
    }
    let body: { ok?: boolean; value?: unknown; error?: { name?: string; message?: string } } = {};
    if (res.headers.get('content-type') === FRAME_TYPE) {
      // Byte arrays (a mesh's LOD, an image) as views on the answer's own bytes.
      body = decodeFrame(await res.arrayBuffer()) as typeof body;
    } else {
      const text = await res.text();
      try {
        body = decodeJson(text) as typeof body;
      } catch {
        // not JSON: fall through to the status line
      }
    }
    if (!res.ok || !body.ok) {
      // The host's own refusals (token, Host, Origin); a path the user has not confirmed is the backend's (NeedsConfirmation).
      if (res.status === 403 && body.error?.name !== 'NeedsConfirmation') throw new Error(`the host refused the request (${body.error?.message ?? 'forbidden'}): open the URL that \`npm run web\` printed, with its token`);
      const err = new Error(body.error?.message ?? `HTTP ${res.status} ${res.statusText}`);
      if (body.error?.name) err.name = body.error.name;
      throw err;
    }
    return body.value as ApiResult<M>;
  }

  appInfo() { return this.call('appInfo', undefined); }
  openInstall(req: ApiRequest<'openInstall'>) { return this.call('openInstall', req); }
  closeInstall(req: ApiRequest<'closeInstall'>) { return this.call('closeInstall', req); }
  listDir(req: ApiRequest<'listDir'>) { return this.call('listDir', req); }
  fileDetails(req: ApiRequest<'fileDetails'>) { return this.call('fileDetails', req); }
  readFile(req: ApiRequest<'readFile'>) { return this.call('readFile', req); }
  verifyFile(req: ApiRequest<'verifyFile'>) { return this.call('verifyFile', req); }
  recentInstalls() { return this.call('recentInstalls', undefined); }
  pickPath(req: ApiRequest<'pickPath'>) { return this.call('pickPath', req); }
  pickExportFolder() { return this.call('pickExportFolder', undefined); }
  startExport(req: ApiRequest<'startExport'>) { return this.call('startExport', req); }
  cancelExport(req: ApiRequest<'cancelExport'>) { return this.call('cancelExport', req); }
  exportFileList(req: ApiRequest<'exportFileList'>) { return this.call('exportFileList', req); }
  keyStatus(req: ApiRequest<'keyStatus'>) { return this.call('keyStatus', req); }
  addKeys(req: ApiRequest<'addKeys'>) { return this.call('addKeys', req); }
  forgetKey(req: ApiRequest<'forgetKey'>) { return this.call('forgetKey', req); }
  openPackage(req: ApiRequest<'openPackage'>) { return this.call('openPackage', req); }
  readPackageBytes(req: ApiRequest<'readPackageBytes'>) { return this.call('readPackageBytes', req); }
  packageGraph(req: ApiRequest<'packageGraph'>) { return this.call('packageGraph', req); }
  graphStats(req: ApiRequest<'graphStats'>) { return this.call('graphStats', req); }
  graphPath(req: ApiRequest<'graphPath'>) { return this.call('graphPath', req); }
  graphFind(req: ApiRequest<'graphFind'>) { return this.call('graphFind', req); }
  startSearch(req: ApiRequest<'startSearch'>) { return this.call('startSearch', req); }
  cancelSearch(req: ApiRequest<'cancelSearch'>) { return this.call('cancelSearch', req); }
  sizeMap(req: ApiRequest<'sizeMap'>) { return this.call('sizeMap', req); }
  packageProperties(req: ApiRequest<'packageProperties'>) { return this.call('packageProperties', req); }
  mappingsStatus(req: ApiRequest<'mappingsStatus'>) { return this.call('mappingsStatus', req); }
  setMappings(req: ApiRequest<'setMappings'>) { return this.call('setMappings', req); }
  pickMappings(req: ApiRequest<'pickMappings'>) { return this.call('pickMappings', req); }
  textureInfo(req: ApiRequest<'textureInfo'>) { return this.call('textureInfo', req); }
  soundInfo(req: ApiRequest<'soundInfo'>) { return this.call('soundInfo', req); }
  soundWav(req: ApiRequest<'soundWav'>) { return this.call('soundWav', req); }
  soundCue(req: ApiRequest<'soundCue'>) { return this.call('soundCue', req); }
  soundBank(req: ApiRequest<'soundBank'>) { return this.call('soundBank', req); }
  fontInfo(req: ApiRequest<'fontInfo'>) { return this.call('fontInfo', req); }
  spriteInfo(req: ApiRequest<'spriteInfo'>) { return this.call('spriteInfo', req); }
  midiInfo(req: ApiRequest<'midiInfo'>) { return this.call('midiInfo', req); }
  meshInfo(req: ApiRequest<'meshInfo'>) { return this.call('meshInfo', req); }
  meshGeometry(req: ApiRequest<'meshGeometry'>) { return this.call('meshGeometry', req); }
  animInfo(req: ApiRequest<'animInfo'>) { return this.call('animInfo', req); }
  assetText(req: ApiRequest<'assetText'>) { return this.call('assetText', req); }
  assetTable(req: ApiRequest<'assetTable'>) { return this.call('assetTable', req); }
  materialInfo(req: ApiRequest<'materialInfo'>) { return this.call('materialInfo', req); }
  metaSoundInfo(req: ApiRequest<'metaSoundInfo'>) { return this.call('metaSoundInfo', req); }
  niagaraInfo(req: ApiRequest<'niagaraInfo'>) { return this.call('niagaraInfo', req); }
  levelInfo(req: ApiRequest<'levelInfo'>) { return this.call('levelInfo', req); }
  sequenceInfo(req: ApiRequest<'sequenceInfo'>) { return this.call('sequenceInfo', req); }
  landscapeInfo(req: ApiRequest<'landscapeInfo'>) { return this.call('landscapeInfo', req); }
  levelScene(req: ApiRequest<'levelScene'>) { return this.call('levelScene', req); }
  localization(req: ApiRequest<'localization'>) { return this.call('localization', req); }
  assetRegistry(req: ApiRequest<'assetRegistry'>) { return this.call('assetRegistry', req); }
  texturePixels(req: ApiRequest<'texturePixels'>) { return this.call('texturePixels', req); }
  assetThumbnail(req: ApiRequest<'assetThumbnail'>) { return this.call('assetThumbnail', req); }
  pickSaveFile(req: ApiRequest<'pickSaveFile'>) { return this.call('pickSaveFile', req); }
  saveConversion(req: ApiRequest<'saveConversion'>) { return this.call('saveConversion', req); }
  compareInstalls(req: ApiRequest<'compareInstalls'>) { return this.call('compareInstalls', req); }
  closeComparison(req: ApiRequest<'closeComparison'>) { return this.call('closeComparison', req); }
  comparisonDir(req: ApiRequest<'comparisonDir'>) { return this.call('comparisonDir', req); }
  comparisonChanges(req: ApiRequest<'comparisonChanges'>) { return this.call('comparisonChanges', req); }
  comparePackage(req: ApiRequest<'comparePackage'>) { return this.call('comparePackage', req); }

  onEvent(listener: (event: ApiEvent) => void): () => void {
    this.listeners.add(listener);
    if (!this.source && !this.lost) this.openSource();
    return () => {
      this.listeners.delete(listener);
      if (this.listeners.size === 0) {
        this.source?.close();
        this.source = null;
      }
    };
  }
}
