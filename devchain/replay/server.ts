/**
 * The replay RPC: a local server that answers Solana JSON-RPC 2.0 over HTTP (POST, single and
 * batch) and WebSocket (same port, HTTP upgrade) from a recorded or simulated chain, the way
 * mainnet answers — errors included — so a @solana/kit client cannot tell the difference.
 *
 * Modes: history (default; everything has landed, the slot is chain.json `slot` or the newest
 * slot of the data) and live (a clock starts at `startSlot` and lands one slot every
 * 400 ms / speed; data becomes visible, and logs/slot notifications are pushed, as slots land).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocketServer } from 'ws';
import { z } from 'zod';
import { ChainIndex } from './chain-index.ts';
import { ReplayClock } from './clock.ts';
import { INVALID_REQUEST, METHOD_NOT_FOUND, PARSE_ERROR, RpcError, TOO_MANY_REQUESTS } from './errors.ts';
import { stringifyJson } from './json.ts';
import { type LoadedChain, loadChain } from './load-chain.ts';
import { dropsNotification, ProviderLimiter, type ProviderProfile } from './limiter.ts';
import { HTTP_METHODS, type MethodContext } from './methods.ts';
import { SubscriptionHub } from './subscriptions.ts';
import { normalizeTransaction } from './transaction.ts';

/** A fault to inject into one call (see {@link ReplayRpcOptions.inject}). */
export interface InjectedFault {
  /** answer with this HTTP status (body: the JSON-RPC answer, with `rpcError` if given) */
  httpStatus?: number;
  /** answer this JSON-RPC error instead of the result */
  rpcError?: { code: number; message: string; data?: unknown };
  /** wait this long before answering */
  delayMs?: number;
  /** send only the first half of the body (a well-formed HTTP response holding truncated JSON) */
  truncate?: boolean;
  /** answer this instead of the call's result (given the result): an answer without its meta, of the wrong shape, … */
  rewrite?: (result: unknown) => unknown;
}

/** Options of {@link startReplayRpc}. */
export interface ReplayRpcOptions {
  /** chain folder to load (see load-chain.ts); ignored when `chain` is given */
  chainDir?: string;
  /** an already loaded chain (shared read-only; the server indexes its own copy) */
  chain?: LoadedChain;
  /** port, 0 = random (default 0) */
  port?: number;
  /** default 127.0.0.1 */
  host?: string;
  /** live mode (default false: history mode) */
  live?: boolean;
  /** live clock speed multiplier (default 1 = 400 ms per slot) */
  speed?: number;
  /** live mode: the slot already landed at start (default: first transaction slot − 1) */
  startSlot?: number;
  /** added delay before every HTTP answer, ms */
  latencyMs?: number;
  /**
   * refuse JSON-RPC batches as some providers' plans do: HTTP 403 with a JSON-RPC error
   * (mainnet's own RPC takes them)
   */
  refuseBatches?: boolean;
  /** HTTP requests (a batch counts once) per sliding second; beyond it HTTP 429 as mainnet */
  maxRequestsPerSecond?: number;
  /**
   * a provider's limits (limiter.ts; the soak's profiles): calls per caller and per method answered
   * HTTP 429 with `Retry-After`, a share of logsNotifications dropped, every socket cut periodically
   */
  provider?: ProviderProfile;
  /**
   * Called for every HTTP JSON-RPC call (each element of a batch) with the method, its params and
   * `callNumber` = 1-based count of calls to that method so far (this one included). Return null
   * for a normal answer or a fault. For a batch, `httpStatus`/`truncate`/the longest `delayMs`
   * apply to the whole HTTP answer. WebSocket calls are not injected.
   */
  inject?: (method: string, params: unknown[], callNumber: number) => null | InjectedFault;
}

/** A running replay RPC. */
export interface ReplayRpc {
  /** http://host:port */
  url: string;
  /** ws://host:port */
  wsUrl: string;
  port: number;
  /**
   * `calls`: calls received per method (HTTP and WebSocket, including rate-limited and injected ones;
   * not kit's `ping`); `httpRequests`: HTTP requests received (a batch counts once); with a
   * `provider`: `refused` calls per method (answered 429), `droppedNotifications`, `disconnects`
   */
  stats: { calls: Record<string, number>; httpRequests: number; refused: Record<string, number>; droppedNotifications: number; disconnects: number };
  /** the current (newest landed) slot */
  slot(): number;
  /** transactions held and distinct account addresses */
  counts(): { transactions: number; accounts: number };
  /** land every slot up to `slot` now (pushes notifications); no-op if not ahead of the clock */
  advanceTo(slot: number): void;
  /**
   * Add a transaction (any shape a chain file may hold; it must carry its slot). It lands at its
   * slot: at once (with its notifications) if that slot has landed; in history mode the clock jumps
   * to it; in live mode it waits for the clock. Errors: throws TransactionFormatError.
   */
  addTransaction(tx: unknown): void;
  /** forced disconnect of every WebSocket (no close handshake) */
  dropConnections(): void;
  /** stop the clock, drop sockets, close the server */
  close(): Promise<void>;
}

