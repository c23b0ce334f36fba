import type PQueue from 'p-queue';
import type { DecodedTransaction } from '../../src/core/types.ts';
import { decodeTransaction, incompleteAnswer } from '../../src/core/decode/index.ts';
import { creationsIn } from '../../src/core/record/from-logs.ts';
import type { TransactionReader } from '../../src/chain/transaction-reader.ts';
import type { CollectDeps, CollectorMemory } from '../context.ts';
import { recordTransactions } from './record-batch.ts';

/** Priority of a heard creation's read on the collector's RPC queue (p-queue: higher starts first; every other call is 0). */
export const CREATION_READ_PRIORITY = 10;
/** Reads of a heard creation that answered null (not yet at the RPC's commitment) before it is left to the catch-up; 200 ms·2^k apart. */
const NULL_ATTEMPTS = 4;
/** Creation transactions read ahead and not yet reached by a catch-up, kept at most (beyond, the map starts over: a catch-up then reads them again). */
export const PREFETCHED_MAX = 1_000;

/**
 * Record a launch the live watch heard being created at once (issue 24: lag from the creation slot
 * to the launch's committed row), instead of at the catch-up that reaches its signature: under
 * mainnet's rate that catch-up comes after the pass in progress, its page writes and every batch
 * before the creation's, and behind a provider's limit after every trade queued before it.
 *
 * The creation transaction is read ahead of every other queued call ({@link CREATION_READ_PRIORITY}),
 * decoded whole — the form the catch-up keeps a creation in (collector/read/read-batch.ts) — and kept
 * with its launch's record in one SQLite transaction of its own ({@link recordCreationAhead}).
 * Nothing is recorded when the launch's creation is held already, when the read fails or keeps
 * answering null (the catch-up reads it then), or when the answer is not the heard transaction with
 * a successful creation. Returns the mints recorded.
 */
export async function recordHeardCreation(deps: CollectDeps, queue: PQueue, reader: TransactionReader, memory: CollectorMemory, heard: DecodedTransaction, signal?: AbortSignal): Promise<string[]> {
  const { store, log } = deps;
  const held = () => creationsIn(heard).every(([mint]) => store.getOrigin(mint)?.hasCreation === true);
  if (!heard.signature || heard.slot === null || creationsIn(heard).length === 0 || held()) return [];
  const decoded = await readCreation(queue, reader, heard.signature, heard.slot, signal);
  if (!decoded || decoded === 'unread') return [];
  const recorded = recordCreationAhead(deps, memory, decoded);
  if (log.isLevelEnabled('debug')) for (const mint of recorded) log.debug({ mint, signature: decoded.signature, heardAtMs: memory.creationHeardMs.get(mint) ?? null, committedAtMs: Date.now() }, 'heard creation recorded');
  return recorded;
}

/**
 * Read one creation transaction ahead of every queued call ({@link CREATION_READ_PRIORITY}), decoded
 * whole. Returns it when it is the transaction `signature` at `slot`, successful, with a creation;
 * null when it is not (nothing to record); `'unread'` when the read failed or kept answering null
 * ({@link NULL_ATTEMPTS} reads 200 ms·2^k apart), or the stop came first.
 */
export async function readCreation(queue: PQueue, reader: TransactionReader, signature: string, slot: number, signal?: AbortSignal): Promise<DecodedTransaction | null | 'unread'> {
  let decoded: DecodedTransaction | null = null;
  for (let attempt = 0; attempt < NULL_ATTEMPTS && decoded === null; attempt++) {
    if (attempt > 0) await new Promise((r) => setTimeout(r, 200 * 2 ** (attempt - 1)));
    if (signal?.aborted) return 'unread';
    const [answer] = await queue.add(() => reader.getTransactions([signature], signal), { priority: CREATION_READ_PRIORITY, signal });
    if (answer === null || answer === undefined) continue;
    if (answer instanceof Error) return 'unread';
    if (incompleteAnswer(answer) !== null) return 'unread'; // the catch-up reads it (and counts it as a failed read if it stays so)
    decoded = decodeTransaction(answer);
  }
  if (!decoded) return 'unread';
  if (signal?.aborted) return 'unread';
  if (decoded.signature !== signature || decoded.slot !== slot || decoded.err !== null || creationsIn(decoded).length === 0) return null;
  return decoded;
}

/**
 * Record a creation read ahead of the catch-up (heard, or found by the creation scan:
 * source/creation-scan.ts) with its launch's record, in one SQLite transaction of its own:
 * `recordTransactions`, the catch-up's own path, so origin and observedAtLaunch follow coverage as
 * there. The cursor does not move: the catch-up reaches the same signature later, takes this decoded
 * transaction from `memory.prefetched` instead of reading it again, and records it with the launch's
 * first trades, chain state and cohort funders (not looked up here), so the final record is the one
 * the catch-up alone would build. Until then the record holds the creation alone and is UNKNOWN
 * ("Not established": its history after the creation is not read yet), never a finding or clean.
 * Nothing is recorded when every launch it creates is held with its creation already. Returns the
 * mints recorded.
 */
export function recordCreationAhead(deps: CollectDeps, memory: CollectorMemory, decoded: DecodedTransaction): string[] {
  const { store, log } = deps;
  const now = deps.now ?? Date.now;
  const created = creationsIn(decoded);
  for (const [mint, at] of created) memory.creations.set(mint, at);
  if (memory.prefetched.size >= PREFETCHED_MAX) memory.prefetched.clear();
  memory.prefetched.set(decoded.signature, decoded);
  if (created.every(([mint]) => store.getOrigin(mint)?.hasCreation === true)) return []; // a catch-up (or another read) committed it meanwhile
  store.transaction(() => recordTransactions(store, memory, [decoded], new Map(), now(), log, true));
  return created.map(([m]) => m);
}
