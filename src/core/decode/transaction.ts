/**
 * Transaction input normalisation and decoding: a getTransaction result (`json`, `jsonParsed` or
 * `base64` encoding; with or without the JSON-RPC envelope; legacy, v0 or v1) or a blockSubscribe element
 * → {@link DecodedTransaction}. Pure. Sources: reference.md §1.4 (instructions at any depth), §1.6
 * (events: self-CPI first, logs as fallback, de-duplicated; key list = static ++ loaded writable ++ readonly).
 *
 * Fast path: when the logs are complete, a one-account pump/PumpSwap/Pump Fees inner instruction (a self-CPI
 * event) is not base58-decoded; the `Program data:` line that repeats it, attributed by the invoke
 * stack, is decoded instead, once {@link base58Matches} confirms the CPI carries its bytes. Any
 * doubt (logs truncated, a count, order or byte mismatch, a log line that did not decode) decodes the
 * whole transaction the exact way, so the output is what decoding every CPI gives (unless a wrong line passed the check by the
 * chance base58-match.ts states, about 1 in 4.5 × 10¹⁵).
 */
import { JITO_TIP_ACCOUNT_SET, SYSTEM_PROGRAM_ID } from '../programs.ts';
import type { DecodedEvent, DecodedInstruction, DecodedTransaction, SkippedItem, TokenBalance } from '../types.ts';
import { base58Matches } from './base58-match.ts';
import { fromBase58, fromBase64, startsWith, toBase64 } from './bytes.ts';
import { decodeCpiEvent, discriminatorHex, isTruncationMarker, scanLogs, truncatedEvent, unrecognisedEvent, type EventDecode, type LogEvent } from './events.ts';
import { EVENT_IX_TAG, registryFor } from './idl.ts';
import { decodeInstruction } from './instruction.ts';
import { decodeLogsNotification, isLogsNotification } from './logs-notification.ts';
import { parsedSystemTransferOf, transferDestinationIndex, u64le } from './system.ts';
import { decodeWireTransaction, type WireTransaction } from './wire.ts';

type Obj = Record<string, unknown>;

function isObj(x: unknown): x is Obj {
  return typeof x === 'object' && x !== null && !Array.isArray(x);
}

/** A CPI event with its position, before merging with log events. */
interface CpiEvent {
  ev: EventDecode;
  outerIndex: number | null;
}

/** A self-CPI event candidate whose base58 data is left undecoded until it is paired with a log line. */
interface DeferredCpi {
  program: DecodedEvent['program'];
  data: string;
  outerIndex: number;
}

/** Everything a transaction yields before assembly. */
interface Collected {
  instructions: DecodedInstruction[];
  cpiEvents: CpiEvent[];
  skipped: SkippedItem[];
  /** the fast path's self-CPI event candidates; null when every CPI is decoded as it comes */
  deferred: DeferredCpi[] | null;
  /** `program:base64` of self-CPI events that did not decode (in `skipped`): the log lines repeating them are not reported again; null until one */
  skippedCpi: string[] | null;
  /** lamports sent to Jito tip accounts by System transfers so far */
  tip: bigint;
}

/**
 * Unwrap a JSON-RPC envelope (`{jsonrpc, result, id}`) if present. Throws a clear `Error` for a null
 * result or an RPC error object.
 */
export function unwrapEnvelope(input: unknown): unknown {
  if (input === null || input === undefined) throw new Error('transaction not found (null result)');
  if (isObj(input) && ('jsonrpc' in input || ('id' in input && ('result' in input || 'error' in input)))) {
    if (isObj(input.error)) {
      const e = input.error;
      throw new Error(`RPC error${typeof e.code === 'number' ? ` ${e.code}` : ''}: ${typeof e.message === 'string' ? e.message : JSON.stringify(e)}`);
    }
    if (input.result === null || input.result === undefined) throw new Error('transaction not found (null result)');
    return input.result;
  }
  return input;
}

