import { open, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import parseRange from 'range-parser';
import { DOWNLOADS, downloadsDir, readManifest, type DownloadManifest, type DownloadName } from '../downloads.ts';
import type { Deps } from './deps.ts';
import { errorResponse } from './errors.ts';
import { CACHE_NONE, corsHeaders, etagOf, ifNoneMatch, notModified } from './http.ts';
import { drainWaiter } from './node-response.ts';
import { admitKeyedRequest, rateLimitHeaders } from './quota.ts';

/**
 * `GET /data/record.db` and `GET /data/documents.ndjson.gz` (key; spec §4, §5 rule 5): the bulk
 * downloads the collector writes every DOWNLOADS_INTERVAL_MS (collector/publish/downloads.ts), streamed from
 * disk. Checks: 401 `missing_key`/`invalid_key`/`revoked_key`, 429 `quota_exceeded` (each request
 * counts once, a 304 too); 404 `not_found` before the collector has written them (saying so, with the `RateLimit` fields). 200 with
 * `Content-Length`, `ETag` = the file's sha256 (the manifest's), `Last-Modified`, `Content-Disposition:
 * attachment`, `Cache-Control: no-store` (the files are replaced as the archive grows), `Accept-Ranges:
 * bytes`; 304 on `If-None-Match`. A download resumes with `Range: bytes=<first>-[<last>]` (RFC 9110 §14,
 * parsed by range-parser): 206 with `Content-Range` for one satisfiable range; 416
 * `range_not_satisfiable` with `Content-Range: bytes *\/<size>` when it starts past the end; the
 * whole file (200) for several ranges, another unit, a malformed header, or an `If-Range` that is
 * not this file's ETag or Last-Modified (the file was replaced since the first part: its tail
 * would not continue those bytes).
 */
export async function handleDownload(request: Request, deps: Deps, name: DownloadName): Promise<Response> {
  const nowMs = deps.now();
  const admitted = await admitKeyedRequest(request, deps, nowMs);
  if ('refused' in admitted) return admitted.refused;
  const usage = admitted.usage;
  const current = await openDownload(deps.config.dataDir, name);
  if (!current) {
    // the path is right: the file is not written yet (a new archive) — said so, with the count's headers like every counted answer
    // an API node serving generations holds the downloads only as shipped to it (docs/scaling.md): its own collector writes none
    const every = Math.round(deps.config.DOWNLOADS_INTERVAL_MS / 60_000);
    return errorResponse('not_found', {
      nowMs,
      headers: rateLimitHeaders(usage),
      message: deps.generations
        ? `The bulk downloads have not reached this API node yet: the collector writes ${name}, and the operator copies the downloads to each API node beside the public-database generations. Try again later; if it lasts, tell the operator.`
        : `The bulk downloads are not written yet: the collector writes ${name} after its first catch-up, then every ${every > 0 ? `${every} min` : 'pass'} (DOWNLOADS_INTERVAL_MS). Try again later; /api/v1/status says how far the collector is.`,
    });
  }
  const { entry, file } = current;
  const etag = etagOf(entry.sha256);
  if (ifNoneMatch(request, etag)) {
    await file.close();
    return notModified(etag, CACHE_NONE, rateLimitHeaders(usage));
  }
  const lastModified = new Date(entry.writtenAt.ms).toUTCString();
  const range = requestedRange(request, entry.bytes, etag, lastModified);
  if (range === 'unsatisfiable') {
    await file.close();
    return errorResponse('range_not_satisfiable', { nowMs, headers: { 'Content-Range': `bytes */${entry.bytes}`, ...rateLimitHeaders(usage) } });
  }
  const part = range ?? { start: 0, end: entry.bytes - 1 };
  return new Response(fileBody(file, drainWaiter(), part.start, part.end + 1 - part.start), {
    status: range ? 206 : 200,
    headers: {
      'Content-Type': DOWNLOADS[name],
      'Content-Length': String(part.end + 1 - part.start),
      ...(range ? { 'Content-Range': `bytes ${part.start}-${part.end}/${entry.bytes}` } : {}),
      'Accept-Ranges': 'bytes',
      'Content-Disposition': `attachment; filename="${name}"`,
      ETag: etag,
      'Last-Modified': lastModified,
      'Cache-Control': CACHE_NONE,
      ...rateLimitHeaders(usage),
      ...corsHeaders(),
    },
  });
}

/** A download as the manifest names it: its file under `downloads/`, bytes, sha256, when written. */
type DownloadEntry = NonNullable<DownloadManifest['files'][DownloadName]>;

/** Times {@link openDownload} reads the manifest again when the file it named is gone. */
const MANIFEST_READS = 5;

/**
 * The manifest's entry of download `name` and its file, open; undefined when no manifest names it
 * (none written yet). The collector renames a new manifest in and then deletes the files the old
 * one named (collector/publish/downloads.ts), so a file gone between reading the manifest and
 * opening it means a newer manifest is there: it is read again, up to {@link MANIFEST_READS} times
 * (a review saw 1 of about 600 requests answered 404 during rewrites when it was not). `openFile`:
 * node:fs/promises `open` (tests replace it). Errors: the file system's, other than ENOENT.
 */
export async function openDownload(dataDir: string, name: DownloadName, openFile: (path: string) => Promise<FileHandle> = (path) => open(path)): Promise<{ entry: DownloadEntry; file: FileHandle } | undefined> {
  for (let read = 1; ; read++) {
    const entry = readManifest(dataDir)?.files[name];
    if (!entry) return undefined;
    try {
      return { entry, file: await openFile(join(downloadsDir(dataDir), entry.file)) };
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
      if (read >= MANIFEST_READS) return undefined;
    }
  }
}

/**
 * The one byte range a download request asks for of a file of `size` bytes, both ends included
 * (RFC 9110 §14.2): null for the whole file — no `Range`, several ranges, a unit other than
 * bytes, a header range-parser cannot read (`-2`) or with a range that ends before it starts (`bytes=200-100`), or an `If-Range` that is neither `etag` nor
 * `lastModified` (§13.1.5: the file changed, so the part asked for would not continue the client's
 * bytes); 'unsatisfiable' when the range starts at or past the end (range-parser's `-1`; every range
 * of an empty file, and `bytes=-0`). A suffix range longer than the file (`bytes=-500` of 100 bytes)
 * is the whole file as a range (§14.1.3: 206, `bytes 0-99/100`). Pure.
 * @example requestedRange(new Request('http://x/', { headers: { Range: 'bytes=100-' } }), 1000, '"e"', 'd') // { start: 100, end: 999 }
 */
export function requestedRange(request: Request, size: number, etag: string, lastModified: string): { start: number; end: number } | 'unsatisfiable' | null {
  const header = request.headers.get('range');
  if (header === null) return null;
  const ifRange = request.headers.get('if-range');
  if (ifRange !== null && ifRange.trim() !== etag && ifRange.trim() !== lastModified) return null;
  // a range whose last byte comes before its first is invalid, and the header with it (§14.1.1): ignored, where range-parser says unsatisfiable
  if (/^bytes=/i.test(header) && header.slice(6).split(',').some((r) => { const m = /^\s*(\d+)\s*-\s*(\d+)\s*$/.exec(r); return m !== null && Number(m[2]) < Number(m[1]); })) return null;
  // a suffix longer than the file is the whole file (§14.1.3), where range-parser 1.3 says unsatisfiable
  const suffix = /^bytes=\s*-\s*(\d+)\s*$/i.exec(header);
  if (suffix && size > 0 && Number(suffix[1]) >= size) return { start: 0, end: size - 1 };
  const ranges = parseRange(size, header, { combine: true });
  if (ranges === -1) return 'unsatisfiable';
  if (ranges === -2 || ranges.type !== 'bytes' || ranges.length !== 1) return null;
  return { start: ranges[0]!.start, end: ranges[0]!.end };
}

/** Bytes read from a download per pull. */
const CHUNK_BYTES = 64 * 1024;

/**
 * The body of a download: a byte stream over an open file that closes the file when it ends,
 * fails, or is cancelled (a client that went away, a HEAD answer). A body nobody reads must not
 * hold a descriptor until garbage collection (issue 21: 5,000 HEADs held 579 files open).
 * `room` resolves when the client's socket can take the next chunk (node-response.ts): a slow
 * reader holds the read, not the whole file in the server's memory. `start`, `length`: the bytes sent
 * (a range of a download; default the whole file from its start).
 */
export function fileBody(file: FileHandle, room: () => Promise<void> = () => Promise.resolve(), start = 0, length = Number.POSITIVE_INFINITY): ReadableStream<Uint8Array> {
  let closed = false;
  let position = start;
  let left = length;
  const close = async () => {
    if (closed) return;
    closed = true;
    await file.close().catch(() => undefined);
  };
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        await room();
        if (closed) return;
        const want = Math.min(CHUNK_BYTES, left);
        const buffer = Buffer.allocUnsafe(want);
        const { bytesRead } = want === 0 ? { bytesRead: 0 } : await file.read(buffer, 0, want, position);
        position += bytesRead;
        left -= bytesRead;
        if (bytesRead === 0) {
          await close();
          controller.close();
          return;
        }
        controller.enqueue(new Uint8Array(buffer.buffer, buffer.byteOffset, bytesRead));
      } catch (e) {
        await close();
        controller.error(e);
      }
    },
    cancel: close,
  }, { highWaterMark: 0 }); // nothing is read before a reader asks (a HEAD answer never reads)
}
