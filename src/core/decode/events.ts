/**
 * Anchor events of pump / PumpSwap / Pump Fees: decoding event bytes, self-CPI event instructions, and
 * `Program data:` log lines attributed by the invoke stack. Pure.
 * Source: IDL events/types (src/core/idl), reference.md §1.5 (layouts), §1.6 (how events appear).
 */
import type { DecodedValue, ProgramName, SkippedItem } from '../types.ts';
import { decodeFields, type DecodeStatus } from './borsh.ts';
import { fromBase64, startsWith, toBase64, toHex } from './bytes.ts';
import { EVENT_IX_TAG, registryFor, registryOf, type ProgramRegistry } from './idl.ts';

/** A decoded event with the bytes it came from (for de-duplication). */
export interface EventDecode {
  program: ProgramName;
  name: string;
  fields: Record<string, DecodedValue>;
  /**
   * how the field-by-field decode ended (`short` = an older layout, absent trailing fields;
   * `truncated` = the data ends inside a field: no known layout — the caller reports it in `skipped`)
   */
  status: Exclude<DecodeStatus, 'malformed'>;
  /** base64 of event discriminator ‖ borsh payload (as a `Program data:` line writes it; for de-duplication) */
  bytesBase64: string;
  /** the event discriminator, lowercase hex */
  discriminator: string;
  /** bytes after the newest known layout's last field (a longer, newer layout), else 0 */
  extraBytes: number;
}

/**
 * Decode event bytes `disc(8) ‖ borsh` of `program` (`pump` | `pump_amm` | `pump_fees`), field by field.
 * Fields absent from older, shorter data are absent (TradeEvent decodes at 121/217/350/363 B, CreateEvent at 193/335/346 B).
 * Data longer than the newest known layout decodes its known prefix; `extraBytes` counts the rest.
 * `base64`: the data's base64 when the caller already has it (else it is computed).
 * @returns the event, or `{skipped: reason}` (short data, unknown discriminator, malformed payload). Never throws.
 */
export function decodeEventData(program: ProgramName, data: Uint8Array, base64?: string): EventDecode | { skipped: string } {
  const reg: ProgramRegistry = registryOf(program);
  if (data.length < 8) return { skipped: `${program} event data is ${data.length} bytes, shorter than the 8-byte discriminator` };
  const disc = toHex(data.subarray(0, 8));
  const def = reg.events.get(disc);
  if (!def) return { skipped: `unknown ${program} event discriminator ${disc}` };
  const d = decodeFields(def.fields, data, 8, reg.types);
  if (d.status === 'malformed') return { skipped: `malformed ${program} ${def.name}: ${d.error}` };
  return { program, name: def.name, fields: d.fields, status: d.status, bytesBase64: base64 ?? toBase64(data), discriminator: def.discriminator, extraBytes: d.extraBytes };
}

/** The lowercase hex of the first 8 bytes of `data` (all of it when shorter): a discriminator for {@link SkippedItem}. */
export function discriminatorHex(data: Uint8Array): string {
  return toHex(data.length > 8 ? data.subarray(0, 8) : data);
}

/**
 * The drift-guard item for event bytes of `program` that did not decode (`reason` from
 * {@link decodeEventData}): program, kind `event` and the discriminator set.
 */
export function unrecognisedEvent(where: string, program: ProgramName, data: Uint8Array, reason: string): SkippedItem {
  return { where, reason, program, kind: 'event', discriminator: discriminatorHex(data) };
}

/** The drift-guard item for an event that ends inside a field (status `truncated`): its known fields are kept, but no known layout ends there. */
export function truncatedEvent(where: string, ev: EventDecode): SkippedItem {
  return {
    where,
    reason: `${ev.program} ${ev.name} ends inside field ${registryOf(ev.program).events.get(ev.discriminator)?.fields[Object.keys(ev.fields).length]?.name ?? '?'}: not a known layout (the fields before it are decoded)`,
    program: ev.program,
    kind: 'event',
    discriminator: ev.discriminator,
  };
}

/**
 * Decode an Anchor self-CPI event instruction (`e445a52e51cb9a1d ‖ event disc ‖ borsh`, reference.md §1.6).
 * @returns null when the program is not pump/PumpSwap/Pump Fees or the data does not start with the event tag;
 *   otherwise the event or `{skipped: reason}`.
 */