/**
 * Decode a transaction in any supported input shape.
 *
 * Accepted: getTransaction result in `json` / `jsonParsed` / `base64` (or `base58`) encoding, with or
 * without the JSON-RPC envelope, legacy, v0 or v1 (ALT keys from `meta.loadedAddresses`; v1 has none); a blockSubscribe
 * element (`transaction: [<base64>, "base64"]`, meta in json form; slot/blockTime → null). A
 * logsNotification is passed on to {@link decodeLogsNotification}.
 *
 * Output ({@link DecodedTransaction}): pump, PumpSwap and Pump Fees instructions at any depth (`path`
 * "3" or "3.1"; Pump Fees' fee queries are known but not listed, idl.ts FEE_QUERIES), events from
 * self-CPI inner instructions with `Program data:` logs as fallback (a log event whose bytes equal an
 * unmatched CPI event is the same event), token balances with raw amounts, `err` = meta.err,
 * `jitoTipLamports` (System transfers to the Jito tip accounts, top level and inner). Transaction
 * version: json/jsonParsed are read the same for legacy, 0 and 1 (the message fields the decoder
 * reads did not change; `transactionConfig` is ignored); the wire form is wire.ts's.
 * Program data the IDLs do not describe (unknown discriminators, undecodable events or args) goes to
 * `skipped` with `program`, `kind` and `discriminator` set (see {@link SkippedItem}, `unrecognisedOf`).
 *
 * `opts.pairLogEvents` (default true) allows the fast path of the module header; false decodes
 * every CPI (the tests compare the two). The output is the same either way (see the module header).
 *
 * Errors: bad data inside a recognisable transaction never throws — it goes to `skipped` as
 * `{where, reason}`. Throws an `Error` only when the input is not a transaction at all
 * (null → "transaction not found (null result)", an RPC error, or an object without `transaction`).
 */
/**
 * Why a transaction answer cannot show what the transaction did, or null when it can: its `meta`
 * is missing (no inner instructions, logs, balances or error), or holds neither `logMessages` nor
 * `innerInstructions` — the events and inner calls of a trade a router made through pump are there
 * alone, so such an answer is no evidence that the transaction did nothing to a launch (a robustness
 * review: a bundled buy answered without meta vanished, and its launch turned clean). Nor is an
 * answer of a transaction that succeeded whose logs are cut short (a `Log truncated` line) or
 * absent while its inner instructions are absent or empty: the events past the cut were in the
 * inner instructions alone (an Anchor self-CPI, reference.md §1.6), and a transaction that touched
 * pump always made inner calls (a facts audit: fixture 3S2vFs, five bundled buys with truncated
 * logs, answered without inner instructions, decoded four trade events and no warning, and the
 * fifth buyer vanished). Readers treat it as a failed read (collector/read/unreadable.ts, the
 * rebuild). Null also for what is not a transaction at all ({@link decodeTransaction} says why)
 * and for a logs notification. Pure.
 * @example incompleteAnswer({ slot: 1, transaction: {…}, meta: null }) // 'the answer has no meta (…)'
 */
export function incompleteAnswer(input: unknown): string | null {
  if (isLogsNotification(input)) return null;
  const r = unwrapEnvelope(input);
  if (!isObj(r) || !('transaction' in r)) return null;
  const meta = r.meta;
  if (!isObj(meta)) return 'the answer has no meta (no inner instructions, logs, balances or error)';
  const logs = meta.logMessages;
  const inner = meta.innerInstructions;
  if (!Array.isArray(logs) && !Array.isArray(inner)) return 'the answer\'s meta has neither logMessages nor innerInstructions';
  const noInner = !Array.isArray(inner) || inner.length === 0;
  const succeeded = meta.err === null || meta.err === undefined;
  if (succeeded && noInner && Array.isArray(logs) && logs.some(isTruncationMarker)) return 'the answer\'s logs are truncated and it carries no inner instructions: the events past the cut are missing';
  if (succeeded && noInner && !Array.isArray(logs)) return 'the answer carries no logMessages and no inner instructions for a transaction that succeeded';
  return null;
}

export function decodeTransaction(input: unknown, opts: { pairLogEvents?: boolean } = {}): DecodedTransaction {
  if (isLogsNotification(input)) return decodeLogsNotification(input);
  const r = unwrapEnvelope(input);
  if (!isObj(r)) throw new Error(`not a transaction: expected an object, got ${Array.isArray(r) ? 'an array' : typeof r}`);
  if (!('transaction' in r)) throw new Error('not a transaction: no "transaction" field (expected a getTransaction result or a blockSubscribe element)');
  const meta = isObj(r.meta) ? r.meta : null;
  const logs = meta && Array.isArray(meta.logMessages) ? meta.logMessages : [];
  const complete = logs.length > 0 && !logs.some(isTruncationMarker);
  return ((opts.pairLogEvents ?? true) && complete ? decodeOnce(r, meta, logs, true) : null) ?? (decodeOnce(r, meta, logs, false) as DecodedTransaction);
}

