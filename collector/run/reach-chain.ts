import { isSolanaError, SOLANA_ERROR__RPC__TRANSPORT_HTTP_ERROR } from '@solana/kit';
import { ProviderRpcError, type ArchiveRpc } from '../../src/chain/rpc.ts';
import { redactUrl, redactUrlsIn, settleFolds } from '../../src/log.ts';
import type { CollectDeps, CollectOptions } from '../context.ts';
import { fetchLatest } from '../source/signatures.ts';
import { noteReachable, noteUnreachable } from './reachability.ts';

/** The chain tip (getSlot), or the error when it cannot be read. */
export async function readTipSlot(rpc: ArchiveRpc, signal?: AbortSignal): Promise<number | Error> {
  try {
    return Number(await rpc.getSlot({ commitment: 'confirmed' }).send({ abortSignal: signal }));
  } catch (err) {
    return err instanceof Error ? err : new Error(String(err));
  }
}

/**
 * What an operator can do about `err`, the error of a read of the chain that failed after its
 * retries: the provider's HTTP status says whether the URL is wrong or the provider refuses.
 * @example unreachableAdvice(httpError(429)) // 'the provider limits the rate: lower RPC_MAX_RPS …'
 */
export function unreachableAdvice(err: Error): string {
  const status = isSolanaError(err, SOLANA_ERROR__RPC__TRANSPORT_HTTP_ERROR) ? err.context.statusCode : null;
  if (status === 429) return 'the provider limits the rate: lower RPC_MAX_RPS (and RPC_BATCH_SIZE), or use a plan or provider that allows more';
  if (status === 401 || status === 403) return 'the provider refused the request: check the key or token in SOLANA_RPC_URL';
  if (status !== null && status >= 500) return 'the provider is failing: it is tried again; if it lasts, use another SOLANA_RPC_URL';
  if (err instanceof ProviderRpcError) return 'the provider answered with an error of its own (above): check the key, plan and endpoint in SOLANA_RPC_URL';
  // no HTTP answer at all: what the network error says (a URL that worked before may name a provider that is down)
  const text = `${err.message} ${String((err as { cause?: unknown }).cause ?? '')}`;
  if (/ENOTFOUND|EAI_AGAIN/.test(text)) return 'its host name does not resolve: check the host in SOLANA_RPC_URL (and this machine\'s DNS)';
  if (/ECONNREFUSED/.test(text)) return 'nothing accepts connections there: the provider is down, or SOLANA_RPC_URL names the wrong host or port; it is tried again';
  if (/ETIMEDOUT|ECONNRESET|EPIPE|timed? ?out|TimeoutError|socket hang up/i.test(text)) return 'the provider did not answer in time or dropped the connection: it is tried again; if it lasts, check the network or use another SOLANA_RPC_URL';
  return 'check SOLANA_RPC_URL and that the provider is up; it is tried again';
}

/** Record and log (folded: one line, then a count at most once a minute) that the chain could not be read. */
export function onUnreachable(deps: CollectDeps, err: Error): void {
  const u = noteUnreachable(deps.store, err, (deps.now ?? Date.now)());
  deps.log.warn({ since: new Date(u.sinceMs).toISOString() }, `cannot reach ${redactUrl(deps.config.SOLANA_RPC_URL)} (${u.error.slice(0, 160)}): ${unreachableAdvice(err)}`);
}

/**
 * Wait for the first successful read of the chain (the tip and the newest page of the program's
 * signatures): coverage begins then. Until then every failure is recorded (status: unreachable) and
 * retried every POLL_INTERVAL_MS; the cron form throws instead (exit code 1). Null: stopped first.
 */
export async function reachChain(deps: CollectDeps, opts: CollectOptions): Promise<{ slot: number; ms: number } | null> {
  const { rpc, store } = deps;
  const now = deps.now ?? Date.now;
  for (;;) {
    if (opts.signal?.aborted) return null;
    const ms = now();
    const slot = await readTipSlot(rpc, opts.signal);
    let err: Error | null = slot instanceof Error ? slot : null;
    if (!err) {
      try {
        await fetchLatest(rpc, opts.signal);
      } catch (e) {
        err = e instanceof Error ? e : new Error(String(e));
      }
    }
    if (!err && typeof slot === 'number') {
      noteReachable(store);
      // the folded count of the "cannot reach" lines before this one, not a minute after it as if the trouble went on
      settleFolds(deps.log);
      deps.log.info(`RPC ${redactUrl(deps.config.SOLANA_RPC_URL)}: reachable, slot ${slot}`);
      return { slot, ms };
    }
    if (opts.signal?.aborted) return null;
    onUnreachable(deps, err!);
    // a single run ends here: the next run (cron) tries again, not this one (an operator read "it is tried again", then the exit)
    if (opts.once) throw new Error(`cannot reach ${redactUrl(deps.config.SOLANA_RPC_URL)} (${redactUrlsIn(err!.message)}): ${unreachableAdvice(err!).replace('it is tried again', 'the next run tries again')}; no coverage is recorded until the chain is read`);
    await new Promise<void>((resolve) => {
      const t = setTimeout(done, deps.config.POLL_INTERVAL_MS);
      function done() {
        clearTimeout(t);
        opts.signal?.removeEventListener('abort', done);
        resolve();
      }
      opts.signal?.addEventListener('abort', done, { once: true });
    });
  }
}
