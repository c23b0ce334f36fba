import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pinnedPages } from '../helpers/pinned-pages.ts';

/**
 * The token page's bytes, pinned (issue 23, page speed): the pages of tests/helpers/pinned-pages.ts
 * (every collected record kind, hostile metadata, the benchmark's 2,000-trade curve, synthetic
 * 2,000-trade curves, documents without transactions) hashed and compared with the sha256 the
 * template gave before its render was optimised. An optimisation must not change a byte; a
 * deliberate change of the page updates this table in its own commit, saying why.
 *
 * The table was generated once from the template as it was, by rendering pinnedPages and printing
 * `[name, sha256(html)]` for each.
 */

const PINNED: [string, string][] = [
  ['records/FINDINGS', '40448136df302798f65d6d8f2435683b66c3a9deec506e63c171d9ff43ded760'],
  ['records/FINDINGS-no-transactions', 'c52afec6df164fafc71b1b4f9347b4c05fc73d8693c2574864a9ae890488772d'],
  ['records/NOTE', '2fdd5faeeb0e01ed9468f7345183258cd5b8a247929d7edc02646c0633f268ea'],
  ['records/NO_MARKERS', '685af9b5cc638f4139fb87ee3b5614eb146f264f32c361685d5bde3ad4de756b'],
  ['records/UNKNOWN', '226474d35b776198434d9bdeccd305d917eeee13cded4ad6784108e042c1b329'],
  ['records/UNKNOWN_NO_CREATION', 'db438ada0030e49d9edc53e29aac10d2a5f1025b77aa03f7ee1ba397e4005c75'],
  ['records/graduated', '7bfda881fcea28a9e74be4793c61b6424d29c314b3add2536d78d5b2924b06b3'],
  ['records/hostile', 'ef9e2d065e06d611e72239c9533fbb5e4767c37f372b0d94383de0ce448e3aaa'],
  ['records/hostile-metadata', 'ce6146bb97526198b4181d05c29e8e8f5f15150a5c1c009d52e754e774ad77da'],
  ['records/hostile-metadata-demo', '48b1673137922bb1f89e3a6061b3a70200bea135577e47a51bd91b4d62649e7d'],
  ['records/rebuilt', '8bb9f085554c5b82d3c2ee8fd9483ceb8f89083f6e2b2ae426dcb5a6b8c1cb49'],
  ['records/v3_migration', 'c701e09c7ec9d7854f4f9327c95d69fe30e4631377b0fdcc1ec6f2292a5d94a9'],
  ['bench/long-curve', 'aaa412094b1073c7a1cdf0cabacbd1da28074b4a7816784a4aaea2ffdc08abdb'],
  ['bench/long-curve-hostile', '402f9e9f240b2067c2bb3fc450a6c77939cb0f3e15fb716122c76f7eb92f57ee'],
  ['synthetic/events-graduated', 'dd247ef9976b92af6d584ee9c52189f45db50079d9f7761a2045f75d9dc24a8f'],
  ['synthetic/trades-sum', 'aaff6c7aba43b46c1e7645043da6983afcac2e0102a4afcff25bae267bd8e886'],
  ['synthetic/usdc-graduated', '5b3e8adf703a5336e0d534527f28bcfc76b89c71f4f64cc15f246f724bbd1962'],
  ['synthetic/short', '31e05178dd5f7a40d28ad49558feff4325b5534414ef070a3d56ac43d4611367'],
  ['doc/no-markers', '2c9b3c8e6e59adb74c5d9a489f16799d947f5939ee5061d3d6d2525eec17f7e6'],
  ['doc/hostile', '544a2bcd64c2330ec93a0a307bb02ca58d275a5918fc5937c4e1f680477c1fe5'],
  ['doc/unknown-no-launch', '22122220d54dac5df9f8b8d34b7e17b851a8de1b913c5490a8b5e772abbe3e1d'],
  ['doc/graduated-pool', 'aebd465b72df57a692973e340cde150906ad67b21db499c2546d43f9ad8a8441'],
];

let tmp: string;
let pages: [string, string][];

beforeAll(async () => {
  tmp = mkdtempSync(join(tmpdir(), 'lpa-pinned-'));
  pages = await pinnedPages(tmp);
}, 300_000);
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('the token page template renders the pinned bytes', () => {
  it('renders every pinned page, in order', () => {
    expect(pages.map(([n]) => n)).toEqual(PINNED.map(([n]) => n));
  });

  it.each(PINNED)('%s', (name, sha256) => {
    const html = pages.find(([n]) => n === name)?.[1];
    expect(html, `no page ${name}`).toBeDefined();
    expect(createHash('sha256').update(html!).digest('hex')).toBe(sha256);
  });

  it('the pinned pages are distinct (a page the inputs did not reach would hash like another)', () => {
    expect(new Set(PINNED.map(([, h]) => h)).size).toBe(PINNED.length);
  });
});
