import { Marked } from 'marked';
import { html, raw } from 'hono/html';
import { renderPage } from './shell.ts';
import type { SitePageOptions } from './home-page.ts';

/**
 * `/methodology.html`: docs/methodology.md (the repository's own file) as a page of the site's
 * frame, rendered with `marked`. Raw HTML in the Markdown is shown as text, not passed through,
 * and links keep only http(s), relative and fragment targets. Pure: no I/O.
 */

type Html = ReturnType<typeof raw>;

const escapeHtml = (s: string) => s.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;');

const marked = new Marked({
  gfm: true,
  renderer: {
    // raw HTML blocks and inline tags are shown as text
    html: ({ text }) => escapeHtml(text),
  },
  walkTokens(token) {
    if ((token.type === 'link' || token.type === 'image') && !/^(https?:|\/|#|\.{0,2}\/?[\w.-]+(#[\w-]*)?$)/i.test(token.href)) token.href = '#';
  },
});

/**
 * The Markdown as HTML (synchronous; marked's async mode is off). Each table is wrapped in a region
 * that scrolls sideways on a narrow screen and can take the keyboard's focus to be scrolled (a
 * table's words keep their width rather than breaking letter by letter), and its code names may
 * break after an underscore. Raw HTML is escaped, so every `<table>` and `<code>` here is marked's own.
 */
export function markdownToHtml(markdown: string): string {
  const out = marked.parse(markdown, { async: false }) as string;
  return out.replace(
    /<table>[\s\S]*?<\/table>/g,
    // a code name in a table may break after its underscores (creator_kept_/majority), not inside its words
    (table) => `<div class="table-scroll" role="region" aria-label="Table" tabindex="0">${table.replace(/<code>([^<]*)<\/code>/g, (_m, code: string) => `<code>${code.replaceAll('_', '_<wbr>')}</code>`)}</div>`,
  );
}

/** The methodology page from the Markdown text of docs/methodology.md. */
export function renderMethodologyPage(markdown: string, o: SitePageOptions): string {
  const title = /^#\s+(.+)$/m.exec(markdown)?.[1]?.trim() ?? 'Methodology';
  const body = html`<article class="prose">${raw(markdownToHtml(markdown))}</article>` as Html;
  return renderPage(
    { title: `${title} — Launch-provenance archive`, description: 'How the archive decodes pump.fun launches, what each marker means, and what it cannot know.', canonicalUrl: `${o.baseUrl}/methodology.html` },
    body,
    { demo: o.demo, contactEmail: o.contactEmail },
  );
}
