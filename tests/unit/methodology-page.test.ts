/**
 * docs/methodology.md as a page (src/render/methodology-page.ts): raw HTML stays text, links keep
 * only safe targets, and a table scrolls sideways in a focusable region on a phone instead of
 * breaking its words letter by letter (a walkthrough at 360 px read "com pleti ng"; axe asks a
 * scrolling region to take the keyboard's focus).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { markdownToHtml, renderApiDocPage } from '../../src/render/methodology-page.ts';

describe('markdownToHtml', () => {
  it('wraps every table in a focusable scrolling region; code names in it may break after underscores', () => {
    const out = markdownToHtml('| code | when |\n|---|---|\n| `creator_kept_majority` | `creatorSupplyPct > 50` |\n\nText `keep_whole`.');
    expect(out).toMatch(/^<div class="table-scroll" role="region" aria-label="Table" tabindex="0"><table class="stack">/);
    // stacked on a phone: each body cell names its column
    expect(out).toContain('<td data-label="code"><code>creator_<wbr>kept_<wbr>majority</code></td>');
    expect(out).toContain('<td data-label="when"><code>creatorSupplyPct &gt; 50</code></td>');
    expect(out).toContain('</table></div>');
    expect(out).toContain('<code>creator_<wbr>kept_<wbr>majority</code>');
    expect(out).toContain('<code>creatorSupplyPct &gt; 50</code>');
    expect(out).toContain('<code>keep_whole</code>'); // outside a table: untouched
  });

  it('shows raw HTML as text and drops unsafe link targets', () => {
    const out = markdownToHtml('<table><script>alert(1)</script></table>\n\nSee [x](javascript:alert(1)) and [y](https://example.com).');
    expect(out).not.toContain('<script>');
    expect(out).not.toContain('class="table-scroll"'); // an escaped <table> is text, not a table
    expect(out).toContain('href="#"');
    expect(out).toContain('href="https://example.com"');
  });

  it('the real docs/methodology.md: every table wrapped, none left bare', () => {
    const out = markdownToHtml(readFileSync(new URL('../../docs/methodology.md', import.meta.url), 'utf8'));
    const tables = out.match(/<table/g)?.length ?? 0;
    expect(tables).toBeGreaterThanOrEqual(3);
    expect(out.match(/<div class="table-scroll" role="region" aria-label="Table" tabindex="0"><table class="stack">/g)?.length).toBe(tables);
    // every body cell of every table carries its column's name
    expect(out.match(/<td(?=[\s>])/g)?.length).toBe(out.match(/<td data-label="[^"]+"/g)?.length);
  });

  it('gives headings GitHub\'s anchors, so the documents\' own links to a section work on the site', () => {
    expect(markdownToHtml('## Rebuilds\n\n## What changed from `markers-v1`\n\n## Rebuilds')).toBe(
      '<h2 id="rebuilds">Rebuilds</h2>\n<h2 id="what-changed-from-markers-v1">What changed from <code>markers-v1</code></h2>\n<h2 id="rebuilds-1">Rebuilds</h2>\n',
    );
    for (const file of ['methodology.md', 'api.md']) {
      const md = readFileSync(new URL(`../../docs/${file}`, import.meta.url), 'utf8');
      const out = markdownToHtml(md);
      const ids = new Set([...out.matchAll(/ id="([^"]+)"/g)].map((m) => m[1]));
      for (const [, anchor] of md.matchAll(/\]\(#([\w-]+)\)/g)) expect(ids.has(anchor), `${file} #${anchor}`).toBe(true);
    }
  });

  it('links the documents that are pages to their pages; a repository file the site does not serve is its text', () => {
    const out = markdownToHtml('See [m](docs/methodology.md#classes), [a](api.md), [s](scaling.md).');
    expect(out).toContain('href="/methodology.html#classes"');
    expect(out).toContain('href="/api.html"');
    expect(out).toContain(', s.'); // it was a link to "#" that went nowhere
    expect(out).not.toContain('href="#');
  });

  it('the API reference page: docs/api.md in the site frame, with its rebuilds section anchored', () => {
    const page = renderApiDocPage(readFileSync(new URL('../../docs/api.md', import.meta.url), 'utf8'), { baseUrl: 'https://archive.example' });
    expect(page).toContain('<link rel="canonical" href="https://archive.example/api.html">');
    expect(page).toContain('id="rebuilds"');
    expect(page).toContain('id="errors"');
  });
});
