/**
 * Funding sources (methodology "shared funder"): System program SOL transfers in a
 * `getTransaction` result, and the shared-funder cohort of a launch. Pure.
 */
import { fromBase58 } from './decode/bytes.ts';
import { parsedSystemFundingOf, parsedSystemTransferOf, systemFundingOf, systemTransferOf, type SolTransfer } from './decode/system.ts';
import { SYSTEM_PROGRAM_ID } from './programs.ts';
import { unwrapEnvelope } from './decode/transaction.ts';

export { SYSTEM_PROGRAM_ID } from './programs.ts';
export type { SolTransfer } from './decode/system.ts';

/** What the archive knows of a wallet's first funding source. */
export type FunderFact =
  | { state: 'found'; funder: string; signature: string; slot: number }
  /**
   * the wallet's complete history holds no inbound System SOL transfer: it was funded some other way
   * (an account it was created with, a closed token account's rent, lamports a program moved), which
   * the method does not read — so its funder is not established (markers-v9; "none" before)
   */
  | { state: 'none' };

/**
 * Why a first-funder lookup could not finish (the wallet stays unknown): a cap (`FUNDER_PAGE_CAP`,
 * `FUNDER_TX_CAP`) was reached, the daily budget was spent, or an RPC call failed / a transaction was
 * not yet available.
 */
export type FunderUnknownReason = 'page_cap' | 'tx_cap' | 'budget' | 'rpc';

/** One shared funder: the wallets of the cohort it funded first, and the funding signatures. */
export interface SharedFunder {
  funder: string;
  wallets: string[];
  signatures: string[];
}

type Obj = Record<string, unknown>;
const isObj = (x: unknown): x is Obj => typeof x === 'object' && x !== null && !Array.isArray(x);

function entryTransfer(ix: unknown, keys: string[], funding: boolean): SolTransfer | null {
  if (!isObj(ix)) return null;
  if (isObj(ix.parsed)) return funding ? parsedSystemFundingOf(ix) : parsedSystemTransferOf(ix);
  const programId = typeof ix.programId === 'string' ? ix.programId : typeof ix.programIdIndex === 'number' ? keys[ix.programIdIndex] : undefined;
  if (programId !== SYSTEM_PROGRAM_ID || typeof ix.data !== 'string') return null;
  const accs = (Array.isArray(ix.accounts) ? ix.accounts : []).map((a) => (typeof a === 'number' ? keys[a] : a));
  if (!accs.every((a): a is string => typeof a === 'string')) return null;
  try {
    return (funding ? systemFundingOf : systemTransferOf)(fromBase58(ix.data), accs);
  } catch {
    return null;
  }
}

/**
 * Every System SOL transfer of a successful `getTransaction` result (json or jsonParsed, with or
 * without the JSON-RPC envelope), top level and inner; with `funding`, also the lamports accounts
 * were created with (`create_account`, `create_account_with_seed`: system.ts systemFundingOf). A
 * failed transaction (meta.err ≠ null) or anything unrecognisable yields []: it transferred nothing.
 */
export function solTransfersOf(input: unknown, opts: { funding?: boolean } = {}): SolTransfer[] {
  const funding = opts.funding ?? false;
  let r: unknown;
  try {
    r = unwrapEnvelope(input);
  } catch {
    return []; // null result or an RPC error: no transaction
  }
  if (!isObj(r) || !isObj(r.transaction)) return [];
  const meta = isObj(r.meta) ? r.meta : null;
  if (!meta || (meta.err !== null && meta.err !== undefined)) return [];
  const msg = isObj(r.transaction.message) ? r.transaction.message : null;
  if (!msg) return [];
  const rawKeys = Array.isArray(msg.accountKeys) ? msg.accountKeys : [];
  const loaded = isObj(meta.loadedAddresses) ? meta.loadedAddresses : {};
  const keys = [
    ...rawKeys.map((k) => (isObj(k) ? String(k.pubkey) : String(k))),
    ...(Array.isArray(loaded.writable) ? loaded.writable.map(String) : []),
    ...(Array.isArray(loaded.readonly) ? loaded.readonly.map(String) : []),
  ];
  const out: SolTransfer[] = [];
  for (const ix of Array.isArray(msg.instructions) ? msg.instructions : []) {
    const t = entryTransfer(ix, keys, funding);
    if (t) out.push(t);
  }
  for (const group of Array.isArray(meta.innerInstructions) ? meta.innerInstructions : []) {
    if (!isObj(group) || !Array.isArray(group.instructions)) continue;
    for (const ix of group.instructions) {
      const t = entryTransfer(ix, keys, funding);
      if (t) out.push(t);
    }
  }
  return out;
}