/**
 * One decoding pass. `defer`: leave one-account pump/PumpSwap/Pump Fees inner instructions undecoded and take
 * their events from the log lines that repeat them; returns null when that pairing fails (the caller
 * then decodes again with `defer` false, which never returns null).
 */
function decodeOnce(r: Obj, meta: Obj | null, logs: unknown[], defer: boolean): DecodedTransaction | null {
  const skipped: SkippedItem[] = [];
  if (!meta) skipped.push({ where: 'meta', reason: 'no meta: no inner instructions, logs, balances or err' });

  const out: DecodedTransaction = {
    signature: '',
    slot: typeof r.slot === 'number' ? r.slot : null,
    blockTime: typeof r.blockTime === 'number' ? r.blockTime : null,
    err: meta && meta.err !== undefined ? meta.err : null,
    accountKeys: [],
    signers: [],
    instructions: [],
    events: [],
    preTokenBalances: [],
    postTokenBalances: [],
    logsTruncated: false,
    fromLogsOnly: false,
    skipped,
    jitoTipLamports: null,
  };
  const col: Collected = { instructions: [], cpiEvents: [], skipped, deferred: defer ? [] : null, skippedCpi: null, tip: 0n };

  // --- message: keys, signers, top-level instructions
  const tx = r.transaction;
  if (Array.isArray(tx)) {
    const [payload, enc] = tx as unknown[];
    let wire: WireTransaction | null = null;
    try {
      if (typeof payload !== 'string') throw new Error('payload is not a string');
      const bytes = enc === 'base58' ? fromBase58(payload) : enc === 'base64' || enc === undefined ? fromBase64(payload) : null;
      if (!bytes) throw new Error(`unsupported encoding ${String(enc)}`);
      wire = decodeWireTransaction(bytes);
    } catch (e) {
      skipped.push({ where: 'transaction', reason: `wire transaction not decodable: ${(e as Error).message}` });
    }
    if (wire) {
      out.signature = wire.signatures[0] ?? '';
      out.accountKeys = [...wire.staticKeys, ...loadedKeys(meta, skipped)];
      out.signers = wire.staticKeys.slice(0, wire.numRequiredSignatures);
      wire.instructions.forEach((ix, i) => {
        const programId = out.accountKeys[ix.programIdIndex];
        if (programId === SYSTEM_PROGRAM_ID) addTip(col, ix.data, ix.accounts, out.accountKeys);
        else handleRaw(col, programId, ix.accounts, ix.data, out.accountKeys, String(i), i, false);
      });
    }
  } else if (isObj(tx)) {
    const sigs = tx.signatures;
    out.signature = Array.isArray(sigs) && typeof sigs[0] === 'string' ? sigs[0] : '';
    const msg = isObj(tx.message) ? tx.message : null;
    if (!msg) skipped.push({ where: 'transaction.message', reason: 'missing message' });
    else {
      const keys = Array.isArray(msg.accountKeys) ? msg.accountKeys : [];
      if (keys.length > 0 && keys.every((k) => isObj(k) && typeof k.pubkey === 'string')) {
        // jsonParsed: the list already includes lookup-table keys (source: "lookupTable")
        out.accountKeys = keys.map((k) => (k as Obj).pubkey as string);
        out.signers = keys.filter((k) => (k as Obj).signer === true).map((k) => (k as Obj).pubkey as string);
      } else {
        const statics = keys.filter((k): k is string => typeof k === 'string');
        if (statics.length !== keys.length) skipped.push({ where: 'transaction.message.accountKeys', reason: 'non-string account keys ignored' });
        out.accountKeys = [...statics, ...loadedKeys(meta, skipped)];
        const header = isObj(msg.header) ? msg.header : null;
        const n = header && typeof header.numRequiredSignatures === 'number' ? header.numRequiredSignatures : 0;
        out.signers = statics.slice(0, n);
      }
      const ixs = Array.isArray(msg.instructions) ? msg.instructions : [];
      ixs.forEach((ix, i) => handleEntry(col, ix, out.accountKeys, String(i), i, false));
    }
  } else {
    throw new Error('not a transaction: "transaction" is neither a message object nor [data, encoding]');
  }

  // --- inner instructions (any depth, flattened in invocation order by the RPC)
  if (meta && Array.isArray(meta.innerInstructions)) {
    meta.innerInstructions.forEach((group, g) => {
      if (!isObj(group) || typeof group.index !== 'number' || !Array.isArray(group.instructions)) {
        skipped.push({ where: `innerInstructions[${g}]`, reason: 'not {index, instructions}' });
        return;
      }
      const outer = group.index;
      group.instructions.forEach((ix, j) => handleEntry(col, ix, out.accountKeys, `${outer}.${j}`, outer, true));
    });
  }
  out.instructions = col.instructions;

  // --- logs: fallback events, de-duplicated against CPI events
  if (col.deferred && col.deferred.length > 0) {
    // fast path: every deferred CPI must pair, in order, with a log event carrying its bytes; a
    // skipped log item goes the exact way too (its twin CPI, if any, is reported there instead)
    const scan = scanLogs(logs);
    if (scan.skipped.length > 0) return null;
    const paired = pairWithLogs(col.deferred, scan.events);
    if (paired === null) return null;
    out.logsTruncated = scan.truncated;
    skipped.push(...scan.skipped);
    out.events = mergeEvents(paired, [], new Map());
  } else {
    // CPI events not yet matched by a log line, by program and bytes: scanLogs consumes the lines that
    // repeat one without decoding them, and mergeEvents drops any other decoded line that still does.
    const unmatched = cpiEventCounts(col.cpiEvents);
    // a CPI event that did not decode is reported once (at the CPI), not again at its log line
    if (col.skippedCpi) for (const key of col.skippedCpi) unmatched.set(key, (unmatched.get(key) ?? 0) + 1);
    const scan = scanLogs(logs, unmatched);
    out.logsTruncated = scan.truncated;
    skipped.push(...scan.skipped);
    out.events = mergeEvents(col.cpiEvents, scan.events, unmatched);
  }

  // --- Jito tips: known only with the inner instructions (meta); a failed transaction moved nothing
  if (meta) out.jitoTipLamports = out.err !== null || col.tip === 0n ? '0' : col.tip.toString();

  // --- token balances
  if (meta) {
    out.preTokenBalances = tokenBalances(meta.preTokenBalances, out.accountKeys, 'preTokenBalances', skipped);
    out.postTokenBalances = tokenBalances(meta.postTokenBalances, out.accountKeys, 'postTokenBalances', skipped);
  }
  return out;
}

