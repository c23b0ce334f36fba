/**
 * IDL-driven borsh reader (Anchor 0.30 IDL type grammar). Pure.
 *
 * Layouts of pump/PumpSwap events, args and accounts only ever grow by appending fields
 * (reference.md §1.2), so structs are read **field by field**: when the data ends the fields decoded
 * so far are returned and the rest are ABSENT (not zero). Exact length is never required; trailing
 * bytes are reported, not rejected.
 *
 * Value mapping ({@link DecodedValue}): u8/u16/u32/i8/i16/i32/f32/f64 → number; u64/i64/u128/i128 →
 * decimal string (signed for i*); bool → boolean; pubkey → base58; string → string (u32 length + utf8;
 * invalid utf8 or a length over {@link MAX_PLAUSIBLE_LENGTH} is malformed); bytes → hex;
 * Option<T> → null | value; vec/array → array; defined struct → object (a tuple struct with one field,
 * e.g. `OptionBool(bool)`, → that field's value; more → array); enum → variant name (unit variant)
 * or `{Variant: fields}`.
 */
import type { DecodedValue } from '../types.ts';
import { toBase58Address, toHex } from './bytes.ts';

/** An IDL type expression (Anchor 0.30; `publicKey` of the legacy format is accepted too). */
export type IdlType =
  | string
  | { option: IdlType }
  | { coption: IdlType }
  | { vec: IdlType }
  | { array: [IdlType, number] }
  | { defined: { name: string } | string };

/** A named IDL field. */
export interface IdlField {
  name: string;
  type: IdlType;
}

/** An IDL type definition (`types[]` entry). */
export interface IdlTypeDef {
  name: string;
  type:
    | { kind: 'struct'; fields?: (IdlField | IdlType)[] }
    | { kind: 'enum'; variants: { name: string; fields?: (IdlField | IdlType)[] }[] }
    | { kind: 'type'; alias: IdlType };
}

/** Type definitions by name. */
export type TypeRegistry = ReadonlyMap<string, IdlTypeDef>;

/** The data ended inside a value. */
export class EndOfData extends Error {
  constructor(need: number, have: number) {
    super(`end of data: need ${need} bytes, ${have} left`);
  }
}

/** The bytes cannot be the declared type (bad bool/option tag, oversized length, invalid utf8, unknown type). */
export class MalformedData extends Error {}

