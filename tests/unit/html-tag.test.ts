import { describe, expect, it } from 'vitest';
import { html as honoHtml, raw } from 'hono/html';
import { html, htmlValue } from '../../src/render/html-tag.ts';

/** src/render/html-tag.ts against hono's own `html` tag: the same text for every kind of value. */

const VALUES: unknown[] = [
  '',
  'plain',
  `<a href="x" title='y'>&amp; ></a>`,
  '\u202egnp.exe',
  0,
  -0,
  1.5,
  NaN,
  Infinity,
  12345678901234567890,
  true,
  false,
  null,
  undefined,
  10n,
  raw('<b>kept</b>'),
  honoHtml`<i>${'<x>'}</i>`,
  ['a<', 1, null, [raw('<br>'), ['"q"', false, [2n]]]],
  // eslint-disable-next-line no-sparse-arrays
  [, 'hole', ,],
  { toString: () => '<obj>' },
  new Date(0),
];

describe('html tag', () => {
  it("gives hono's text for each kind of value, alone and together", () => {
    for (const v of VALUES) {
      expect(html`<p title="${v}">${v}</p>`.toString()).toBe(honoHtml`<p title="${v}">${v}</p>`.toString());
    }
    expect(html`${VALUES[0]}${VALUES[2]}-${VALUES[17]}${VALUES[15]}${VALUES[5]}${VALUES[10]}`.toString()).toBe(
      honoHtml`${VALUES[0]}${VALUES[2]}-${VALUES[17]}${VALUES[15]}${VALUES[5]}${VALUES[10]}`.toString(),
    );
  });

  it('returns markup that nests as hono markup does', () => {
    const inner = html`<b>${'<x>'}</b>`;
    expect((inner as unknown as { isEscaped: boolean }).isEscaped).toBe(true);
    expect(honoHtml`<p>${inner}</p>`.toString()).toBe('<p><b>&lt;x&gt;</b></p>');
    expect(html`<p>${[inner, inner]}</p>`.toString()).toBe('<p><b>&lt;x&gt;</b><b>&lt;x&gt;</b></p>');
  });

  it("hands a value only hono's tag resolves (a Promise) to hono's tag", async () => {
    const out = html`<p>${Promise.resolve('<x>')}</p>`;
    expect(out).toBeInstanceOf(Promise);
    expect((await out).toString()).toBe((await honoHtml`<p>${Promise.resolve('<x>')}</p>`).toString());
  });

  it("htmlValue inserts one value as the tag does, and leaves a Promise to hono's tag", () => {
    for (const v of VALUES) expect(htmlValue(v)).toBe(honoHtml`${v}`.toString());
    expect(htmlValue(Promise.resolve('x'))).toBeNull();
  });
});
