/**
 * An API node's watch over its generations folder (API_GENERATIONS_DIR; src/server/generation-lease.ts
 * serves the requests): refresh the reader on every file event and on a poll.
 */
import { watch, type FSWatcher } from 'node:fs';
import type { GenerationReader } from '../db/generation-reader.ts';
import type { Logger } from '../log.ts';

/** How often (ms) a node looks at the manifest even when no file event arrived (rsync, NFS, object-storage mounts may not send one). */
export const GENERATION_POLL_MS = 1000;

/**
 * Keep `reader` on the newest generation of `dir`: a refresh on every file event in the folder and
 * every {@link GENERATION_POLL_MS}. Each swap is logged at info; a generation refused (size or
 * sha256 not the manifest's, file missing) is logged once as a warning and asked again at the next
 * refresh. Returns a stop function.
 */
export function watchGenerations(reader: GenerationReader, dir: string, log: Logger, pollMs = GENERATION_POLL_MS): () => void {
  const warned = new Set<string>();
  let served = 0;
  /** a warning once per distinct situation (the poll sees the same one every second) */
  const warnOnce = (key: string, fields: Record<string, unknown>, msg: string) => {
    if (!warned.has(key)) log.warn(fields, msg);
    warned.add(key);
  };
  const refresh = () => {
    reader
      .refresh()
      .then((r) => {
        if (typeof r === 'number') {
          // the file event and the poll share one refresh: one line per swap
          if (r > served) log.info({ generation: r }, 'serving public-database generation');
          served = Math.max(served, r);
          warned.clear();
        } else if (r.reason === 'no_manifest') {
          if (reader.generation === null) warnOnce('none', { dir }, 'no public-database generation in API_GENERATIONS_DIR yet (no manifest.json): the node answers 503 until one arrives; check the folder and that generations are shipped to it');
        } else if (r.reason === 'older') {
          warnOnce(`older:${r.generation}`, { generation: r.generation, served: r.served, dir }, 'the manifest names a generation older than the one served: the served one stays (a folder restored from an old copy?)');
        } else if ('generation' in r) {
          const why = r.reason === 'missing_file' ? 'its file is not there (yet)' : 'its file does not match its manifest (size or sha256)';
          warnOnce(`${r.generation}:${r.reason}`, { generation: r.generation, reason: r.reason }, `public-database generation not served (yet): ${why}`);
        }
      })
      .catch((err) => log.warn({ err: String(err) }, 'reading the generations folder failed; the generation served stays'));
  };
  let watcher: FSWatcher | null = null;
  try {
    watcher = watch(dir, { persistent: false }, refresh);
    watcher.on('error', () => undefined); // the poll carries on
  } catch {
    // folder not there yet: the poll finds it
  }
  const timer = setInterval(refresh, pollMs);
  timer.unref();
  refresh();
  return () => {
    clearInterval(timer);
    watcher?.close();
  };
}
