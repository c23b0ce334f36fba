import type { Config } from '../config.ts';
import type { PublicStore } from '../db/public-store.ts';
import { LIST_NAMES, listCount, listRows, newestCreationMs, type ListName } from '../db/lists.ts';
import { HOME_ROWS, LIST_MAX_PAGES, LIST_PAGE_ROWS, listWindow, type HomeFacts, type ListPageFacts, type ListWindow } from '../render/home-page.ts';
import { statusBody } from './status.ts';

/**
 * The facts of the home and list pages, read from the public store: the same for the collector,
 * which writes the pages (collector/publish/lists.ts), and the server, which renders them before
 * the first write. Reads only.
 */

/** Rows a list shows at most over all its pages; its count stops one past it ("the newest 1,000"). */
export const LIST_CAP = LIST_MAX_PAGES * LIST_PAGE_ROWS;

/** The home page's facts at `nowMs`; `status` when the caller has it already (one GROUP BY over every record). */
export function homeFacts(store: PublicStore, config: Config, nowMs: number, status = statusBody({ publicStore: store, config }, nowMs)): HomeFacts {
  const window = listWindow(nowMs, newestCreationMs(store.db));
  const lists = {} as HomeFacts['lists'];
  for (const list of LIST_NAMES) lists[list] = { rows: listRows(store.db, list, window, HOME_ROWS), total: listCount(store.db, list, window, LIST_CAP + 1) };
  return { nowMs, status, window, lists };
}

/** How many pages a list has now (at least 1, at most LIST_MAX_PAGES). */
export function listPages(total: number): number {
  return Math.min(LIST_MAX_PAGES, Math.max(1, Math.ceil(total / LIST_PAGE_ROWS)));
}

/**
 * One list page's facts, or null when `page` is past the list's last page. `known`: the window and
 * the list's (capped) count when the caller has them (the publisher, page after page).
 */
export function listPageFacts(store: PublicStore, list: ListName, page: number, nowMs: number, known?: { window: ListWindow; total: number }): ListPageFacts | null {
  const window = known?.window ?? listWindow(nowMs, newestCreationMs(store.db));
  const total = known?.total ?? listCount(store.db, list, window, LIST_CAP + 1);
  const pages = listPages(total);
  if (!Number.isInteger(page) || page < 1 || page > pages) return null;
  return { list, page, pages, total, rows: listRows(store.db, list, window, LIST_PAGE_ROWS, (page - 1) * LIST_PAGE_ROWS), nowMs, window };
}
