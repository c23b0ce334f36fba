import { readFile } from 'node:fs/promises';
import { decodeTransaction } from '../../src/core/decode/index.ts';
import type { DecodedTransaction, DecodedValue, ProgramName, SkippedItem } from '../../src/core/types.ts';

/**
 * `lpa decode FILE`: print the decode of one transaction file as JSON.
 * Accepts every input of `decodeTransaction` (getTransaction json/jsonParsed/base64 with or without the
 * JSON-RPC envelope, a blockSubscribe element, a logsNotification), also inside the wrappers other
 * projects' test data keeps them in ({@link unwrapFixture}).
 */

/**
 * The printed shape: field names exactly as in the IDL, u64/i128 decimal strings, addresses base58.
 * `skipped` is present only when something was skipped: an instruction or event of pump, PumpSwap or
 * Pump Fees the decoder cannot name appears there with `program`, `kind` and `discriminator`.
 * An event's `extraBytes` is present only when it is longer than the newest known layout.
 */
export interface DecodeOutput {
  signature: string;
  slot: number | null;
  blockTime: number | null;
  instructions: { program: ProgramName; name: string; inner: boolean; accounts: Record<string, string>; args: Record<string, DecodedValue> }[];
  events: { program: ProgramName; name: string; fields: Record<string, DecodedValue>; extraBytes?: number }[];
  skipped?: SkippedItem[];
}

/** Project a {@link DecodedTransaction} onto the `lpa decode` output shape ({@link DecodeOutput}). */
export function formatDecode(d: DecodedTransaction): DecodeOutput {
  const out: DecodeOutput = {
    signature: d.signature,
    slot: d.slot,
    blockTime: d.blockTime,
    instructions: d.instructions.map((i) => ({ program: i.program, name: i.name, inner: i.inner, accounts: i.accounts, args: i.args })),
    events: d.events.map((e) => (e.extraBytes ? { program: e.program, name: e.name, fields: e.fields, extraBytes: e.extraBytes } : { program: e.program, name: e.name, fields: e.fields })),
  };
  if (d.skipped.length > 0) out.skipped = d.skipped;
  return out;
}

/**
 * The transaction inside a file as other projects' test data stores it (tests/fixtures/mainnet
 * README): a one-element list `[result]` → result; a test case `{description, …, raw}` without a
 * `transaction` field → raw. Anything else is returned as it is (the decoder reads envelopes itself).
 */
export function unwrapFixture(json: unknown): unknown {
  let x = json;
  if (Array.isArray(x) && x.length === 1) x = x[0];
  if (typeof x === 'object' && x !== null && !Array.isArray(x) && 'raw' in x && !('transaction' in x)) x = (x as { raw: unknown }).raw;
  return x;
}

type Out = (text: string) => void;

/**
 * Read `file`, decode it and print the JSON (2-space indent) to stdout. On a bad file (unreadable, not
 * JSON, not a transaction) print one line `lpa decode: FILE: reason` to stderr and set `process.exitCode = 1`.
 */
export async function runDecode(
  file: string,
  out: Out = (t) => process.stdout.write(t),
  err: Out = (t) => process.stderr.write(t),
): Promise<void> {
  try {
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch (e) {
      throw new Error(`cannot read file (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
    }
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      throw new Error('not JSON');
    }
    out(JSON.stringify(formatDecode(decodeTransaction(unwrapFixture(json))), null, 2) + '\n');
  } catch (e) {
    err(`lpa decode: ${file}: ${(e as Error).message.replace(/\s+/g, ' ')}\n`);
    process.exitCode = 1;
  }
}
