/**
 * The collector's start lines (issue 24 item 3): one line per endpoint, for people —
 * "RPC <scheme://host>: reachable, slot N" and "WebSocket <scheme://host>: subscribed …", or
 * "cannot reach <scheme://host> (<reason>): <advice for that reason>" — never the URL's path or query.
 * A replay RPC on loopback, and a closed loopback port.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReplayRpc, type ReplayRpc } from '../../devchain/replay/server.ts';
import { collect } from '../../collector/collect.ts';
import { loadConfig } from '../../src/config.ts';
import { createLogger } from '../../src/log.ts';
import { PublicStore } from '../../src/db/public-store.ts';
import { createArchiveRpc } from '../../src/chain/rpc.ts';
import { freePort, sleep } from '../helpers/net.ts';

let tmp: string;
let rpc: ReplayRpc;
beforeAll(async () => {
  tmp = mkdtempSync(join(tmpdir(), 'lpa-startlines-'));
  rpc = await startReplayRpc({ chainDir: join(import.meta.dirname, '../fixtures/chains/mainnet') });
});
afterAll(async () => {
  await rpc?.close();
  rmSync(tmp, { recursive: true, force: true });
});

function run(url: string, wsUrl: string, dir: string) {
  const lines: { level: number; msg: string }[] = [];
  const log = createLogger('info', 'collector', { format: 'json', destination: { write: (s: string) => void lines.push(JSON.parse(s) as { level: number; msg: string }) } });
  const config = loadConfig({ DATA_DIR: join(tmp, dir), SOLANA_RPC_URL: url, SOLANA_WS_URL: wsUrl, LOG_LEVEL: 'info', POLL_INTERVAL_MS: '60000' });
  const store = new PublicStore(config.publicDbPath);
  return { lines, config, store, deps: { config, store, rpc: createArchiveRpc({ url, attempts: 1 }), log } };
}

describe('start lines', () => {
  it('a reachable RPC: "RPC …: reachable, slot N" and "WebSocket …: subscribed", URLs without path or query', async () => {
    const r = run(`${rpc.url}/rpc/secret-path?api-key=hidden`, `${rpc.wsUrl}/ws?api-key=hidden`, 'up');
    const ac = new AbortController();
    const running = collect(r.deps, { once: false, wsUrl: r.config.wsUrl, signal: ac.signal });
    const until = Date.now() + 20_000;
    while (!r.lines.some((l) => l.msg.startsWith('WebSocket')) && Date.now() < until) await sleep(50);
    ac.abort();
    await running;
    r.store.close();
    const msgs = r.lines.map((l) => l.msg);
    expect(msgs).toContain(`RPC ${rpc.url}: reachable, slot ${rpc.slot()}`);
    expect(msgs).toContain(`WebSocket ${rpc.wsUrl}: subscribed to the pump program logs`);
    expect(JSON.stringify(r.lines)).not.toContain('hidden');
    expect(JSON.stringify(r.lines)).not.toContain('secret-path');
  });

  it('an unreachable RPC: "cannot reach … (reason): <what the reason calls for>", and the cron form fails', async () => {
    const port = await freePort();
    const r = run(`http://127.0.0.1:${port}/k/secret-path`, `ws://127.0.0.1:${port}`, 'down');
    await expect(collect(r.deps, { once: true })).rejects.toThrow(/cannot reach/);
    r.store.close();
    const line = r.lines.find((l) => l.msg.startsWith('cannot reach'));
    expect(line?.level).toBe(40);
    expect(line?.msg).toMatch(new RegExp(`^cannot reach http://127\\.0\\.0\\.1:${port} \\(.*ECONNREFUSED.*\\): nothing accepts connections there: the provider is down, or SOLANA_RPC_URL names the wrong host or port; it is tried again$`));
    expect(JSON.stringify(r.lines)).not.toContain('secret-path');
  });
});
