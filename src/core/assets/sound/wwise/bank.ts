/**
 * A Wwise sound bank (.bnk): little-endian chunks of a 4-byte tag and a u32 size.
 *
 *   BKHD  bank version (u32: 56 for Wwise 2011, 134 for 2019.2, 140 for 2023, ...) and bank id
 *   DIDX  the embedded media: id, offset in DATA, size (u32 each)
 *   DATA  the media, each a .wem
 *   HIRC  the object hierarchy: a u32 count, then objects of a type (u8; u32 before version 49),
 *         a size (u32) and an id (u32) followed by the rest of their size
 *
 * Of HIRC only what names what an event plays is read: an event's action ids (a u32 count before
 * version 123, a variable-length one after), an action's type and target (u16 and u32; u32 and
 * u32 up to version 56, where the type values differ too: 0x04011 is Play), a sound's media id (after its plugin id and stream type), and each
 * sound's and container's parent, so that an action aimed at a container reaches the sounds
 * below it. The parent sits after the node's effect list and a few version-dependent bytes: it
 * is taken at the first of those places that names an object of the bank.
 */
import { FormatError } from '../../../errors.js';

export interface BankMedia {
  id: number;
  /** Where its bytes start in the bank file, and their count. */
  offset: number;
  size: number;
}

export interface BankAction {
  id: number;
  type: number;
  target: number;
}

export interface BankEvent {
  id: number;
  actions: BankAction[];
  /** Media ids the event's play actions reach (sounds, or sounds below the containers they aim at). */
  media: number[];
}

export interface SoundBank {
  version: number;
  bankId: number;
  media: BankMedia[];
  events: BankEvent[];
  /** HIRC objects by type (2: sound, 3: action, 4: event, ...). */
  objectCounts: Record<number, number>;
  notes: string[];
}

const T_SOUND = 2;
const T_ACTION = 3;
const T_EVENT = 4;
/** Random/sequence, switch, actor-mixer and layer containers: their node parameters come first. */
const CONTAINERS = new Set([5, 6, 7, 9]);
/** Action types that play their target: Play, and Play and Continue (type and scope in a u16). */
const PLAY_ACTIONS = new Set([0x0403, 0x0503]);
/** The same up to version 56, where the type is a u32 of another layout (0x04011 Play, 0x01011 Stop_E_O, ...). */
const PLAY_ACTIONS_V56 = new Set([0x04011, 0x05011]);
const MAX_EVENT_ACTIONS = 65536;

const tag = (b: Uint8Array, at: number): string => String.fromCharCode(b[at]!, b[at + 1]!, b[at + 2]!, b[at + 3]!);

/** Whether the bytes start as a sound bank (a BKHD chunk). */
export const isBank = (b: Uint8Array): boolean => b.length >= 8 && tag(b, 0) === 'BKHD';

interface HircObject { type: number; id: number; at: number; end: number }