/**
 * The first inbound funding of `wallet` in this transaction (from another wallet, more than 0
 * lamports): a System transfer, or the lamports it was created with (markers-v9), if any.
 */
export function inboundTransfer(input: unknown, wallet: string): SolTransfer | null {
  return solTransfersOf(input, { funding: true }).find((t) => t.to === wallet && t.from !== wallet && t.lamports !== '0') ?? null;
}

/**
 * The shared-funder cohort (methodology "shared funder"): the funders that first funded two or more
 * of the cohort's wallets — a cohort wallet that first funded another counts as one of its own
 * group (markers-v9: the creator funding an early buyer is a funding link as much as a third wallet
 * funding both). A group is a finding on its own evidence and is listed whatever else is unknown.
 * Null — not established, never "none" — when no group was found and some wallet's funder is
 * unknown: not looked up yet or its lookup stopped (`funderOf` → undefined), or its complete
 * history holds no inbound funding the method reads (`state: 'none'`, markers-v9; before, such a
 * wallet joined no group, so wallets a program funded passed as unrelated and the launch as clean:
 * a facts audit). A cohort of fewer than two wallets shares nothing: []. Sorted by funder; wallets
 * and signatures sorted.
 * @example sharedFunders(['C', 'B'], (w) => (w === 'B' ? { state: 'found', funder: 'C', signature: 's', slot: 1 } : { state: 'found', funder: 'X', signature: 't', slot: 1 })) // [{ funder: 'C', wallets: ['B', 'C'], signatures: ['s'] }]
 */
export function sharedFunders(cohort: readonly string[], funderOf: (wallet: string) => FunderFact | undefined): SharedFunder[] | null {
  const members = new Set(cohort);
  if (members.size < 2) return [];
  const groups = new Map<string, { wallets: Set<string>; signatures: Set<string> }>();
  let unknown = false;
  for (const wallet of members) {
    const f = funderOf(wallet);
    if (f === undefined || f.state !== 'found') {
      unknown = true;
      continue;
    }
    const g = groups.get(f.funder) ?? { wallets: new Set<string>(), signatures: new Set<string>() };
    g.wallets.add(wallet);
    g.signatures.add(f.signature);
    if (members.has(f.funder)) g.wallets.add(f.funder);
    groups.set(f.funder, g);
  }
  const shared = [...groups.entries()]
    .filter(([, g]) => g.wallets.size >= 2)
    .map(([funder, g]) => ({ funder, wallets: [...g.wallets].sort(), signatures: [...g.signatures].sort() }))
    .sort((a, b) => (a.funder < b.funder ? -1 : a.funder > b.funder ? 1 : 0));
  return shared.length === 0 && unknown ? null : shared;
}

/**
 * Whether a lookup may still change the cohort's funders: two or more wallets (one alone shares
 * nothing), one of them with a funder not established yet (`funderOf` → undefined: not looked up,
 * or stopped by a cap, the budget or a failed read). A wallet of unread funding (`state: 'none'`)
 * is final: its history is complete. A record with a pending cohort is not settled, and the
 * funder sweep takes it up (collector/enrich/funder-sweep.ts).
 */
export function cohortPending(cohort: readonly string[], funderOf: (wallet: string) => FunderFact | undefined): boolean {
  const members = new Set(cohort);
  return members.size >= 2 && [...members].some((w) => funderOf(w) === undefined);
}