function loadedKeys(meta: Obj | null, skipped: SkippedItem[]): string[] {
  if (!meta || !isObj(meta.loadedAddresses)) return [];
  const la = meta.loadedAddresses;
  const w = Array.isArray(la.writable) ? la.writable : [];
  const ro = Array.isArray(la.readonly) ? la.readonly : [];
  const all = [...w, ...ro];
  if (!all.every((k) => typeof k === 'string')) skipped.push({ where: 'meta.loadedAddresses', reason: 'non-string keys ignored' });
  return all.filter((k): k is string => typeof k === 'string');
}

/** One RPC instruction entry (json: programIdIndex + index accounts; jsonParsed: programId + base58 accounts, or `parsed`). */
function handleEntry(col: Collected, ix: unknown, keys: string[], path: string, outer: number, inner: boolean): void {
  const where = `instruction ${path}`;
  if (!isObj(ix)) {
    col.skipped.push({ where, reason: 'instruction entry is not an object' });
    return;
  }
  if ('parsed' in ix) {
    // a known program the RPC parsed (system, spl-token, …): never pump; a System transfer may be a tip
    if (ix.program === 'system' && isObj(ix.parsed)) {
      const t = parsedSystemTransferOf(ix);
      if (t && JITO_TIP_ACCOUNT_SET.has(t.to)) col.tip += BigInt(t.lamports);
    }
    return;
  }
  let programId: string | undefined;
  if (typeof ix.programId === 'string') programId = ix.programId;
  else if (typeof ix.programIdIndex === 'number') programId = keys[ix.programIdIndex];
  if (programId === undefined) {
    col.skipped.push({ where, reason: 'program id not resolvable' });
    return;
  }
  if (programId === SYSTEM_PROGRAM_ID) {
    entryTip(col, ix, keys);
    return;
  }
  const reg = registryFor(programId);
  if (!reg) return;
  if (col.deferred && inner && typeof ix.data === 'string' && Array.isArray(ix.accounts) && ix.accounts.length === 1) {
    // a self-CPI event has the event authority as its only account (reference.md §1.6)
    col.deferred.push({ program: reg.program, data: ix.data, outerIndex: outer });
    return;
  }
  let data: Uint8Array;
  try {
    if (typeof ix.data !== 'string') throw new Error('data is not a string');
    data = fromBase58(ix.data);
  } catch {
    col.skipped.push({ where, reason: 'instruction data is not valid base58' });
    return;
  }
  const accs = Array.isArray(ix.accounts) ? ix.accounts : [];
  handleRaw(col, programId, accs, data, keys, path, outer, inner);
}