/** Sequential little-endian reader over a byte array. */
export class Reader {
  readonly view: DataView;
  pos = 0;
  constructor(readonly buf: Uint8Array, start = 0) {
    this.view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
    this.pos = start;
  }
  get remaining(): number {
    return this.buf.length - this.pos;
  }
  need(n: number): void {
    if (this.remaining < n) throw new EndOfData(n, this.remaining);
  }
  bytes(n: number): Uint8Array {
    this.need(n);
    const out = this.buf.subarray(this.pos, this.pos + n);
    this.pos += n;
    return out;
  }
  u8(): number {
    this.need(1);
    return this.buf[this.pos++];
  }
  u32(): number {
    this.need(4);
    const v = this.view.getUint32(this.pos, true);
    this.pos += 4;
    return v;
  }
  u64(): bigint {
    this.need(8);
    const v = this.view.getBigUint64(this.pos, true);
    this.pos += 8;
    return v;
  }
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Largest plausible string/bytes/vec length. Anything that reaches the decoder is at most a log line or
 * an instruction (≤ 10 KiB); a declared length above this is garbage (malformed), while a plausible length
 * running past the end of the data is a truncation (the field is absent).
 */
export const MAX_PLAUSIBLE_LENGTH = 65_536;

function checkLength(kind: string, len: number, at: number, r: Reader, unit = 1): void {
  if (len > MAX_PLAUSIBLE_LENGTH) throw new MalformedData(`${kind} length ${len} at offset ${at} is oversized`);
  if (len * unit > r.remaining) throw new EndOfData(len * unit, r.remaining);
}

function definedName(d: { name: string } | string): string {
  return typeof d === 'string' ? d : d.name;
}

function fieldType(f: IdlField | IdlType): IdlType {
  return typeof f === 'object' && f !== null && 'name' in f && 'type' in f ? (f as IdlField).type : (f as IdlType);
}

function isNamed(f: IdlField | IdlType): f is IdlField {
  return typeof f === 'object' && f !== null && 'name' in f && 'type' in f;
}

function readUint128(r: Reader): bigint {
  const lo = r.u64();
  const hi = r.u64();
  return (hi << 64n) | lo;
}

/**
 * Decode one value of IDL type `t` from `r`. Throws {@link EndOfData} when the bytes run out and
 * {@link MalformedData} when the bytes cannot be that type.
 */
export function readValue(t: IdlType, r: Reader, types: TypeRegistry): DecodedValue {
  if (typeof t === 'string') {
    switch (t) {
      case 'u8':
        return r.u8();
      case 'i8': {
        r.need(1);
        return r.view.getInt8(r.pos++);
      }
      case 'u16': {
        r.need(2);
        const v = r.view.getUint16(r.pos, true);
        r.pos += 2;
        return v;
      }
      case 'i16': {
        r.need(2);
        const v = r.view.getInt16(r.pos, true);
        r.pos += 2;
        return v;
      }
      case 'u32':
        return r.u32();
      case 'i32': {
        r.need(4);
        const v = r.view.getInt32(r.pos, true);
        r.pos += 4;
        return v;
      }
      case 'f32': {
        r.need(4);
        const v = r.view.getFloat32(r.pos, true);
        r.pos += 4;
        return v;
      }
      case 'f64': {
        r.need(8);
        const v = r.view.getFloat64(r.pos, true);
        r.pos += 8;
        return v;
      }
      case 'u64':
        return r.u64().toString();
      case 'i64':
        return BigInt.asIntN(64, r.u64()).toString();
      case 'u128':
        return readUint128(r).toString();
      case 'i128':
        return BigInt.asIntN(128, readUint128(r)).toString();
      case 'bool': {
        const b = r.u8();
        if (b > 1) throw new MalformedData(`bool byte ${b} at offset ${r.pos - 1}`);
        return b === 1;
      }
      case 'pubkey':
      case 'publicKey':
        return toBase58Address(r.bytes(32));
      case 'string': {
        const at = r.pos;
        const len = r.u32();
        checkLength('string', len, at, r);
        try {
          return utf8.decode(r.bytes(len));
        } catch {
          throw new MalformedData(`string at offset ${at} is not valid utf-8`);
        }
      }
      case 'bytes': {
        const at = r.pos;
        const len = r.u32();
        checkLength('bytes', len, at, r);
        return toHex(r.bytes(len));
      }
      default:
        throw new MalformedData(`unsupported IDL type ${t}`);
    }
  }
  if ('option' in t) {
    const tag = r.u8();
    if (tag === 0) return null;
    if (tag !== 1) throw new MalformedData(`option tag ${tag} at offset ${r.pos - 1}`);
    return readValue(t.option, r, types);
  }
  if ('coption' in t) {
    const tag = r.u32();
    if (tag === 0) return null;
    if (tag !== 1) throw new MalformedData(`coption tag ${tag} at offset ${r.pos - 4}`);
    return readValue(t.coption, r, types);
  }
  if ('vec' in t) {
    const at = r.pos;
    const len = r.u32();
    checkLength('vec', len, at, r);
    const out: DecodedValue[] = [];
    for (let i = 0; i < len; i++) out.push(readValue(t.vec, r, types));
    return out;
  }
  if ('array' in t) {
    const [inner, n] = t.array;
    if (typeof n !== 'number') throw new MalformedData('generic array length is not supported');
    const out: DecodedValue[] = [];
    for (let i = 0; i < n; i++) out.push(readValue(inner, r, types));
    return out;
  }
  if ('defined' in t) {
    const name = definedName(t.defined);
    const def = types.get(name);
    if (!def) throw new MalformedData(`unknown defined type ${name}`);
    return readDefined(def, r, types);
  }
  throw new MalformedData(`unsupported IDL type ${JSON.stringify(t)}`);
}

function readFieldList(fields: (IdlField | IdlType)[], r: Reader, types: TypeRegistry): DecodedValue {
  if (fields.length > 0 && fields.every(isNamed)) {
    const obj: Record<string, DecodedValue> = {};
    for (const f of fields) obj[f.name] = readValue(f.type, r, types);
    return obj;
  }
  const arr = fields.map((f) => readValue(fieldType(f), r, types));
  return arr.length === 1 ? arr[0] : arr;
}

function readDefined(def: IdlTypeDef, r: Reader, types: TypeRegistry): DecodedValue {
  const ty = def.type;
  if (ty.kind === 'struct') return readFieldList(ty.fields ?? [], r, types);
  if (ty.kind === 'enum') {
    const at = r.pos;
    const idx = r.u8();
    const v = ty.variants[idx];
    if (!v) throw new MalformedData(`enum ${def.name} variant ${idx} at offset ${at} does not exist`);
    if (!v.fields || v.fields.length === 0) return v.name;
    return { [v.name]: readFieldList(v.fields, r, types) };
  }
  if (ty.kind === 'type') return readValue(ty.alias, r, types);
  throw new MalformedData(`unsupported type kind in ${def.name}`);
}

/**
 * How a field-by-field decode ended:
 * - `complete`: every field was decoded (extra trailing bytes, if any, are in `extraBytes`);
 * - `short`: the data ended exactly between two fields (an older, shorter layout) — the rest are absent;
 * - `truncated`: the data ended inside a field — that field and the rest are absent;
 * - `malformed`: a value could not be the declared type (`error` says why) — fields before it are kept.
 */
export type DecodeStatus = 'complete' | 'short' | 'truncated' | 'malformed';

/** Result of {@link decodeFields}. */
export interface FieldsDecode {
  fields: Record<string, DecodedValue>;
  status: DecodeStatus;
  /** bytes read (from `start`) */
  consumed: number;
  /** bytes left after the last IDL field (only when `complete`) */
  extraBytes: number;
  error?: string;
}

/**
 * Decode the named `fields` from `data` starting at byte `start`, field by field. Never throws.
 * @example decodeFields(tradeEventFields, bytes, 8, types) // {fields: {mint, sol_amount: "123", ...}, status: 'short', ...}
 */
export function decodeFields(fields: readonly IdlField[], data: Uint8Array, start: number, types: TypeRegistry): FieldsDecode {
  const r = new Reader(data, start);
  const values: DecodedValue[] = new Array<DecodedValue>(fields.length);
  for (let i = 0; i < fields.length; i++) {
    const f = fields[i]!;
    const at = r.pos;
    // An older, shorter layout ends exactly here (the common case for old events): no exception needed.
    if (at === data.length) return { fields: partialFields(fields, values, i), status: 'short', consumed: at - start, extraBytes: 0 };
    try {
      values[i] = readValue(f.type, r, types);
    } catch (e) {
      if (e instanceof EndOfData) {
        return { fields: partialFields(fields, values, i), status: at === data.length ? 'short' : 'truncated', consumed: at - start, extraBytes: 0 };
      }
      const msg = e instanceof Error ? e.message : String(e);
      return { fields: partialFields(fields, values, i), status: 'malformed', consumed: at - start, extraBytes: 0, error: `field ${f.name}: ${msg}` };
    }
  }
  return { fields: objectBuilder(fields)(values), status: 'complete', consumed: r.pos - start, extraBytes: r.remaining };
}

/** The first `n` fields as an object, in IDL order (the rest absent). */
function partialFields(fields: readonly IdlField[], values: readonly DecodedValue[], n: number): Record<string, DecodedValue> {
  const out: Record<string, DecodedValue> = {};
  for (let i = 0; i < n; i++) out[fields[i]!.name] = values[i]!;
  return out;
}

/** A field list's object builder, made once per list (the IDL's lists live as long as the process). */
const builders = new WeakMap<readonly IdlField[], (values: readonly DecodedValue[]) => Record<string, DecodedValue>>();

/**
 * `values → {name0: values[0], name1: values[1], …}` for a field list, as one object literal with
 * the IDL's names written in: V8 builds it from a fixed shape, where adding ~25 properties one by
 * one under varying names cost the event decoder about a third of its time. The names come from
 * the bundled IDLs; one that an object literal would treat specially (`__proto__`) gets the
 * property-by-property builder. The result is the same object either way (same keys, same order).
 */
function objectBuilder(fields: readonly IdlField[]): (values: readonly DecodedValue[]) => Record<string, DecodedValue> {
  let build = builders.get(fields);
  if (build === undefined) {
    build = fields.some((f) => f.name === '__proto__')
      ? (values) => partialFields(fields, values, fields.length)
      : // eslint-disable-next-line @typescript-eslint/no-implied-eval
        (new Function('v', `return {${fields.map((f, i) => `${JSON.stringify(f.name)}: v[${i}]`).join(', ')}};`) as (values: readonly DecodedValue[]) => Record<string, DecodedValue>);
    builders.set(fields, build);
  }
  return build;
}

/** Build a {@link TypeRegistry} from an IDL `types` array. */
export function typeRegistry(defs: readonly IdlTypeDef[]): Map<string, IdlTypeDef> {
  return new Map(defs.map((d) => [d.name, d]));
}
