/**
 * Cluster mode (PRIVATE_DB_URL): the creation feed's open streams follow key changes made anywhere.
 * Two built server processes over one PostgreSQL (a throwaway cluster); a stream open on node A
 * ends within STREAM_KEY_CHECK_MS when its key is rotated through node B (`POST /api/v1/keys/rotate`),
 * revoked or stripped of the feed entitlement in PostgreSQL (the operator's `lpa keys` in cluster
 * mode); a stream of another key goes on. The SQLite form: tests/integration/stream.test.ts.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PgPrivateState } from '../../src/db/private-state-pg.ts';
import { KeyService } from '../../src/access/keys.ts';
import { freePort, sleep } from '../helpers/net.ts';
import { startPostgres, type TestPostgres } from '../helpers/postgres.ts';
import { startServerProcess, type ServerProcess } from '../helpers/processes.ts';

const KEY_SECRET = 'f'.repeat(40);
/** STREAM_KEY_CHECK_MS of the nodes under test. */
const KEY_CHECK_MS = 1_000;

let tmp: string;
let pgc: TestPostgres;
let state: PgPrivateState;
let keys: KeyService;
const nodes: ServerProcess[] = [];

beforeAll(async () => {
  tmp = mkdtempSync(join(tmpdir(), 'lpa-cluster-stream-'));
  pgc = startPostgres();
  state = PgPrivateState.open({ url: pgc.url });
  keys = new KeyService(state, KEY_SECRET);
  for (let i = 0; i < 2; i++) {
    nodes.push(
      await startServerProcess({
        ...process.env,
        DATA_DIR: join(tmp, `node-${i}`),
        HOST: '127.0.0.1',
        PORT: String(await freePort()),
        PRIVATE_DB_URL: pgc.url,
        KEY_SECRET,
        STREAM_KEY_CHECK_MS: String(KEY_CHECK_MS),
        STREAM_HEARTBEAT_MS: '200',
        SOLANA_RPC_URL: 'http://127.0.0.1:9',
        LOG_LEVEL: 'warn',
        LOG_FORMAT: 'json',
      }),
    );
  }
}, 90_000);

afterAll(async () => {
  await Promise.all(nodes.map((n) => n.stop()));
  await state?.close();
  pgc?.destroy();
  rmSync(tmp, { recursive: true, force: true });
});

/** A key with the feed entitlement, created in PostgreSQL. */
async function feedKey(label: string): Promise<{ id: number; key: string }> {
  const k = await keys.create(label);
  await state.setFeed(k.id, Date.now());
  return k;
}

/** A stream opened on `base`: resolves when it ends (true) or is still open after `ms` (false). */
async function openStream(base: string, key: string) {
  const ctl = new AbortController();
  const res = await fetch(`${base}/api/v1/stream`, { headers: { Authorization: `Bearer ${key}` }, signal: ctl.signal });
  expect(res.status).toBe(200);
  const reader = res.body!.getReader();
  let text = '';
  const ended = (async () => {
    try {
      for (;;) {
        const r = await reader.read();
        if (r.done) return true;
        text += new TextDecoder().decode(r.value);
      }
    } catch {
      return false; // aborted by the test
    }
  })();
  return { ctl, ended, text: () => text, within: (ms: number) => Promise.race([ended, sleep(ms).then(() => null)]) };
}

describe('cluster mode: open streams follow key changes made on another node or in PostgreSQL', () => {
  const cuts: [string, (k: { id: number; key: string }) => Promise<unknown>][] = [
    [
      'rotated through the other node',
      async (k) => {
        const r = await fetch(`${nodes[1]!.base}/api/v1/keys/rotate`, { method: 'POST', headers: { Authorization: `Bearer ${k.key}` } });
        expect(r.status).toBe(200);
      },
    ],
    ['revoked', (k) => state.revokeKey(k.id, Date.now())],
    ['stripped of the feed entitlement', (k) => state.setFeed(k.id, null)],
  ];

  it.each(cuts)('a key %s: its stream on node A ends within STREAM_KEY_CHECK_MS; another key\'s stream goes on', async (_what, cut) => {
    const [doomedKey, otherKey] = [await feedKey('doomed'), await feedKey('other')];
    const doomed = await openStream(nodes[0]!.base, doomedKey.key);
    const other = await openStream(nodes[0]!.base, otherKey.key);
    await sleep(KEY_CHECK_MS + 200); // a check has passed with both keys allowed
    expect(await doomed.within(0)).toBeNull();
    await cut(doomedKey);
    const cutAt = Date.now();
    const ended = await doomed.within(KEY_CHECK_MS + 4_000);
    expect(ended, 'the stream of the cut key is still open').toBe(true);
    expect(Date.now() - cutAt).toBeLessThan(KEY_CHECK_MS + 1_500); // the bound, plus this machine's slack
    expect(doomed.text()).toContain(': key no longer allowed the feed');
    // the other key's stream is still open and still sending (heartbeats every 200 ms)
    const before = other.text().length;
    await sleep(500);
    expect(other.text().length).toBeGreaterThan(before);
    other.ctl.abort();
    expect(await other.ended).toBe(false);
  }, 30_000);
});
