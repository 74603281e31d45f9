// Blueprint bytecode (core/kismet) on the corpus's Blueprints: every function of every file
// decodes to exactly its stored ScriptStorageSize bytes, the in-memory size the decoder counts
// equals the stored ScriptBytecodeSize, and the export ends where UFunction's data ends. These
// sizes are the file's own, not the decoder's. Named facts were read from the bytes by hand
// (offsets in the comments); cooked Zen and legacy twins of one Blueprint must agree.
import { describe, expect, it } from 'vitest';
import { FormatError } from '../../src/core/errors.js';
import { BinaryReader } from '../../src/core/io/binary-reader.js';
import { decodeScript, MAX_EXPR_DEPTH, type KismetLayout, type KismetNames } from '../../src/core/kismet/decode.js';
import { readBlueprintScript, sizesMatch, type BlueprintScript } from '../../src/core/kismet/read.js';
import { renderStatements } from '../../src/core/kismet/render.js';
import { scriptText, signature } from '../../src/core/kismet/text.js';
import { corpus } from '../support/corpus.js';

const read = (rel: string): Promise<BlueprintScript> => readBlueprintScript({ file: corpus(rel) });

/** Files with functions, and how many each has (counted in `pakscope info`'s export list: class Function). */
const BLUEPRINTS: [string, number][] = [
  ['cooked/retoc55_BP_ThirdPersonCharacter.uasset', 6],
  ['cooked/zen55_BP_ThirdPersonCharacter.uzenasset', 6],
  ['cooked/retoc56_BP_ThirdPersonCharacter.uasset', 12],
  ['cooked/zen56_BP_ThirdPersonCharacter.uzenasset', 12],
  ['cooked/uapi425_ABP_SMG_A.uasset', 2],
  ['uncooked/ue50_BP_Statue.uasset', 4],
  ['uncooked/ue52_BP_Guide_GameMode.uasset', 5],
];

/** Blueprints whose generated class has no functions (class and default object only). */
const WITHOUT_FUNCTIONS = [
  'cooked/retoc54_BP_Table_Lamp.uasset', 'cooked/zen54_BP_Table_Lamp.uzenasset', 'cooked/uapi54_BP_CubePawn.uasset',
  'cooked/zen427_BP_SpicyChoppingDamage.uasset', 'cooked/uapi51_BP_InteractableBox.uasset', 'uncooked/uapi427_TestActorBP.uasset',
  'uncooked/uapi57_BP_FirstPersonGameMode.uasset', 'cooked/uapi57_BP_WorldWeapon.uasset',
];