export function parseBank(b: Uint8Array, file: string): SoundBank {
  const v = new DataView(b.buffer, b.byteOffset, b.byteLength);
  if (!isBank(b)) throw new FormatError(file, 'BKHD chunk', 0, `a bank starts with BKHD, this file with "${b.length >= 4 ? tag(b, 0).replace(/[^\x20-\x7e]/g, '?') : ''}"`);
  const chunks = new Map<string, { at: number; size: number }>();
  for (let at = 0; at < b.length;) {
    if (at + 8 > b.length) throw new FormatError(file, 'chunk header', at, `a chunk header needs 8 bytes, ${b.length - at} remain`);
    const size = v.getUint32(at + 4, true);
    const id = tag(b, at);
    if (at + 8 + size > b.length) throw new FormatError(file, `${id.replace(/[^\x20-\x7e]/g, '?')} chunk`, at, `claims ${size} bytes but ${b.length - at - 8} remain (truncated)`);
    if (!chunks.has(id)) chunks.set(id, { at: at + 8, size });
    at += 8 + size;
  }
  const bkhd = chunks.get('BKHD')!;
  if (bkhd.size < 8) throw new FormatError(file, 'BKHD chunk', 0, `${bkhd.size} bytes, at least 8 expected`);
  const version = v.getUint32(bkhd.at, true);
  const bankId = v.getUint32(bkhd.at + 4, true);
  const notes: string[] = [];

  const media: BankMedia[] = [];
  const didx = chunks.get('DIDX');
  const data = chunks.get('DATA');
  if (didx) {
    if (didx.size % 12 !== 0) throw new FormatError(file, 'DIDX chunk', didx.at - 8, `${didx.size} bytes is not a whole number of 12-byte entries`);
    if (!data && didx.size > 0) throw new FormatError(file, 'DIDX chunk', didx.at - 8, 'media are listed but the bank has no DATA chunk');
    for (let at = didx.at; at < didx.at + didx.size; at += 12) {
      const id = v.getUint32(at, true);
      const offset = v.getUint32(at + 4, true);
      const size = v.getUint32(at + 8, true);
      if (offset + size > data!.size) throw new FormatError(file, 'DIDX entry', at, `medium ${id} at ${offset} + ${size} bytes runs past the ${data!.size}-byte DATA chunk`);
      media.push({ id, offset: data!.at + offset, size });
    }
  }

  const objects: HircObject[] = [];
  const hirc = chunks.get('HIRC');
  if (hirc) {
    if (hirc.size < 4) throw new FormatError(file, 'HIRC chunk', hirc.at - 8, `${hirc.size} bytes, at least 4 expected`);
    const count = v.getUint32(hirc.at, true);
    const typeBytes = version <= 48 ? 4 : 1;
    const end = hirc.at + hirc.size;
    if (count * (typeBytes + 8) > hirc.size - 4) throw new FormatError(file, 'HIRC chunk', hirc.at, `${count} objects need at least ${count * (typeBytes + 8)} bytes, ${hirc.size - 4} remain`);
    let at = hirc.at + 4;
    for (let i = 0; i < count; i++) {
      if (at + typeBytes + 8 > end) throw new FormatError(file, 'HIRC object', at, `object ${i} of ${count}: its header runs past the HIRC chunk`);
      const type = typeBytes === 4 ? v.getUint32(at, true) : b[at]!;
      const size = v.getUint32(at + typeBytes, true);
      const body = at + typeBytes + 4;
      if (size < 4 || body + size > end) throw new FormatError(file, 'HIRC object', at, `object ${i} of ${count} claims ${size} bytes, ${end - body} remain in the HIRC chunk`);
      objects.push({ type, id: v.getUint32(body, true), at: body + 4, end: body + size });
      at = body + size;
    }
  }

  const byId = new Map(objects.map((o) => [o.id, o]));
  const mediaOfSound = new Map<number, number>();
  const children = new Map<number, number[]>();
  const sourceIdAt = version <= 88 ? 8 : 5;
  for (const o of objects) {
    let nodeAt: number | undefined;
    if (o.type === T_SOUND) {
      if (o.at + sourceIdAt + 4 > o.end) throw new FormatError(file, 'HIRC sound', o.at, `sound ${o.id} is too short for its media id`);
      mediaOfSound.set(o.id, v.getUint32(o.at + sourceIdAt, true));
      nodeAt = o.at + sourceDataSize(v, o, version);
    } else if (CONTAINERS.has(o.type)) {
      nodeAt = o.at;
    }
    if (nodeAt === undefined) continue;
    const parent = parentOf(v, nodeAt, o.end, byId, o.id);
    if (parent !== undefined) children.set(parent, [...(children.get(parent) ?? []), o.id]);
  }

  const actionOf = (o: HircObject): BankAction => {
    const need = version <= 56 ? 8 : 6;
    if (o.at + need > o.end) throw new FormatError(file, 'HIRC action', o.at, `action ${o.id} is too short for its type and target`);
    return version <= 56
      ? { id: o.id, type: v.getUint32(o.at, true), target: v.getUint32(o.at + 4, true) }
      : { id: o.id, type: v.getUint16(o.at, true), target: v.getUint32(o.at + 2, true) };
  };

  const reach = (target: number): number[] => {
    const out: number[] = [];
    const seen = new Set<number>();
    const stack = [target];
    while (stack.length > 0) {
      const id = stack.pop()!;
      if (seen.has(id)) continue;
      seen.add(id);
      const m = mediaOfSound.get(id);
      if (m !== undefined) out.push(m);
      stack.push(...(children.get(id) ?? []));
    }
    return out;
  };

  const events: BankEvent[] = [];
  for (const o of objects) {
    if (o.type !== T_EVENT) continue;
    let at = o.at;
    let count: number;
    if (version <= 122) {
      if (at + 4 > o.end) throw new FormatError(file, 'HIRC event', at, `event ${o.id} is too short for its action count`);
      count = v.getUint32(at, true);
      at += 4;
    } else {
      count = 0;
      for (let k = 0; ; k++) {
        if (at >= o.end || k > 4) throw new FormatError(file, 'HIRC event', at, `event ${o.id}'s action count runs past the object`);
        const byte = b[at++]!;
        count = count * 128 + (byte & 0x7f);
        if (!(byte & 0x80)) break;
      }
    }
    if (count > MAX_EVENT_ACTIONS || at + count * 4 > o.end) throw new FormatError(file, 'HIRC event', o.at, `event ${o.id} lists ${count} actions, its object holds ${Math.floor((o.end - at) / 4)}`);
    const actions: BankAction[] = [];
    const mediaIds: number[] = [];
    for (let i = 0; i < count; i++) {
      const actionId = v.getUint32(at + i * 4, true);
      const a = byId.get(actionId);
      if (!a || a.type !== T_ACTION) continue;
      const action = actionOf(a);
      actions.push(action);
      if ((version <= 56 ? PLAY_ACTIONS_V56 : PLAY_ACTIONS).has(action.type)) for (const m of reach(action.target)) if (!mediaIds.includes(m)) mediaIds.push(m);
    }
    events.push({ id: o.id, actions, media: mediaIds });
  }

  const objectCounts: Record<number, number> = {};
  for (const o of objects) objectCounts[o.type] = (objectCounts[o.type] ?? 0) + 1;
  return { version, bankId, media, events, objectCounts, notes };
}

