/**
 * The collector's start, when the RPC comes up after a few failed reads (collector/run/reach-chain.ts):
 * the folded count of the "cannot reach" lines is written before "reachable", not up to a minute
 * after it as if the outage went on (an operator's review read "repeated 2 times" after "reachable").
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { PublicStore } from '../../src/db/public-store.ts';
import { createLogger } from '../../src/log.ts';
import { reachChain } from '../../collector/run/reach-chain.ts';
import type { CollectDeps } from '../../collector/context.ts';

let dir: string;
let store: PublicStore;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'lpa-reach-log-'));
  store = new PublicStore(join(dir, 'public.db'));
});
afterEach(() => {
  store.close();
  rmSync(dir, { recursive: true, force: true });
});

it('writes the folded "cannot reach" count before the "reachable" line, and none after it', async () => {
  const lines: { msg: string }[] = [];
  const destination = new Writable({ write(chunk, _enc, done) { for (const l of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(l)); done(); } });
  const log = createLogger('info', 'lpa', { format: 'json', destination, foldMs: 60_000 });
  let failures = 3;
  const refused = () => Object.assign(new Error('fetch failed'), { cause: new Error('connect ECONNREFUSED 127.0.0.1:9') });
  const rpc = {
    getSlot: () => ({ send: async () => { if (failures > 0) { failures--; throw refused(); } return 1234n; } }),
    getSignaturesForAddress: () => ({ send: async () => [] }),
  };
  const config = loadConfig({ DATA_DIR: dir, SOLANA_RPC_URL: 'http://127.0.0.1:9', POLL_INTERVAL_MS: '100' });
  const reached = await reachChain({ store, rpc, log, config } as unknown as CollectDeps, { once: false });
  expect(reached?.slot).toBe(1234);
  await new Promise((r) => setTimeout(r, 20));
  const msgs = lines.map((l) => l.msg);
  const reachable = msgs.findIndex((m) => m.includes('reachable, slot 1234'));
  expect(reachable).toBeGreaterThan(0);
  expect(msgs.filter((m) => m.startsWith('cannot reach'))).toHaveLength(2); // the first, then its count
  expect(msgs[reachable - 1]).toMatch(/^cannot reach .* \(repeated 2 times in the last 60 s\)$/);
  expect(msgs.slice(reachable + 1).some((m) => m.includes('repeated'))).toBe(false);
});
