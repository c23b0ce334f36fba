/**
 * IDL-driven borsh encoder (Anchor 0.30 IDLs, with the legacy `publicKey` / `defined: "Name"`
 * spellings too): instruction data (discriminator ‖ args), events (discriminator ‖ a prefix of the
 * fields, for older eras' shorter layouts), accounts, and the Anchor self-CPI event wrapper.
 * Values: u64/i64/u128/i128 as bigint (numbers and decimal strings accepted), pubkeys as base58,
 * Option → null | value, tuple structs → arrays (or a bare value for one-field tuples). Pure.
 */
import pumpIdlJson from '../../src/core/idl/legacy/pump_2026-09_sdk-2.0.0.json' with { type: 'json' };
import ammIdlJson from '../../src/core/idl/legacy/pump_amm_2026-09_sdk-2.0.0.json' with { type: 'json' };
import pump2610Json from '../../src/core/idl/pump.json' with { type: 'json' };
import amm2610Json from '../../src/core/idl/pump_amm.json' with { type: 'json' };
import { fromBase58 } from './keys.ts';

/** Minimal view of an Anchor IDL. */
export interface Idl {
  instructions: { name: string; discriminator?: number[]; args: { name: string; type: IdlType }[]; accounts: { name: string }[] }[];
  events?: { name: string; discriminator?: number[] }[];
  accounts?: { name: string; discriminator?: number[] }[];
  types?: { name: string; type: { kind: string; fields?: (IdlField | IdlType)[]; variants?: { name: string; fields?: unknown[] }[] } }[];
}
export type IdlType = string | { defined: string | { name: string } } | { vec: IdlType } | { option: IdlType } | { array: [IdlType, number] };
interface IdlField {
  name: string;
  type: IdlType;
}
/** A value to encode. */
export type Value = bigint | number | string | boolean | null | Uint8Array | Value[] | { [k: string]: Value };

/** The 2026-09 SDK pump IDL (src/core/idl/legacy/pump_2026-09_sdk-2.0.0.json): the pre-redeploy eras are encoded with it. */
export const PUMP_IDL = pumpIdlJson as unknown as Idl;
/** The 2026-09 SDK PumpSwap IDL (src/core/idl/legacy/pump_amm_2026-09_sdk-2.0.0.json). */
export const AMM_IDL = ammIdlJson as unknown as Idl;

/** The 2026-10 pump IDL (src/core/idl/pump.json): the era after the 2026-10-08 redeploy is encoded with it. */
export const PUMP_IDL_2610 = pump2610Json as unknown as Idl;
/** The 2026-10 PumpSwap IDL (src/core/idl/pump_amm.json). */
export const AMM_IDL_2610 = amm2610Json as unknown as Idl;

/** Anchor's EVENT_IX_TAG (sha256("anchor:event")[:8]) as it appears in self-CPI data. */
export const EVENT_IX_TAG = Uint8Array.from([0xe4, 0x45, 0xa5, 0x2e, 0x51, 0xcb, 0x9a, 0x1d]);

/** Growable little-endian byte writer. */
export class BorshWriter {
  private buf = new Uint8Array(256);
  private len = 0;

  private ensure(n: number): void {
    if (this.len + n <= this.buf.length) return;
    const next = new Uint8Array(Math.max(this.buf.length * 2, this.len + n));
    next.set(this.buf.subarray(0, this.len));
    this.buf = next;
  }
  bytes(b: Uint8Array): void {
    this.ensure(b.length);
    this.buf.set(b, this.len);
    this.len += b.length;
  }
  uint(v: bigint, size: number): void {
    this.ensure(size);
    let x = BigInt.asUintN(size * 8, v);
    for (let i = 0; i < size; i++) {
      this.buf[this.len++] = Number(x & 0xffn);
      x >>= 8n;
    }
  }
  /** The bytes written so far. */
  finish(): Uint8Array {
    return this.buf.slice(0, this.len);
  }
}

const INT_SIZES: Record<string, number> = { u8: 1, i8: 1, u16: 2, i16: 2, u32: 4, i32: 4, u64: 8, i64: 8, u128: 16, i128: 16 };

function toBig(v: Value, what: string): bigint {
  if (typeof v === 'bigint') return v;
  if (typeof v === 'number') return BigInt(v);
  if (typeof v === 'string') return BigInt(v);
  if (typeof v === 'boolean') return v ? 1n : 0n;
  throw new Error(`expected an integer for ${what}`);
}

function definedName(t: { defined: string | { name: string } }): string {
  return typeof t.defined === 'string' ? t.defined : t.defined.name;
}

