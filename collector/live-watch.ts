import { address, createSolanaRpcSubscriptions } from '@solana/kit';
import type { Logger } from '../src/log.ts';
import { PUMP_PROGRAM_ID } from '../src/core/programs.ts';
import { decodeLogsNotification } from '../src/core/decode/index.ts';

/** What the live watch tells the collector. */
export interface LiveWatchEvents {
  /** a pump transaction landed (its signature and the events its logs hold; the collector fetches the transaction) */
  onNotification: (n: { signature: string; slot: number; events: number; logsTruncated: boolean }) => void;
  /** the subscription (re)connected: anything missed while it was down is found by reconciling with getSignaturesForAddress */
  onConnected: () => void;
}

/** First reconnect delay (ms); doubled to at most {@link MAX_BACKOFF_MS}, reset once connected. */
const FIRST_BACKOFF_MS = 250;
const MAX_BACKOFF_MS = 15_000;

/**
 * The live watch (issue 3 "Live watch"): `logsSubscribe` with `mentions` = the pump program over
 * `wsUrl`, decoding each notification's logs (events from `Program data:`), and reconnecting with
 * exponential backoff when the connection drops. The notifications only wake the collector: a
 * record needs the whole transaction (accounts, inner instructions, token balances), which the
 * collector fetches by signature, and it reconciles with getSignaturesForAddress from its cursor on
 * every wake and every reconnect, so a missed notification or a dropped connection loses nothing.
 * Resolves when `signal` aborts.
 */
export async function watchProgramLogs(wsUrl: string, log: Logger, events: LiveWatchEvents, signal: AbortSignal): Promise<void> {
  let backoff = FIRST_BACKOFF_MS;
  while (!signal.aborted) {
    const ac = new AbortController();
    const stop = () => ac.abort();
    signal.addEventListener('abort', stop, { once: true });
    try {
      const subs = createSolanaRpcSubscriptions(wsUrl);
      const stream = await subs.logsNotifications({ mentions: [address(PUMP_PROGRAM_ID)] }, { commitment: 'confirmed' }).subscribe({ abortSignal: ac.signal });
      log.info({ wsUrl }, 'live watch subscribed to the pump program logs');
      backoff = FIRST_BACKOFF_MS;
      events.onConnected();
      for await (const n of stream) {
        const value = n.value as unknown as { signature: string; err: unknown; logs: readonly string[] };
        const decoded = decodeLogsNotification({ context: { slot: Number(n.context.slot) }, value: { signature: value.signature, err: value.err, logs: [...value.logs] } });
        events.onNotification({ signature: value.signature, slot: Number(n.context.slot), events: decoded.events.length, logsTruncated: decoded.logsTruncated });
      }
      if (!signal.aborted) log.warn('live watch stream ended; reconnecting');
    } catch (err) {
      if (signal.aborted) break;
      log.warn({ err: String(err), retryInMs: backoff }, 'live watch connection lost; reconnecting with backoff');
    } finally {
      signal.removeEventListener('abort', stop);
      ac.abort();
    }
    await new Promise<void>((resolve) => {
      const t = setTimeout(resolve, backoff);
      signal.addEventListener('abort', () => { clearTimeout(t); resolve(); }, { once: true });
    });
    backoff = Math.min(MAX_BACKOFF_MS, backoff * 2);
  }
}
