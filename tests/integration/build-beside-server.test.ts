/**
 * A build run beside a serving process (`npm run build`, `npm test`, `npm start` of a second
 * checkout) replaces `dist/server/chunks/` with files of new names. Astro imports a route's chunk at
 * that route's first request, so a route first asked for after such a build answered 500 until the
 * server restarted. The built server now loads every route's module before it listens
 * (src/fetch.ts loadEveryModule, src/server/node-entry.ts): this test runs a copy of the build,
 * asks one route, deletes the copy's chunks, and asks every route.
 * Needs `npx astro build`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { ENTRY, startApiNode, type ApiNode } from '../helpers/api-node.ts';
import { rawGet } from '../helpers/net.ts';
import { smallArchive, type SmallArchive } from '../helpers/small-archive.ts';

let archive: SmallArchive;
let build: string;
let node: ApiNode;
let mint: string;
let creator: string;

beforeAll(async () => {
  archive = await smallArchive('lpa-build-beside-', 3, 2711, Date.UTC(2026, 10, 27, 12));
  ({ mint, creator } = archive);
  // a copy of the build inside the tree (its imports resolve from node_modules), deleted below
  const dist = dirname(dirname(ENTRY));
  const scratch = join(resolve(dist, '..'), '.scratch'); // git-ignored
  mkdirSync(scratch, { recursive: true });
  build = mkdtempSync(join(scratch, 'dist-'));
  cpSync(dist, build, { recursive: true });
  node = await startApiNode(archive.dataDir, { SOLANA_RPC_URL: archive.rpc.url }, join(build, 'server', 'entry.mjs'));
}, 120_000);

afterAll(async () => {
  await node?.kill();
  if (build) rmSync(build, { recursive: true, force: true });
  await archive?.close();
});

describe('the built server after its build is replaced on disk', () => {
  it('answers every route as before once dist/server/chunks/ is gone (no 500, nothing logged)', async () => {
    // one route asked (the start's own /api/v1/status), then the build's chunks replaced
    const chunks = join(build, 'server', 'chunks');
    expect(readdirSync(chunks).length).toBeGreaterThan(10);
    rmSync(chunks, { recursive: true });
    expect(existsSync(chunks)).toBe(false);
    const keyed = { authorization: `Bearer ${node.key}` };
    const asked: [string, Record<string, string>?, string?][] = [
      ['/'],
      ['/status.html'],
      ['/methodology.html'],
      ['/api.html'],
      ['/pricing'],
      [`/search?q=${mint}`],
      ['/search?q=a'],
      [`/t/${mint}.html`],
      [`/w/${creator}.html`],
      [`/d/${mint}`],
      ['/lists/latest/1.html'],
      ['/nothing-here'],
      ['/api/v1/openapi.json'],
      ['/api/v1/schemas/launch-record.json'],
      ['/api/v1/launches?limit=2', keyed],
      [`/api/v1/token/${mint}`, keyed],
      [`/api/v1/tokens?mints=${mint}`, keyed],
      [`/api/v1/wallet/${creator}`, keyed],
      ['/api/v1/usage', keyed],
      ['/api/v1/keys/rotate', keyed],
      ['/api/v1/nothing', keyed],
      ['/data/documents.ndjson.gz', keyed, 'HEAD'],
      ['/data/record.db', keyed, 'HEAD'],
      ['/billing/success'],
      ['/api/v1/status', {}, 'OPTIONS'],
      ['/status.html', {}, 'HEAD'],
    ];
    const answers: string[] = [];
    for (const [path, headers, method] of asked) {
      const r = await rawGet(`${node.base}${path}`, headers ?? {}, method ?? 'GET');
      answers.push(`${method ?? 'GET'} ${path} ${r.status}`);
    }
    // every route answered by its own handler: no 500 from a chunk that is no longer there
    expect(answers.filter((a) => / 500$/.test(a)), answers.join('\n')).toEqual([]);
    expect(answers).toContain(`GET /t/${mint}.html 200`);
    expect(answers).toContain(`GET /api/v1/token/${mint} 200`);
    expect(answers).toContain(`GET /api/v1/wallet/${creator} 200`);
    expect(node.log()).not.toMatch(/Cannot find module|ERR_MODULE_NOT_FOUND|could not load/);
  });
});
