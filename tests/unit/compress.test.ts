/** src/server/compress.ts: the encoding chosen for the written pages' kept copies, and the copies themselves. */
import { describe, expect, it } from 'vitest';
import type { IncomingMessage } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { KEPT_PAGES, chosenEncoding, compressedCopy, compressedPage } from '../../src/server/compress.ts';

const asking = (acceptEncoding?: string) => ({ headers: acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding } }) as IncomingMessage;

describe('chosenEncoding', () => {
  it('prefers br, then gzip, by q-value first; null when nothing but identity is acceptable', () => {
    expect(chosenEncoding(asking())).toBeNull();
    expect(chosenEncoding(asking('gzip, deflate, br'))).toBe('br');
    expect(chosenEncoding(asking('gzip, deflate'))).toBe('gzip');
    expect(chosenEncoding(asking('gzip;q=1, br;q=0.5'))).toBe('gzip');
    expect(chosenEncoding(asking('*'))).toBe('br');
    expect(chosenEncoding(asking('identity'))).toBeNull();
    expect(chosenEncoding(asking('deflate'))).toBeNull();
    expect(chosenEncoding(asking('br;q=0, gzip;q=0'))).toBeNull();
    expect(chosenEncoding(asking(''))).toBeNull();
  });
});

describe('compressedCopy', () => {
  it('decodes to the bytes, is made once per Buffer, and anew for a new version', () => {
    const page = Buffer.from(`<!doctype html><title>x</title>${'<p>launch record</p>'.repeat(500)}`);
    const br = compressedCopy(page, 'br');
    const gz = compressedCopy(page, 'gzip');
    expect(brotliDecompressSync(br).equals(page)).toBe(true);
    expect(gunzipSync(gz).equals(page)).toBe(true);
    expect(br.length).toBeLessThan(page.length / 10);
    expect(compressedCopy(page, 'br')).toBe(br); // kept, not made again
    const next = Buffer.from(page.toString().replace('<title>x', '<title>y'));
    const br2 = compressedCopy(next, 'br');
    expect(br2).not.toBe(br);
    expect(brotliDecompressSync(br2).equals(next)).toBe(true);
  });
});

describe('compressedPage', () => {
  it('keeps a page\'s copy by its ETag, drops the least recently used past KEPT_PAGES', () => {
    const body = `<!doctype html>${'<p>first-30-s buyers</p>'.repeat(200)}`;
    const a = compressedPage('"a"', body, 'gzip');
    expect(gunzipSync(a).toString()).toBe(body);
    expect(compressedPage('"a"', 'ignored: same tag, same page', 'gzip')).toBe(a);
    for (let i = 0; i < KEPT_PAGES; i++) compressedPage(`"p${i}"`, 'x'.repeat(1100), 'gzip');
    // "a" was the least recently used: made again from the bytes given now
    expect(gunzipSync(compressedPage('"a"', body.replace('first', 'second'), 'gzip')).toString()).toContain('second-30-s');
    expect(compressedPage(`"p${KEPT_PAGES - 1}"`, 'not read', 'gzip')).toBeInstanceOf(Buffer);
    expect(gunzipSync(compressedPage(`"p${KEPT_PAGES - 1}"`, 'not read', 'gzip')).toString()).toBe('x'.repeat(1100));
  });
});
