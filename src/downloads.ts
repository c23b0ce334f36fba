/**
 * The bulk downloads' names, media types and manifest (spec §4 `/data/record.db`,
 * `/data/documents.ndjson.gz`): written by the collector (collector/publish/downloads.ts), served by the
 * server (src/server/downloads.ts).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { instant } from './core/canonical.ts';

/** The download files by name, with their media types. */
export const DOWNLOADS = {
  'record.db': 'application/vnd.sqlite3',
  'documents.ndjson.gz': 'application/gzip',
} as const;
export type DownloadName = keyof typeof DOWNLOADS;

/** `downloads/manifest.json`. */
export interface DownloadManifest {
  files: Partial<Record<DownloadName, { file: string; bytes: number; sha256: string; writtenAt: ReturnType<typeof instant> }>>;
}

/** Folder of the downloads under DATA_DIR. */
export const downloadsDir = (dataDir: string) => join(dataDir, 'downloads');

/** The manifest, or null when no download has been written yet. */
export function readManifest(dataDir: string): DownloadManifest | null {
  try {
    return JSON.parse(readFileSync(join(downloadsDir(dataDir), 'manifest.json'), 'utf8')) as DownloadManifest;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw e;
  }
}

