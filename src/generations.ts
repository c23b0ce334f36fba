/**
 * Generations of the public database (issue 26, "public-database generations"): immutable,
 * numbered snapshots of `public.db` that the collector publishes every GENERATION_INTERVAL_MS
 * (collector/publish/generations.ts) and that API nodes open read-only and swap to
 * (src/db/generation-reader.ts). Files: `GENERATIONS_DIR/public.<generation>.db` and one
 * `manifest.json` naming the newest, written atomically after its file is complete and fsynced.
 * In production the folder is shipped to API nodes as files (rsync or object storage).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Instant } from './core/types.ts';

/** `manifest.json` of a generations folder: the newest generation. */
export interface GenerationManifest {
  /** 1, 2, 3, …: never goes backwards. */
  generation: number;
  /** File name in the folder, `public.<generation>.db`. */
  file: string;
  /** Size of the file in bytes. */
  bytes: number;
  /** sha256 (hex) of the file's bytes: a node checks it before serving the file. */
  sha256: string;
  /** Launch records in the snapshot. */
  records: number;
  /** The collector's newest processed slot in the snapshot (its history cursor), or null before any. */
  slot: number | null;
  writtenAt: Instant;
}

/** File name of generation `n`. */
export const generationFile = (n: number) => `public.${n}.db`;

/**
 * The manifest of `dir`, or null when no generation was published yet. Errors: a manifest that is
 * not JSON throws (it is written atomically, so that means something else wrote it).
 */
export function readGenerationManifest(dir: string): GenerationManifest | null {
  try {
    return JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as GenerationManifest;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw e;
  }
}
