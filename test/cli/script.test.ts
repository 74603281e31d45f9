// `pakscope script`: a Blueprint's functions as pseudo-code and as JSON, on the corpus's UE5.5
// BP_ThirdPersonCharacter (sizes read from the .uexp by hand, see test/kismet/script.test.ts).
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTempDir, removeTempDirs } from '../fixtures/toc-writer.js';
import { corpus } from '../support/corpus.js';
import { buildCli, pakscope } from './run-cli.js';

const BP = corpus('cooked/retoc55_BP_ThirdPersonCharacter.uasset');

beforeAll(buildCli);
afterAll(removeTempDirs);

describe('pakscope script', () => {
  it('prints every function with its signature and code', async () => {
    const r = await pakscope(['script', BP]);
    expect([r.code, r.stderr]).toEqual([0, '']);
    expect(r.out).toContain([
      '// Function ReceiveControllerChanged [Event, Public, BlueprintEvent]',
      'void ReceiveControllerChanged(Controller* OldController, Controller* NewController)',
      '{',
      '    Frame.K2Node_Event_OldController = OldController',
      '    Frame.K2Node_Event_NewController = NewController',
      '    ExecuteUbergraph_BP_ThirdPersonCharacter(10)',
      '    return',
      '}',
    ].join('\n'));
    expect(r.out).toContain('L_00fe: // entry of InpActEvt_IA_Jump_K2Node_EnhancedInputActionEvent_2');
  });

  it('--json gives each function\'s sizes, parameters and code', async () => {
    const r = await pakscope(['script', BP, '--json']);
    expect(r.code).toBe(0);
    const j = JSON.parse(r.out) as { package: string; functions: { name: string; bytecodeSize: number; storageSize: number; sizesMatch: boolean; params: { name: string; type: string }[]; code: string[] }[] };
    expect(j.package).toBe('/Game/ThirdPerson/Blueprints/BP_ThirdPersonCharacter');
    expect(j.functions.map((f) => f.sizesMatch)).toEqual([true, true, true, true, true, true]);
    const rc = j.functions.find((f) => f.name === 'ReceiveControllerChanged')!;
    expect([rc.bytecodeSize, rc.storageSize]).toEqual([54, 82]);
    expect(rc.params).toEqual([{ name: 'OldController', type: 'Controller*' }, { name: 'NewController', type: 'Controller*' }]);
    // The ubergraph's code names its entry points as the text does (ReceiveControllerChanged jumps in at 10).
    const uber = j.functions.find((f) => f.name === 'ExecuteUbergraph_BP_ThirdPersonCharacter')!;
    expect(uber.code).toContain('L_000a: // entry of ReceiveControllerChanged');
  });

  it('a package without functions says so', async () => {
    const r = await pakscope(['script', corpus('cooked/retoc54_BP_Table_Lamp.uasset')]);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('holds no functions');
  });

  it('extract --format convert writes a Blueprint as the same pseudo-code, through the converter registry', async () => {
    const out = join(await makeTempDir(), 'out');
    const r = await pakscope(['extract', corpus('cooked'), '--out', out, '--format', 'convert', '--filter', '**/retoc55_BP_ThirdPersonCharacter*', '--json']);
    expect([r.code, r.stderr]).toEqual([0, '']);
    const printed = await pakscope(['script', BP]);
    expect(await readFile(join(out, 'retoc55_BP_ThirdPersonCharacter.txt'), 'utf8')).toBe(printed.out);
  });
});
