/**
 * Chain metadata (a token's name, symbol and URI) is the creator's own text. Shown in a page, a
 * bidirectional override can reorder what a reader sees ("evil\u202Egnp.exe" reads "evilexe.png")
 * and a control character can hide or break text. Pages show it through {@link displayText}; the
 * JSON document keeps the raw value. Pure: no I/O.
 */

/**
 * Bidi controls (Unicode UAX #9): LRM/RLM U+200E–U+200F, embeddings and overrides U+202A–U+202E,
 * isolates U+2066–U+2069, the Arabic letter mark U+061C; every C0 (U+0000–U+001F, U+007F) and
 * C1 (U+0080–U+009F) control character — none is kept, not even tab or newline — the line and
 * paragraph separators U+2028–U+2029 (line breaks too), and the characters that draw nothing, with
 * which a name can pass for another ("BO\u200BNK" reads "BONK"): the soft hyphen U+00AD, the
 * combining grapheme joiner U+034F, the Hangul fillers U+115F, U+1160, U+3164 and U+FFA0, the
 * Mongolian vowel separator U+180E, the zero-width space U+200B, the word joiner and invisible
 * operators U+2060–U+2064, and the zero-width no-break space (byte order mark) U+FEFF. The
 * zero-width joiner and non-joiner (U+200D, U+200C), variation selectors and tag characters are
 * kept: emoji sequences and several scripts are written with them.
 */
// eslint-disable-next-line no-control-regex, no-misleading-character-class
const HIDDEN = /[\u0000-\u001F\u007F-\u009F\u00AD\u034F\u061C\u115F\u1160\u180E\u200B\u200E\u200F\u2028-\u202E\u2060-\u2064\u2066-\u2069\u3164\uFEFF\uFFA0]/gu;

/** Longest text shown in a title or heading, in code points; longer text ends with "…". */
export const DISPLAY_MAX_CHARS = 200;

/**
 * The text of a chain-metadata string as pages show it: each bidi control or control character
 * replaced by a visible `[U+XXXX]`, then cut to `max` code points (with "…"). HTML escaping is
 * still the template's job.
 * @example displayText('evil\u202Egnp.exe') // 'evil[U+202E]gnp.exe'
 */
export function displayText(value: string, max: number = DISPLAY_MAX_CHARS): string {
  const visible = value.replace(HIDDEN, (c) => `[U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}]`);
  // a text of at most `max` UTF-16 units has at most `max` code points: nothing to cut
  if (visible.length <= max) return visible;
  const chars = [...visible];
  return chars.length > max ? chars.slice(0, max).join('') + '…' : visible;
}

/** Does `value` hold a character {@link displayText} makes visible? */
export function hasHiddenCharacters(value: string): boolean {
  HIDDEN.lastIndex = 0;
  const found = HIDDEN.test(value);
  HIDDEN.lastIndex = 0;
  return found;
}
