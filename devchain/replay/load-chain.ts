/**
 * Reads a chain folder into memory.
 *
 * Folder DIR (every part optional):
 * - `chain.json`: `{transactions?: [{file, slot?, blockTime?}], accounts?: [{address, file, pointer?, slot?}],
 *   slot?, blockTimes?: {"<slot>": unixSeconds}, …}`; paths are relative to DIR, `pointer` is an
 *   RFC 6901 JSON pointer to the account object inside the file; entry slot/blockTime override the
 *   file's. Unknown keys (e.g. the simulator's `generator`, `lastSlot`) are ignored.
 * - `transactions/*.json`: one transaction per file, any shape {@link normalizeTransaction} reads
 *   (files read in name order, numbers compared numerically).
 * - `transactions.ndjson`: one transaction per line (each line carries slot/blockTime).
 * - `accounts/<address>.json`: a getAccountInfo answer, result or value.
 * - `accounts.ndjson`: lines `{address, account, slot?}`.
 * Listing order (chain.json entries, then transactions/, then transactions.ndjson) is block order
 * within a slot. A signature listed twice is kept once (its first listing).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { z } from 'zod';
import { type ChainAccount, normalizeAccount } from './account.ts';
import { parseJsonLossless } from './json.ts';
import { type ChainTransaction, normalizeTransaction, type TxPlacement } from './transaction.ts';

/** A chain in memory, as read from a folder (or built by a test). */
export interface LoadedChain {
  /** the folder it was read from, if any */
  dir: string | null;
  /** transactions in listing order, signatures unique */
  transactions: ChainTransaction[];
  /** account versions in listing order */
  accounts: ChainAccount[];
  /** chain.json `slot`: the current slot in history mode (else the newest slot of the data) */
  slot: number | null;
  /** known block times (chain.json `blockTimes`, completed from transactions by the index) */
  blockTimes: Map<number, number>;
}

const slotSchema = z.number().int().nonnegative();
const manifestSchema = z.looseObject({
  transactions: z.array(z.looseObject({ file: z.string().min(1), slot: slotSchema.optional(), blockTime: z.number().int().nullable().optional() })).optional(),
  accounts: z
    .array(z.looseObject({ address: z.string().min(32).max(44), file: z.string().min(1), pointer: z.string().optional(), slot: slotSchema.optional() }))
    .optional(),
  slot: slotSchema.optional(),
  blockTimes: z.record(z.string().regex(/^\d+$/), z.number().int()).optional(),
});

/** chain.json as parsed. */
export type ChainManifest = z.infer<typeof manifestSchema>;

/** Error for an unreadable chain folder; the message names the file (and line). */
export class ChainLoadError extends Error {
  override name = 'ChainLoadError';
}

