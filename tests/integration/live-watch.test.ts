/**
 * The live watch's handling of messages that are not logsNotifications (collector/source/live-watch.ts,
 * `heardTransaction`): a WebSocket server speaking the RPC's pub/sub protocol sends, on one
 * subscription, notifications of the wrong shape, one without a signature, then a real one (the
 * logs of a mainnet fixture). The bad ones are skipped with one warning; the subscription stays up
 * (no reconnect) and the real one reaches the collector.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import pino from 'pino';
import { WebSocketServer, type WebSocket } from 'ws';
import { afterEach, describe, expect, it } from 'vitest';
import { heardTransaction, watchProgramLogs } from '../../collector/source/live-watch.ts';
import type { DecodedTransaction } from '../../src/core/types.ts';
import { freePort, sleep } from '../helpers/net.ts';

const fixture = JSON.parse(readFileSync(join(import.meta.dirname, '../fixtures/mainnet/pump_2024-08_buy+sell_getTransaction_jsonParsed.json'), 'utf8')) as {
  result: { slot: number; meta: { err: unknown; logMessages: string[] }; transaction: { signatures: string[] } };
};
const good = { context: { slot: fixture.result.slot }, value: { signature: fixture.result.transaction.signatures[0], err: null, logs: fixture.result.meta.logMessages } };

let server: WebSocketServer | null = null;
afterEach(async () => {
  await new Promise<void>((ok) => (server ? server.close(() => ok()) : ok()));
  server = null;
});

/** A pub/sub server: answers logsSubscribe with subscription 7, then sends `results` as its notifications. */
async function serve(results: unknown[]): Promise<{ url: string; subscribes: () => number }> {
  const port = await freePort();
  let subscribes = 0;
  server = new WebSocketServer({ port, host: '127.0.0.1' });
  server.on('connection', (ws: WebSocket) => {
    ws.on('message', (data) => {
      const m = JSON.parse(String(data)) as { id?: number; method: string };
      if (m.method !== 'logsSubscribe') return;
      subscribes++;
      ws.send(JSON.stringify({ jsonrpc: '2.0', result: 7, id: m.id }));
      // after the client has taken the subscription id (a notification before that has no subscriber yet)
      setTimeout(() => {
        for (const result of results) ws.send(JSON.stringify({ jsonrpc: '2.0', method: 'logsNotification', params: { result, subscription: 7 } }));
      }, 100);
    });
  });
  await new Promise<void>((ok) => server!.once('listening', () => ok()));
  return { url: `ws://127.0.0.1:${port}`, subscribes: () => subscribes };
}

describe('live watch', () => {
  it('heardTransaction: a logsNotification decodes; a message of another shape or without a signature is null', () => {
    const tx = heardTransaction(good)!;
    expect(tx.signature).toBe(good.value.signature);
    expect(tx.events.map((e) => e.name)).toContain('TradeEvent');
    expect(heardTransaction({ context: { slot: 1 }, value: { signature: 'x', err: null } })).toBeNull();
    expect(heardTransaction({ context: { slot: 1 }, value: { err: null, logs: good.value.logs } })).toBeNull();
    expect(heardTransaction(null)).toBeNull();
    expect(heardTransaction('logsNotification')).toBeNull();
  });

  it('skips notifications that are not logsNotifications, warns once, and stays subscribed', async () => {
    const bad = [
      { context: { slot: 1 }, value: { signature: 'no-logs', err: null } },
      { unexpected: true },
      { context: { slot: 2 }, value: { err: null, logs: ['Program log: hello'] } },
      null,
    ];
    const { url, subscribes } = await serve([...bad, good]);
    const lines: Record<string, unknown>[] = [];
    const log = pino({ level: 'warn' }, { write: (s: string) => void lines.push(JSON.parse(s) as Record<string, unknown>) });
    const heard: DecodedTransaction[] = [];
    let connected = 0;
    const ac = new AbortController();
    const watching = watchProgramLogs(url, log, { onNotification: (tx) => heard.push(tx), onConnected: () => connected++ }, ac.signal);
    for (const t0 = Date.now(); heard.length === 0 && Date.now() - t0 < 10_000; ) await sleep(10);
    await sleep(300); // time for a reconnect, were there one
    ac.abort();
    await watching;
    expect(heard.map((t) => t.signature)).toEqual([good.value.signature]);
    expect(connected).toBe(1);
    expect(subscribes()).toBe(1);
    const warnings = lines.filter((l) => String(l.msg).includes('skipped notifications'));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]!.skipped).toBe(1);
    expect(lines.some((l) => String(l.msg).includes('reconnecting'))).toBe(false);
  });
});
