/**
 * The API node's side of public-database generations (src/generations.ts): it serves the newest
 * published generation read-only, and swaps to a newer one atomically.
 * - A generation is opened only after its file's size and sha256 match the manifest, so a node
 *   never serves a half-written or damaged file (a mismatch is reported and retried at the next
 *   refresh).
 * - The generation served never goes backwards: a manifest naming an older or equal number is
 *   ignored (a folder restored from an old copy, a slow rsync).
 * - Each request holds a lease on the generation it started with ({@link GenerationReader.acquire});
 *   the previous generation is closed when its last lease is released, so in-flight requests finish
 *   on the database they began with.
 */
import { createReadStream, statSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { readGenerationManifest, type GenerationManifest } from '../generations.ts';
import { PublicStore } from './public-store.ts';

/** A request's hold on one generation; call `release` exactly once when the request is answered. */
export interface GenerationLease {
  generation: number;
  store: PublicStore;
  release(): void;
}

interface Slot {
  manifest: GenerationManifest;
  store: PublicStore;
  leases: number;
  retired: boolean;
}

/** Why a refresh did not swap: for the node's log. */
export type RefreshSkip =
  | { reason: 'no_manifest' | 'not_newer' }
  | { reason: 'size_mismatch' | 'sha256_mismatch' | 'missing_file'; generation: number }
  /** the manifest names a generation older than the one served (a folder restored from an old copy): the served one stays */
  | { reason: 'older'; generation: number; served: number };

async function sha256OfFile(path: string): Promise<string> {
  const h = createHash('sha256');
  await pipeline(createReadStream(path), h);
  return h.digest('hex');
}

/**
 * Serves the newest verified generation of a generations folder.
 * @example const reader = new GenerationReader(dir); await reader.refresh(); const lease = reader.acquire()
 */
export class GenerationReader {
  private slot: Slot | null = null;
  private refreshing: Promise<number | RefreshSkip> | null = null;
  private closed = false;

  constructor(
    private readonly dir: string,
    private readonly open: (path: string) => PublicStore = (path) => new PublicStore(path, { readonly: true }),
  ) {}

  /** The generation served now, or null before the first one. */
  get generation(): number | null {
    return this.slot?.manifest.generation ?? null;
  }

  /**
   * Read the manifest and swap to a newer, verified generation. Concurrent calls share one run.
   * Returns the generation now served, or why it did not swap. Errors: I/O errors other than a
   * missing file throw (the generation served stays).
   */
  refresh(): Promise<number | RefreshSkip> {
    this.refreshing ??= this.doRefresh().finally(() => (this.refreshing = null));
    return this.refreshing;
  }

  private async doRefresh(): Promise<number | RefreshSkip> {
    const manifest = readGenerationManifest(this.dir);
    if (!manifest) return { reason: 'no_manifest' };
    if (this.slot && manifest.generation < this.slot.manifest.generation) return { reason: 'older', generation: manifest.generation, served: this.slot.manifest.generation };
    if (this.slot && manifest.generation === this.slot.manifest.generation) return { reason: 'not_newer' };
    const path = join(this.dir, manifest.file);
    let bytes: number;
    try {
      bytes = statSync(path).size;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return { reason: 'missing_file', generation: manifest.generation };
      throw e;
    }
    if (bytes !== manifest.bytes) return { reason: 'size_mismatch', generation: manifest.generation };
    if ((await sha256OfFile(path)) !== manifest.sha256) return { reason: 'sha256_mismatch', generation: manifest.generation };
    // another refresh may not have run meanwhile (shared promise), but close() may have
    if (this.closed) return { reason: 'not_newer' };
    const store = this.open(path);
    const previous = this.slot;
    this.slot = { manifest, store, leases: 0, retired: false };
    if (previous) this.retire(previous);
    return manifest.generation;
  }

  /** A lease on the generation served now, or null before the first one. */
  acquire(): GenerationLease | null {
    const slot = this.slot;
    if (!slot) return null;
    slot.leases++;
    let released = false;
    return {
      generation: slot.manifest.generation,
      store: slot.store,
      release: () => {
        if (released) return;
        released = true;
        slot.leases--;
        if (slot.retired && slot.leases === 0) slot.store.close();
      },
    };
  }

  private retire(slot: Slot): void {
    slot.retired = true;
    if (slot.leases === 0) slot.store.close();
  }

  /** Stop serving: the current generation is closed when its last lease is released. */
  close(): void {
    this.closed = true;
    if (this.slot) this.retire(this.slot);
    this.slot = null;
  }
}
