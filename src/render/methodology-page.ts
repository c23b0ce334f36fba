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

/** The Markdown as HTML (synchronous; marked's async mode is off). */
export function markdownToHtml(markdown: string): string {
  return marked.parse(markdown, { async: false }) as string;
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
