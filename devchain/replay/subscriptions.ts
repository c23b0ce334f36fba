/**
 * The WebSocket side of the replay RPC (JSON-RPC 2.0 over `ws`): logsSubscribe / logsUnsubscribe
 * and slotSubscribe / slotUnsubscribe, with mainnet's notification shapes
 * (`logsNotification {context:{slot}, value:{signature, err, logs}}`, `slotNotification
 * {parent, root, slot}`). Messages without `id` (kit's autoping `ping`) get no answer, as on mainnet.
 */
import type { WebSocket } from 'ws';
import { z } from 'zod';
import { INVALID_REQUEST, METHOD_NOT_FOUND, PARSE_ERROR, RpcError } from './errors.ts';
import { checkPubkey, commitment, config, parseParams, u64 } from './params.ts';
import type { ChainTransaction } from './transaction.ts';
import { stringifyJson } from './json.ts';

type Sub = { id: number; ws: WebSocket } & ({ kind: 'logs'; mentions: string | null; votes: boolean } | { kind: 'slot' });

const VOTE_PROGRAM = 'Vote111111111111111111111111111111111111111';

/** Subscriptions of every connected socket. */
export class SubscriptionHub {
  private nextId = 1;
  private readonly subs = new Map<number, Sub>();
  private readonly sockets = new Set<WebSocket>();

  /**
   * @param count called with the method name of every request received (stats).
   * @param drop called before each logsNotification; true = do not send it (a provider losing one)
   */
  constructor(
    private readonly count: (method: string) => void,
    private readonly drop?: () => boolean,
  ) {}

  /** Serve one connected socket until it closes. */
  attach(ws: WebSocket): void {
    this.sockets.add(ws);
    ws.on('message', (data) => this.onMessage(ws, data.toString()));
    ws.on('close', () => this.detach(ws));
    ws.on('error', () => this.detach(ws));
  }

  private detach(ws: WebSocket): void {
    this.sockets.delete(ws);
    for (const [id, s] of this.subs) if (s.ws === ws) this.subs.delete(id);
  }

  private send(ws: WebSocket, msg: unknown): void {
    if (ws.readyState === ws.OPEN) ws.send(stringifyJson(msg));
  }

  private onMessage(ws: WebSocket, text: string): void {
    let msg: unknown;
    try {
      msg = JSON.parse(text);
    } catch {
      this.send(ws, { jsonrpc: '2.0', error: PARSE_ERROR, id: null });
      return;
    }
    if (Array.isArray(msg)) {
      const out = msg.map((m) => this.handle(ws, m)).filter((r) => r !== null);
      if (msg.length === 0) this.send(ws, { jsonrpc: '2.0', error: INVALID_REQUEST, id: null });
      else if (out.length) this.send(ws, out);
      return;
    }
    const r = this.handle(ws, msg);
    if (r) this.send(ws, r);
  }

  private handle(ws: WebSocket, m: unknown): Record<string, unknown> | null {
    const req = z.looseObject({ jsonrpc: z.literal('2.0'), method: z.string(), params: z.unknown().optional(), id: z.union([z.string(), z.number(), z.null()]).optional() }).safeParse(m);
    if (!req.success) return { jsonrpc: '2.0', error: INVALID_REQUEST, id: null };
    const { method, id } = req.data;
    if (id === undefined) return null; // a notification (e.g. kit's "ping"): no answer
    this.count(method);
    const params = req.data.params == null ? [] : req.data.params;
    try {
      if (!Array.isArray(params)) throw new RpcError(-32602, 'Invalid params: invalid type: map, expected a sequence.');
      return { jsonrpc: '2.0', result: this.call(ws, method, params), id };
    } catch (e) {
      if (e instanceof RpcError) return { jsonrpc: '2.0', error: e.toJson(), id };
      return { jsonrpc: '2.0', error: { code: -32603, message: 'Internal error' }, id };
    }
  }

  private call(ws: WebSocket, method: string, params: unknown[]): unknown {
    switch (method) {
      case 'logsSubscribe': {
        const [filter] = parseParams(params, 1, [
          z.union([z.enum(['all', 'allWithVotes']), z.looseObject({ mentions: z.array(z.string()) })], { error: () => 'unknown variant, expected `all` or `allWithVotes` or `{"mentions": [<address>]}`' }),
          config({ commitment: commitment().optional() }, 'RpcTransactionLogsConfig'),
        ]) as ['all' | 'allWithVotes' | { mentions: string[] }];
        let mentions: string | null = null;
        if (typeof filter === 'object') {
          if (filter.mentions.length !== 1) throw new RpcError(-32602, 'Invalid Request: Only 1 address supported');
          mentions = checkPubkey(filter.mentions[0]);
        }
        const id = this.nextId++;
        this.subs.set(id, { id, ws, kind: 'logs', mentions, votes: filter === 'allWithVotes' });
        return id;
      }
      case 'slotSubscribe': {
        parseParams(params, 0, []);
        const id = this.nextId++;
        this.subs.set(id, { id, ws, kind: 'slot' });
        return id;
      }
      case 'logsUnsubscribe':
      case 'slotUnsubscribe': {
        const [id] = parseParams(params, 1, [u64()]) as [number];
        const s = this.subs.get(id);
        if (!s || s.ws !== ws || s.kind !== (method === 'logsUnsubscribe' ? 'logs' : 'slot')) throw new RpcError(-32602, 'Invalid subscription id.');
        this.subs.delete(id);
        return true;
      }
      default:
        throw new RpcError(METHOD_NOT_FOUND.code, METHOD_NOT_FOUND.message);
    }
  }

  /** Push logsNotification for landed transactions (block order) to every matching subscription. */
  notifyTransactions(txs: ChainTransaction[]): void {
    if (!this.subs.size) return;
    for (const tx of txs) {
      const isVote = tx.accountKeys.includes(VOTE_PROGRAM);
      for (const s of this.subs.values()) {
        if (s.kind !== 'logs') continue;
        if (s.mentions !== null ? !tx.accountKeys.includes(s.mentions) : isVote && !s.votes) continue;
        if (this.drop?.()) continue;
        this.send(s.ws, {
          jsonrpc: '2.0',
          method: 'logsNotification',
          params: { result: { context: { slot: tx.slot }, value: { signature: tx.signature, err: tx.err, logs: tx.logs } }, subscription: s.id },
        });
      }
    }
  }

  /** Push slotNotification for a landed slot. */
  notifySlot(slot: number): void {
    for (const s of this.subs.values()) {
      if (s.kind !== 'slot') continue;
      this.send(s.ws, { jsonrpc: '2.0', method: 'slotNotification', params: { result: { parent: Math.max(0, slot - 1), root: Math.max(0, slot - 32), slot }, subscription: s.id } });
    }
  }

  /** Forced disconnect: terminate every socket without a close handshake (clients see code 1006). */
  dropAll(): void {
    for (const ws of [...this.sockets]) {
      ws.terminate();
      this.detach(ws);
    }
  }
}