/** Encode one value of an IDL type into the writer. Errors: throws on a missing/mistyped value. */
export function encodeValue(idl: Idl, type: IdlType, value: Value, w: BorshWriter, what = 'value'): void {
  if (typeof type === 'string') {
    if (type in INT_SIZES) return w.uint(toBig(value, what), INT_SIZES[type]);
    switch (type) {
      case 'bool':
        return w.uint(value ? 1n : 0n, 1);
      case 'pubkey':
      case 'publicKey': {
        const b = value instanceof Uint8Array ? value : fromBase58(String(value));
        if (b.length !== 32) throw new Error(`bad pubkey for ${what}`);
        return w.bytes(b);
      }
      case 'string': {
        const b = new TextEncoder().encode(String(value));
        w.uint(BigInt(b.length), 4);
        return w.bytes(b);
      }
      case 'bytes': {
        const b = value as Uint8Array;
        w.uint(BigInt(b.length), 4);
        return w.bytes(b);
      }
      default:
        throw new Error(`unsupported type ${type}`);
    }
  }
  if ('vec' in type) {
    const xs = (value ?? []) as Value[];
    w.uint(BigInt(xs.length), 4);
    xs.forEach((x, i) => encodeValue(idl, type.vec, x, w, `${what}[${i}]`));
    return;
  }
  if ('option' in type) {
    if (value === null || value === undefined) return w.uint(0n, 1);
    w.uint(1n, 1);
    return encodeValue(idl, type.option, value, w, what);
  }
  if ('array' in type) {
    const [inner, n] = type.array;
    if (inner === 'u8' && value instanceof Uint8Array) return w.bytes(value);
    const xs = value as Value[];
    for (let i = 0; i < n; i++) encodeValue(idl, inner, xs[i], w, `${what}[${i}]`);
    return;
  }
  if ('defined' in type) {
    const name = definedName(type);
    const def = idl.types?.find((t) => t.name === name);
    if (!def) throw new Error(`unknown type ${name}`);
    if (def.type.kind === 'struct') return encodeFields(idl, def.type.fields ?? [], value, w, def.type.fields?.length ?? 0, name);
    if (def.type.kind === 'enum') {
      const variants = def.type.variants ?? [];
      const idx = typeof value === 'number' ? value : variants.findIndex((v) => v.name === value);
      if (idx < 0) throw new Error(`unknown variant ${String(value)} of ${name}`);
      return w.uint(BigInt(idx), 1);
    }
  }
  throw new Error(`unsupported type for ${what}`);
}

function encodeFields(idl: Idl, fields: (IdlField | IdlType)[], value: Value, w: BorshWriter, count: number, what: string): void {
  const named = fields.length > 0 && typeof fields[0] === 'object' && fields[0] !== null && 'name' in (fields[0] as object);
  if (named) {
    const obj = value as Record<string, Value>;
    for (const f of (fields as IdlField[]).slice(0, count)) {
      if (!(f.name in obj)) throw new Error(`missing field ${what}.${f.name}`);
      encodeValue(idl, f.type, obj[f.name], w, `${what}.${f.name}`);
    }
    return;
  }
  const xs = fields.length === 1 && !Array.isArray(value) ? [value] : (value as Value[]);
  (fields as IdlType[]).slice(0, count).forEach((t, i) => encodeValue(idl, t, xs[i], w, `${what}.${i}`));
}

/** The 8-byte discriminator of an instruction, event or account of the IDL. */
export function discriminator(idl: Idl, kind: 'instruction' | 'event' | 'account', name: string): Uint8Array {
  const list = kind === 'instruction' ? idl.instructions : kind === 'event' ? idl.events : idl.accounts;
  const d = list?.find((x) => x.name === name)?.discriminator;
  if (!d) throw new Error(`no discriminator for ${kind} ${name}`);
  return Uint8Array.from(d);
}

/**
 * Instruction data: discriminator ‖ borsh(args). `argCount` encodes only the first n args (older
 * layouts, e.g. the 2024 `create` without `creator`, or a `buy` without `track_volume`).
 */
export function encodeInstruction(idl: Idl, name: string, args: Record<string, Value>, argCount?: number): Uint8Array {
  const ix = idl.instructions.find((i) => i.name === name);
  if (!ix) throw new Error(`unknown instruction ${name}`);
  const w = new BorshWriter();
  w.bytes(discriminator(idl, 'instruction', name));
  for (const a of ix.args.slice(0, argCount ?? ix.args.length)) {
    if (!(a.name in args)) throw new Error(`missing arg ${name}.${a.name}`);
    encodeValue(idl, a.type, args[a.name], w, `${name}.${a.name}`);
  }
  return w.finish();
}

/** Number of fields of an IDL struct type (events and accounts are typed by their own name). */
export function fieldCount(idl: Idl, typeName: string): number {
  return idl.types?.find((t) => t.name === typeName)?.type.fields?.length ?? 0;
}

/**
 * Event bytes: discriminator ‖ borsh(first `count` fields) — the `Program data:` payload.
 * Older eras emit a prefix of today's fields (reference.md §1.2).
 */
export function encodeEvent(idl: Idl, name: string, fields: Record<string, Value>, count?: number): Uint8Array {
  const def = idl.types?.find((t) => t.name === name);
  if (!def) throw new Error(`unknown event type ${name}`);
  const w = new BorshWriter();
  w.bytes(discriminator(idl, 'event', name));
  encodeFields(idl, def.type.fields ?? [], fields, w, count ?? def.type.fields?.length ?? 0, name);
  return w.finish();
}

/** Account data: discriminator ‖ borsh(first `count` fields), zero-padded to `size` when given. */
export function encodeAccount(idl: Idl, name: string, fields: Record<string, Value>, count?: number, size?: number): Uint8Array {
  const def = idl.types?.find((t) => t.name === name);
  if (!def) throw new Error(`unknown account type ${name}`);
  const w = new BorshWriter();
  w.bytes(discriminator(idl, 'account', name));
  encodeFields(idl, def.type.fields ?? [], fields, w, count ?? def.type.fields?.length ?? 0, name);
  const out = w.finish();
  if (size === undefined || size <= out.length) return out;
  const padded = new Uint8Array(size);
  padded.set(out);
  return padded;
}

/** Self-CPI instruction data for an event: EVENT_IX_TAG ‖ event bytes. */
export function eventCpiData(eventBytes: Uint8Array): Uint8Array {
  const out = new Uint8Array(8 + eventBytes.length);
  out.set(EVENT_IX_TAG);
  out.set(eventBytes, 8);
  return out;
}