/** The bytes of a sound's source data (AkBankSourceData), where its node parameters start. */
function sourceDataSize(v: DataView, o: HircObject, version: number): number {
  const plugin = o.at + 4 <= o.end ? v.getUint32(o.at, true) : 0;
  // Before version 89: plugin, stream type, source id, file id, file offset, in-memory size (u32 each) and source bits (u8).
  let size = version <= 88 ? 25 : 14;
  // A source plugin (type 2 in the low bits) carries its parameters: a u32 size and the bytes.
  if ((plugin & 0x0f) === 2 && o.at + size + 4 <= o.end) size += 4 + v.getUint32(o.at + size, true);
  return size;
}

/** A node's parent id: after its effect list, the first of a few places that names an object of the bank. */
function parentOf(v: DataView, at: number, end: number, byId: Map<number, HircObject>, self: number): number | undefined {
  if (at + 2 > end) return undefined;
  const fx = v.getUint8(at + 1);
  const q = at + 2 + (fx > 0 ? 1 + fx * 7 : 0);
  for (let k = 0; k < 4; k++) {
    if (q + k + 8 > end) return undefined;
    const id = v.getUint32(q + k + 4, true);
    if (id !== self && byId.has(id)) return id;
  }
  return undefined;
}

/** A medium's bytes (a .wem) in the bank. */
export function bankMediaBytes(bank: Uint8Array, m: BankMedia): Uint8Array {
  return bank.subarray(m.offset, m.offset + m.size);
}
