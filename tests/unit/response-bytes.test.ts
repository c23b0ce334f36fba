import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { getBase58Decoder, getBase58Encoder } from '@solana/kit';
import { loadConfig } from '../../src/config.ts';
import { canonicalJson } from '../../src/core/canonical.ts';
import { createLogger } from '../../src/log.ts';
import { createDeps, type Deps } from '../../src/server/deps.ts';
import { addressProblem, joinBytes, replyResponse, withFields, withFieldsBytes } from '../../src/server/http.ts';
import { handleToken } from '../../src/server/token.ts';
import { handleTokensBatch } from '../../src/server/tokens-batch.ts';
import { handleLaunches } from '../../src/server/launches.ts';
import { launchDoc, putDoc, randomAddress } from '../helpers/launch-doc.ts';

/**
 * The API's answers copy stored documents as UTF-8 bytes (PublicStore.getLaunchBytes, listLaunches
 * 'bytes', withFieldsBytes) and check addresses with bs58 instead of @solana/kit's BigInt codec.
 * These prove the bytes and the verdicts are the ones the text paths gave.
 */

const toB58 = getBase58Decoder();
const fromB58 = getBase58Encoder();

describe('address check (bs58) agrees with @solana/kit', () => {
  it('says an address is one exactly when kit decodes it to 32 bytes', () => {
    const values: string[] = [];
    for (let n = 0; n < 400; n++) {
      // byte lengths around 32, with leading zero bytes (leading "1"s) now and then
      const len = 29 + (n % 7);
      const bytes = randomBytes(len);
      if (n % 5 === 0) bytes.fill(0, 0, 1 + (n % 3));
      values.push(toB58.decode(bytes));
    }
    // random base58 text of 32-44 characters: some decode to 33 bytes (past 2^256)
    const alphabet = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
    for (let n = 0; n < 400; n++) values.push(Array.from({ length: 32 + (n % 13) }, () => alphabet[Math.floor(Math.random() * 58)]).join(''));
    let addresses = 0;
    for (const v of values) {
      const kit = v.length >= 32 && v.length <= 44 && fromB58.encode(v).length === 32;
      expect(addressProblem(v) === null, v).toBe(kit);
      if (kit) addresses++;
    }
    expect(addresses).toBeGreaterThan(50);
    expect(addresses).toBeLessThan(values.length);
    // the 44-character value past 2^256 is named precisely
    expect(addressProblem('z'.repeat(44))).toMatch(/does not decode to 32 bytes \(it decodes to 33\)/);
  });
});

describe('answers as bytes', () => {
  it('withFieldsBytes gives the bytes of withFields, whatever the text holds', () => {
    const fields = { coverage: { from: 1, gaps: [] }, source: 'https://x/t/é.html', license: 'L ✓' };
    for (const doc of ['{}', '{"a":1}', canonicalJson({ apiVersion: 'v1', name: '🚀 <script>"x"</script> \u202e', n: [1, 'ü'] })]) {
      expect(withFieldsBytes(Buffer.from(doc), fields).toString('utf8')).toBe(withFields(doc, fields));
    }
    // not an object's text: parsed and serialised, as withFields does
    expect(withFieldsBytes(Buffer.from(' {"a":1} '), { b: 2 }).toString()).toBe('{"a":1,"b":2}');
  });

  it('joinBytes gives the bytes of Buffer.concat over the UTF-8 of each part', () => {
    const parts = ['{"a":', Buffer.from('"ドージ 🚀"'), ',"b":"\u202e é"', Buffer.alloc(0), '', Buffer.from('}')];
    const joined = joinBytes(parts);
    expect(joined.equals(Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p) : p))))).toBe(true);
    expect(JSON.parse(joined.toString('utf8'))).toEqual({ a: 'ドージ 🚀', b: '\u202e é' });
    expect(joinBytes([]).length).toBe(0);
  });

  it('joinBytes equals Buffer.concat for runs of texts and buffers of any script, lone surrogates included', () => {
    const texts = ['', 'a', '{"mint":', 'ドージ', '🚀', 'x\ud800y', '\udc00', 'é'.repeat(50), '"', ',"body":'];
    let seed = 3;
    const rnd = (n: number) => (seed = (seed * 48271) % 2147483647) % n;
    for (let k = 0; k < 300; k++) {
      const parts: (string | Buffer)[] = [];
      for (let i = rnd(12); i > 0; i--) parts.push(rnd(3) ? texts[rnd(texts.length)]! : Buffer.from(texts[rnd(texts.length)]!.repeat(1 + rnd(3))));
      const want = Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p, 'utf8') : p)));
      const got = joinBytes(parts);
      expect(got.equals(want), JSON.stringify(parts.map((p) => (typeof p === 'string' ? p : `<${p.toString()}>`)))).toBe(true);
      expect(got.length).toBe(want.length);
    }
  });

  it('replyResponse sends the bytes a string body would have sent, a lone surrogate included', async () => {
    const text = `{"a":"x\ud800y 🚀 é"}`;
    const res = replyResponse({ status: 200, headers: {}, body: text });
    expect(res.headers.get('Content-Length')).toBe(String(Buffer.byteLength(text))); // bytes, not characters
    const ours = Buffer.from(await res.arrayBuffer());
    const web = Buffer.from(await new Response(text).arrayBuffer());
    expect(ours.equals(web)).toBe(true);
    const notModified = replyResponse({ status: 304, headers: {}, body: '' });
    expect(notModified.headers.get('Content-Length')).toBeNull();
    expect((await notModified.arrayBuffer()).byteLength).toBe(0);
  });
});

