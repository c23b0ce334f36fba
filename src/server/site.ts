import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { sha256Hex } from '../core/canonical.ts';
import type { LaunchDocument } from '../core/types.ts';
import { renderBadAddressPage, renderNoEarlyPage, renderNotFoundPage, renderTokenPage, tokenPageOptions } from '../render/token-page.ts';
import { renderEarlyPage } from '../render/early-page.ts';
import { CREATOR_PAGE_ROWS, creatorPageOptions, renderCreatorPage, renderUnknownWalletPage } from '../render/creator-page.ts';
import type { Deps } from './deps.ts';
import { errorResponse, notAnAddress } from './errors.ts';
import { CACHE_NONE, CACHE_SETTLED, corsHeaders, etagOf, ifNoneMatch, isAddressParam, notModified, pageHeaders } from './http.ts';
import { MIN_COMPRESSED_BYTES, chosenEncoding, compressedPage } from './compress.ts';

/**
 * The public, keyless files of a mint (spec §4): `/t/{mint}.html` (token page) and `/d/{mint}`
 * (canonical document). Both are served from the files the collector writes under
 * `config.siteDir` (`t/{mint}.html`, `d/{mint}.json`); when a file is missing but the record is
 * held, the same content is produced from the database (the page with the same template).
 * ETag = sha256 of the bytes served; settled records are cacheable, others `no-store`.
 */

