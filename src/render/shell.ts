import { html, raw } from 'hono/html';
import { esc } from './escape.ts';

/**
 * The one page frame of the public site: doctype, head (title, description, canonical URL,
 * OpenGraph and Twitter meta, the stylesheet), the site header (home link, search form), an
 * optional demo banner, the body, and the footer. Every page of `src/render/` is written through
 * {@link renderPage}, by the collector (static files) and by the server (dynamic pages), so both
 * give the same bytes for the same input. Pure: no I/O.
 *
 * Escaping: every string passes `hono/html`'s `html` tag, attributes included; only `Html`
 * values built by that tag are inserted as markup. Chain metadata must pass `displayText`
 * (display-text.ts) before it reaches a title or description.
 *
 * Stable hooks used by the browser tests: `a#home` (to `/`), `form#search` with `input#q`
 * (GET `/search?q=`), `p#demo` (the demo banner), `footer.site`.
 */

/** Markup made by the `html` tag (already escaped). */
export type Html = ReturnType<typeof raw>;

/** Where the stylesheet is served: `public/site.css`, copied by the collector next to the pages. */
export const STYLESHEET_PATH = '/site.css';

/**
 * The Content-Security-Policy of every HTML page (CSP Level 3): nothing loads but the site's own
 * stylesheet (`style-src 'self'`: no inline style, no 'unsafe-inline'); no script, no frame, no
 * plugin; the page cannot be framed. `form-action` is left open because the pricing page's form
 * is answered by a redirect to Stripe Checkout, which `form-action 'self'` would block.
 */
export const PAGE_CSP = ["default-src 'none'", "style-src 'self'", "img-src 'self' data:", "base-uri 'none'", "frame-ancestors 'none'"].join('; ');

/**
 * The banner of every demo page (config DEMO): the records are of a replayed, mostly simulated
 * chain. Worded for any page (home, lists, search, a token or creator page), not one record.
 */
export const DEMO_BANNER =
  'Demo data: the records on this site were built from a simulated chain (and a few real mainnet transactions) replayed offline by npm run demo. None is a record of a mainnet launch.';

/** What a page says about itself in its head. */
export interface PageMeta {
  /** `<title>`, `og:title`, `twitter:title` (plain text; escaped here). */
  title: string;
  /** `<meta name=description>`, `og:description` (plain text, one or two sentences). */
  description?: string;
  /** Absolute canonical URL (`baseUrl` + path); also `og:url`. Omitted on error pages. */
  canonicalUrl?: string;
  /** `og:type`: `article` for a record's page, `website` otherwise. */
  ogType?: 'website' | 'article';
  /** Extra head markup (e.g. `<link rel="alternate" type="application/json">`), built with `html`. */
  head?: Html | string;
  /** `noindex` for pages that must not be indexed (search results, errors). */
  noindex?: boolean;
}

/** Site-wide options of a page. */
export interface ShellOptions {
  /** Demo data (config DEMO): the banner is shown above everything else. */
  demo?: boolean;
  /** The search box's current value (the search page). */
  query?: string;
  /** Address for "report a wrong record" (config CONTACT_EMAIL); the footer links it when given. */
  contactEmail?: string;
}

const SITE_NAME = 'Launch-provenance archive';

/**
 * A value as the `html` tag inserts it: markup it built (`Html`) as it is, a string escaped, and
 * nothing for null, undefined or false; null for what only the tag handles (callbacks, promises).
 */
function part(v: Html | string | boolean | null | undefined): string | null {
  if (typeof v === 'string') return esc(v);
  if (v === null || v === undefined || typeof v === 'boolean') return '';
  const o = v as unknown as { isEscaped?: boolean; callbacks?: unknown[]; toString(): unknown };
  if (typeof o === 'object' && o.isEscaped && !o.callbacks) {
    const text = o.toString();
    return typeof text === 'string' ? text : null;
  }
  return null;
}

// the frame's constant markup, escaped once
const SITE = esc(SITE_NAME);
const HEAD_END = `<meta name="twitter:card" content="summary">`;
const SITE_HEADER = `<header class="site">
<a id="home" class="home" href="/">${SITE}</a>
<form id="search" class="search" action="/search" method="get" role="search">
<label for="q" class="vh">Search by mint, creator wallet, name or symbol</label>
<input id="q" name="q" type="search" maxlength="200" placeholder="Mint, name or symbol" value="`;
const DEMO = `<p class="demo" id="demo">${esc(DEMO_BANNER)}</p>`;
const FOOTER_NAV = '<footer class="site">\n<nav><a href="/">Home</a><a href="/status.html">Status</a><a href="/methodology.html">Methodology</a><a href="/api.html">API</a><a href="/pricing">Keys</a>';
const FOOTER_END = `</nav>
<p>Chain-derived records of pump.fun bonding-curve launches. Not a price feed, not a signal and not advice. Token names, symbols and URIs are the creators' own words, shown as text.</p>
</footer>
</body>
</html>
`;

/**
 * The full HTML document of a page. Built as one string, every value through `esc` (the `html`
 * tag's escaping) and the constant markup escaped once: the same bytes as the `html` template
 * this replaced (tests/unit/shell.test.ts keeps it as the reference), without its per-value work
 * on every page written.
 * @example renderPage({ title: 'Not found' }, html`<p>Nothing here.</p>` as Html)
 */
export function renderPage(meta: PageMeta, body: Html | string, opts: ShellOptions = {}): string {
  const head = part(meta.head ?? '');
  const main = part(body);
  if (head === null || main === null) return renderPageTagged(meta, body, opts);
  const description = meta.description ?? '';
  const title = esc(meta.title);
  const d = description ? esc(description) : '';
  const canonical = meta.canonicalUrl ? esc(meta.canonicalUrl) : '';
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title>
${d ? `<meta name="description" content="${d}">` : ''}
${meta.noindex ? `<meta name="robots" content="noindex">` : ''}
${canonical ? `<link rel="canonical" href="${canonical}">` : ''}
<meta property="og:site_name" content="${SITE}">
<meta property="og:title" content="${title}">
${d ? `<meta property="og:description" content="${d}">` : ''}
<meta property="og:type" content="${esc(meta.ogType ?? 'website')}">
${canonical ? `<meta property="og:url" content="${canonical}">` : ''}
${HEAD_END}
<meta name="twitter:title" content="${title}">
${d ? `<meta name="twitter:description" content="${d}">` : ''}
<link rel="stylesheet" href="${esc(STYLESHEET_PATH)}">
${head}
</head>
<body>
${SITE_HEADER}${esc(opts.query ?? '')}" autocomplete="off" spellcheck="false">
<button type="submit">Search</button>
</form>
</header>
${opts.demo ? DEMO : ''}
<main>
${main}
</main>
${FOOTER_NAV}${opts.contactEmail ? `<a href="mailto:${esc(opts.contactEmail)}">Report a wrong record</a>` : ''}${FOOTER_END}`;
}

/** The frame through the `html` tag: for a head or body the tag must resolve itself (callbacks, promises). */
function renderPageTagged(meta: PageMeta, body: Html | string, opts: ShellOptions = {}): string {
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
