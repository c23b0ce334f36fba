import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Config } from '../../src/config.ts';
import type { Logger } from '../../src/log.ts';
import type { PublicStore } from '../../src/db/public-store.ts';
import { LIST_NAMES } from '../../src/db/lists.ts';
import { renderHomePage, renderListPage } from '../../src/render/home-page.ts';
import { renderApiDocPage, renderMethodologyPage } from '../../src/render/methodology-page.ts';
import { renderStatusPage } from '../../src/render/status-page.ts';
import { homeFacts, listPageFacts, listPages } from '../../src/facts/site-facts.ts';
import { statusBody } from '../../src/facts/status.ts';
import { writeFileAtomic } from '../../src/ingest/write-site.ts';

/**
 * The collector's second publish job, beside the token pages (publish.ts): the home page
 * `site/index.html`, the list pages `site/lists/{list}/{n}.html`, `site/status.html` and
 * `site/methodology.html`, rewritten at most every LISTS_INTERVAL_MS (so under load the lists move
 * every few seconds, not with every batch), each written atomically and only when its bytes
 * changed. List pages past a list's last page are removed. A failure is logged and tried again at
 * the next interval: it never stops the collector.
 */

/** docs/methodology.md of this checkout (the repository's own file). */
export const METHODOLOGY_MD = fileURLToPath(new URL('../../docs/methodology.md', import.meta.url));
/** docs/api.md of this checkout: the API reference page `site/api.html`. */
export const API_MD = fileURLToPath(new URL('../../docs/api.md', import.meta.url));

/** Per site folder: when the pages were last written (epoch ms) and the sha256 of each file written. */
const written = new Map<string, { atMs: number; hashes: Map<string, string>; methodologyMd?: string; apiMd?: string }>();

function writeIfChanged(hashes: Map<string, string>, path: string, content: string): boolean {
  const h = createHash('sha256').update(content).digest('hex');
  if (hashes.get(path) === h) return false;
  writeFileAtomic(path, content);
  hashes.set(path, h);
  return true;
}

/** When this process last wrote the home, list and status pages of `siteDir` (epoch ms), null: not yet. */
export function listsWrittenAtMs(siteDir: string): number | null {
  return written.get(siteDir)?.atMs ?? null;
}

/**
 * Write the pages when LISTS_INTERVAL_MS has passed since this process last did (always on its
 * first call). `nowMs` is the collector's clock. Returns how many files were written, or null when
 * not due.
 */
export function publishLists(store: PublicStore, config: Config, log: Logger, nowMs: number): number | null {
  const prev = written.get(config.siteDir);
  if (prev && nowMs - prev.atMs < config.LISTS_INTERVAL_MS) return null;
  const state = prev ?? { atMs: 0, hashes: new Map<string, string>(), methodologyMd: undefined };
  state.atMs = nowMs;
  written.set(config.siteDir, state);
  const o = { baseUrl: config.baseUrl, demo: config.DEMO, contactEmail: config.CONTACT_EMAIL };
  const site = config.siteDir;
  let n = 0;
  try {
    const put = (rel: string, content: string) => void (writeIfChanged(state.hashes, join(site, rel), content) && n++);
    const status = statusBody({ publicStore: store, config }, nowMs);
    const home = homeFacts(store, config, nowMs, status);
    put('index.html', renderHomePage(home, o));
    put('status.html', renderStatusPage(status, nowMs, o));
    const md = readFileSync(METHODOLOGY_MD, 'utf8');
    if (md !== state.methodologyMd) {
      put('methodology.html', renderMethodologyPage(md, o));
      state.methodologyMd = md;
    }
    const apiMd = readFileSync(API_MD, 'utf8');
    if (apiMd !== state.apiMd) {
      put('api.html', renderApiDocPage(apiMd, o));
      state.apiMd = apiMd;
    }
    for (const list of LIST_NAMES) {
      const known = { window: home.window, total: home.lists[list].total };
      const pages = listPages(known.total);
      for (let page = 1; page <= pages; page++) {
        const facts = listPageFacts(store, list, page, nowMs, known);
        if (facts) put(join('lists', list, `${page}.html`), renderListPage(facts, o));
      }
      removePagesAfter(join(site, 'lists', list), pages, state.hashes);
    }
  } catch (err) {
    log.warn({ err: String(err) }, 'home, list or status pages not written; tried again after LISTS_INTERVAL_MS');
  }
  if (n) log.debug({ files: n }, 'home, list and status pages written');
  return n;
}

function removePagesAfter(dir: string, pages: number, hashes: Map<string, string>): void {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return;
  }
  for (const name of names) {
    const m = /^(\d+)\.html$/.exec(name);
    if (!m || Number(m[1]) <= pages) continue;
    try {
      unlinkSync(join(dir, name));
    } catch {
      /* removed meanwhile */
    }
    hashes.delete(join(dir, name));
  }
}