describe('Blueprint bytecode', () => {
  it.each(BLUEPRINTS)('%s: every function reads to its stored sizes and the export\'s end', async (rel, count) => {
    const s = await read(rel);
    expect(s.functions).toHaveLength(count);
    for (const f of s.functions) {
      expect([f.name, f.error]).toEqual([f.name, undefined]);
      const d = f.data!;
      expect([f.name, d.decodedSize]).toEqual([f.name, d.bytecodeSize]);
      expect(sizesMatch(d)).toBe(true);
      expect([f.name, d.trailing]).toEqual([f.name, 0]);
      expect(d.storageSize).toBeGreaterThan(0);
      // The last token of every compiled function is EX_EndOfScript.
      expect(d.statements.at(-1)!.op).toBe('EndOfScript');
    }
  });

  it.each(WITHOUT_FUNCTIONS)('%s holds no functions', async (rel) => {
    expect((await read(rel)).functions).toEqual([]);
  });

  it('reads UE5.5\'s BP_ThirdPersonCharacter: functions, sizes and a call read from the bytes by hand', async () => {
    const s = await read('cooked/retoc55_BP_ThirdPersonCharacter.uasset');
    expect(s.functions.map((f) => f.name)).toEqual([
      'ExecuteUbergraph_BP_ThirdPersonCharacter', 'InpActEvt_IA_Jump_K2Node_EnhancedInputActionEvent_2',
      'InpActEvt_IA_Jump_K2Node_EnhancedInputActionEvent_3', 'InpActEvt_IA_Look_K2Node_EnhancedInputActionEvent_0',
      'InpActEvt_IA_Move_K2Node_EnhancedInputActionEvent_1', 'ReceiveControllerChanged',
    ]);
    const rc = s.functions.find((f) => f.name === 'ReceiveControllerChanged')!;
    // .uexp 0x20ae: ScriptBytecodeSize 0x36, ScriptStorageSize 0x52; 0x20fb: 46 07000000 1d 0a000000 16 04 0b 53 =
    // EX_LocalFinalFunction(export 6 = the ubergraph, EX_IntConst 10), EX_Return(EX_Nothing), EX_EndOfScript.
    expect([rc.data!.bytecodeSize, rc.data!.storageSize]).toEqual([54, 82]);
    expect(renderStatements(rc.data!.statements)).toEqual([
      '    Frame.K2Node_Event_OldController = OldController',
      '    Frame.K2Node_Event_NewController = NewController',
      '    ExecuteUbergraph_BP_ThirdPersonCharacter(10)',
      '    return',
    ]);
    expect(rc.flags).toEqual(['Event', 'Public', 'BlueprintEvent']);
    expect(signature(rc)).toBe('void ReceiveControllerChanged(Controller* OldController, Controller* NewController)');
    const uber = s.functions[0]!;
    expect([uber.data!.bytecodeSize, uber.data!.storageSize]).toEqual([1754, 2714]);
    const text = scriptText(s);
    // The ubergraph's entry at 10 is where ReceiveControllerChanged jumps in; it casts the new controller.
    expect(text).toContain('L_000a: // entry of ReceiveControllerChanged\n    K2Node_DynamicCast_AsPlayer_Controller = Cast<PlayerController>(K2Node_Event_NewController)');
    expect(text).toContain('CallFunc_GetLocalPlayerSubSystemFromPlayerController_ReturnValue.AddMappingContext(IMC_Default, 0, Temp_struct_Variable_2)');
    expect(text).toContain('if not (K2Node_DynamicCast_bSuccess) goto L_06d7');
  });

  it('the Zen package and the legacy .uasset/.uexp of one cook decode to the same code', async () => {
    for (const [legacy, zen] of [['cooked/retoc55_BP_ThirdPersonCharacter.uasset', 'cooked/zen55_BP_ThirdPersonCharacter.uzenasset'],
      ['cooked/retoc56_BP_ThirdPersonCharacter.uasset', 'cooked/zen56_BP_ThirdPersonCharacter.uzenasset']] as const) {
      const a = await read(legacy);
      const b = await read(zen);
      expect(b.functions.map((f) => f.name)).toEqual(a.functions.map((f) => f.name));
      // Zen imports of /Script objects are named by hash without the global container: compare statement shapes and sizes.
      for (const [i, f] of a.functions.entries()) {
        const g = b.functions[i]!;
        expect([g.data!.bytecodeSize, g.data!.storageSize]).toEqual([f.data!.bytecodeSize, f.data!.storageSize]);
        expect(g.data!.statements.map((x) => [x.op, x.offset])).toEqual(f.data!.statements.map((x) => [x.op, x.offset]));
      }
    }
  });

  it('a Zen package read without the global container names its functions\' class as its legacy twin does', async () => {
    // The class is a /Script import known only by hash there; the legacy .uasset names it.
    const legacy = await read('cooked/retoc56_BP_ThirdPersonCharacter.uasset');
    const zen = await read('cooked/zen56_BP_ThirdPersonCharacter.uzenasset');
    expect(new Set(legacy.functions.map((f) => f.class))).toEqual(new Set(['Function']));
    expect(zen.functions.map((f) => f.class)).toEqual(legacy.functions.map((f) => f.class));
    expect(scriptText(zen)).toContain('// Function Aim [Public, BlueprintCallable, BlueprintEvent]\n');
  });

  it('reads UE4.25 versioned (UProperty-free FField params) and UE5.0 editor Blueprints', async () => {
    const abp = await read('cooked/uapi425_ABP_SMG_A.uasset');
    const anim = abp.functions.find((f) => f.name === 'AnimGraph')!;
    expect(signature(anim)).toBe('void AnimGraph(out PoseLink AnimGraph)');
    const statue = await read('uncooked/ue50_BP_Statue.uasset');
    const init = statue.functions.find((f) => f.name === 'InitStatue')!;
    expect(renderStatements(init.data!.statements)).toContain(
      '    CallFunc_K2_SetTimer_ReturnValue = KismetSystemLibrary.K2_SetTimer(self, "InitStatue", CallFunc_Conv_IntToFloat_ReturnValue, false, 0, 0)');
    expect(scriptText(statue)).toContain('L_012e: // entry of ReceiveActorBeginOverlap');
  });
});

