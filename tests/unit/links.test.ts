import { describe, expect, it } from 'vitest';
import { explorerOf, httpUrl } from '../../src/render/links.ts';

/** Explorer links (src/render/links.ts): the fast path gives what parsing each URL gives. */

const PREFIXES = [
  'https://solscan.io/tx/',
  'https://explorer.solana.com/tx/',
  'https://solana.fm/tx/',
  'https://Example.COM/tx/',
  'https://example.com/a/../tx/',
  'https://example.com/tx/%2',
  'https://example.com/tx?cluster=devnet&sig=/',
  'https://example.com/tx/#/',
  'https://',
  'https:///',
  ' https://example.com/tx/',
  'javascript:alert(1)//tx/',
  'ftp://example.com/tx/',
  'https://example.com/tx',
];
const VALUES = ['5VERv8NMvzbJMEkV8xnrLkEaWRtSz9CosKDYjCJjBRnbJLgp8uirBgmQpjKhoR4tjF3ZpRzrFmBV6UjKdiSZkQUW', 'e', '..', 'a b', 'x/../y', '%2e', 'Ünï', ''];

describe('explorerOf', () => {
  it('links exactly as httpUrl(prefix + encodeURIComponent(value)) does', () => {
    for (const prefix of PREFIXES) {
      const ex = explorerOf(prefix);
      for (const v of VALUES) expect(ex.tx(v), `${prefix} + ${v}`).toBe(httpUrl(prefix + encodeURIComponent(v)));
    }
  });
});