describe('token, batch and list copy the stored document byte for byte', () => {
  let dir: string;
  let deps: Deps;
  let key: string;
  const NOW = Date.parse('2026-11-20T12:00:00.000Z');

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'lpa-bytes-'));
    const config = loadConfig({ DATA_DIR: dir, PUBLIC_BASE_URL: 'https://archive.example', LICENSE_URL: 'https://example.com/licence' });
    deps = createDeps(config, { now: () => NOW, curveStatus: async () => 'never', log: createLogger('silent') });
    key = (await deps.keys.create('test')).key;
  });
  afterEach(() => {
    deps.publicStore.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** The exact bytes of `"document":<…>` / a body's record inside a response, found by the stored text. */
  const contains = (body: Buffer, stored: string) => body.includes(Buffer.from(stored.slice(0, -1)));

  it('with names in any script, emoji and markup', async () => {
    const names = ['🚀🚀 MOON', 'ドージ', 'שלום \u202e', '<script>alert(1)</script>', '"quoted" \\ back'];
    const docs = names.map((name, i) => launchDoc(randomAddress(), NOW - (i + 1) * 60_000, { name, symbol: name.slice(0, 4) }));
    for (const d of docs) putDoc(deps.publicStore, d, NOW);
    const auth = { headers: { Authorization: `Bearer ${key}` } };

    for (const d of docs) {
      const res = await handleToken(new Request(`http://x/api/v1/token/${d.mint}`, auth), deps, { mint: d.mint });
      expect(res.status).toBe(200);
      const body = Buffer.from(await res.arrayBuffer());
      const stored = deps.publicStore.getLaunch(d.mint)!.document;
      expect(body.subarray(0, Buffer.byteLength(stored) - 1).equals(Buffer.from(stored.slice(0, -1)))).toBe(true);
      const parsed = JSON.parse(body.toString('utf8'));
      expect(parsed.name).toBe(d.name);
      expect(parsed.source).toBe(`https://archive.example/t/${d.mint}.html`);
    }

    const batch = await handleTokensBatch(new Request(`http://x/api/v1/tokens?mints=${docs.map((d) => d.mint).join(',')},abc`, auth), deps, {});
    const batchBody = Buffer.from(await batch.arrayBuffer());
    const results = JSON.parse(batchBody.toString('utf8')).results as { mint: string; status: number; body: { name?: string; error?: string } }[];
    expect(results.map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 400]);
    expect(results.slice(0, 5).map((r) => r.body.name)).toEqual(names);
    expect(results[5]!.body.error).toBe('not_an_address');
    for (const d of docs) expect(contains(batchBody, deps.publicStore.getLaunch(d.mint)!.document)).toBe(true);

    // each batch entry's body is the single call's body, byte for byte (the same clock)
    for (const d of docs) {
      const single = Buffer.from(await (await handleToken(new Request(`http://x/api/v1/token/${d.mint}`, auth), deps, { mint: d.mint })).arrayBuffer());
      expect(batchBody.includes(Buffer.concat([Buffer.from(`{"mint":"${d.mint}","status":200,"body":`), single, Buffer.from('}')]))).toBe(true);
    }
    // the rows read together are the rows read one by one; a mint not held is absent
    const together = deps.publicStore.getLaunchesBytes([...docs.map((d) => d.mint), randomAddress()]);
    expect([...together.keys()].sort()).toEqual(docs.map((d) => d.mint).sort());
    for (const d of docs) expect(together.get(d.mint)).toEqual(deps.publicStore.getLaunchBytes(d.mint));
    expect(deps.publicStore.getLaunchesBytes([]).size).toBe(0);

    const list = await handleLaunches(new Request('http://x/api/v1/launches?limit=10', auth), deps);
    const listBody = Buffer.from(await list.arrayBuffer());
    const page = JSON.parse(listBody.toString('utf8')) as { records: { mint: string; document: { name: string } }[] };
    expect(page.records.map((r) => r.document.name)).toEqual(names);
    for (const d of docs) expect(listBody.includes(Buffer.from(`"document":${deps.publicStore.getLaunch(d.mint)!.document}}`))).toBe(true);
  });
});
