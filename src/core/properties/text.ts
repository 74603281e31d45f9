/**
 * FText: flags, then a history that says how the text is made (a literal with its localization
 * key, a format with arguments, a number or date to format, a string table entry...). Plain
 * histories become their string; the others an object naming the history, with `text` the
 * string the reader can show without a localization system.
 */
import type { BinaryReader } from '../io/binary-reader.js';
import type { PropertyReader } from './reader.js';
import type { PropertyValue } from './types.js';
import { floatValue, float32Value, int64Value, ticksToIso } from './values.js';
import { UE4Version } from '../uasset/versions.js';
import {
  hasCultureInvariantText, hasFTextHistory, hasNumberFormattingAlwaysSign, hasTextDevNotes, hasTextFormatArgument64,
  isTextFormatArgumentText,
} from './versions.js';

/** ETextHistoryType. */
const HISTORY = [
  'Base', 'NamedFormat', 'OrderedFormat', 'ArgumentFormat', 'AsNumber', 'AsPercent', 'AsCurrency', 'AsDate', 'AsTime',
  'AsDateTime', 'Transform', 'StringTableEntry', 'TextGenerator',
] as const;
const DATE_TIME_STYLE = ['Default', 'Short', 'Medium', 'Long', 'Full'];
const TRANSFORM = ['ToLower', 'ToUpper'];
const ROUNDING = ['HalfToEven', 'HalfFromZero', 'HalfToZero', 'FromZero', 'ToZero', 'ToNegativeInfinity', 'ToPositiveInfinity'];

/** Texts nested in formats deeper than this are a loop in corrupt data. */
const MAX_TEXT_DEPTH = 16;

const enumName = (names: readonly string[], v: number): string => names[v] ?? String(v);

/** The string a text value shows. */
export function textDisplay(v: PropertyValue): string {
  if (typeof v === 'string') return v;
  if (v && typeof v === 'object' && !Array.isArray(v) && typeof v.text === 'string') return v.text;
  return '';
}

