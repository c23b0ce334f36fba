import { availableParallelism } from 'node:os';
import { randomBytes } from 'node:crypto';
import { MessageChannel, Worker, receiveMessageOnPort, type MessagePort } from 'node:worker_threads';

/**
 * The threads that put the collector's site files in place (write-site.ts SiteWriteBatch), so a
 * page's file system work — creating its temporary file, writing it, renaming it over the old one:
 * ~150-350 µs of kernel time a page on this project's machines, several times its render — runs on
 * another core while the main thread renders the next page, and the syncfs that makes a chunk
 * durable is asked of a small long-lived helper (`sh` running `sync -f`) rather than by starting
 * `sync` from the collector, whose fork costs ~10 ms per 250 MB of the collector's memory
 * (docs/benchmarks.md "Token pages").
 *
 * Each path always goes to the same thread (a hash of the path), so two writes or a write and a
 * removal of one path land in the order they were asked. The main thread waits for the threads
 * with `Atomics.wait` (SiteWriteBatch's methods stay synchronous, as its callers — SQLite
 * transactions and mark clearing — need), and reads their errors with `receiveMessageOnPort`.
 * The threads and the helper are unref'd: they never keep a process alive; a process that exits
 * with writes still queued leaves their marks set, and at most temporary files that
 * removeStaleTemporaryFiles clears (their names carry the process id).
 */

/** Writer threads: two (one per core of these machines), one where a single core is all there is. */
export const SITE_WRITER_THREADS = Math.min(2, Math.max(1, availableParallelism()));

/** Files a thread may have queued before SiteWriteBatch.write waits (bounds memory and keeps a pass's time budget honest). */
export const SITE_WRITER_QUEUE = 32;

/** How long (ms) the main thread waits for a thread's answer before it gives up with an error. */
const ANSWER_MS = 120_000;

/** A failure of a queued write or removal, as the thread reported it. */
export interface SiteWriteFailure {
  batch: number;
  path: string;
  message: string;
  code?: string;
}

/**
 * The thread's code (CommonJS, run with `eval`, so it needs no file of its own in the built server).
 * Messages: `{ op: 'write', batch, path, content }` (temporary file + rename, its folder made when
 * missing), `{ op: 'remove', batch, path }` (gone already is not an error), `{ op: 'sync', path }`
 * (thread 0 only: syncfs of the file system holding `path` through the helper; the answer — the
 * exit status of `sync -f`, -1 when the helper cannot run — in `sync[1]`, then `sync[0]` bumped).
 * After each write or removal the thread bumps `done[index]`; a failure is posted on `port` first.
 */
const WORKER_CODE = `
const { workerData } = require('node:worker_threads');
const fs = require('node:fs');
const path = require('node:path');
const { spawn } = require('node:child_process');
const { index, prefix, port } = workerData;
const done = new Int32Array(workerData.done);
const sync = new Int32Array(workerData.sync);
let counter = 0;
function replace(target, content) {
  const dir = path.dirname(target);
  const tmp = path.join(dir, prefix + (counter++).toString(36) + '.tmp');
  let fd;
  try {
    fd = fs.openSync(tmp, 'w');
  } catch (err) {
    if (err.code !== 'ENOENT') throw err;
    fs.mkdirSync(dir, { recursive: true });
    fd = fs.openSync(tmp, 'w');
  }
  try {
    try {
      fs.writeFileSync(fd, content, 'utf8');
    } finally {
      fs.closeSync(fd);
    }
    fs.renameSync(tmp, target);
  } catch (err) {
    try { fs.unlinkSync(tmp); } catch {}
    throw err;
  }
}
let helper = null;
const answers = [];
let buffered = '';
function startHelper() {
  const child = spawn('sh', ['-c', 'while IFS= read -r p; do sync -f -- "$p" >/dev/null 2>&1; echo $?; done'], { stdio: ['pipe', 'pipe', 'ignore'] });
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (s) => {
    buffered += s;
    let i;
    while ((i = buffered.indexOf('\\n')) >= 0) {
      const line = buffered.slice(0, i);
      buffered = buffered.slice(i + 1);
      const answer = answers.shift();
      if (answer) answer(Number(line));
    }
  });
  const fail = () => {
    if (helper === child) helper = null;
    while (answers.length) answers.shift()(-1);
  };
  child.on('error', fail);
  child.on('exit', fail);
  child.stdin.on('error', fail);
  return child;
}
function answerSync(status) {
  Atomics.store(sync, 1, status);
  Atomics.add(sync, 0, 1);
  Atomics.notify(sync, 0);
}
port.on('message', (m) => {
  if (m.op === 'sync') {
    if (m.path.includes('\\n')) return answerSync(-1);
    try {
      helper ??= startHelper();
      answers.push(answerSync);
      helper.stdin.write(m.path + '\\n');
    } catch {
      answerSync(-1);
    }
    return;
  }
  try {
    if (m.op === 'write') replace(m.path, m.content);
    else fs.rmSync(m.path, { force: true });
  } catch (err) {
    port.postMessage({ batch: m.batch, path: m.path, message: String(err && err.message), code: err && err.code });
  }
  Atomics.add(done, index, 1);
  Atomics.notify(done, index);
});
`;

interface Thread {
  worker: Worker;
  /** the main thread's end of the thread's channel: requests out, failures in */
  port: MessagePort;
}

