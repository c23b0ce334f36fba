import { open, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { DOWNLOADS, downloadsDir, readManifest, type DownloadName } from '../downloads.ts';
import type { Deps } from './deps.ts';
import { errorResponse } from './errors.ts';
import { CACHE_NONE, corsHeaders, etagOf, ifNoneMatch, notModified } from './http.ts';
import { drainWaiter } from './node-response.ts';
import { admitKeyedRequest, rateLimitHeaders } from './quota.ts';

/**
 * `GET /data/record.db` and `GET /data/documents.ndjson.gz` (key; spec §4, §5 rule 5): the bulk
 * downloads the collector writes every DOWNLOADS_INTERVAL_MS (collector/publish/downloads.ts), streamed from
 * disk. Checks: 401 `missing_key`/`invalid_key`/`revoked_key`, 429 `quota_exceeded` (each request
 * counts once, a 304 too); 404 `not_found` before the collector has written them. 200 with
 * `Content-Length`, `ETag` = the file's sha256 (the manifest's), `Last-Modified`, `Content-Disposition:
 * attachment`, `Cache-Control: no-store` (the files are replaced as the archive grows); 304 on
 * `If-None-Match`.
 */
export async function handleDownload(request: Request, deps: Deps, name: DownloadName): Promise<Response> {
  const nowMs = deps.now();
  const admitted = await admitKeyedRequest(request, deps, nowMs);
  if ('refused' in admitted) return admitted.refused;
  const usage = admitted.usage;
  const entry = readManifest(deps.config.dataDir)?.files[name];
  if (!entry) return errorResponse('not_found', { nowMs });
  const etag = etagOf(entry.sha256);
  if (ifNoneMatch(request, etag)) return notModified(etag, CACHE_NONE, rateLimitHeaders(usage));
  let file;
  try {
    file = await open(join(downloadsDir(deps.config.dataDir), entry.file));
  } catch (e) {
    // replaced between reading the manifest and opening (the collector removes old versions)
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return errorResponse('not_found', { nowMs });
    throw e;
  }
  return new Response(fileBody(file, drainWaiter()), {
    status: 200,
    headers: {
      'Content-Type': DOWNLOADS[name],
      'Content-Length': String(entry.bytes),
      'Content-Disposition': `attachment; filename="${name}"`,
      ETag: etag,
      'Last-Modified': new Date(entry.writtenAt.ms).toUTCString(),
      'Cache-Control': CACHE_NONE,
      ...rateLimitHeaders(usage),
      ...corsHeaders(),
    },
  });
}

/** Bytes read from a download per pull. */
const CHUNK_BYTES = 64 * 1024;

/**
 * The body of a download: a byte stream over an open file that closes the file when it ends,
 * fails, or is cancelled (a client that went away, a HEAD answer). A body nobody reads must not
 * hold a descriptor until garbage collection (issue 21: 5,000 HEADs held 579 files open).
 * `room` resolves when the client's socket can take the next chunk (node-response.ts): a slow
 * reader holds the read, not the whole file in the server's memory.
 */
export function fileBody(file: FileHandle, room: () => Promise<void> = () => Promise.resolve()): ReadableStream<Uint8Array> {
  let closed = false;
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
        const buffer = Buffer.allocUnsafe(CHUNK_BYTES);
        const { bytesRead } = await file.read(buffer, 0, CHUNK_BYTES, null);
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
