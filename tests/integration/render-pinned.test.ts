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
 * `[name, sha256(html)]` for each. Regenerated for markers-v4 (methodVersion in the text and the
 * document's sha256 on the page): a line diff against the markers-v3 pages showed nothing else changed.
 */

const PINNED: [string, string][] = [
  ['records/FINDINGS', 'c17b87f87e5341658b7d8eae75d72f6d7e8c3edaab512ff11df9577f769b72f9'],
  ['records/FINDINGS-no-transactions', '41a9ab128009f765992f1c5399561faa026d6b4d20c8e035fe04e06f601ef260'],
  ['records/NOTE', '99f99168b6ba4873cca0b87889ad8429edd0c99d546fec811e145283db3ea46c'],
  ['records/NO_MARKERS', 'fe84523e9b814889c722a65d921741e2c70dad2fc1f509ad3c34da934b657a2a'],
  ['records/UNKNOWN', '3c0ad5b51ebbb60d853e3960d70e7ca4e7891bb4bd9696db7432c69e5a29d839'],
  ['records/UNKNOWN_NO_CREATION', 'b6068ccf1e0fa8ef453a509db5ba590e85fe47226fe6ed6a9a3b01e356c9c24f'],
  ['records/graduated', '7090e64a847809cb0ffb3eb3e510f9868e187fc069fa7d5904754f2ec8106e0f'],
  ['records/hostile', '7896d27f7ab4f45aa6bcdb73aa401046902ed98fc0c3c6f7ed59ac789ea6e7a2'],
  ['records/hostile-metadata', '0e257f2305a600bb2fe90952ca2c3ddea57a158d9412bfaca72fd64611c3e571'],
  ['records/hostile-metadata-demo', 'c8791cbc9afd7e394e08bdcbe805bebc0829abe22f92a0485c44aab0dbfb9c92'],
  ['records/rebuilt', '8937649d57d822bb13c271205a7bf291eed73b2eb8d74a3ac40aa75ea5ef6762'],
  ['records/v3_migration', '520c450cc5625c56ad7dc1926230aed0f6955f2665619dce00826dc22bd5541d'],
  ['bench/long-curve', '9fb14cae2ff087718cfe8155d9f03ae92b8bf53b1066ab51acd8037f88fc304b'],
  ['bench/long-curve-hostile', '6e86943dabe181e1eda590e1765f789eb84550a1e204a5907906333eca46c67a'],
  ['synthetic/events-graduated', '77bdbd312a5e1df22ba4d6c8b9f9dc753fbbacb96cd13134d7208271e963310d'],
  ['synthetic/trades-sum', '934fcb3223aedf12fc99c11cb7b06a2408d6e7227444b9d220915bea01f92b97'],
  ['synthetic/usdc-graduated', '55e9736c8478cee3a79d08037aa119f365ca610217fd0d6898a111ae2c974cbb'],
  ['synthetic/short', '40eacafdda2cfdc2d74a9e344fd2ff41508039e4148021187b9a00f1e5d363da'],
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
