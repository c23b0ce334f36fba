/**
 * Anchor events of pump / PumpSwap: decoding event bytes, self-CPI event instructions, and
 * `Program data:` log lines attributed by the invoke stack. Pure.
 * Source: IDL events/types (src/core/idl), reference.md §1.5 (layouts), §1.6 (how events appear).
 */
import type { DecodedValue, ProgramName, SkippedItem } from '../types.ts';
import { decodeFields, type DecodeStatus } from './borsh.ts';
import { fromBase64, startsWith, toBase64, toHex } from './bytes.ts';
import { EVENT_IX_TAG, PUMP, PUMP_AMM, registryFor, type ProgramRegistry } from './idl.ts';

/** A decoded event with the bytes it came from (for de-duplication). */
export interface EventDecode {
  program: ProgramName;
  name: string;
  fields: Record<string, DecodedValue>;
  /** how the field-by-field decode ended (`short` = an older layout, absent trailing fields) */
  status: Exclude<DecodeStatus, 'malformed'>;
  /** base64 of event discriminator ‖ borsh payload (as a `Program data:` line writes it; for de-duplication) */
  bytesBase64: string;
}

/**
 * Decode event bytes `disc(8) ‖ borsh` of `program` (`pump` | `pump_amm`), field by field.
 * Fields absent from older, shorter data are absent (TradeEvent decodes at 121/217/350/363 B, CreateEvent at 193/335/346 B).
 * @returns the event, or `{skipped: reason}` (short data, unknown discriminator, malformed payload). Never throws.
 */
export function decodeEventData(program: ProgramName, data: Uint8Array): EventDecode | { skipped: string } {
  const reg: ProgramRegistry = program === 'pump' ? PUMP : PUMP_AMM;
  if (data.length < 8) return { skipped: `${program} event data is ${data.length} bytes, shorter than the 8-byte discriminator` };
  const disc = toHex(data.subarray(0, 8));
  const def = reg.events.get(disc);
  if (!def) return { skipped: `unknown ${program} event discriminator ${disc}` };
  const d = decodeFields(def.fields, data, 8, reg.types);
  if (d.status === 'malformed') return { skipped: `malformed ${program} ${def.name}: ${d.error}` };
  return { program, name: def.name, fields: d.fields, status: d.status, bytesBase64: toBase64(data) };
}

/**
 * Decode an Anchor self-CPI event instruction (`e445a52e51cb9a1d ‖ event disc ‖ borsh`, reference.md §1.6).
 * @returns null when the program is not pump/PumpSwap or the data does not start with the event tag;
 *   otherwise the event or `{skipped: reason}`.
 */
export function decodeCpiEvent(programId: string, data: Uint8Array): EventDecode | { skipped: string } | null {
  const reg = registryFor(programId);
  if (!reg || !startsWith(data, EVENT_IX_TAG)) return null;
  return decodeEventData(reg.program, data.subarray(8));
}

/** An event found in a `Program data:` log line of pump/PumpSwap. */
export interface LogEvent extends EventDecode {
  /** top-level instruction index (count of `invoke [1]` lines so far), or null if unknown */
  outerIndex: number | null;
  /** index of the log line */
  line: number;
}

/** An instruction name seen as `Program log: Instruction: X` under pump/PumpSwap. */
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
  let end = 8;
  while (end < line.length && !isSpace(line.charCodeAt(end))) end++;
  if (end === 8 || line.charCodeAt(end) !== 32) return null; // \S+ then one space
  const program = line.slice(8, end);
  if (line.startsWith('invoke [', end + 1)) {
    let i = end + 9;
    while (i < line.length && line.charCodeAt(i) >= 48 && line.charCodeAt(i) <= 57) i++;
    if (i > end + 9 && line.charCodeAt(i) === 93) return { program, depth: Number(line.slice(end + 9, i)) };
  }
  if (line.startsWith('success', end + 1) || line.startsWith('failed', end + 1)) return { program };
  return null;
}

/** Whitespace as the regex class \s sees it in log lines (ASCII and the common Unicode spaces). */
function isSpace(c: number): boolean {
  return c === 32 || (c >= 9 && c <= 13) || c === 160 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x2028 || c === 0x2029 || c === 0x202f || c === 0x205f || c === 0x3000 || c === 0xfeff;
}

/** `CreateV2` → `create_v2`, `BuyExactSolIn` → `buy_exact_sol_in`. */
export function snakeCase(s: string): string {
  return s.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase();
}

/**
 * Walk `meta.logMessages` keeping the `Program X invoke [n]` / `Program X success|failed` stack, and
 * decode every `Program data: <base64>` line whose current program is pump or PumpSwap (other
 * programs — Mayhem, routers — emit their own data lines; those are ignored). Also collects the
 * `Program log: Instruction: X` names of pump/PumpSwap. Bad lines go to `skipped`; never throws.
 *
 * `known`: events already decoded from self-CPI instructions, counted by `program:bytesBase64`. A
 * data line carrying the same bytes of the same program is that event again (reference.md §1.6):
 * it is consumed from the count and not decoded a second time.
 */
export function scanLogs(logs: readonly unknown[], known?: Map<string, number>): LogScan {
  const out: LogScan = { events: [], instructions: [], skipped: [], truncated: false };
  const stack: string[] = [];
  let outer = -1;
  let innerCount = 0;
  for (let i = 0; i < logs.length; i++) {
    const line = logs[i];
    if (typeof line !== 'string') continue;
    if (line.startsWith('Log truncated')) {
      out.truncated = true;
      break;
    }
    const frame = programFrameLine(line);
    if (frame?.depth !== undefined) {
      const depth = frame.depth;
      if (depth === 1) {
        outer++;
        innerCount = 0;
      } else innerCount++;
      stack.length = Math.max(0, Math.min(stack.length, depth - 1));
      stack.push(frame.program);
      continue;
    }
    if (frame) {
      const at = stack.lastIndexOf(frame.program);
      if (at >= 0) stack.length = at;
      continue;
    }
    const top = stack.length > 0 ? stack[stack.length - 1] : null;
    const reg = top ? registryFor(top) : null;
    if (!reg) continue;
    if (line.startsWith('Program data: ')) {
      const where = `log ${i}`;
      if (known) {
        const key = `${reg.program}:${line.slice('Program data: '.length).trim()}`;
        const n = known.get(key);
        if (n !== undefined && n > 0) {
          known.set(key, n - 1);
          continue;
        }
      }
      let bytes: Uint8Array;
      try {
        const parts = line.slice('Program data: '.length).trim().split(/\s+/).map(fromBase64);
        bytes = parts.length === 1 ? parts[0] : Uint8Array.from(parts.flatMap((p) => [...p]));
      } catch {
        out.skipped.push({ where, reason: `${reg.program} Program data is not valid base64` });
        continue;
      }
      const ev = decodeEventData(reg.program, bytes);
      if ('skipped' in ev) out.skipped.push({ where, reason: ev.skipped });
      else out.events.push({ ...ev, outerIndex: outer >= 0 ? outer : null, line: i });
      continue;
    }
    if (line.startsWith('Program log: Instruction: ')) {
      const name = snakeCase(line.slice('Program log: Instruction: '.length).trim());
      if (reg.instructionNames.has(name)) {
        out.instructions.push({ program: reg.program, name, outerIndex: Math.max(outer, 0), innerIndex: stack.length > 1 ? innerCount - 1 : null });
      }
    }
  }
  return out;
}