async function readIfExists(path: string): Promise<string | null> {
  try {
    return await readFile(path, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw e;
  }
}

function serve(request: Request, body: string, contentType: string, settled: boolean): Response {
  const etag = etagOf(sha256Hex(body));
  const cacheControl = settled ? CACHE_SETTLED : CACHE_NONE;
  if (ifNoneMatch(request, etag)) return notModified(etag, cacheControl);
  const page = contentType.startsWith('text/html');
  // a page for a client that asks: its compressed copy kept by its tag (compress.ts), not compressed per answer
  const encoding = page && body.length >= MIN_COMPRESSED_BYTES ? chosenEncoding({ headers: { 'accept-encoding': request.headers.get('accept-encoding') ?? undefined } }) : null;
  return new Response(encoding ? (compressedPage(etag, body, encoding) as Uint8Array<ArrayBuffer>) : body, {
    status: 200,
    headers: {
      ...(page ? pageHeaders() : { 'X-Content-Type-Options': 'nosniff' }),
      'Content-Type': contentType,
      ETag: encoding ? `W/${etag}` : etag,
      'Cache-Control': cacheControl,
      ...(encoding ? { 'Content-Encoding': encoding, Vary: 'Accept-Encoding' } : {}),
      ...corsHeaders(),
    },
  });
}

function html(body: string, status: number): Response {
  return new Response(body, {
    status,
    headers: { ...pageHeaders(), 'Cache-Control': CACHE_NONE, ...corsHeaders() },
  });
}

/**
 * `GET /d/{mint}`: the canonical launch document as `application/json`. The file's sha256 is the
 * document's sha256 (the ETag). Errors (JSON): 400 `not_an_address`, 404 `not_found`.
 */
export async function handleDocument(request: Request, deps: Deps, params: { mint?: string }): Promise<Response> {
  const nowMs = deps.now();
  const mint = params.mint;
  if (!isAddressParam(mint)) return notAnAddress(mint, nowMs);
  const file = await readIfExists(join(deps.config.siteDir, 'd', `${mint}.json`));
  const row = deps.publicStore.getLaunch(mint);
  // A file older than the record (collector has not rewritten it yet) yields to the database.
  const body = row && (file === null || sha256Hex(file) !== row.sha256) ? row.document : file;
  if (body === null) return errorResponse('not_found', { nowMs, message: 'The archive holds no record of this mint, so it has no document: absence of a record is not a clean record. GET /api/v1/token/{mint} (keyed) starts a rebuild of a launch the archive did not watch.' });
  const settled = row ? row.settled : (JSON.parse(body) as Partial<LaunchDocument>).settled === true;
  return serve(request, body, 'application/json; charset=utf-8', settled);
}

/**
 * `GET /t/{file}` where file is `{mint}.html`: the public token page; or `{mint}.early.html`: its
 * first-30-seconds page (render/early-page.ts), held when token-page.ts `hasEarlyPage`, else 404
 * with a page that says the token page holds them all. A bare `/t/{mint}` redirects to the token
 * page. Errors are HTML pages: 400 for a malformed mint, 404 for a mint not held.
 */
export async function handleTokenPage(request: Request, deps: Deps, params: { file?: string }): Promise<Response> {
  const file = params.file ?? '';
  if (file.endsWith(EARLY_SUFFIX)) return earlyPage(request, deps, file.slice(0, -EARLY_SUFFIX.length));
  const mint = file.endsWith('.html') ? file.slice(0, -'.html'.length) : file;
  if (!isAddressParam(mint)) return html(renderBadAddressPage(mint), 400);
  if (mint === file) {
    return new Response(null, { status: 308, headers: { Location: `/t/${mint}.html`, 'Cache-Control': CACHE_SETTLED, ...corsHeaders() } });
  }
  const row = deps.publicStore.getLaunch(mint);
  const page = await readIfExists(join(deps.config.siteDir, 't', `${mint}.html`));
  // A page written for an older version of the record (it names the document's sha256) yields to the database.
  if (page !== null && (!row || page.includes(row.sha256))) return serve(request, page, 'text/html; charset=utf-8', row?.settled ?? false);
  if (!row) return html(renderNotFoundPage(mint), 404);
  const doc = JSON.parse(row.document) as LaunchDocument;
  const rendered = renderTokenPage(doc, tokenPageOptions(deps.config, row.sha256, deps.publicStore.transactionsFor(mint)));
  return serve(request, rendered, 'text/html; charset=utf-8', row.settled);
}

const EARLY_SUFFIX = '.early.html';

/** `GET /t/{mint}.early.html` ({@link handleTokenPage}): the collector's file while it names the record's sha256, else rendered from the database. */
async function earlyPage(request: Request, deps: Deps, mint: string): Promise<Response> {
  if (!isAddressParam(mint)) return html(renderBadAddressPage(mint), 400);
  const row = deps.publicStore.getLaunch(mint);
  const page = await readIfExists(join(deps.config.siteDir, 't', `${mint}${EARLY_SUFFIX}`));
  if (page !== null && (!row || page.includes(row.sha256))) return serve(request, page, 'text/html; charset=utf-8', row?.settled ?? false);
  if (!row) return html(renderNotFoundPage(mint), 404);
  const doc = JSON.parse(row.document) as LaunchDocument;
  const rendered = renderEarlyPage(doc, tokenPageOptions(deps.config, row.sha256, deps.publicStore.transactionsFor(mint)));
  if (rendered === null) return html(renderNoEarlyPage(mint, doc.history.complete && doc.launch !== null), 404);
  return serve(request, rendered, 'text/html; charset=utf-8', row.settled);
}

/**
 * `GET /w/{file}` where file is `{address}.html`: a wallet's creator page. Served from the file the
 * collector writes (`w/{address}.html`); when it is missing, rendered from the database with the
 * same template; a wallet no held record names in a role gets a 404 page: "not seen", or "no
 * launch role" when the archive holds its trades (walletSeen). A bare
 * `/w/{address}` redirects. 400 for a value that is not an address.
 */
export async function handleWalletPage(request: Request, deps: Deps, params: { file?: string }): Promise<Response> {
  const file = params.file ?? '';
  const address = file.endsWith('.html') ? file.slice(0, -'.html'.length) : file;
  if (!isAddressParam(address)) return html(renderBadAddressPage(address, 'wallet'), 400);
  if (address === file) {
    return new Response(null, { status: 308, headers: { Location: `/w/${address}.html`, 'Cache-Control': CACHE_SETTLED, ...corsHeaders() } });
  }
  const page = await readIfExists(join(deps.config.siteDir, 'w', `${address}.html`));
  if (page !== null) return serve(request, page, 'text/html; charset=utf-8', false);
  const wallet = deps.publicStore.walletPage(address, CREATOR_PAGE_ROWS);
  if (!wallet.roles.length) return html(renderUnknownWalletPage(address, creatorPageOptions(deps.config), deps.publicStore.walletSeen(address)), 404);
  return serve(request, renderCreatorPage(address, wallet, creatorPageOptions(deps.config)), 'text/html; charset=utf-8', false);
}
