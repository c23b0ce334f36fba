/**
 * HTML escaping for text and attribute values, the same five characters and entities as
 * `hono/html`'s `html` tag (`&` `<` `>` `"` `'`), for the hot loops of the charts that build their
 * markup as plain strings (a few hundred points per page: the tag's per-call buffers showed in the
 * profile). Every chain-derived or formatted value passes it; only constant markup and numbers do
 * not. Pure: no I/O.
 */

const SPECIAL = /[&<>'"]/;

/**
 * `value` as HTML text or a quoted attribute value.
 * @example esc('<b a="1">') // '&lt;b a=&quot;1&quot;&gt;'
 */
export function esc(value: string): string {
  // `test` first: most values have nothing to escape, and it is the regex's cheapest call
  if (!SPECIAL.test(value)) return value;
  const first = value.search(SPECIAL);
  let out = value.slice(0, first);
  let last = first;
  for (let i = first; i < value.length; i++) {
    let rep: string;
    switch (value.charCodeAt(i)) {
      case 34:
        rep = '&quot;';
        break;
      case 39:
        rep = '&#39;';
        break;
      case 38:
        rep = '&amp;';
        break;
      case 60:
        rep = '&lt;';
        break;
      case 62:
        rep = '&gt;';
        break;
      default:
        continue;
    }
    out += value.slice(last, i) + rep;
    last = i + 1;
  }
  return out + value.slice(last);
}
