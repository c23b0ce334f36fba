import { describe, expect, it } from 'vitest';
import { displayText, hasHiddenCharacters } from '../../src/render/display-text.ts';
import { renderTokenPage, PAGE_CSP } from '../../src/render/token-page.ts';
import { addressProblem } from '../../src/server/http.ts';
import bs58 from 'bs58';
import { clientErrorResponse, screenRequest } from '../../src/server/front-door.ts';
import { ROUTES, ROUTE_LIST, allowOf, routeFor } from '../../src/server/routes.ts';

/** Issue 21's pure pieces: display text of chain metadata, address messages, the front door's screen, the route table. */

describe('displayText (chain metadata in pages)', () => {
  it('makes bidi controls and C0/C1 control characters visible, keeps other text', () => {
    expect(displayText('evil\u202Egnp.exe')).toBe('evil[U+202E]gnp.exe');
    expect(displayText('a\u2066b\u2069c\u200Ed\u200Fe\u061Cf\u202Ag')).toBe('a[U+2066]b[U+2069]c[U+200E]d[U+200F]e[U+061C]f[U+202A]g');
    expect(displayText('a\u0000b\tc\nd\u007Fe\u0085f\u009Fg')).toBe('a[U+0000]b[U+0009]c[U+000A]d[U+007F]e[U+0085]f[U+009F]g');
    expect(displayText('line\u2028para\u2029end')).toBe('line[U+2028]para[U+2029]end'); // Unicode's own line breaks
    expect(hasHiddenCharacters('pepe\u2028')).toBe(true);
    // characters that draw nothing, with which a name passes for another
    expect(displayText('BO\u200BNK')).toBe('BO[U+200B]NK');
    expect(displayText('a\u00ADb\u034Fc\u115Fd\u1160e\u180Ef\u2060g\u2064h\u3164i\uFEFFj\uFFA0k')).toBe('a[U+00AD]b[U+034F]c[U+115F]d[U+1160]e[U+180E]f[U+2060]g[U+2064]h[U+3164]i[U+FEFF]j[U+FFA0]k');
    expect(hasHiddenCharacters('\uFEFFPEPE')).toBe(true);
    // kept: the joiners and selectors emoji sequences and scripts are written with
    const kept = '👨\u200D🚀 ❤\uFE0F می\u200Cخواهم'; // an emoji sequence, an emoji's presentation selector, Persian's non-joiner
    expect(displayText(kept)).toBe(kept);
    expect(hasHiddenCharacters(kept)).toBe(false);
    expect(displayText('Ünïcødé 🚀 ok')).toBe('Ünïcødé 🚀 ok');
    expect(hasHiddenCharacters('plain')).toBe(false);
    expect(hasHiddenCharacters('x\u202Ey')).toBe(true);
  });

  it('cuts long text at a code point boundary with an ellipsis', () => {
    expect(displayText('N'.repeat(10_240), 120)).toBe('N'.repeat(120) + '…');
    expect(displayText('🚀'.repeat(5), 3)).toBe('🚀🚀🚀…');
  });

  it('the token page shows the override visibly, the title cut, and the only style the one stylesheet the CSP allows', () => {
    const doc = {
      apiVersion: 'v1', methodVersion: 'markers-v1', mint: 'So11111111111111111111111111111111111111112', symbol: 'X\u202E', name: 'evil\u202Egnp.exe' + 'N'.repeat(500),
      uri: 'javascript:alert(1)', venue: 'pump.fun', origin: 'observed', observedAtLaunch: true, settled: true, asOf: { ms: 0, iso: '1970-01-01T00:00:00.000Z' },
      finding: { class: 'UNKNOWN', label: 'l', why: 'w' }, cleanAtBirth: null, launch: null, curveBuyout: null, pool: null, funder: { sharedCohort: null }, flags: [],
      history: { complete: false, transactions: 0, failedTransactions: 0, firstSlot: null, lastSlot: null },
    } as unknown as Parameters<typeof renderTokenPage>[0];
    const page = renderTokenPage(doc, { explorerTxUrl: 'https://solscan.io/tx/', baseUrl: 'http://x', sha256: 'a'.repeat(64) });
    expect(page).not.toMatch(/[\u202A-\u202E]/);
    expect(page).toContain('evil[U+202E]gnp.exe');
    expect(/<title>(.*)<\/title>/.exec(page)![1].length).toBeLessThan(300);
    expect(page).not.toContain('href="javascript:');
    expect(page).not.toMatch(/<style|style=/);
    expect(page).toContain('<link rel="stylesheet" href="/site.css">');
    expect(PAGE_CSP).toContain("style-src 'self'");
    expect(PAGE_CSP).toContain("default-src 'none'");
    expect(PAGE_CSP).toContain("frame-ancestors 'none'");
    expect(PAGE_CSP).not.toContain('unsafe-inline');
  });
});

