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
 * The threads are unref'd: they never keep a process alive (the helper ends when its input closes
 * with them); a process that exits with writes still queued leaves their marks set, and at most
 * temporary files that removeStaleTemporaryFiles clears (their names carry the process id).
 * A write is waited for as long as it takes, as the main thread waited in its own system call
 * before the threads: a commit never returns, and no later removal runs, while a write it queued
 * may still land. A thread that stops (it should not: its errors are caught) is an error of the
 * commit, and the next write starts new threads. A syncfs is waited for at most
 * {@link SYNC_ANSWER_MS}: then the helper is killed (a new one answers the next request, each
 * answer matched to its request by number) and the commit fsyncs each file instead, as it does
 * where `sync -f` cannot run.
 */

/** Writer threads: two (one per core of these machines), one where a single core is all there is. */
export const SITE_WRITER_THREADS = Math.min(2, Math.max(1, availableParallelism()));

/** Files a thread may have queued before SiteWriteBatch.write waits (bounds memory and keeps a pass's time budget honest). */
export const SITE_WRITER_QUEUE = 32;

/** How long (ms) a commit waits for `sync -f` before it kills the helper and fsyncs each file instead. */
export const SYNC_ANSWER_MS = 120_000;

/** How long (ms) a new thread may take to start before a wait for it is an error. */
const START_MS = 30_000;

/** How often (ms) a waiting main thread looks whether the thread it waits for has stopped. */
const ALIVE_CHECK_MS = 1_000;

/**
 * How long (ms) a thread may do none of its queued requests before the wait gives up: the threads
 * are then terminated (a thread killed without running its exit handler — out of memory, terminated
 * — sets no flag) and the commit throws; its marks stay for the next pass. A disk that stalls a
 * single write this long ends the same way.
 */
export const SITE_WRITER_STALL_MS = 600_000;

/** Failures kept for batches not committed yet; past this the oldest batch's are forgotten (a batch given up without a commit). */
export const FAILURES_KEPT = 64;

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
 * missing), `{ op: 'remove', batch, path }` (gone already is not an error), `{ op: 'sync', seq, path }`
 * (thread 0 only: syncfs of the file system holding `path` through the helper; answered only while
 * `sync[0]` still asks for `seq`: the exit status of `sync -f`, -1 when the helper cannot run, in
 * `sync[2]`, then `seq` in `sync[1]`), `{ op: 'reset' }` (kill the helper: the next request starts
 * another). After each write or removal the thread adds one to `done[index]` (modulo 2³²); a failure
 * is posted on `port` first. A thread that stops sets `done[threads + index]`; one that started, `done[2 × threads + index]`.
 */
