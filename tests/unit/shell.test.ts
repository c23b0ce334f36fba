import { describe, expect, it } from 'vitest';
import { html, raw } from 'hono/html';
import { DEMO_BANNER, renderPage, STYLESHEET_PATH, type Html, type PageMeta, type ShellOptions } from '../../src/render/shell.ts';

/**
 * The page frame (src/render/shell.ts) builds its document as one string; the reference below is
 * the `html`-tag template it replaced, kept here verbatim: both must give the same bytes for any
 * page, hostile values included.
 */

const SITE_NAME = 'Launch-provenance archive';

function reference(meta: PageMeta, body: Html | string, opts: ShellOptions = {}): string {
  const description = meta.description ?? '';
  const page = html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${meta.title}</title>
${description ? html`<meta name="description" content="${description}">` : ''}
${meta.noindex ? html`<meta name="robots" content="noindex">` : ''}
${meta.canonicalUrl ? html`<link rel="canonical" href="${meta.canonicalUrl}">` : ''}
<meta property="og:site_name" content="${SITE_NAME}">
<meta property="og:title" content="${meta.title}">
${description ? html`<meta property="og:description" content="${description}">` : ''}
<meta property="og:type" content="${meta.ogType ?? 'website'}">
${meta.canonicalUrl ? html`<meta property="og:url" content="${meta.canonicalUrl}">` : ''}
<meta name="twitter:card" content="summary">
<meta name="twitter:title" content="${meta.title}">
${description ? html`<meta name="twitter:description" content="${description}">` : ''}
<link rel="stylesheet" href="${STYLESHEET_PATH}">
${meta.head ?? ''}
</head>
<body>
<header class="site">
<a id="home" class="home" href="/">${SITE_NAME}</a>
<form id="search" class="search" action="/search" method="get" role="search">
<label for="q" class="vh">Search by mint, creator wallet, name or symbol</label>
<input id="q" name="q" type="search" maxlength="200" placeholder="Mint, name or symbol" value="${opts.query ?? ''}" autocomplete="off" spellcheck="false">
<button type="submit">Search</button>
</form>
</header>
${opts.demo ? html`<p class="demo" id="demo">${DEMO_BANNER}</p>` : ''}
<main>
${body}
</main>
<footer class="site">
<nav><a href="/">Home</a><a href="/status.html">Status</a><a href="/methodology.html">Methodology</a><a href="/api.html">API</a><a href="/pricing">Keys</a>${
    opts.contactEmail ? html`<a href="mailto:${opts.contactEmail}">Report a wrong record</a>` : ''
  }</nav>
<p>Chain-derived records of pump.fun bonding-curve launches. Not a price feed, not a signal and not advice. Token names, symbols and URIs are the creators' own words, shown as text.</p>
</footer>
</body>
</html>
`;
  if (page instanceof Promise) throw new Error('page template must render synchronously');
  return page.toString();
}

const HOSTILE = `<script>x</script>"'&><img onerror=1>\u202Eevil`;

describe('renderPage', () => {
  it('gives the bytes of the html-tag template it replaced', () => {
    const metas: PageMeta[] = [
      { title: 'Not found', noindex: true },
      { title: HOSTILE, description: HOSTILE, canonicalUrl: `https://archive.example/t/${HOSTILE}`, ogType: 'article', head: html`<link rel="alternate" type="application/json" href="/d/${HOSTILE}">` as Html },
      { title: 'Home', description: 'The archive', canonicalUrl: 'https://archive.example/', ogType: 'website', head: '<b>as text</b>' },
      { title: '', description: '', canonicalUrl: '' },
    ];
    const bodies: (Html | string)[] = [html`<h1>${HOSTILE}</h1><p>${['a', html`<i>b</i>`, 3]}</p>` as Html, HOSTILE, raw('<p>raw</p>'), ''];
    const options: ShellOptions[] = [{}, { demo: true }, { query: HOSTILE, contactEmail: `a"b@example.com` }, { demo: false, query: '', contactEmail: '' }];
    let n = 0;
    for (const meta of metas) for (const body of bodies) for (const opts of options) {
      expect(renderPage(meta, body, opts), `case ${n++}`).toBe(reference(meta, body, opts));
    }
    expect(renderPage(metas[0]!, bodies[0]!)).toBe(reference(metas[0]!, bodies[0]!));
  });
});