/** The process's writer threads (made at first use). */
class SiteWriters {
  private readonly threads: Thread[];
  private readonly done: Int32Array;
  private readonly sync: Int32Array;
  /** requests sent to each thread */
  private readonly sent: number[];
  /** failures read from the threads, by batch, not yet claimed */
  private readonly failures = new Map<number, SiteWriteFailure[]>();

  constructor(count: number) {
    this.done = new Int32Array(new SharedArrayBuffer(4 * count));
    this.sync = new Int32Array(new SharedArrayBuffer(8));
    this.sent = new Array<number>(count).fill(0);
    const pid = process.pid.toString(36);
    this.threads = Array.from({ length: count }, (_, index) => {
      const { port1, port2 } = new MessageChannel();
      // temporary names as writeFileAtomic's (`.{pid}-{8 hex}-{counter}.tmp`), each thread its own random part
      const prefix = `.${pid}-${randomBytes(4).toString('hex')}-`;
      const worker = new Worker(WORKER_CODE, { eval: true, workerData: { index, prefix, port: port2, done: this.done.buffer, sync: this.sync.buffer }, transferList: [port2] });
      worker.unref();
      port1.unref();
      return { worker, port: port1 };
    });
  }

  /** The thread that takes `path`: always the same one for one path (FNV-1a of its characters). */
  private threadOf(path: string): number {
    if (this.threads.length === 1) return 0;
    let h = 0x811c9dc5;
    for (let i = 0; i < path.length; i++) h = Math.imul(h ^ path.charCodeAt(i), 0x01000193);
    return (h >>> 0) % this.threads.length;
  }

  /** Queue `content` to be put at `path` for `batch` (waits while the path's thread has {@link SITE_WRITER_QUEUE} queued). */
  write(batch: number, path: string, content: string): void {
    this.send({ op: 'write', batch, path, content }, path);
  }

  /** Queue the removal of `path` (after any write of it queued before). */
  remove(batch: number, path: string): void {
    this.send({ op: 'remove', batch, path }, path);
  }

  private send(message: object, path: string): void {
    const t = this.threadOf(path);
    this.waitFor(t, this.sent[t]! - SITE_WRITER_QUEUE);
    this.threads[t]!.port.postMessage(message);
    this.sent[t]!++;
  }

  /** Wait until thread `t` has done at least `count` requests. Throws after {@link ANSWER_MS} without progress. */
  private waitFor(t: number, count: number): void {
    for (;;) {
      const seen = Atomics.load(this.done, t);
      if (seen >= count) return;
      if (Atomics.wait(this.done, t, seen, ANSWER_MS) === 'timed-out' && Atomics.load(this.done, t) === seen) {
        throw new Error(`a site writer thread did not answer in ${ANSWER_MS / 1000} s (${count - seen} files queued)`);
      }
    }
  }

  /**
   * Wait until every request sent so far is done, then return (and forget) `batch`'s failures,
   * in the order they happened per thread.
   */
  drain(batch: number): SiteWriteFailure[] {
    for (let t = 0; t < this.threads.length; t++) this.waitFor(t, this.sent[t]!);
    for (const { port } of this.threads) {
      for (let m = receiveMessageOnPort(port); m !== undefined; m = receiveMessageOnPort(port)) {
        const failure = m.message as SiteWriteFailure;
        const list = this.failures.get(failure.batch) ?? [];
        list.push(failure);
        this.failures.set(failure.batch, list);
      }
    }
    const mine = this.failures.get(batch) ?? [];
    this.failures.delete(batch);
    return mine;
  }

  /**
   * syncfs(2) of the file system holding `path`, by the helper (`sync -f`): true when it ran and
   * succeeded, false when it could not (no `sh`, no `sync -f`, a path it cannot take). Throws after
   * {@link ANSWER_MS} without an answer.
   */
  syncFileSystem(path: string): boolean {
    const before = Atomics.load(this.sync, 0);
    this.threads[0]!.port.postMessage({ op: 'sync', path });
    for (;;) {
      if (Atomics.load(this.sync, 0) !== before) return Atomics.load(this.sync, 1) === 0;
      if (Atomics.wait(this.sync, 0, before, ANSWER_MS) === 'timed-out' && Atomics.load(this.sync, 0) === before) {
        throw new Error(`sync -f did not answer in ${ANSWER_MS / 1000} s`);
      }
    }
  }

  /** Stop the threads (and with them the helper: its input closes). */
  async close(): Promise<void> {
    await Promise.all(this.threads.map(({ worker }) => worker.terminate()));
  }
}

let writers: SiteWriters | null = null;
let nextBatch = 1;

/** The process's writer threads, made at first use. */
export function siteWriters(): SiteWriters {
  writers ??= new SiteWriters(SITE_WRITER_THREADS);
  return writers;
}

/** A number naming one batch's requests (their failures are returned to that batch only). */
export function newBatchId(): number {
  return nextBatch++;
}

/**
 * Stop the writer threads and their helper; the next write starts new ones. For tests that change
 * what `sync` is on PATH (the helper reads PATH once, when it starts) and for a clean exit.
 */
export async function closeSiteWriters(): Promise<void> {
  const w = writers;
  writers = null;
  await w?.close();
}

export type { SiteWriters };
