import { html as honoHtml, raw } from 'hono/html';
import { esc } from './escape.ts';

/**
 * The `html` template tag of `hono/html`, with its output and escaping, without its per-value
 * work: hono's tag makes an array for every value it inserts (`flat(Infinity)` or `[value]`) and
 * writes through a one-element buffer, which was most of the token page's own markup time (issue
 * 23, page speed). Values are inserted as hono's tag inserts them: a string escaped (`esc`, the same
 * five characters and entities), a number as JavaScript prints it, nothing for a boolean, null or
 * undefined, markup the tag built (`isEscaped`) as it is, an array flattened, anything else by its
 * `toString()` escaped. A value only hono's tag can resolve (a Promise, markup carrying callbacks)
 * sends the whole template through hono's tag instead, so the answer is always the same as hono's.
 * Pure: no I/O.
 * @example html`<p title="${'a"b'}">${html`<b>x</b>`}</p>`.toString() // '<p title="a&quot;b"><b>x</b></p>'
 */
export function html(strings: TemplateStringsArray, ...values: unknown[]): ReturnType<typeof honoHtml> {
  let out = strings[0]!;
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    // the common cases first, inline: an escaped string and markup of this tag
    const s = typeof v === 'string' ? esc(v) : part(v);
    if (s === null) return honoHtml(strings, ...values);
    out += s + strings[i + 1]!;
  }
  return raw(out);
}

/**
 * A value as this tag (and hono's) inserts it, or null when only hono's tag can (Promise,
 * callbacks): for markup built as a string around a value of any kind.
 * @example htmlValue('a<b') // 'a&lt;b'; htmlValue(null) // ''
 */
export function htmlValue(v: unknown): string | null {
  return part(v);
}

/** A value as hono's tag inserts it, or null when only hono's tag can (Promise, callbacks). */
function part(v: unknown): string | null {
  if (typeof v === 'string') return esc(v);
  if (typeof v === 'number') return '' + v;
  if (typeof v === 'boolean' || v === null || v === undefined) return '';
  if (Array.isArray(v)) {
    let s = '';
    for (let i = 0; i < v.length; i++) {
      const p = part(v[i]);
      if (p === null) return null;
      s += p;
    }
    return s;
  }
  if (typeof v === 'object' && (v as { isEscaped?: boolean }).isEscaped) {
    if ((v as { callbacks?: unknown }).callbacks) return null;
    const t = (v as { toString(): unknown }).toString();
    return typeof t === 'string' ? t : null;
  }
  if (v instanceof Promise) return null;
  return esc(String((v as { toString(): unknown }).toString()));
}

/**
 * `items.map(f).join('')`, the same text, built by appending: no array of the parts and no
 * flattened copy of them (a table's rows, joined, were a page's largest copies; issue 23).
 * @example joinMap(['a', 'b'], (s, i) => `<li>${i}${s}</li>`) // '<li>0a</li><li>1b</li>'
 */
export function joinMap<T>(items: readonly T[], f: (item: T, index: number) => string): string {
  let out = '';
  for (let i = 0; i < items.length; i++) out += f(items[i]!, i);
  return out;
}