export function readText(pr: PropertyReader, r: BinaryReader, depth = 0): PropertyValue {
  if (depth > MAX_TEXT_DEPTH) throw r.error(`texts nested deeper than ${MAX_TEXT_DEPTH}`);
  const v = pr.ctx.versions;
  if (!hasFTextHistory(v)) {
    const source = r.fstring();
    if (v.ue4 >= UE4Version.ADDED_NAMESPACE_AND_KEY_DATA_TO_FTEXT) { r.fstring(); r.fstring(); }
    r.u32(); // flags
    return source;
  }
  r.u32(); // ETextFlag
  const historyAt = r.pos;
  const history = r.i8();
  if (history === -1) {
    // None: an empty or culture-invariant text.
    if (hasCultureInvariantText(v) && r.bool32()) return r.fstring();
    return '';
  }
  const kind = HISTORY[history];
  if (kind === undefined) throw r.error(`unknown text history ${history}`, historyAt);
  switch (kind) {
    case 'Base': {
      const namespace = r.fstring(), key = r.fstring(), source = r.fstring();
      if (hasTextDevNotes(v)) r.fstring();
      pr.ctx.textKeys?.push({ namespace, key, source });
      return source;
    }
    case 'NamedFormat': {
      const format = readText(pr, r, depth + 1);
      const n = r.count(5, 'format argument count');
      const args: Record<string, PropertyValue> = {};
      for (let i = 0; i < n; i++) {
        const name = r.fstring();
        args[name] = readArgumentValue(pr, r, false, depth);
      }
      return { history: kind, text: textDisplay(format), format, arguments: args };
    }
    case 'OrderedFormat': {
      const format = readText(pr, r, depth + 1);
      const n = r.count(5, 'format argument count');
      const args: PropertyValue[] = [];
      for (let i = 0; i < n; i++) args.push(readArgumentValue(pr, r, false, depth));
      return { history: kind, text: textDisplay(format), format, arguments: args };
    }
    case 'ArgumentFormat': {
      const format = readText(pr, r, depth + 1);
      const n = r.count(5, 'format argument count');
      const args: PropertyValue[] = [];
      for (let i = 0; i < n; i++) {
        const name = v.ue4 >= UE4Version.K2NODE_VAR_REFERENCEGUIDS ? r.fstring() : textDisplay(readText(pr, r, depth + 1));
        args.push({ name, value: readArgumentValue(pr, r, true, depth) });
      }
      return { history: kind, text: textDisplay(format), format, arguments: args };
    }
    case 'AsNumber':
    case 'AsPercent':
    case 'AsCurrency': {
      const out: Record<string, PropertyValue> = { history: kind };
      if (kind === 'AsCurrency' && v.ue4 >= UE4Version.ADDED_CURRENCY_CODE_TO_FTEXT) out.currencyCode = r.fstring();
      const value = readArgumentValue(pr, r, false, depth);
      out.text = typeof value === 'object' ? textDisplay(value) : String(value);
      out.value = value;
      if (r.bool32()) out.formatOptions = readNumberFormattingOptions(pr, r);
      out.targetCulture = r.fstring();
      return out;
    }
    case 'AsDate': {
      const date = ticksToIso(r.i64());
      const dateStyle = enumName(DATE_TIME_STYLE, r.i8());
      const timeZone = v.ue4 >= UE4Version.FTEXT_HISTORY_DATE_TIMEZONE ? r.fstring() : '';
      return { history: kind, text: date, dateTime: date, dateStyle, timeZone, targetCulture: r.fstring() };
    }
    case 'AsTime': {
      const date = ticksToIso(r.i64());
      const timeStyle = enumName(DATE_TIME_STYLE, r.i8());
      const timeZone = r.fstring();
      return { history: kind, text: date, dateTime: date, timeStyle, timeZone, targetCulture: r.fstring() };
    }
    case 'AsDateTime': {
      const date = ticksToIso(r.i64());
      const dateStyle = enumName(DATE_TIME_STYLE, r.i8());
      const timeStyle = enumName(DATE_TIME_STYLE, r.i8());
      const timeZone = r.fstring();
      return { history: kind, text: date, dateTime: date, dateStyle, timeStyle, timeZone, targetCulture: r.fstring() };
    }
    case 'Transform': {
      const source = readText(pr, r, depth + 1);
      const transform = enumName(TRANSFORM, r.u8());
      return { history: kind, text: textDisplay(source), source, transform };
    }
    case 'StringTableEntry': {
      const table = pr.name(r);
      const key = r.fstring();
      // The string lives in the string table asset; the key is what can be shown without it.
      return { history: kind, text: key, table, key };
    }
    case 'TextGenerator': {
      const generator = pr.name(r);
      let contentBytes = 0;
      if (generator !== 'None') {
        contentBytes = r.count(1, 'text generator content size');
        r.skip(contentBytes);
      }
      return { history: kind, text: '', generator, contentBytes };
    }
  }
}

/** EFormatArgumentType and its value. */
function readArgumentValue(pr: PropertyReader, r: BinaryReader, isArgumentData: boolean, depth: number): PropertyValue {
  const v = pr.ctx.versions;
  const at = r.pos;
  const type = isArgumentData && isTextFormatArgumentText(v) ? 4 : r.i8();
  switch (type) {
    case 0: return isArgumentData && !hasTextFormatArgument64(v) ? r.i32() : int64Value(r.i64());
    case 1: return int64Value(r.u64());
    case 2: return float32Value(r.f32());
    case 3: return floatValue(r.f64());
    case 4: return readText(pr, r, depth + 1);
    case 5: return { gender: r.u8() };
    default: throw r.error(`unknown format argument type ${type}`, at);
  }
}

function readNumberFormattingOptions(pr: PropertyReader, r: BinaryReader): PropertyValue {
  const alwaysSign = hasNumberFormattingAlwaysSign(pr.ctx.versions) ? r.bool32() : false;
  return {
    alwaysSign, useGrouping: r.bool32(), roundingMode: enumName(ROUNDING, r.i8()),
    minimumIntegralDigits: r.i32(), maximumIntegralDigits: r.i32(),
    minimumFractionalDigits: r.i32(), maximumFractionalDigits: r.i32(),
  };
}