/** A resolved instruction: event (self-CPI) or pump/PumpSwap/Pump Fees instruction. */
function handleRaw(col: Collected, programId: string | undefined, accs: unknown[], data: Uint8Array, keys: string[], path: string, outer: number, inner: boolean): void {
  const where = `instruction ${path}`;
  if (programId === undefined) {
    col.skipped.push({ where, reason: 'program id index out of range' });
    return;
  }
  const reg = registryFor(programId);
  if (!reg) return;
  if (startsWith(data, EVENT_IX_TAG)) {
    const ev = decodeCpiEvent(programId, data);
    if (ev && 'skipped' in ev) {
      const bytes = data.subarray(EVENT_IX_TAG.length);
      col.skipped.push(unrecognisedEvent(where, reg.program, bytes, ev.skipped));
      (col.skippedCpi ??= []).push(`${reg.program}:${toBase64(bytes)}`);
    } else if (ev) {
      if (ev.status === 'truncated') col.skipped.push(truncatedEvent(where, ev));
      col.cpiEvents.push({ ev, outerIndex: outer });
    }
    return;
  }
  if (reg.unlisted.size > 0 && data.length >= 8 && reg.unlisted.has(discriminatorHex(data))) return; // a fee query (idl.ts FEE_QUERIES)
  const accounts: string[] = [];
  for (const a of accs) {
    const k = typeof a === 'string' ? a : typeof a === 'number' ? keys[a] : undefined;
    if (k === undefined) {
      col.skipped.push({ where, reason: `account ${JSON.stringify(a)} not resolvable` });
      return;
    }
    accounts.push(k);
  }
  const d = decodeInstruction(programId, data, accounts);
  if (d === null) return;
  if ('skipped' in d) col.skipped.push({ where, reason: d.skipped, program: reg.program, kind: 'instruction', discriminator: discriminatorHex(data) });
  else col.instructions.push({ program: d.program, name: d.name, inner, path, accounts: d.accounts, args: d.args });
}

/**
 * Add a compiled System instruction's transfer to a Jito tip account to `col.tip`. The destination
 * is looked up before the lamports are read, so a transfer elsewhere costs one key lookup.
 */
function addTip(col: Collected, data: Uint8Array, accs: readonly unknown[], keys: readonly string[]): void {
  const to = transferDestinationIndex(data);
  if (to === null || accs.length <= to) return;
  const a = accs[to];
  const dest = typeof a === 'number' ? keys[a] : typeof a === 'string' ? a : undefined;
  if (dest !== undefined && JITO_TIP_ACCOUNT_SET.has(dest)) col.tip += u64le(data, 4);
}

/** A json / jsonParsed System instruction entry (base58 data): {@link addTip} once a tip account is among its accounts. */
function entryTip(col: Collected, ix: Obj, keys: readonly string[]): void {
  if (typeof ix.data !== 'string' || !Array.isArray(ix.accounts) || ix.accounts.length < 2) return;
  let toTip = false;
  for (let i = 1; i < ix.accounts.length && i <= 2; i++) {
    const a = ix.accounts[i];
    const k = typeof a === 'number' ? keys[a] : a;
    if (typeof k === 'string' && JITO_TIP_ACCOUNT_SET.has(k)) toTip = true;
  }
  if (!toTip) return;
  let data: Uint8Array;
  try {
    data = fromBase58(ix.data);
  } catch {
    return;
  }
  addTip(col, data, ix.accounts, keys);
}