describe('addressProblem (not_an_address messages)', () => {
  it('names the length, the alphabet, or the decoded size', () => {
    expect(addressProblem('So11111111111111111111111111111111111111112')).toBeNull();
    expect(addressProblem('abc')).toMatch(/32-44 characters \(it has 3\)/);
    expect(addressProblem('0'.repeat(40))).toMatch(/not base58/);
    expect(addressProblem('CWiTGbCiDd8BKtNYNE2boT9fJGFG2MU53Uf6HQk4pump'.toLowerCase())).toMatch(/does not decode to 32 bytes \(it decodes to 33\)/);
  });

  it('answers the same when asked again (addresses found are remembered, refusals are not)', () => {
    const values = ['So11111111111111111111111111111111111111112', 'CWiTGbCiDd8BKtNYNE2boT9fJGFG2MU53Uf6HQk4pump', 'cwitgbcidd8bktnyne2bot9fjgfg2mu53uf6hqk4pump', 'abc', '0'.repeat(40), undefined];
    const first = values.map((v) => addressProblem(v));
    expect(first.map((p) => p === null)).toEqual([true, true, false, false, false, false]);
    for (let i = 0; i < 3; i++) expect(values.map((v) => addressProblem(v))).toEqual(first);
    // more distinct addresses than are remembered: each still answered the same
    const many = Array.from({ length: 5_000 }, (_, i) => bs58.encode(Buffer.alloc(32, i % 256).fill(i >> 8, 0, 1)));
    expect(many.every((a) => addressProblem(a) === null && addressProblem(a) === null)).toBe(true);
    expect(addressProblem(values[2])).toBe(first[2]);
  });
});

describe('screenRequest (the front door)', () => {
  it('TRACE: 405 with Allow on a route, 404 where none is; JSON on the API, a page elsewhere', async () => {
    const api = screenRequest({ method: 'TRACE', target: '/api/v1/status' })!;
    expect(api.status).toBe(405);
    expect(api.headers.get('Allow')).toBe('GET, HEAD, OPTIONS');
    expect(api.headers.get('Access-Control-Allow-Origin')).toBe('*');
    expect(await api.json()).toMatchObject({ error: 'method_not_allowed', finding: { class: 'UNKNOWN' } });
    const page = screenRequest({ method: 'TRACE', target: '/pricing' })!;
    expect(page.status).toBe(405);
    expect(page.headers.get('Content-Type')).toMatch(/^text\/html/);
    expect(screenRequest({ method: 'TRACE', target: '/api/nothing' })!.status).toBe(404);
  });

  it('malformed percent-encoding: 400 bad_request; a body over the limit: 413; an ordinary request passes', async () => {
    const bad = screenRequest({ method: 'GET', target: '/api/v1/token/%zz' })!;
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ error: 'bad_request' });
    expect(screenRequest({ method: 'POST', target: '/billing/webhook', contentLength: String(64 * 1024 + 1) })!.status).toBe(413);
    expect(screenRequest({ method: 'POST', target: '/billing/webhook', contentLength: String(64 * 1024) })).toBeNull();
    expect(screenRequest({ method: 'POST', target: '/api/v1/keys/rotate', contentLength: String(17 * 1024) })!.status).toBe(413);
    expect(screenRequest({ method: 'GET', target: '/api/v1/status' })).toBeNull();
  });

  it('a request Node could not parse is answered by the path on its request line', async () => {
    const r = clientErrorResponse('HPE_HEADER_OVERFLOW', Buffer.from('GET /api/v1/status HTTP/1.1\r\nX: …'));
    expect(r.status).toBe(431);
    expect(await r.json()).toMatchObject({ error: 'headers_too_large', finding: { class: 'UNKNOWN' } });
    expect(clientErrorResponse('ERR_HTTP_REQUEST_TIMEOUT', Buffer.from('GET /pricing HTTP/1.1')).status).toBe(408);
    expect(clientErrorResponse('HPE_INVALID_METHOD', undefined).headers.get('Content-Type')).toMatch(/^text\/html/);
  });
});

