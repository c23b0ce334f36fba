/**
 * The typed client (client/src/index.ts) on answers that are not the archive's JSON: a proxy's or
 * load balancer's HTML error page threw a SyntaxError from `res.json()`; it is an
 * UnexpectedAnswerError with the status, the Content-Type and the start of the body.
 */
import { describe, expect, it } from 'vitest';
import { ArchiveClient, ArchiveError, UnexpectedAnswerError } from '../../client/src/index.ts';

const MINT = 'CWiTGbCiDd8BKtNYNE2boT9fJGFG2MU53Uf6HQk4pump';
const answering = (res: () => Response) => new ArchiveClient({ baseUrl: 'https://archive.example', key: 'lpa_test', fetch: async () => res() });

describe('client: an answer that is not the archive JSON', () => {
  it('a 502 HTML page from a proxy: UnexpectedAnswerError, not a SyntaxError', async () => {
    const c = answering(() => new Response('<html><body><h1>502 Bad Gateway</h1></body></html>', { status: 502, headers: { 'Content-Type': 'text/html' } }));
    const e = await c.getToken(MINT).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(UnexpectedAnswerError);
    expect(e).toMatchObject({ status: 502, contentType: 'text/html' });
    expect((e as UnexpectedAnswerError).text).toContain('502 Bad Gateway');
  });

  it('a 200 cut short: UnexpectedAnswerError; a JSON error body is still an ArchiveError with its code', async () => {
    const cut = answering(() => new Response('{"apiVersion":"v1","mint":"CWi', { status: 200, headers: { 'Content-Type': 'application/json' } }));
    expect(await cut.getToken(MINT).catch((x: unknown) => x)).toBeInstanceOf(UnexpectedAnswerError);
    const refused = answering(
      () => new Response(JSON.stringify({ apiVersion: 'v1', error: 'invalid_key', message: 'no such key', finding: { class: 'UNKNOWN' } }), { status: 401, headers: { 'Content-Type': 'application/json' } }),
    );
    const e = await refused.getToken(MINT).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(ArchiveError);
    expect((e as ArchiveError).code).toBe('invalid_key');
  });
});
