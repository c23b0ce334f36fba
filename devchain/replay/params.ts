/**
 * Parameter parsing for the replay RPC: zod schemas whose error messages follow serde's wording
 * as mainnet prints it (`Invalid params: invalid type: integer \`5\`, expected a string.`), and
 * mainnet's pubkey/signature checks (`Invalid param: Invalid` / `WrongSize`).
 */
import { z } from 'zod';
import { getBase58Encoder } from '@solana/kit';
import { commitmentTooLow, invalidParam, invalidParams, RpcError } from './errors.ts';

/** serde's description of a JSON value in "invalid type" errors. */
export function describeValue(v: unknown): string {
  if (v === null || v === undefined) return 'null';
  if (typeof v === 'string') return `string ${JSON.stringify(v)}`;
  if (typeof v === 'boolean') return `boolean \`${v}\``;
  if (typeof v === 'number') return Number.isInteger(v) ? `integer \`${v}\`` : `floating point \`${v}\``;
  if (Array.isArray(v)) return 'sequence';
  return 'map';
}

const mismatch = (expected: string) => (iss: { input?: unknown }) => `invalid type: ${describeValue(iss.input)}, expected ${expected}`;

/** A string parameter. */
export const str = () => z.string({ error: mismatch('a string') });
/** A u64 parameter (JSON integer ≥ 0). */
export const u64 = () =>
  z.number({ error: mismatch('u64') }).refine((n) => Number.isInteger(n) && n >= 0, { error: (iss) => `invalid value: ${describeValue(iss.input)}, expected u64` });
/** A usize parameter. */
export const usize = () =>
  z.number({ error: mismatch('usize') }).refine((n) => Number.isInteger(n) && n >= 0, { error: (iss) => `invalid value: ${describeValue(iss.input)}, expected usize` });
/** A string enum ("unknown variant" errors). */
export const variant = <const T extends readonly [string, ...string[]]>(values: T) =>
  z.enum(values, { error: (iss) => (typeof iss.input === 'string' ? `unknown variant \`${iss.input}\`, expected one of ${values.map((v) => `\`${v}\``).join(', ')}` : mismatch('a string')(iss)) });
/** commitment config value. */
export const commitment = () => variant(['processed', 'confirmed', 'finalized'] as const);
/** A config object (null/undefined allowed: default config). */
export const config = <S extends z.core.$ZodLooseShape>(shape: S, name: string) => z.looseObject(shape, { error: mismatch(`struct ${name}`) }).nullish();

/**
 * Parse positional `params` with `schemas` (one per position; `required` = how many must be
 * present). Errors: RpcError -32602 with mainnet wording.
 */
export function parseParams(params: unknown[], required: number, schemas: z.ZodType[]): unknown[] {
  if (params.length < required) throw new RpcError(-32602, `\`params\` should have at least ${required} argument(s)`);
  if (params.length > schemas.length) throw invalidParams(`invalid length ${params.length}, expected at most ${schemas.length} elements in sequence`);
  return schemas.map((s, i) => {
    const r = s.safeParse(params[i]);
    if (!r.success) throw invalidParams(r.error.issues[0]?.message ?? 'invalid value');
    return r.data;
  });
}

/** Mainnet's pubkey check. Errors: RpcError -32602 `Invalid param: Invalid|WrongSize`. */
export function checkPubkey(s: string): string {
  checkBase58(s, 32, 44);
  return s;
}

/** Mainnet's signature check. Errors: RpcError -32602 `Invalid param: Invalid|WrongSize`. */
export function checkSignature(s: string): string {
  checkBase58(s, 64, 88);
  return s;
}

/** Strings already found valid, by expected size: the same signatures and addresses are asked again and again. */
const checked = new Map<number, Set<string>>();
const CHECKED_MAX = 100_000;

function checkBase58(s: string, bytes: number, maxLen: number): void {
  if (checked.get(bytes)?.has(s)) return;
  if (s.length > maxLen) throw invalidParam('WrongSize');
  let decoded: Uint8Array;
  try {
    decoded = getBase58Encoder().encode(s) as Uint8Array;
  } catch {
    throw invalidParam('Invalid');
  }
  if (decoded.length !== bytes) throw invalidParam('WrongSize');
  let valid = checked.get(bytes);
  if (!valid || valid.size >= CHECKED_MAX) checked.set(bytes, (valid = new Set()));
  valid.add(s);
}

/** Archival methods refuse commitment `processed` as mainnet does. */
export function atLeastConfirmed(c: string | undefined): void {
  if (c === 'processed') throw commitmentTooLow();
}