describe('the route table', () => {
  it('names every route file and matches its paths', () => {
    expect(routeFor('/api/v1/token/abc')).toBe(ROUTES.token);
    expect(routeFor('/api/v1/keys/rotate')).toBe(ROUTES.rotate);
    expect(routeFor('/api/v1/nothing')).toBe(ROUTES.apiUnknown);
    expect(routeFor('/billing/success')).toBe(ROUTES.success);
    expect(routeFor('/x')).toBe(ROUTES.unknown);
    // other paths under /d and /data answer in the downloads' JSON vocabulary (an API reviewer's typo got an HTML page)
    expect(['/data/other.db', '/data/', '/data', '/d/', '/d/a/b'].map((p) => routeFor(p).name)).toEqual(Array(5).fill('dataUnknown'));
    expect(['/data/record.db', '/d/abc', '/dx', '/database'].map((p) => routeFor(p).name)).toEqual(['recordDb', 'document', 'unknown', 'unknown']);
    expect(allowOf(ROUTES.rotate)).toBe('POST, OPTIONS');
    expect(allowOf(ROUTES.webhook)).toBe('POST, OPTIONS');
    expect(ROUTE_LIST.filter((r) => !r.cors).map((r) => r.name)).toEqual(['success']);
  });
});

describe('a database a newer release migrated', () => {
  it('a writable opening refuses it (DatabaseTooNewError, a configuration error); a read-only one opens it', async () => {
    const { mkdtempSync, rmSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const { openDatabase, DatabaseTooNewError } = await import('../../src/db/open.ts');
    const { PUBLIC_MIGRATIONS } = await import('../../src/db/public-schema.ts');
    const { ConfigError } = await import('../../src/config.ts');
    const dir = mkdtempSync(join(tmpdir(), 'lpa-too-new-'));
    try {
      const path = join(dir, 'public.db');
      const db = openDatabase(path, PUBLIC_MIGRATIONS);
      const known = Math.max(...PUBLIC_MIGRATIONS.map((m) => m.version));
      db.prepare('INSERT INTO schema_migrations (version, name, applied_at_ms) VALUES (?, ?, ?)').run(known + 1, 'newer', 0);
      db.close();
      let err: unknown;
      try {
        openDatabase(path, PUBLIC_MIGRATIONS).close();
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(DatabaseTooNewError);
      expect(err).toBeInstanceOf(ConfigError);
      expect((err as Error).message).toContain(`its migration ${known + 1}; this release knows up to ${known}`);
      const ro = openDatabase(path, PUBLIC_MIGRATIONS, { readonly: true });
      expect(ro.prepare('SELECT max(version) FROM schema_migrations').pluck().get()).toBe(known + 1);
      ro.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
