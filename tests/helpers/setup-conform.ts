import { afterAll } from 'vitest';

/**
 * vitest setupFile: every response the test suite receives through `fetch` from a server on this
 * machine, on an API, document or bulk path, is checked against the OpenAPI document
 * (tests/helpers/conform.ts). A response that does not conform makes that `fetch` reject, and the
 * file fails at the end even if a test caught the rejection — the document cannot drift from the server.
 * The checker is imported on the first response to check: importing it here would load the server's
 * modules before a test file's `vi.mock` of one of them could apply.
 */

/** Paths whose answers are checked: the API, the documents and the bulk files (pages are HTML). Same as conform.ts isChecked. */
const isChecked = (pathname: string) => pathname.startsWith('/api/') || pathname.startsWith('/d/') || pathname.startsWith('/data/');
const violations: string[] = [];
const original = globalThis.fetch;

globalThis.fetch = async function conformingFetch(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
  const response = await original(input, init);
  const url = new URL(input instanceof Request ? input.url : String(input));
  const method = (init?.method ?? (input instanceof Request ? input.method : 'GET')).toUpperCase();
  if (!/^(127\.0\.0\.1|localhost|\[::1\])$/.test(url.hostname) || !isChecked(url.pathname)) return response;
  try {
    const { assertConforms } = await import('./conform.ts');
    await assertConforms(method, url.pathname, response);
  } catch (e) {
    violations.push((e as Error).message);
    throw e;
  }
  return response;
} as typeof fetch;

afterAll(() => {
  if (violations.length > 0) throw new Error(`${violations.length} response(s) did not conform to the OpenAPI document:\n${violations.join('\n')}`);
});