const WORKER_CODE = `
const { workerData } = require('node:worker_threads');
const fs = require('node:fs');
const path = require('node:path');
const { spawn } = require('node:child_process');
const { index, prefix, port } = workerData;
const done = new Int32Array(workerData.done);
const sync = new Int32Array(workerData.sync);
Atomics.store(done, 2 * workerData.threads + index, 1);
process.on('exit', () => {
  Atomics.store(done, workerData.threads + index, 1);
  Atomics.notify(done, index);
  Atomics.notify(sync, 1);
});
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
let unavailable = false;
function answer(seq, status) {
  if (Atomics.load(sync, 0) !== seq) return;
  Atomics.store(sync, 2, status);
  Atomics.store(sync, 1, seq);
  Atomics.notify(sync, 1);
}
function startHelper() {
  // its own process group, so a reset kills the \`sync\` it started too, not only the shell
  const child = spawn('sh', ['-c', 'while IFS=" " read -r n p; do sync -f -- "$p" >/dev/null 2>&1; echo "$n $?"; done'], { stdio: ['pipe', 'pipe', 'ignore'], detached: true });
  let buffered = '';
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (s) => {
    buffered += s;
    let i;
    while ((i = buffered.indexOf('\\n')) >= 0) {
      const [seq, status] = buffered.slice(0, i).split(' ').map(Number);
      buffered = buffered.slice(i + 1);
      answer(seq, status);
    }
  });
  const fail = (err) => {
    if (helper !== child) return;
    helper = null;
    if (err && err.code === 'ENOENT') unavailable = true;
    answer(Atomics.load(sync, 0), -1);
  };
  child.on('error', fail);
  child.on('exit', () => fail(null));
  child.stdin.on('error', () => fail(null));
  return child;
}
port.on('message', (m) => {
  if (m.op === 'sync') {
    // a path read cannot give back whole (a line break, white space at either end): fsyncs instead
    if (unavailable || /^\\s|\\s$|\\n/.test(m.path)) return answer(m.seq, -1);
    try {
      helper ??= startHelper();
      helper.stdin.write(m.seq + ' ' + m.path + '\\n');
    } catch {
      answer(m.seq, -1);
    }
    return;
  }
  if (m.op === 'reset') {
    const child = helper;
    helper = null;
    if (child) {
      try { process.kill(-child.pid, 'SIGKILL'); } catch { child.kill('SIGKILL'); }
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

/**
 * Whether `done` (a thread's count of requests, kept modulo 2³² in an Int32Array) has reached
 * `target` (modulo 2³²), the two less than 2³¹ apart: a long-running collector passes 2³¹ requests
 * in weeks, past which a plain `>=` would never hold again.
 * @example countReached(-2147483647, 2147483649 | 0) // true: 2³¹ + 1 done of 2³¹ + 1 asked
 */
export const countReached = (done: number, target: number): boolean => ((done - target) | 0) >= 0;

/** The process's writer threads (made at first use). */
class SiteWriters {
  private readonly threads: Thread[];
  /** each thread's requests done (modulo 2³²), then each thread's stopped flag, then its started flag */
  private readonly done: Int32Array;
  private readonly createdMs: number;
  /** the sync request asked for, the one answered, its status */
  private readonly sync: Int32Array;
  /** requests sent to each thread (modulo 2³²) */
  private readonly sent: number[];
  /** failures read from the threads, by batch, not yet claimed (the {@link FAILURES_KEPT} newest batches') */
  private readonly failures = new Map<number, SiteWriteFailure[]>();
  private syncSeq = 0;
  /** set once a thread stopped: these threads take no more work */
  broken = false;
  /** an error a thread ended with (its 'error' event) */
  private failure: Error | null = null;

  constructor(count: number) {
    this.done = new Int32Array(new SharedArrayBuffer(4 * 3 * count));
    this.createdMs = performance.now();
    this.sync = new Int32Array(new SharedArrayBuffer(4 * 3));
    this.sent = new Array<number>(count).fill(0);
    const pid = process.pid.toString(36);
    this.threads = Array.from({ length: count }, (_, index) => {
      const { port1, port2 } = new MessageChannel();
      // temporary names as writeFileAtomic's (`.{pid}-{8 hex}-{counter}.tmp`), each thread its own random part
      const prefix = `.${pid}-${randomBytes(4).toString('hex')}-`;
      const worker = new Worker(WORKER_CODE, { eval: true, workerData: { index, threads: count, prefix, port: port2, done: this.done.buffer, sync: this.sync.buffer }, transferList: [port2] });
      // an exception the thread did not catch (it catches its own: a bug, or out of memory) ends it; the next wait says so
      worker.on('error', (err) => {
        this.failure ??= err;
        this.broken = true;
      });
      worker.unref();
      port1.unref();
      return { worker, port: port1 };
    });
  }

  /** The thread that takes `path`: always the same one for one path (FNV-1a of its characters, high bits folded in). */
  private threadOf(path: string): number {
    if (this.threads.length === 1) return 0;
    let h = 0x811c9dc5;
    for (let i = 0; i < path.length; i++) h = Math.imul(h ^ path.charCodeAt(i), 0x01000193);
    h ^= h >>> 16; // FNV's low bits alone follow the characters' parity
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
    this.waitFor(t, (this.sent[t]! - SITE_WRITER_QUEUE) | 0);
    this.threads[t]!.port.postMessage(message);
    this.sent[t] = (this.sent[t]! + 1) | 0;
  }

  /**
   * Wait until thread `t` has done `count` requests (modulo 2³²), however long its file system
   * takes. Throws when the thread stopped (and marks these threads broken: the next write starts others).
   */
  private waitFor(t: number, count: number): void {
    let last = Atomics.load(this.done, t);
    let progressMs = performance.now();
    for (;;) {
      const seen = Atomics.load(this.done, t);
      if (countReached(seen, count)) return;
      const now = performance.now();
      if (seen !== last) {
        last = seen;
        progressMs = now;
      }
      const n = this.threads.length;
      const stopped = Atomics.load(this.done, n + t) !== 0 || this.failure !== null;
      const neverStarted = Atomics.load(this.done, 2 * n + t) === 0 && now - this.createdMs > START_MS;
      if (stopped || neverStarted || now - progressMs > stallMs) {
        this.broken = true;
        // stop them now: a thread left running could still put a queued file in place after the caller moved on
        for (const { worker } of this.threads) void worker.terminate();
        const why = stopped ? `stopped${this.failure ? ` (${this.failure.message})` : ''}` : neverStarted ? 'never started' : `did none of its queued files in ${Math.round(stallMs / 1000)} s`;
        throw new Error(`a site writer thread ${why}: the files queued may not be written (their marks stay for the next pass); the next write starts new threads`);
      }
      Atomics.wait(this.done, t, seen, ALIVE_CHECK_MS);
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
        if (this.failures.size > FAILURES_KEPT) this.failures.delete(this.failures.keys().next().value!);
      }
    }
    const mine = this.failures.get(batch) ?? [];
    this.failures.delete(batch);
    return mine;
  }

  /**
   * syncfs(2) of the file system holding `path`, by the helper (`sync -f`): true when it ran and
   * succeeded; false when it could not (no `sh`, no `sync -f`, a path it cannot take) or gave no
   * answer in `answerMs` (the helper is then killed; the caller fsyncs each file instead).
   */
  syncFileSystem(path: string, answerMs = syncAnswerMs): boolean {
    this.syncSeq = (this.syncSeq + 1) | 0 || 1; // 0 is no request
    const seq = this.syncSeq;
    Atomics.store(this.sync, 0, seq);
    this.threads[0]!.port.postMessage({ op: 'sync', seq, path });
    const until = performance.now() + answerMs;
    for (;;) {
      const answered = Atomics.load(this.sync, 1);
      if (answered === seq) return Atomics.load(this.sync, 2) === 0;
      const left = until - performance.now();
      if (left <= 0 || Atomics.load(this.done, this.threads.length) !== 0) break;
      Atomics.wait(this.sync, 1, answered, Math.min(left, ALIVE_CHECK_MS));
    }
    Atomics.store(this.sync, 0, 0); // a late answer to this request is no answer to the next
    this.threads[0]!.port.postMessage({ op: 'reset' });
    return false;
  }

  /** Stop the threads (and with them the helper: its input closes). */
  async close(): Promise<void> {
    await Promise.all(this.threads.map(({ worker }) => worker.terminate()));
  }
}

let writers: SiteWriters | null = null;
let syncAnswerMs = SYNC_ANSWER_MS;
let stallMs = SITE_WRITER_STALL_MS;

/** Tests: how long a thread may do nothing queued before a wait gives up ({@link SITE_WRITER_STALL_MS} unless set). */
export function setSiteWriterStallMs(ms: number): void {
  stallMs = ms;
}

/** Tests: how long a commit waits for `sync -f` ({@link SYNC_ANSWER_MS} unless set). */
export function setSyncAnswerMs(ms: number): void {
  syncAnswerMs = ms;
}
let nextBatch = 1;

/** The process's writer threads, made at first use. */
export function siteWriters(): SiteWriters {
  if (writers?.broken) {
    void writers.close();
    writers = null;
  }
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
