/**
 * Decode a `logsNotification` (logsSubscribe) into a {@link DecodedTransaction}: events come only
 * from `Program data:` log lines attributed to pump/PumpSwap/Pump Fees by the invoke stack (reference.md §1.6);
 * instruction names from `Program log: Instruction: X` lines (no accounts, no args). Pure.
 */
import type { DecodedTransaction } from '../types.ts';
import { scanLogs } from './events.ts';

type Obj = Record<string, unknown>;

function isObj(x: unknown): x is Obj {
  return typeof x === 'object' && x !== null && !Array.isArray(x);
}

/** The `{context?, value}` part of a logsNotification, from any of its three accepted shapes, or null. */
function notificationParts(input: unknown): { slot: number | null; value: Obj } | null {
  if (!isObj(input)) return null;
  let node: Obj = input;
  if (isObj(node.params) && isObj(node.params.result)) node = node.params.result;
  if (isObj(node.value) && Array.isArray(node.value.logs)) {
    const ctx = isObj(node.context) ? node.context : null;
    return { slot: ctx && typeof ctx.slot === 'number' ? ctx.slot : null, value: node.value };
  }
  if (Array.isArray(node.logs) && typeof node.signature === 'string') return { slot: null, value: node };
  return null;
}

/** Whether `input` looks like a logsNotification (`{params:{result:{context,value}}}`, `{context,value}` or `value`). */
export function isLogsNotification(input: unknown): boolean {
  return notificationParts(input) !== null;
}

/**
 * Decode a logsNotification. Shapes: `{params:{result:{context:{slot}, value:{signature, err, logs}}}}`,
 * `{context, value}`, or just `value`.
 * Output: `fromLogsOnly: true`, `accountKeys: []`, `signers: []`, `blockTime: null`, `slot` from the
 * context (null without one); `instructions` named from `Program log: Instruction: X` lines with empty
 * `accounts`/`args`; events with `source: 'log'`; `jitoTipLamports: null` (logs show no transfers);
 * `skipped` holds every `Program data:` line of pump/PumpSwap/Pump Fees that did not decode, with
 * `program`, `kind: 'event'` and `discriminator` set (see {@link scanLogs}). Throws an `Error` when the input is none of the shapes.
 */
export function decodeLogsNotification(input: unknown): DecodedTransaction {
  const parts = notificationParts(input);
  if (!parts) throw new Error('not a logsNotification: expected {params:{result:{context,value}}}, {context,value} or {signature, err, logs}');
  const { slot, value } = parts;
  const scan = scanLogs(value.logs as unknown[]);
  return {
    signature: typeof value.signature === 'string' ? value.signature : '',
    slot,
    blockTime: null,
    err: value.err === undefined ? null : value.err,
    accountKeys: [],
    signers: [],
    instructions: scan.instructions.map((i) => ({
      program: i.program,
      name: i.name,
      inner: i.innerIndex !== null,
      path: i.innerIndex === null ? String(i.outerIndex) : `${i.outerIndex}.${i.innerIndex}`,
      accounts: {},
      args: {},
    })),
    events: scan.events.map((e) =>
      e.extraBytes > 0
        ? { program: e.program, name: e.name, fields: e.fields, outerIndex: e.outerIndex, source: 'log' as const, extraBytes: e.extraBytes }
        : { program: e.program, name: e.name, fields: e.fields, outerIndex: e.outerIndex, source: 'log' as const },
    ),
    preTokenBalances: [],
    postTokenBalances: [],
    logsTruncated: scan.truncated,
    fromLogsOnly: true,
    // an instruction the logs name but the IDLs do not know is program data the archive cannot read:
    // such a transaction is never taken from its logs (from-logs.ts plainCurveTrade), and is read
    // whole, where the drift guard sees the instruction itself
    skipped: scan.unknownInstructions.length === 0 ? scan.skipped : [
      ...scan.skipped,
      ...scan.unknownInstructions.map((u) => ({ where: `log ${u.line}`, reason: `${u.program} instruction ${u.name} (named by its log line) is not in the IDL`, program: u.program, kind: 'instruction' as const })),
    ],
    jitoTipLamports: null,
  };
}