export function decodeCpiEvent(programId: string, data: Uint8Array): EventDecode | { skipped: string } | null {
  const reg = registryFor(programId);
  if (!reg || !startsWith(data, EVENT_IX_TAG)) return null;
  return decodeEventData(reg.program, data.subarray(8));
}

/** An event found in a `Program data:` log line of pump/PumpSwap/Pump Fees. */
export interface LogEvent extends EventDecode {
  /** top-level instruction index (count of `invoke [1]` lines so far), or null if unknown */
  outerIndex: number | null;
  /** index of the log line */
  line: number;
  /** the event's bytes (discriminator ‖ borsh), as decoded from the line */
  bytes: Uint8Array;
  /** the line held exactly `bytesBase64` (one canonical part), the form a self-CPI event is matched by */
  asWritten: boolean;
}

/** The prefix of a log line written by `sol_log_data` (Anchor's `emit!`). */
export const PROGRAM_DATA = 'Program data: ';

/** Whether a log line is the RPC's marker that the log cap was reached (reference.md §1.6). */
export function isTruncationMarker(line: unknown): boolean {
  return typeof line === 'string' && line.startsWith('Log truncated');
}

/**
 * The bytes of a `Program data:` payload (one or more base64 parts separated by spaces), and its
 * canonical base64. Strict: throws an `Error` on text that is not base64. A single canonical part
 * — what the runtime writes — is decoded and checked by re-encoding, without the strict regex.
 */
function programDataBytes(payload: string): { bytes: Uint8Array; base64: string } {
  const b = Buffer.from(payload, 'base64');
  const again = b.toString('base64');
  if (again === payload) return { bytes: new Uint8Array(b.buffer, b.byteOffset, b.length), base64: payload };
  const parts = payload.split(/\s+/).map(fromBase64);
  const bytes = parts.length === 1 ? parts[0]! : Uint8Array.from(parts.flatMap((p) => [...p]));
  return { bytes, base64: toBase64(bytes) };
}

/** An instruction name seen as `Program log: Instruction: X` under pump/PumpSwap/Pump Fees. */
export interface LogInstruction {
  program: ProgramName;
  /** snake_case IDL name */
  name: string;
  outerIndex: number;
  /** inner index within the top-level instruction (invocation order at depth ≥ 2), or null when top-level */
  innerIndex: number | null;
}

/** Result of {@link scanLogs}. */
export interface LogScan {
  events: LogEvent[];
  instructions: LogInstruction[];
  skipped: SkippedItem[];
  /**
   * `Program log: Instruction: X` lines of pump, PumpSwap or Pump Fees whose X is not an instruction
   * of the bundled IDLs (a new instruction after a redeploy): the logs name it, but not its bytes.
   * Not in `skipped`: a whole transaction's decoder sees the instruction itself; a logs form has
   * only this (decodeLogsNotification turns them into skipped items, so the drift guard sees them).
   */
  unknownInstructions: { program: ProgramName; name: string; line: number }[];
  /** a line starts with "Log truncated" (the RPC's marker when the log cap was reached) */
  truncated: boolean;
}

/**
 * A `Program X invoke [n]` line (with its depth) or a `Program X success|failed…` line, else null —
 * the regular expressions `^Program (\S+) invoke \[(\d+)\]` and `^Program (\S+) (success|failed)`
 * without a regex run on every log line (the collector reads millions of them).
 */
export function programFrameLine(line: string): { program: string; depth?: number } | null {
  if (!line.startsWith('Program ')) return null;
  // Find the first space, see whether a frame word follows, and only then check that the program id
  // has no other whitespace (\S+: one regex test of the id, which cost less than a loop over its
  // characters): "Program log: …", "Program data: …" and "… consumed …" lines leave at the first test.
  const end = line.indexOf(' ', 8);
  if (end <= 8) return null;
  let depth: number | undefined;
  if (line.startsWith('invoke [', end + 1)) {
    let i = end + 9;
    while (i < line.length && line.charCodeAt(i) >= 48 && line.charCodeAt(i) <= 57) i++;
    if (i === end + 9 || line.charCodeAt(i) !== 93) return null;
    depth = Number(line.slice(end + 9, i));
  } else if (!line.startsWith('success', end + 1) && !line.startsWith('failed', end + 1)) return null;
  const program = line.slice(8, end);
  if (WHITESPACE.test(program)) return null;
  return depth === undefined ? { program } : { program, depth };
}

