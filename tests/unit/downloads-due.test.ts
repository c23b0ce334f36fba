/**
 * When the collector writes the bulk downloads (collector/publish/downloads.ts downloadsDue): on
 * the interval, and sooner while a young archive more than doubles, so `documents.ndjson.gz` is not
 * left empty for an interval after a first collection that wrote it at 0 records.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DOWNLOADS_GROWTH_MS, downloadsDue, downloadsDueNow, refreshDownloads } from '../../collector/publish/downloads.ts';
import type { CollectDeps } from '../../collector/context.ts';
import { loadConfig } from '../../src/config.ts';
import { createLogger } from '../../src/log.ts';
import { downloadsDir, readManifest } from '../../src/downloads.ts';
import { PublicStore } from '../../src/db/public-store.ts';
import { launchDoc, putDoc, randomAddress } from '../helpers/launch-doc.ts';

const HOUR = 3_600_000;
const base = { hasFiles: true, nowMs: 10 * HOUR, lastMs: 10 * HOUR - 2 * DOWNLOADS_GROWTH_MS, recordsThen: 100, recordsNow: 100, intervalMs: HOUR };

describe('downloadsDue', () => {
  it('is due with no files, and on the interval whatever the records', () => {
    expect(downloadsDue({ ...base, hasFiles: false })).toBe(true);
    expect(downloadsDue(base)).toBe(false);
    expect(downloadsDue({ ...base, lastMs: base.nowMs - HOUR })).toBe(true);
    expect(downloadsDue({ ...base, lastMs: base.nowMs - HOUR + 1 })).toBe(false);
  });

  it('is due sooner when the archive more than doubled, but not within DOWNLOADS_GROWTH_MS of the last', () => {
    expect(downloadsDue({ ...base, recordsNow: 200 })).toBe(false); // doubled exactly: not more than
    expect(downloadsDue({ ...base, recordsNow: 201 })).toBe(true);
    expect(downloadsDue({ ...base, recordsThen: 0, recordsNow: 1 })).toBe(true); // written empty, now holds one
    expect(downloadsDue({ ...base, recordsNow: 10_000, lastMs: base.nowMs - DOWNLOADS_GROWTH_MS + 1 })).toBe(false);
    expect(downloadsDue({ ...base, recordsThen: null, recordsNow: 10_000 })).toBe(false); // files of an earlier version: the interval
  });
});

describe('refreshDownloads over an archive', () => {
  const tmp = mkdtempSync(join(tmpdir(), 'lpa-downloads-due-'));
  afterAll(() => rmSync(tmp, { recursive: true, force: true }));

  it('files written at 0 records are written again a minute later once records arrive; then not until the archive doubles or the interval passes', async () => {
    const store = new PublicStore(join(tmp, 'public.db'));
    let now = Date.UTC(2026, 10, 27, 6, 0, 0);
    const config = loadConfig({ DATA_DIR: tmp, SOLANA_RPC_URL: 'http://127.0.0.1:9', LOG_LEVEL: 'silent' });
    const deps = { store, config, log: createLogger('silent'), now: () => now } as unknown as CollectDeps;
    const writtenAt = () => readManifest(tmp)?.files['documents.ndjson.gz']?.writtenAt.ms ?? null;
    const held = () => gunzipSync(readFileSync(join(downloadsDir(tmp), readManifest(tmp)!.files['documents.ndjson.gz']!.file))).toString('utf8').split('\n').filter(Boolean).length;
    const add = (n: number) => {
      for (let i = 0; i < n; i++) putDoc(store, launchDoc(randomAddress(), now - i * 1000), now);
    };
    await refreshDownloads(deps); // a first collection that had read nothing yet
    expect([writtenAt(), held()]).toEqual([now, 0]);
    const first = now;
    add(190);
    now += 1_000;
    await refreshDownloads(deps);
    expect(writtenAt()).toBe(first); // too soon
    now = first + DOWNLOADS_GROWTH_MS;
    await refreshDownloads(deps);
    expect([writtenAt(), held()]).toEqual([now, 190]);
    const second = now;
    add(100);
    now += 10 * DOWNLOADS_GROWTH_MS;
    await refreshDownloads(deps);
    expect(writtenAt()).toBe(second); // 290 against 190: not doubled
    expect(downloadsDueNow(store, tmp, config.DOWNLOADS_INTERVAL_MS, second + config.DOWNLOADS_INTERVAL_MS)).toBe(true);
    store.close();
  });
});
