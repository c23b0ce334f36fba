/**
 * The live watch on a WebSocket URL that never connects: its warning names the URL and the setting
 * to check (an operator saw only "live watch connection lost; reconnecting with backoff", though it
 * had never connected, for a wrong SOLANA_WS_URL).
 */
import { expect, it } from 'vitest';
import { createServer } from 'node:net';
import { watchProgramLogs } from '../../collector/source/live-watch.ts';
import type { Logger } from '../../src/log.ts';

it('a URL that never connected: "cannot reach WebSocket <url>: check SOLANA_WS_URL", not "connection lost"', async () => {
  // a port nothing listens on: taken, then freed
  const port = await new Promise<number>((ok) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const p = (s.address() as { port: number }).port;
      s.close(() => ok(p));
    });
  });
  const lines: string[] = [];
  const ac = new AbortController();
  const log = { info: () => undefined, debug: () => undefined, warn: (_f: unknown, msg: string) => (lines.push(msg), ac.abort()), error: () => undefined } as unknown as Logger;
  await watchProgramLogs(`ws://127.0.0.1:${port}`, log, { onConnected: () => undefined, onNotification: () => undefined }, ac.signal);
  expect(lines[0]).toBe(`cannot reach WebSocket ws://127.0.0.1:${port}: check SOLANA_WS_URL (default: SOLANA_RPC_URL with ws:// or wss://); it is tried again, and until then new launches are found by polling every POLL_INTERVAL_MS`);
}, 20_000);