describe('bad bytecode', () => {
  const layout: KismetLayout = { letProperty: true, textLiteralType: true, textWithNotes: false, setArrayExpr: true, fieldPaths: true, fieldPathOwner: true, doubles: true };
  const names: KismetNames = { name: (r) => { r.i32(); r.i32(); return 'N'; }, object: (r) => { r.i32(); return null; } };
  const decode = (bytes: number[]): unknown => decodeScript(new BinaryReader(new Uint8Array(bytes), 'bad.uexp', 1000).struct('function "F" bytecode'), names, layout);

  it('an unknown opcode is a FormatError naming the file, structure and byte offset', () => {
    expect(() => decode([0x0b, 0xee])).toThrow(new FormatError('bad.uexp', 'function "F" bytecode', 1001, 'unknown bytecode token 0xee'));
  });

  it('an operand past the end is a FormatError', () => {
    expect(() => decode([0x1d, 0x01, 0x02])).toThrow(FormatError);
    expect(() => decode([0x1c, 0, 0, 0, 0, 0x25])).toThrow(FormatError); // call parameters never closed
    expect(() => decode([0x1f, 0x41, 0x42])).toThrow(/no terminating NUL/);
  });

  it('nesting deeper than the limit is a FormatError, not a stack overflow', () => {
    const deep = new Array<number>(MAX_EXPR_DEPTH + 10).fill(0x04); // EX_Return(EX_Return(...))
    expect(() => decode(deep)).toThrow(/nested deeper than 512/);
    const long = new Array<number>(200000).fill(0x04);
    expect(() => decode(long)).toThrow(FormatError);
  });

  it('a real function with a corrupted token fails at that token\'s offset', async () => {
    const s = await read('cooked/retoc55_BP_ThirdPersonCharacter.uasset');
    expect(s.functions.every((f) => f.error === undefined)).toBe(true);
    // ReceiveControllerChanged's script in the .uexp (bytes as stored): flip its first token to a non-opcode.
    const { readFile } = await import('node:fs/promises');
    const uexp = new Uint8Array(await readFile(corpus('cooked/retoc55_BP_ThirdPersonCharacter.uexp')));
    const d = s.functions.find((f) => f.name === 'ReceiveControllerChanged')!.data!;
    const bytes = uexp.slice(d.scriptOffset, d.scriptOffset + d.storageSize);
    expect(bytes[0]).toBe(0x64); // EX_LetValueOnPersistentFrame
    bytes[0] = 0xa7;
    expect(() => decodeScript(new BinaryReader(bytes, 'x.uexp', d.scriptOffset), names, layout)).toThrow(`x.uexp: data at byte ${d.scriptOffset}: unknown bytecode token 0xa7`);
  });
});

describe('corrupted bytecode never crashes or hangs', () => {
  it('every byte flip of real scripts is decoded or a FormatError', async () => {
    const { readFile } = await import('node:fs/promises');
    const s = await read('cooked/retoc55_BP_ThirdPersonCharacter.uasset');
    const uexp = new Uint8Array(await readFile(corpus('cooked/retoc55_BP_ThirdPersonCharacter.uexp')));
    const layout: KismetLayout = { letProperty: true, textLiteralType: true, textWithNotes: false, setArrayExpr: true, fieldPaths: true, fieldPathOwner: true, doubles: true };
    const names: KismetNames = {
      name: (r) => { const at = r.pos; const i = r.i32(); r.i32(); if (i < 0 || i >= 145) throw r.error(`name ${i}`, at); return 'N'; },
      object: (r) => { r.i32(); return null; },
    };
    let seed = 12345;
    const rand = (n: number): number => { seed = (seed * 1103515245 + 12345) >>> 0; return seed % n; };
    let errors = 0;
    for (const f of s.functions) {
      const d = f.data!;
      const original = uexp.slice(d.scriptOffset, d.scriptOffset + d.storageSize);
      for (let k = 0; k < 200; k++) {
        const bytes = original.slice();
        for (let j = 0; j < 3; j++) bytes[rand(bytes.length)] = rand(256);
        try {
          decodeScript(new BinaryReader(bytes, 'x.uexp', 0), names, layout);
        } catch (e) {
          if (!(e instanceof FormatError)) throw e;
          errors++;
        }
      }
    }
    expect(errors).toBeGreaterThan(0);
  });
});
