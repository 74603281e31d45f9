/**
 * The API over HTTP, for the page served by the browser host (`npm run web`): POST /api/<method>
 * with the per-run token, events from GET /api/events (Server-Sent Events).
 */
import type { ApiEvent, ApiMethod, ApiRequest, ApiResult, PakScopeBridge } from '../../../shared/api.js';
import { decodeJson } from '../../../shared/wire.js';

export const TOKEN_HEADER = 'x-pakscope-token';

export class WebClient implements PakScopeBridge {
  private readonly listeners = new Set<(event: ApiEvent) => void>();
  private source: EventSource | null = null;

  constructor(private readonly token: string, private readonly base = '') {}

  private async call<M extends ApiMethod>(method: M, req: ApiRequest<M>): Promise<ApiResult<M>> {
    let res: Response;
    try {
      res = await fetch(`${this.base}/api/${method}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', [TOKEN_HEADER]: this.token },
        body: JSON.stringify(req ?? null),
      });
    } catch {
      throw new Error('the PakScope host does not answer (was `npm run web` stopped?)');
    }
    const text = await res.text();
    let body: { ok?: boolean; value?: unknown; error?: { name?: string; message?: string } } = {};
    try {
      body = decodeJson(text) as typeof body;
    } catch {
      // not JSON: fall through to the status line
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
  packageProperties(req: ApiRequest<'packageProperties'>) { return this.call('packageProperties', req); }
  mappingsStatus(req: ApiRequest<'mappingsStatus'>) { return this.call('mappingsStatus', req); }
  setMappings(req: ApiRequest<'setMappings'>) { return this.call('setMappings', req); }
  pickMappings(req: ApiRequest<'pickMappings'>) { return this.call('pickMappings', req); }
  textureInfo(req: ApiRequest<'textureInfo'>) { return this.call('textureInfo', req); }
  texturePixels(req: ApiRequest<'texturePixels'>) { return this.call('texturePixels', req); }
  assetThumbnail(req: ApiRequest<'assetThumbnail'>) { return this.call('assetThumbnail', req); }
  pickSaveFile(req: ApiRequest<'pickSaveFile'>) { return this.call('pickSaveFile', req); }
  saveConversion(req: ApiRequest<'saveConversion'>) { return this.call('saveConversion', req); }

  onEvent(listener: (event: ApiEvent) => void): () => void {
    this.listeners.add(listener);
    if (!this.source) {
      // EventSource cannot send headers, so the token goes in the query.
      this.source = new EventSource(`${this.base}/api/events?token=${encodeURIComponent(this.token)}`);
      this.source.onmessage = (m) => {
        let event: ApiEvent;
        try {
          event = JSON.parse(m.data as string) as ApiEvent;
        } catch {
          return;
        }
        for (const l of [...this.listeners]) l(event);
      };
    }
    return () => {
      this.listeners.delete(listener);
      if (this.listeners.size === 0) {
        this.source?.close();
        this.source = null;
      }
    };
  }
}