/**
 * Pair the deferred self-CPI events with the log events, one for one and in order: same program,
 * same top-level instruction, a `Program data:` line holding exactly the event's base64 (one part),
 * and CPI data that encodes EVENT_IX_TAG ‖ those bytes. Returns the CPI events, or null at the first
 * doubt (including any log event left over: one without a CPI twin goes the exact way).
 */
function pairWithLogs(deferred: readonly DeferredCpi[], events: readonly LogEvent[]): CpiEvent[] | null {
  if (deferred.length !== events.length) return null;
  const out: CpiEvent[] = [];
  for (let i = 0; i < deferred.length; i++) {
    const d = deferred[i]!;
    const e = events[i]!;
    if (e.program !== d.program || e.outerIndex !== d.outerIndex) return null;
    if (!e.asWritten) return null;
    if (!base58Matches(d.data, EVENT_IX_TAG, e.bytes)) return null;
    out.push({
      ev: { program: e.program, name: e.name, fields: e.fields, status: e.status, bytesBase64: e.bytesBase64, discriminator: e.discriminator, extraBytes: e.extraBytes },
      outerIndex: d.outerIndex,
    });
  }
  return out;
}

/** CPI events counted by `program:bytesBase64` (the key scanLogs and mergeEvents match log lines on). */
export function cpiEventCounts(cpi: readonly CpiEvent[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const c of cpi) {
    const key = `${c.ev.program}:${c.ev.bytesBase64}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return counts;
}

/**
 * Merge CPI events with `Program data:` log events: a log event whose bytes equal a not-yet-matched
 * CPI event of the same program is the same event and is dropped (each CPI event matches one line).
 * `unmatched`: CPI events not matched yet, by key (default: all of them; decodeTransaction passes
 * what scanLogs left). Order: by top-level instruction, CPI events first within one.
 */
export function mergeEvents(cpi: readonly CpiEvent[], logs: readonly LogEvent[], unmatched: Map<string, number> = cpiEventCounts(cpi)): DecodedEvent[] {
  const logOnly: LogEvent[] = [];
  for (const le of logs) {
    const key = `${le.program}:${le.bytesBase64}`;
    const n = unmatched.get(key) ?? 0;
    if (n > 0) unmatched.set(key, n - 1);
    else logOnly.push(le);
  }
  const all: { e: DecodedEvent; k: number; seq: number }[] = [];
  cpi.forEach((c, i) => all.push({ e: toEvent(c.ev, c.outerIndex, 'cpi'), k: c.outerIndex ?? Number.MAX_SAFE_INTEGER, seq: i }));
  logOnly.forEach((l, i) => all.push({ e: toEvent(l, l.outerIndex, 'log'), k: l.outerIndex ?? Number.MAX_SAFE_INTEGER, seq: cpi.length + i }));
  all.sort((a, b) => a.k - b.k || a.seq - b.seq);
  return all.map((x) => x.e);
}

function toEvent(ev: EventDecode, outerIndex: number | null, source: 'cpi' | 'log'): DecodedEvent {
  return ev.extraBytes > 0
    ? { program: ev.program, name: ev.name, fields: ev.fields, outerIndex, source, extraBytes: ev.extraBytes }
    : { program: ev.program, name: ev.name, fields: ev.fields, outerIndex, source };
}

function tokenBalances(list: unknown, keys: string[], where: string, skipped: SkippedItem[]): TokenBalance[] {
  if (!Array.isArray(list)) return [];
  const out: TokenBalance[] = [];
  list.forEach((b, i) => {
    const ui = isObj(b) && isObj(b.uiTokenAmount) ? b.uiTokenAmount : null;
    if (!isObj(b) || typeof b.accountIndex !== 'number' || typeof b.mint !== 'string' || !ui || typeof ui.amount !== 'string') {
      skipped.push({ where: `${where}[${i}]`, reason: 'not a token balance {accountIndex, mint, uiTokenAmount.amount}' });
      return;
    }
    out.push({
      accountIndex: b.accountIndex,
      account: keys[b.accountIndex] ?? '',
      mint: b.mint,
      owner: typeof b.owner === 'string' ? b.owner : null,
      amount: ui.amount,
      decimals: typeof ui.decimals === 'number' && Number.isInteger(ui.decimals) && ui.decimals >= 0 ? ui.decimals : null,
    });
  });
  return out;
}
