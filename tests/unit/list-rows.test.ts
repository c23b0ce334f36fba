/**
 * A list row's why (src/render/list-rows.ts glance): a glance of the record's why, cut at a word so
 * an address or a figure is never split (a phone reader met "by the creator (CwrXkXfrv…a3e…" on the
 * home page); the whole why when it fits; hidden characters made visible as everywhere.
 */
import { expect, it } from 'vitest';
import { ROW_WHY_CHARS, glance } from '../../src/render/list-rows.ts';

const ADDRESS = 'CwrXkXfrvQ1pTf7LsNkrNwkWKTo4ougAJ1PPg47MD4e';

it('cuts a long why at the last word before the limit, never inside an address, and says it was cut', () => {
  const why = `The curve was taken within the creation slot by the creator (${ADDRESS}). Two outside wallets bought in the creation slot, and the creator sold within 30 s.`;
  const g = glance(why, 80);
  expect(g.endsWith('…')).toBe(true);
  expect([...g].length).toBeLessThanOrEqual(81);
  expect(why.startsWith(g.slice(0, -1))).toBe(true);
  // the address is whole or absent
  expect(g.includes(ADDRESS) || !g.includes(ADDRESS.slice(0, 6))).toBe(true);
  expect(glance(why, 70)).toBe('The curve was taken within the creation slot by the creator…');
});

it('keeps a why that fits, and makes hidden characters visible', () => {
  expect(glance('Checked over the launch’s complete history.', ROW_WHY_CHARS)).toBe('Checked over the launch’s complete history.');
  expect(glance('a\u202eb', ROW_WHY_CHARS)).toBe('a[U+202E]b');
});
