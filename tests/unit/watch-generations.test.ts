/**
 * What an API node says about its generations folder (src/server/watch-generations.ts), from a
 * cluster review: a swap logged once (the file event and the poll share one refresh and both logged
 * it), a folder without a manifest said once (it was silent: the node only answered 503), an older
 * manifest said once, a missing file said as missing (it read "does not match its manifest").
 */
import { describe, expect, it } from 'vitest';
import { watchGenerations } from '../../src/server/watch-generations.ts';
import type { GenerationReader } from '../../src/db/generation-reader.ts';
import type { Logger } from '../../src/log.ts';

type Result = Awaited<ReturnType<GenerationReader['refresh']>>;

/** The watch over a reader whose refreshes answer `results` in turn (then the last again), polled every 2 ms, until all were answered. */
async function watched(results: Result[]): Promise<{ level: string; msg: string }[]> {
  const lines: { level: string; msg: string }[] = [];
  const rec = (level: string) => (_o: unknown, msg: string) => void lines.push({ level, msg });
  const log = { info: rec('info'), warn: rec('warn'), error: rec('error'), debug: () => {} } as unknown as Logger;
  let generation: number | null = null;
  let i = 0;
  const reader = {
    get generation() {
      return generation;
    },
    refresh: async () => {
      const r = results[Math.min(i++, results.length - 1)]!;
      if (typeof r === 'number') generation = r;
      return r;
    },
  } as unknown as GenerationReader;
  const stop = watchGenerations(reader, '/nonexistent/lpa-generations', log, 2); // no folder: the poll alone
  while (i < results.length + 3) await new Promise((r) => setTimeout(r, 2));
  stop();
  return lines;
}

describe('an API node watching its generations folder', () => {
  it('says once that no manifest is there, a missing file as missing, each swap once, an older manifest once', async () => {
    const lines = await watched([
      { reason: 'no_manifest' },
      { reason: 'no_manifest' },
      { reason: 'missing_file', generation: 3 },
      { reason: 'missing_file', generation: 3 },
      3,
      3,
      { reason: 'not_newer' },
      { reason: 'older', generation: 1, served: 3 },
      { reason: 'older', generation: 1, served: 3 },
      4,
    ]);
    expect(lines.map((l) => `${l.level} ${l.msg.split(':')[0]}`)).toEqual([
      'warn no public-database generation in API_GENERATIONS_DIR yet (no manifest.json)',
      'warn public-database generation not served (yet)',
      'info serving public-database generation',
      'warn the manifest names a generation older than the one served',
      'info serving public-database generation',
    ]);
    expect(lines[1]!.msg).toMatch(/its file is not there \(yet\)$/);
  });
});
