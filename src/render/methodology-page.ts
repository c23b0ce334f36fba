import { Marked } from 'marked';
import { html, raw } from 'hono/html';
import { renderPage } from './shell.ts';
import type { SitePageOptions } from './home-page.ts';

/**
 * `/methodology.html` and `/api.html`: docs/methodology.md and docs/api.md (the repository's own
 * files) as pages of the site's frame, rendered with `marked`. Links to those documents go to their
 * pages; a link to another repository file (not served) is shown as its text. Raw HTML in the Markdown is shown as text, not passed through,
 * and links keep only http(s), relative and fragment targets. Pure: no I/O.
 */

type Html = ReturnType<typeof raw>;

const escapeHtml = (s: string) => s.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;');

/** Heading ids given in the document being parsed, with how often each was given (emptied before each parse). */
const headingIds = new Map<string, number>();

/**
 * A heading's anchor as GitHub makes it (so `#what-changed-from-markers-v1` in the documents works
 * on the site too): its text lower-cased, punctuation other than `-` and `_` dropped, spaces `-`.
 * Pure; a repeated heading gets `-1`, `-2`, … from the renderer ({@link uniqueHeadingId}).
 * @example headingSlug('What changed from `markers-v1`') // 'what-changed-from-markers-v1'
 */
export function headingSlug(text: string): string {
  return text.toLowerCase().replace(/[^\p{L}\p{N}\p{M} _-]/gu, '').trim().replace(/ /g, '-');
}

/** The id of a heading in the document being parsed: its slug, `-1`, `-2`, … when repeated (as on GitHub). */
function uniqueHeadingId(text: string): string {
  const base = headingSlug(text);
  const seen = headingIds.get(base);
  headingIds.set(base, (seen ?? -1) + 1);
  return seen === undefined ? base : `${base}-${seen + 1}`;
}

/** The href given to a link to a repository file the site does not serve: rendered as its text. */
const UNSERVED = '#lpa-unserved-file';

const marked = new Marked({
  gfm: true,
  hooks: {
    preprocess(markdown) {
      headingIds.clear();
      return markdown;
    },
  },
  renderer: {
    // raw HTML blocks and inline tags are shown as text
    html: ({ text }) => escapeHtml(text),
    // a link to a repository file the site does not serve is its text (it was a link to `#`)
    link({ href, tokens }) {
      return href === UNSERVED ? this.parser.parseInline(tokens) : false;
    },
    heading({ tokens, depth, text }) {
      return `<h${depth} id="${escapeHtml(uniqueHeadingId(text))}">${this.parser.parseInline(tokens)}</h${depth}>\n`;
    },
  },
  walkTokens(token) {
    if (token.type !== 'link' && token.type !== 'image') return;
    // the repository's documents that are pages of the site link to those pages
    const doc = /^(?:\.{0,2}\/)?(?:docs\/)?(methodology|api)\.md(#[\w-]*)?$/.exec(token.href);
    if (doc) token.href = `/${doc[1]}.html${doc[2] ?? ''}`;
    else if (/^(?:\.{0,2}\/)?(?:docs\/)?[\w.-]+\.md(#[\w-]*)?$/.test(token.href)) token.href = UNSERVED; // a repository file the site does not serve
    else if (!/^(https?:|\/|#|\.{0,2}\/?[\w.-]+(#[\w-]*)?$)/i.test(token.href)) token.href = '#';
  },
});

/**
 * The Markdown as HTML (synchronous; marked's async mode is off). Each table is wrapped in a region
 * that scrolls sideways when a wide screen is still too narrow for it and can take the keyboard's
 * focus to be scrolled (a table's words keep their width rather than breaking letter by letter); on
 * a phone it stacks (class `stack`: each row a block, each cell led by its column's name from
 * `data-label`), so no row is read by scrolling sideways (a review at 360 px: the methodology's
 * Facts table cut its definitions off). Its code names may break after an underscore. Raw HTML is
 * escaped, so every `<table>`, `<th>`, `<td>` and `<code>` here is marked's own.
 */
export function markdownToHtml(markdown: string): string {
  const out = marked.parse(markdown, { async: false }) as string;
  return out.replace(
    /<table>[\s\S]*?<\/table>/g,
    // a code name in a table may break after its underscores (creator_kept_/majority), not inside its words
    (table) =>
      `<div class="table-scroll" role="region" aria-label="Table" tabindex="0">${stacked(table).replace(/<code>([^<]*)<\/code>/g, (_m, code: string) => `<code>${code.replaceAll('_', '_<wbr>')}</code>`)}</div>`,
  );
}

/** A table of marked's as `<table class="stack">` with each body cell's column name in `data-label` (its header's text, tags dropped: already escaped by marked). */
function stacked(table: string): string {
  const head = /<thead>([\s\S]*?)<\/thead>/.exec(table)?.[1] ?? '';
  const labels = [...head.matchAll(/<th[^>]*>([\s\S]*?)<\/th>/g)].map((m) => m[1]!.replace(/<[^>]*>/g, '').trim());
  const body = table.replace(/<tbody>([\s\S]*?)<\/tbody>/, (_b, rows: string) =>
    `<tbody>${rows.replace(/<tr>([\s\S]*?)<\/tr>/g, (_r, cells: string) => {
      let i = 0;
      return `<tr>${cells.replace(/<td(?=[\s>])/g, () => {
        const label = labels[i++];
        return label ? `<td data-label="${label}"` : '<td';
      })}</tr>`;
    })}</tbody>`,
  );
  return body.replace(/^<table>/, '<table class="stack">');
}

/** The methodology page from the Markdown text of docs/methodology.md. */
export function renderMethodologyPage(markdown: string, o: SitePageOptions): string {
  return docPage(markdown, o, { path: '/methodology.html', title: 'Methodology', description: 'How the archive decodes pump.fun launches, what each marker means, and what it cannot know.' });
}

/**
 * `/api.html`: docs/api.md as a page — the API reference for people on the site (the footer's
 * "API reference", the not-held page, the pricing page), beside the OpenAPI document
 * `/api/v1/openapi.json` for programs.
 */
export function renderApiDocPage(markdown: string, o: SitePageOptions): string {
  return docPage(markdown, o, { path: '/api.html', title: 'API', description: 'The keyed JSON API of the launch-provenance archive: endpoints, fields, errors, limits, rebuilds, bulk downloads.' });
}

/** A repository document as a page of the site's frame: its first heading as the title. */
function docPage(markdown: string, o: SitePageOptions, d: { path: string; title: string; description: string }): string {
  const title = /^#\s+(.+)$/m.exec(markdown)?.[1]?.trim() ?? d.title;
  const body = html`<article class="prose">${raw(markdownToHtml(markdown))}</article>` as Html;
  return renderPage({ title: `${title} — Launch-provenance archive`, description: d.description, canonicalUrl: `${o.baseUrl}${d.path}` }, body, { demo: o.demo, contactEmail: o.contactEmail });
}