const MAX_BODY_BYTES = 50 * 1024;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const requestSchema = z.looseObject({
  jsonrpc: z.literal('2.0'),
  method: z.string(),
  params: z.unknown().optional(),
  id: z.union([z.string(), z.number(), z.null()]).optional(),
});

interface CallOutcome {
  response: Record<string, unknown> | null;
  fault: InjectedFault | null;
}

/**
 * Start a replay RPC. Errors: rejects with ChainLoadError for an unreadable chain folder, or the
 * listen error (e.g. EADDRINUSE).
 */
export async function startReplayRpc(opts: ReplayRpcOptions = {}): Promise<ReplayRpc> {
  const chain: LoadedChain = opts.chain ?? (opts.chainDir ? loadChain(opts.chainDir) : { dir: null, transactions: [], accounts: [], slot: null, blockTimes: new Map() });
  const index = new ChainIndex({ transactions: chain.transactions, accounts: chain.accounts, blockTimes: chain.blockTimes });
  const stats = { calls: {} as Record<string, number>, httpRequests: 0, refused: {} as Record<string, number>, droppedNotifications: 0, disconnects: 0 };
  const count = (method: string) => (stats.calls[method] = (stats.calls[method] ?? 0) + 1);
  const provider = opts.provider ? new ProviderLimiter(opts.provider) : null;
  let notifications = 0;
  const dropShare = opts.provider?.dropNotificationShare ?? 0;
  const dropNotification = () => {
    if (!dropsNotification(++notifications, dropShare)) return false;
    stats.droppedNotifications++;
    return true;
  };
  const hub = new SubscriptionHub(count, dropShare > 0 ? dropNotification : undefined);
  const live = opts.live === true;
  const firstSlot = index.txSlots[0];
  const start = live ? (opts.startSlot ?? (firstSlot !== undefined ? firstSlot - 1 : 0)) : (chain.slot ?? index.maxSlot());
  const clock = new ReplayClock({
    start,
    txSlotsBetween: (a, b) => index.txSlotsBetween(a, b),
    onLand: (slot) => {
      hub.notifySlot(slot);
      hub.notifyTransactions(index.inSlot(slot));
    },
  });
  const ctx: MethodContext = { index, slot: () => clock.slot };

  const hits: number[] = [];
  const limited = (): boolean => {
    const max = opts.maxRequestsPerSecond;
    if (!max) return false;
    const now = Date.now();
    while (hits.length && hits[0] <= now - 1000) hits.shift();
    if (hits.length >= max) return true;
    hits.push(now);
    return false;
  };

  const callOne = (m: unknown): CallOutcome => {
    const r = requestSchema.safeParse(m);
    if (!r.success) return { response: { jsonrpc: '2.0', error: INVALID_REQUEST, id: null }, fault: null };
    const { method, id } = r.data;
    const rawParams = r.data.params ?? [];
    const params = Array.isArray(rawParams) ? rawParams : [];
    const callNumber = count(method);
    const fault = opts.inject?.(method, params, callNumber) ?? null;
    let body: Record<string, unknown>;
    if (fault?.rpcError) body = { jsonrpc: '2.0', error: fault.rpcError, id: id ?? null };
    else {
      try {
        if (!Array.isArray(rawParams)) throw new RpcError(-32602, 'Invalid params: invalid type: map, expected a sequence.');
        const handler = Object.hasOwn(HTTP_METHODS, method) ? HTTP_METHODS[method] : undefined;
        if (!handler) throw new RpcError(METHOD_NOT_FOUND.code, METHOD_NOT_FOUND.message);
        const result = handler(params, ctx);
        body = { jsonrpc: '2.0', result: fault?.rewrite ? fault.rewrite(result) : result, id: id ?? null };
      } catch (e) {
        body = { jsonrpc: '2.0', error: e instanceof RpcError ? e.toJson() : { code: -32603, message: 'Internal error' }, id: id ?? null };
      }
    }
    return { response: id === undefined ? null : body, fault };
  };

  const send = (res: ServerResponse, status: number, body: string, truncate = false) => {
    const buf = Buffer.from(body);
    const out = truncate ? buf.subarray(0, Math.floor(buf.length / 2)) : buf;
    res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': out.length });
    res.end(out);
  };

  const onRequest = async (req: IncomingMessage, res: ServerResponse) => {
    if (req.method === 'OPTIONS') {
      res.writeHead(200).end();
      return;
    }
    stats.httpRequests++;
    if (req.method !== 'POST') {
      res.writeHead(405, { 'content-type': 'text/plain' }).end('Used HTTP Method is not allowed. POST or OPTIONS is required');
      return;
    }
    if (!(req.headers['content-type'] ?? '').toLowerCase().includes('application/json')) {
      res.writeHead(415, { 'content-type': 'text/plain' }).end('Supported content type: application/json');
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const c of req) {
      size += (c as Buffer).length;
      if (size > MAX_BODY_BYTES) {
        res.writeHead(413, { 'content-type': 'text/plain', connection: 'close' }).end('Payload Too Large');
        req.destroy();
        return;
      }
      chunks.push(c as Buffer);
    }
    let payload: unknown;
    try {
      payload = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    } catch {
      send(res, 200, stringifyJson({ jsonrpc: '2.0', error: PARSE_ERROR, id: null }));
      return;
    }
    if (limited()) {
      for (const m of Array.isArray(payload) ? payload : [payload]) if (typeof (m as { method?: unknown })?.method === 'string') count((m as { method: string }).method);
      const id = !Array.isArray(payload) ? ((payload as { id?: unknown })?.id ?? null) : null;
      send(res, 429, stringifyJson({ jsonrpc: '2.0', error: TOO_MANY_REQUESTS, id }));
      return;
    }
    if (provider) {
      const methods = (Array.isArray(payload) ? payload : [payload]).map((m) => (m as { method?: unknown })?.method).filter((m): m is string => typeof m === 'string');
      const refusal = provider.admit(req.socket.remoteAddress ?? '', methods, Date.now());
      if (refusal) {
        for (const m of methods) (count(m), (stats.refused[m] = (stats.refused[m] ?? 0) + 1));
        const id = !Array.isArray(payload) ? ((payload as { id?: unknown })?.id ?? null) : null;
        res.setHeader('retry-after', String(refusal.retryAfterS));
        send(res, 429, stringifyJson({ jsonrpc: '2.0', error: TOO_MANY_REQUESTS, id }));
        return;
      }
    }
    if (Array.isArray(payload) && opts.refuseBatches) {
      send(res, 403, stringifyJson({ jsonrpc: '2.0', error: { code: -32403, message: 'Batch requests are not available on this plan' }, id: null }));
      return;
    }
    let body: string | null;
    let faults: InjectedFault[];
    if (Array.isArray(payload)) {
      if (payload.length === 0) {
        body = stringifyJson({ jsonrpc: '2.0', error: INVALID_REQUEST, id: null });
        faults = [];
      } else {
        const outs = payload.map(callOne);
        const answers = outs.map((o) => o.response).filter((r) => r !== null);
        body = answers.length ? stringifyJson(answers) : null;
        faults = outs.map((o) => o.fault).filter((f) => f !== null);
      }
    } else {
      const o = callOne(payload);
      body = o.response ? stringifyJson(o.response) : null;
      faults = o.fault ? [o.fault] : [];
    }
    const delay = (opts.latencyMs ?? 0) + Math.max(0, ...faults.map((f) => f.delayMs ?? 0));
    if (delay > 0) await sleep(delay);
    const status = faults.find((f) => f.httpStatus !== undefined)?.httpStatus ?? 200;
    if (body === null) {
      res.writeHead(status).end();
      return;
    }
    send(res, status, body, faults.some((f) => f.truncate));
  };

  const server = createServer((req, res) => {
    onRequest(req, res).catch(() => {
      if (!res.headersSent) res.writeHead(500).end();
      else res.destroy();
    });
  });
  const wss = new WebSocketServer({ server });
  wss.on('connection', (ws) => hub.attach(ws));

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, opts.host ?? '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  const host = opts.host ?? '127.0.0.1';
  const urlHost = host.includes(':') ? `[${host}]` : host;
  if (live) clock.start(opts.speed ?? 1);
  const cutEvery = opts.provider?.disconnectEveryMs;
  const cutter = cutEvery ? setInterval(() => (hub.dropAll(), stats.disconnects++), cutEvery) : null;
  cutter?.unref();

  return {
    url: `http://${urlHost}:${port}`,
    wsUrl: `ws://${urlHost}:${port}`,
    port,
    stats,
    slot: () => clock.slot,
    counts: () => index.counts(),
    advanceTo: (slot) => clock.advanceTo(slot),
    addTransaction(input) {
      const tx = normalizeTransaction(input);
      if (tx.blockTime === null) tx.blockTime = index.blockTime(tx.slot) ?? null;
      if (!index.addTransaction(tx)) return;
      if (tx.slot <= clock.slot) hub.notifyTransactions([tx]);
      else if (!live) clock.advanceTo(tx.slot);
    },
    dropConnections: () => hub.dropAll(),
    async close() {
      clock.stop();
      if (cutter) clearInterval(cutter);
      hub.dropAll();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