/** Any character the regex class \s matches (the program id of a frame line has none). */
const WHITESPACE = /\s/;

/** Names already converted: the same few instruction names recur in every transaction's logs. */
const snakeMemo = new Map<string, string>();

/** `CreateV2` → `create_v2`, `BuyExactSolIn` → `buy_exact_sol_in`. */
export function snakeCase(s: string): string {
  let out = snakeMemo.get(s);
  if (out === undefined) {
    out = s.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase();
    if (snakeMemo.size < 1000) snakeMemo.set(s, out);
  }
  return out;
}

/**
 * Walk `meta.logMessages` keeping the `Program X invoke [n]` / `Program X success|failed` stack, and
 * decode every `Program data: <base64>` line whose current program is pump, PumpSwap or Pump Fees
 * (other programs — Mayhem, routers — emit their own data lines; those are ignored). Also collects the
 * `Program log: Instruction: X` names of those programs. Bad lines go to `skipped` (an unknown
 * discriminator, short or malformed event bytes, or an event ending inside a field with `program`,
 * `kind: 'event'` and `discriminator` set; text that is not base64 without them); never throws.
 *
 * `known`: events already decoded from self-CPI instructions, counted by `program:bytesBase64`. A
 * data line carrying the same bytes of the same program is that event again (reference.md §1.6):
 * it is consumed from the count and not decoded a second time.
 */
export function scanLogs(logs: readonly unknown[], known?: Map<string, number>): LogScan {
  const out: LogScan = { events: [], instructions: [], skipped: [], unknownInstructions: [], truncated: false };
  // the invoke stack: stack[0..depth) (entries past `depth` are stale; an array's length is not
  // changed on every line, which costs V8 a runtime call)
  const stack: string[] = [];
  let depth = 0;
  let outer = -1;
  let innerCount = 0;
  for (let i = 0; i < logs.length; i++) {
    const line = logs[i];
    if (typeof line !== 'string') continue;
    if (isTruncationMarker(line)) {
      out.truncated = true;
      break;
    }
    const frame = programFrameLine(line);
    if (frame?.depth !== undefined) {
      if (frame.depth === 1) {
        outer++;
        innerCount = 0;
      } else innerCount++;
      depth = Math.max(0, Math.min(depth, frame.depth - 1));
      stack[depth++] = frame.program;
      continue;
    }
    if (frame) {
      const at = depth > 0 ? stack.lastIndexOf(frame.program, depth - 1) : -1;
      if (at >= 0) depth = at;
      continue;
    }
    const top = depth > 0 ? stack[depth - 1]! : null;
    const reg = top ? registryFor(top) : null;
    if (!reg) continue;
    if (line.startsWith(PROGRAM_DATA)) {
      const where = `log ${i}`;
      const payload = line.slice(PROGRAM_DATA.length).trim();
      if (known) {
        const key = `${reg.program}:${payload}`;
        const n = known.get(key);
        if (n !== undefined && n > 0) {
          known.set(key, n - 1);
          continue;
        }
      }
      let data: { bytes: Uint8Array; base64: string };
      try {
        data = programDataBytes(payload);
      } catch {
        out.skipped.push({ where, reason: `${reg.program} Program data is not valid base64` });
        continue;
      }
      const ev = decodeEventData(reg.program, data.bytes, data.base64);
      if ('skipped' in ev) out.skipped.push(unrecognisedEvent(where, reg.program, data.bytes, ev.skipped));
      else {
        if (ev.status === 'truncated') out.skipped.push(truncatedEvent(where, ev));
        out.events.push({ ...ev, outerIndex: outer >= 0 ? outer : null, line: i, bytes: data.bytes, asWritten: data.base64 === payload });
      }
      continue;
    }
    if (line.startsWith('Program log: Instruction: ')) {
      const name = snakeCase(line.slice('Program log: Instruction: '.length).trim());
      // a known instruction that is not listed (Pump Fees' get_fees queries, CPI'd by every trade since
      // 2025-08) is neither listed nor unknown: it was reported "not in the IDL" on every modern trade
      if (reg.instructionNames.has(name)) {
        out.instructions.push({ program: reg.program, name, outerIndex: Math.max(outer, 0), innerIndex: depth > 1 ? innerCount - 1 : null });
      } else if (!reg.unlistedNames.has(name)) out.unknownInstructions.push({ program: reg.program, name, line: i });
    }
  }
  return out;
}
