import type { PublicStore } from '../../src/db/public-store.ts';
import { redactUrlsIn } from '../../src/log.ts';
import { parseUnreachable, UNREACHABLE_META, type Unreachable } from '../../src/core/coverage.ts';

/**
 * Record in meta that the chain could not be read at `nowMs` (kept from the first failure of an
 * outage: `sinceMs`; `checkedMs` moves with every failed try), with the error, every URL in it cut
 * to scheme://host. `/api/v1/status` shows it as `collector.state: "unreachable"`.
 */
export function noteUnreachable(store: PublicStore, err: unknown, nowMs: number): Unreachable {
  const was = parseUnreachable(store.getMeta(UNREACHABLE_META));
  const u: Unreachable = { sinceMs: was?.sinceMs ?? nowMs, checkedMs: nowMs, error: redactUrlsIn(err instanceof Error ? err.message : String(err)).slice(0, 300) };
  store.setMeta(UNREACHABLE_META, JSON.stringify(u));
  return u;
}

/** The chain was read: the outage, if one was recorded, is over. Returns it (null: none). */
export function noteReachable(store: PublicStore): Unreachable | null {
  const was = parseUnreachable(store.getMeta(UNREACHABLE_META));
  if (was) store.setMeta(UNREACHABLE_META, '');
  return was;
}
