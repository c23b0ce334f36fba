import {
  createDefaultRpcSubscriptionsChannelCreator,
  createDefaultRpcSubscriptionsTransport,
  createRpcSubscriptionsApi,
  createSubscriptionRpc,
  executeRpcPubSubSubscriptionPlan,
} from '@solana/kit';
import { redactIn, redactUrl, type Logger } from '../../src/log.ts';
import { PUMP_PROGRAM_ID } from '../../src/core/programs.ts';
import { decodeLogsNotification } from '../../src/core/decode/index.ts';
import type { DecodedTransaction } from '../../src/core/types.ts';

/** What the live watch tells the collector. */
export interface LiveWatchEvents {
  /**
   * a pump transaction landed: its logs decoded (`decodeLogsNotification`: events, instruction
   * names, `err`; no accounts, no blockTime). The collector takes it as it is when the logs are
   * enough (`takeFromLogs`) and fetches it otherwise.
   */
  onNotification: (transaction: DecodedTransaction) => void;
  /** the subscription (re)connected: anything missed while it was down is found by reconciling with getSignaturesForAddress */
  onConnected: () => void;
}

/** A logsNotification's `result` as the RPC sends it (plain JSON). */
interface LogsNotification {
  context: { slot: number };
  value: { signature: string; err: unknown; logs: string[] };
}

/** The one subscription the live watch makes: `logsSubscribe` / `logsUnsubscribe`. */
type LogsSubscriptionsApi = {
  logsNotifications(filter: { mentions: [string] }, config: { commitment: 'confirmed' }): LogsNotification;
};

/**
 * A subscriptions client for `logsSubscribe` alone, from kit's parts: its default transport (channel
 * pooling, keep-alive pings) with the plain-JSON channel (`createDefaultRpcSubscriptionsChannelCreator`),
 * and its pub/sub subscription plan with notifications passed on as parsed.
 *
 * `createSolanaRpcSubscriptions` would parse each message with its bigint parser (which rewrites every
 * integer of the text character by character: 44 % of the live collector's CPU in an earlier profile
 * of the bench's live run) and then walk every notification to upcast its numbers to bigint (the
 * WebSocket receive path took 1,523 ms of CPU with that walk and 1,067 ms without it, in profiles of
 * three live bench rounds). Neither is needed: a logsNotification holds no integer beyond 2^53 (its
 * slot, and in `err` an instruction index and a u32 custom code), so plain `JSON.parse` is exact and
 * the numbers stay numbers. The notification's shape is checked by `decodeLogsNotification`.
 */
function logsSubscriptions(wsUrl: string) {
  const api = createRpcSubscriptionsApi<LogsSubscriptionsApi>({
    planExecutor: ({ request, ...rest }) =>
      executeRpcPubSubSubscriptionPlan({
        ...rest,
        responseTransformer: (notification: unknown) => notification as never,
        subscribeRequest: { ...request, methodName: 'logsSubscribe' },
        unsubscribeMethodName: 'logsUnsubscribe',
      }),
  });
  return createSubscriptionRpc({ api, transport: createDefaultRpcSubscriptionsTransport({ createChannel: createDefaultRpcSubscriptionsChannelCreator({ url: wsUrl }) }) });
}

/**
 * A notification decoded from its logs, or null when it is not a logsNotification with a signature
 * (a provider's malformed or unexpected message). Such a message is skipped, not fatal: the
 * subscription stays up, and the transaction, if there is one, is still found by the catch-up from
 * the program's signature history (getSignaturesForAddress), which never relies on notifications.
 */
export function heardTransaction(notification: unknown): DecodedTransaction | null {
  let tx: DecodedTransaction;
  try {
    tx = decodeLogsNotification(notification);
  } catch {
    return null;
  }
  return tx.signature === '' ? null : tx;
}

/** How often, at most, the live watch reports notifications it skipped (ms). */
export const SKIPPED_REPORT_MS = 60_000;

/**
 * Counts the notifications the live watch skipped and reports them as a warning with the message's
 * top-level keys, never its content: the first at once, then at most one warning every
 * {@link SKIPPED_REPORT_MS} (at the first skip after it), carrying the count since the last one,
 * so a provider sending many cannot flood the log.
 */
class SkippedNotifications {
  private count = 0;
  private reportedMs = -Infinity;

  constructor(private readonly log: Logger) {}

  note(message: unknown): void {
    this.count++;
    const now = Date.now();
    if (now - this.reportedMs < SKIPPED_REPORT_MS) return;
    this.reportedMs = now;
    const keys = typeof message === 'object' && message !== null ? Object.keys(message).slice(0, 10) : [typeof message];
    this.log.warn({ skipped: this.count, keys }, 'live watch skipped notifications that are not logsNotifications with a signature; the catch-up reads those transactions from the signature history');
    this.count = 0;
  }
}

/** First reconnect delay (ms); doubled to at most {@link MAX_BACKOFF_MS}, reset once connected. */
const FIRST_BACKOFF_MS = 250;
const MAX_BACKOFF_MS = 15_000;

/**
 * The live watch (issue 3 "Live watch"): `logsSubscribe` with `mentions` = the pump program over
 * `wsUrl`, decoding each notification's logs (events from `Program data:`), and reconnecting with
 * exponential backoff when the connection drops. Each decoded notification goes to the collector,
 * which wakes, reconciles with getSignaturesForAddress from its cursor (on every wake and every
 * reconnect, so a missed notification or a dropped connection loses nothing), takes a later curve
 * trade from its logs and fetches every other transaction whole. A message that is not a
 * logsNotification with a signature is skipped and counted ({@link heardTransaction}), without
 * dropping the connection. Resolves when `signal` aborts.
 */
export async function watchProgramLogs(wsUrl: string, log: Logger, events: LiveWatchEvents, signal: AbortSignal): Promise<void> {
  let backoff = FIRST_BACKOFF_MS;
  // whether a subscription was ever made: a URL that never connected is named with advice, not called a lost connection
  let everConnected = false;
  const skipped = new SkippedNotifications(log);
  while (!signal.aborted) {
    const ac = new AbortController();
    const stop = () => ac.abort();
    signal.addEventListener('abort', stop, { once: true });
    try {
      const subs = logsSubscriptions(wsUrl);
      const stream = await subs.logsNotifications({ mentions: [PUMP_PROGRAM_ID] }, { commitment: 'confirmed' }).subscribe({ abortSignal: ac.signal });
      log.info({ wsUrl: redactUrl(wsUrl) }, `WebSocket ${redactUrl(wsUrl)}: subscribed to the pump program logs`);
      backoff = FIRST_BACKOFF_MS;
      everConnected = true;
      events.onConnected();
      for await (const n of stream) {
        const tx = heardTransaction(n);
        if (tx) events.onNotification(tx);
        else skipped.note(n);
      }
      if (!signal.aborted) log.warn('live watch stream ended; reconnecting');
    } catch (err) {
      if (signal.aborted) break;
      if (everConnected) log.warn({ err: redactIn(String(err), wsUrl), retryInMs: backoff }, 'live watch connection lost; reconnecting with backoff');
      else {
        log.warn(
          { err: redactIn(String(err), wsUrl), retryInMs: backoff },
          `cannot reach WebSocket ${redactUrl(wsUrl)}: check SOLANA_WS_URL (default: SOLANA_RPC_URL with ws:// or wss://); it is tried again, and until then new launches are found by polling every POLL_INTERVAL_MS`,
        );
      }
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
