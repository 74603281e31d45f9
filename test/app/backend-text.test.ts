/**
 * The text preview's API: a UE1/2 package's ScriptText exports as the package view's "text"
 * previews (named after their class) and assetText giving the UnrealScript source, checked
 * against the source UELib compiled TestUC1 from (Labels.uc, 2,261 characters).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { Backend } from '../../src/backend/backend.js';
import { ApiValidationError, validateRequest } from '../../src/shared/api.js';
import { useBackend } from '../support/backend-session.js';
import { corpus } from '../support/corpus.js';

const session = useBackend(corpus('legacy'), 'pakscope-text-');
let backend: Backend, installId: string;
beforeAll(() => ({ backend, installId } = session));

describe('assetText', () => {
  it('offers each class\'s script as a text preview named after the class', async () => {
    const view = await backend.openPackage({ installId, path: 'uelib_TestUC1.u' });
    const texts = view.assets.filter((a) => a.view === 'text');
    expect(texts.map((a) => a.name).sort()).toEqual(['ClassDeclarations', 'Consts', 'DefaultProperties', 'DefaultPropertiesBase', 'ExprTokens', 'Labels']);
    expect(texts.every((a) => a.kind === 'script' && a.class === 'TextBuffer')).toBe(true);
    const labels = texts.find((a) => a.name === 'Labels')!;
    const t = await backend.assetText({ installId, path: 'uelib_TestUC1.u', exportIndex: labels.exportIndex });
    expect(t).toMatchObject({ name: 'ScriptText', outer: 'Labels', fileName: 'Labels.uc', language: 'unrealscript', exportIndex: labels.exportIndex });
    const source = t.text.replace(/\r\n/g, '\n').replace(/\n$/, '');
    expect(source).toHaveLength(2261);
    expect(source.split('\n')[0]).toBe('class Labels extends Object;');
    expect(JSON.parse(JSON.stringify(t))).toEqual(t);
  });

  it('gives the first text by default and refuses an export without one', async () => {
    const t = await backend.assetText({ installId, path: 'ut99_EnergySword.u' });
    expect(t.text.replace(/\r\n/g, '\n')).toMatch(/^class EnergySword extends TournamentWeapon;$/m);
    await expect(backend.assetText({ installId, path: 'ut99_EnergySword.u', exportIndex: 0 })).rejects.toThrow(/export 0 holds no text/);
    await expect(backend.assetText({ installId, path: 'ut99_1HH-TestBox-Large.unr' })).rejects.toThrow(/no export of this package holds text/);
    expect(() => validateRequest('assetText', { installId, path: 1 })).toThrow(ApiValidationError);
  });
});
