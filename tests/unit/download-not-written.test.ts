/**
 * A bulk download asked for before the collector has written it (a new archive): 404 `not_found`
 * saying the file is not written yet and when it will be, with the daily count's `RateLimit` fields
 * as on every counted answer (docs/api.md "Errors"). An API reviewer met a 404 without them, telling
 * a client with the right URL to check its path against the documentation.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { createLogger } from '../../src/log.ts';
import { createDeps, type Deps } from '../../src/server/deps.ts';
import { handleDownload } from '../../src/server/downloads.ts';

let dir: string;
let deps: Deps;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'lpa-download-'));
  deps = createDeps(loadConfig({ DATA_DIR: dir }), { now: () => Date.parse('2026-11-28T06:00:00.000Z'), curveStatus: async () => 'never', log: createLogger('silent') });
});
afterEach(() => {
  deps.publicStore.close();
  rmSync(dir, { recursive: true, force: true });
});

it('a download not written yet: 404 not_found that says so and when, with RateLimit, counted once', async () => {
  const { key } = await deps.keys.create('downloads test');
  for (const name of ['record.db', 'documents.ndjson.gz'] as const) {
    const res = await handleDownload(new Request(`http://archive.test/data/${name}`, { headers: { Authorization: `Bearer ${key}` } }), deps, name);
    expect(res.status).toBe(404);
    expect(res.headers.get('ratelimit')).toMatch(/^"daily";r=\d+;t=\d+$/);
    const body = (await res.json()) as { error: string; message: string; finding: { class: string } };
    expect(body).toMatchObject({ error: 'not_found', finding: { class: 'UNKNOWN' } });
    expect(body.message).toBe(`The bulk downloads are not written yet: the collector writes ${name} after its first catch-up, then every 60 min (DOWNLOADS_INTERVAL_MS). Try again later; /api/v1/status says how far the collector is.`);
  }
  // each counted: 10,000 a day less the two asked
  const again = await handleDownload(new Request('http://archive.test/data/record.db', { headers: { Authorization: `Bearer ${key}` } }), deps, 'record.db');
  expect(again.headers.get('ratelimit')).toMatch(/^"daily";r=9997;/);
});

it('on an API node serving generations, a download not shipped to it says so, not that the collector is behind', async () => {
  const { key } = await deps.keys.create('node downloads test');
  const node = { ...deps, generations: {} as unknown as Deps['generations'] } as Deps;
  const res = await handleDownload(new Request('http://archive.test/data/record.db', { headers: { Authorization: `Bearer ${key}` } }), node, 'record.db');
  expect(res.status).toBe(404);
  const body = (await res.json()) as { message: string };
  expect(body.message).toContain('have not reached this API node yet');
  expect(body.message).not.toContain('first catch-up');
});