/** RFC 6901 pointer lookup. Errors: ChainLoadError when a segment is missing. */
export function jsonPointer(doc: unknown, pointer: string, where: string): unknown {
  if (pointer === '' || pointer === '/') return pointer === '' ? doc : (doc as Record<string, unknown>)?.[''];
  let cur: unknown = doc;
  for (const raw of pointer.replace(/^\//, '').split('/')) {
    const seg = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (cur === null || typeof cur !== 'object' || !(seg in (cur as object))) throw new ChainLoadError(`${where}: JSON pointer ${pointer} not found`);
    cur = (cur as Record<string, unknown>)[seg];
  }
  return cur;
}

/** getAccountInfo envelope/result/value → {account, slot?}. */
function unwrapAccount(doc: unknown): { account: unknown; slot?: number } {
  let cur = doc as Record<string, unknown> | null;
  if (cur && typeof cur === 'object' && 'result' in cur && ('jsonrpc' in cur || 'id' in cur)) cur = cur.result as Record<string, unknown>;
  if (cur && typeof cur === 'object' && 'value' in cur && 'context' in cur) {
    const slot = (cur.context as { slot?: unknown })?.slot;
    return { account: cur.value, slot: typeof slot === 'number' ? slot : undefined };
  }
  return { account: cur };
}

const byName = (a: string, b: string) => a.localeCompare(b, 'en', { numeric: true });

/**
 * Read the chain folder `dir`. Errors: ChainLoadError for a missing folder, malformed chain.json,
 * a transaction without slot, or any unreadable file (message names it).
 */
export function loadChain(dir: string): LoadedChain {
  const root = resolve(dir);
  if (!existsSync(root)) throw new ChainLoadError(`chain folder ${root} does not exist`);
  const cache = new Map<string, unknown>();
  const readJson = (file: string): unknown => {
    const path = resolve(root, file);
    if (!cache.has(path)) {
      try {
        cache.set(path, parseJsonLossless(readFileSync(path, 'utf8')));
      } catch (e) {
        throw new ChainLoadError(`${path}: ${(e as Error).message}`);
      }
    }
    return cache.get(path);
  };
  const readLines = (path: string): [number, unknown][] => {
    const out: [number, unknown][] = [];
    const lines = readFileSync(path, 'utf8').split('\n');
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i].trim();
      if (!line) continue;
      try {
        out.push([i + 1, parseJsonLossless(line)]);
      } catch (e) {
        throw new ChainLoadError(`${path}:${i + 1}: ${(e as Error).message}`);
      }
    }
    return out;
  };

  let manifest: ChainManifest = {};
  const manifestPath = join(root, 'chain.json');
  if (existsSync(manifestPath)) {
    const r = manifestSchema.safeParse(readJson(manifestPath));
    if (!r.success) throw new ChainLoadError(`${manifestPath}: ${r.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
    manifest = r.data;
  }
  const blockTimes = new Map<number, number>(Object.entries(manifest.blockTimes ?? {}).map(([s, t]) => [Number(s), t]));

  const transactions: ChainTransaction[] = [];
  const seen = new Set<string>();
  const addTx = (doc: unknown, where: string, placement: TxPlacement = {}) => {
    let tx: ChainTransaction;
    try {
      tx = normalizeTransaction(doc, placement);
    } catch (e) {
      throw new ChainLoadError(`${where}: ${(e as Error).message}`);
    }
    if (tx.blockTime === null && blockTimes.has(tx.slot)) tx.blockTime = blockTimes.get(tx.slot)!;
    if (seen.has(tx.signature)) return;
    seen.add(tx.signature);
    transactions.push(tx);
  };
  for (const entry of manifest.transactions ?? []) {
    const placement: TxPlacement = { slot: entry.slot, blockTime: entry.blockTime ?? undefined };
    const path = resolve(root, entry.file);
    if (path.endsWith('.ndjson')) for (const [line, doc] of readLines(path)) addTx(doc, `${path}:${line}`, placement);
    else addTx(readJson(path), path, placement);
  }
  const txDir = join(root, 'transactions');
  if (existsSync(txDir)) {
    for (const f of readdirSync(txDir).filter((n) => n.endsWith('.json')).sort(byName)) addTx(readJson(join(txDir, f)), join(txDir, f));
  }
  const txNd = join(root, 'transactions.ndjson');
  if (existsSync(txNd)) for (const [line, doc] of readLines(txNd)) addTx(doc, `${txNd}:${line}`);

  const accounts: ChainAccount[] = [];
  const addAccount = (address: string, doc: unknown, where: string, slot?: number) => {
    const u = unwrapAccount(doc);
    if (u.account === null || u.account === undefined) return; // a recorded "account does not exist"
    try {
      accounts.push(normalizeAccount(address, u.account, slot ?? u.slot ?? 0));
    } catch (e) {
      throw new ChainLoadError(`${where}: ${(e as Error).message}`);
    }
  };
  for (const entry of manifest.accounts ?? []) {
    const path = resolve(root, entry.file);
    const doc = readJson(path);
    addAccount(entry.address, entry.pointer !== undefined ? jsonPointer(doc, entry.pointer, path) : doc, path, entry.slot);
  }
  const accDir = join(root, 'accounts');
  if (existsSync(accDir)) {
    for (const f of readdirSync(accDir).filter((n) => n.endsWith('.json')).sort(byName)) addAccount(basename(f, '.json'), readJson(join(accDir, f)), join(accDir, f));
  }
  const accNd = join(root, 'accounts.ndjson');
  if (existsSync(accNd)) {
    for (const [line, doc] of readLines(accNd)) {
      const d = doc as { address?: unknown; account?: unknown; slot?: unknown };
      if (typeof d?.address !== 'string') throw new ChainLoadError(`${accNd}:${line}: missing "address"`);
      addAccount(d.address, d.account, `${accNd}:${line}`, typeof d.slot === 'number' ? d.slot : undefined);
    }
  }
  return { dir: root, transactions, accounts, slot: manifest.slot ?? null, blockTimes };
}
