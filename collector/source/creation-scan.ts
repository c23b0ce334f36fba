import type PQueue from 'p-queue';
import { PUMP_MINT_AUTHORITY } from '../../src/core/programs.ts';
import type { TransactionReader } from '../../src/chain/transaction-reader.ts';
import { pageSignatures, type SignatureInfo } from '../../src/chain/signatures.ts';
import { redactUrlsIn } from '../../src/log.ts';
import type { CollectDeps, CollectorMemory } from '../context.ts';
import { CREATION_READ_PRIORITY, readCreation, recordCreationAhead } from '../record/record-heard-creation.ts';
import { PROGRAM_CURSOR } from './signatures.ts';

/**
 * How often the long-running collector lists the creations it may have missed (ms): one
 * getSignaturesForAddress call a scan, 1 % of the public RPC's 4 calls a second per method at 5 s.
 */
export const CREATION_SCAN_MS = 5_000;

/**
 * Find the launches created ahead of the catch-up without reading the program's whole history, and
 * record each at once (issue 24: under the public RPC the catch-up falls minutes behind, and a
 * creation whose notification was dropped, or landed while the WebSocket reconnected, waited for it).
 *
 * Every pump.fun creation (`create`, `create_v2`) and no other instruction of the program touches
 * its mint authority PDA (src/core/idl/pump.json: `mint_authority`, seeds "mint-authority"), so that
 * account's signature history lists the creations alone — one page of `getSignaturesForAddress`
 * holds about 55 minutes of mainnet's launches where the program's lists under 3 s of its
 * transactions. The scan lists it newest first back to what the last scan reached (`memory.creationScan`)
 * or to the program cursor's slot (older creations are the catch-up's), and reads each successful
 * creation not read ahead already (`memory.prefetched`: heard, or found by an earlier scan), oldest
 * first, ahead of every queued call. Each is recorded as a heard creation is
 * (record/record-heard-creation.ts): its record holds the creation alone and is UNKNOWN, its history
 * not complete, until the catch-up reaches its signature and records it with its trades.
 *
 * A creation that cannot be read stops the scan before it: the next scan lists it again. Returns the
 * mints recorded. Errors: the listing's (the caller retries at the next scan).
 */
export async function scanCreations(deps: CollectDeps, queue: PQueue, reader: TransactionReader, memory: CollectorMemory, signal?: AbortSignal): Promise<string[]> {
  // nothing claimed before the first catch-up sets the cursor (COLLECT_START); a cursor without a
  // slot (the program had no signature yet) claims everything from now on
  const program = deps.store.getCursor(PROGRAM_CURSOR);
  if (!program) return [];
  const fromSlot = program.slot ?? 0;
  const listed = await listCreations(deps.rpc, queue, reader, memory.creationScan?.signature ?? null, fromSlot, signal);
  const recorded: string[] = [];
  let reached: SignatureInfo | null = null;
  for (const s of listed) {
    if (signal?.aborted) break;
    if (s.err === null && s.slot >= fromSlot && !memory.prefetched.has(s.signature)) {
      const decoded = await readCreation(queue, reader, s.signature, s.slot, signal);
      if (decoded === 'unread') break; // listed again by the next scan
      if (decoded) recorded.push(...recordCreationAhead(deps, memory, decoded));
    }
    reached = s;
  }
  if (reached) memory.creationScan = { signature: reached.signature, slot: reached.slot };
  return recorded;
}

/**
 * The mint authority's signatures newer than `until` (null: back to `fromSlot`), oldest first, read
 * ahead of queued calls; the paging stops at the first page reaching below `fromSlot`.
 */
async function listCreations(rpc: CollectDeps['rpc'], queue: PQueue, reader: TransactionReader, until: string | null, fromSlot: number, signal?: AbortSignal): Promise<SignatureInfo[]> {
  const { signatures } = await pageSignatures(rpc, PUMP_MINT_AUTHORITY, {
    until,
    reader,
    signal,
    stopBelowSlot: fromSlot,
    schedule: (fn) => queue.add(fn, { priority: CREATION_READ_PRIORITY, signal }) as Promise<never>,
  });
  return signatures.filter((s) => s.slot >= fromSlot).reverse();
}

/**
 * Scan every `everyMs` until `signal` aborts (the long-running form), logging a failed scan as a
 * warning: the next one lists the same creations again.
 */
export async function scanCreationsEvery(deps: CollectDeps, queue: PQueue, reader: TransactionReader, memory: CollectorMemory, everyMs: number, signal: AbortSignal): Promise<void> {
  while (!signal.aborted) {
    await new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(t);
        signal.removeEventListener('abort', done);
        resolve();
      };
      const t = setTimeout(done, everyMs);
      signal.addEventListener('abort', done, { once: true });
    });
    if (signal.aborted) return;
    try {
      await scanCreations(deps, queue, reader, memory, signal);
    } catch (err) {
      if (!signal.aborted) deps.log.warn({ err: redactUrlsIn(String(err)) }, 'creation scan failed; the next scan lists the same creations again');
    }
  }
}
