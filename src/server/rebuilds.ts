import type { Config } from '../config.ts';
import type { Logger } from '../log.ts';
import type { PublicStore } from '../db/public-store.ts';
import type { RebuildJob } from '../db/rebuild-jobs.ts';
import type { RebuildQueue } from '../db/private-state.ts';
import { createArchiveRpc } from '../chain/rpc.ts';
import { instant } from '../core/canonical.ts';
import type { Instant } from '../core/types.ts';
import { RebuildReadError, rebuildLaunch } from '../ingest/rebuild-launch.ts';
import ipaddr from 'ipaddr.js';

/** Rebuild starts per caller per hour (spec §8). */
export const REBUILDS_PER_CALLER_HOURLY = 5;
/** Name of the rebuild policy in the RateLimit fields (draft-ietf-httpapi-ratelimit-headers-10). */
export const REBUILD_POLICY = 'rebuilds';

/** The `rebuild` object of a 202 answer (docs/api.md "Rebuilds"). */
export interface RebuildView {
  state: 'queued' | 'running';
  queuedAt: Instant;
  startedAt: Instant | null;
  /** jobs ahead of this one in the queue (0 when running or next) */
  position: number;
  progress: { signatures: number; transactions: number };
  /** rough seconds until the record is served, from the rate so far; null before anything is known */
  estimate: { secondsRemaining: number | null };
}

/** Outcome of a token request for a mint not held (the handler maps it to HTTP). */
export type RebuildAnswer =
  | { kind: 'in_progress'; view: RebuildView; retryAfterS: number; started: boolean; callerStarts: number; callerResetS: number }
  | { kind: 'failed'; error: string | null }
  | { kind: 'refused'; code: 'rate_limited' | 'rebuild_budget_exhausted' | 'busy'; retryAfterS: number; callerStarts: number; callerResetS: number };

/**
 * On-demand rebuilds (spec §3): the queue in the private state (SQLite RebuildJobs, or PostgreSQL in
 * cluster mode, where every node's worker claims from the one queue) and the server's worker, which
 * claims jobs with a lease and runs them through rebuildLaunch (same builder as the collector) with
 * bounded concurrency. A restarted server resumes jobs whose lease ran out; a finished job's record is
 * permanent (origin "rebuilt").
 */
export class RebuildService {
  private timer: NodeJS.Timeout | null = null;
  private running = new Set<string>();
  private claiming = false;
  /** {@link stopWorker} was called: runs still going neither renew their leases nor fail their jobs. */
  private stopping = false;
  private claimFailing = false;

  constructor(
    private readonly d: { config: Config; publicStore: PublicStore; log: Logger; now: () => number },
    /** the queue (PrivateState.rebuilds) */
    readonly jobs: RebuildQueue,
  ) {}

  /** The answer for an active or failed job of `mint`, or null when there is none (the caller decides whether to start one). */
  async existing(mint: string, caller: string): Promise<RebuildAnswer | null> {
    const job = await this.jobs.get(mint);
    if (!job) return null;
    if (job.state === 'failed') {
      await this.jobs.clearFailed(mint); // reported once; a later request may start again
      return { kind: 'failed', error: job.error ?? null };
    }
    return this.inProgress(job, false, caller);
  }

  /** Start a rebuild of `mint` for `caller` under the limits (the curve is known to exist). */
  async start(mint: string, caller: string): Promise<RebuildAnswer> {
    const { config } = this.d;
    const nowMs = this.d.now();
    const out = await this.jobs.start(mint, caller, nowMs, {
      perCallerHourly: REBUILDS_PER_CALLER_HOURLY,
      dailyCeiling: config.REBUILD_DAILY_CEILING,
      maxQueue: config.REBUILD_MAX_QUEUE,
    });
    const mine = await this.callerWindow(caller, nowMs);
    if (!out.started) return { kind: 'refused', code: out.refused, retryAfterS: out.retryAfterS, ...mine };
    this.kick();
    // a job already there (another caller's, asked at the same moment) was joined, not started: no start counted, no policy sent
    return this.inProgress(out.job, !out.joined, caller);
  }

  private async callerWindow(caller: string, nowMs: number): Promise<{ callerStarts: number; callerResetS: number }> {
    const w = await this.jobs.callerStartsInHour(caller, nowMs);
    return { callerStarts: w.count, callerResetS: w.oldestMs === null ? 3600 : Math.max(1, Math.ceil((w.oldestMs + 3_600_000 - nowMs) / 1000)) };
  }

  private async inProgress(job: RebuildJob, started: boolean, caller: string): Promise<RebuildAnswer> {
    const nowMs = this.d.now();
    const view = await this.view(job, nowMs);
    const retryAfterS = Math.min(60, Math.max(1, Math.ceil(view.estimate.secondsRemaining ?? 2 + view.position * 5)));
    return { kind: 'in_progress', view, retryAfterS, started, ...(await this.callerWindow(caller, nowMs)) };
  }

  /** The public view of a job. */
  async view(job: RebuildJob, nowMs: number): Promise<RebuildView> {
    const running = job.state === 'running';
    let secondsRemaining: number | null = null;
    if (running && job.startedAtMs !== null && job.transactionsRead > 0 && job.signaturesRead >= job.transactionsRead) {
      const rate = job.transactionsRead / Math.max(1, nowMs - job.startedAtMs); // per ms
      secondsRemaining = Math.ceil((job.signaturesRead - job.transactionsRead) / rate / 1000) + 1;
    }
    return {
      state: running ? 'running' : 'queued',
      queuedAt: instant(job.queuedAtMs),
      startedAt: job.startedAtMs !== null && running ? instant(job.startedAtMs) : null,
      position: running ? 0 : await this.jobs.position(job),
      progress: { signatures: job.signaturesRead, transactions: job.transactionsRead },
      estimate: { secondsRemaining },
    };
  }

  /** Start the worker: claims queued jobs (and ones whose lease ran out) every `intervalMs`. */
  startWorker(intervalMs = 250): void {
    if (this.timer) return;
    this.timer = setInterval(() => this.kick(), intervalMs);
    this.timer.unref();
    this.kick();
  }

  /**
   * Stop the worker (the server stops on a signal: node-entry.ts): claim nothing more, and give up
   * the leases of the jobs this process runs, so a restarted server (or another node) takes them at
   * once instead of after REBUILD_LEASE_MS (an operator's review: a SIGTERM left the job waiting
   * out its lease, its polls showing a stale "running"). Their runs are not renewed or failed
   * after this. Resolves when the leases are given up (errors are logged).
   */
  async stopWorker(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.stopping = true;
    await Promise.all(
      [...this.running].map((mint) =>
        this.jobs.release(mint).catch((e) => this.d.log.warn({ mint, err: e instanceof Error ? e.message : String(e) }, 'rebuild lease not given up: the job waits out its lease')),
      ),
    );
  }

  /**
   * Claim and run as many jobs as there are free slots (no-op when the worker is not started, or a
   * claim of this process is still under way). A claim that fails (PostgreSQL unreachable) is
   * logged and tried again at the next tick.
   */
  private kick(): void {
    if (!this.timer || this.claiming) return;
    const { config, log } = this.d;
    const free = config.REBUILD_CONCURRENCY - this.running.size;
    if (free <= 0) return;
    this.claiming = true;
    this.jobs
      .claim(this.d.now(), config.REBUILD_LEASE_MS, free)
      .then(
        (jobs) => {
          if (this.claimFailing) log.info('rebuild queue: claims work again');
          this.claimFailing = false;
          for (const job of jobs) void this.run(job);
        },
        (e) => {
          // logged once per outage, not at every tick
          if (!this.claimFailing) log.warn({ err: e instanceof Error ? e.message : String(e) }, 'rebuild queue: claim failed; retrying at every tick');
          this.claimFailing = true;
        },
      )
      .finally(() => {
        this.claiming = false;
      });
  }

  private async run(job: RebuildJob): Promise<void> {
    const { config, publicStore, log } = this.d;
    this.running.add(job.mint);
    const rpc = createArchiveRpc({ url: config.SOLANA_RPC_URL });
    try {
      // a job claimed again and again is one whose process died while running it (killed, or out of memory on it): it fails
      // rather than take every restarted server down with it (a security review: one request, a crash at every restart)
      if (job.attempts > REBUILD_MAX_ATTEMPTS) {
        log.warn({ mint: job.mint, attempts: job.attempts }, 'rebuild failed: its server stopped while running it on each of its attempts');
        await this.jobs.fail(job.mint, `stopped while running on ${REBUILD_MAX_ATTEMPTS} attempts`).catch(() => {});
        return;
      }
      await rebuildLaunch({ config, store: publicStore, rpc, log, now: this.d.now }, job.mint, {
        onProgress: (p) =>
          !this.stopping &&
          void this.jobs.progress(job.mint, p.signatures, p.transactions, this.d.now() + config.REBUILD_LEASE_MS).catch((e) =>
            log.warn({ mint: job.mint, err: e instanceof Error ? e.message : String(e) }, 'rebuild progress not recorded'),
          ),
      });
      await this.jobs.finish(job.mint);
    } catch (e) {
      if (this.stopping) return; // the process stops: its lease was given up, the job is not failed
      const reason = e instanceof Error ? `${e.name}: ${e.message}` : String(e);
      log.warn({ mint: job.mint, err: reason, readFailure: e instanceof RebuildReadError }, 'rebuild failed');
      // when the queue itself is unreachable the job stays running; its lease runs out and it is claimed again
      await this.jobs.fail(job.mint, reason).catch(() => {});
    } finally {
      this.running.delete(job.mint);
    }
  }
}

/** How many times a rebuild job may be claimed before it fails (a claim after a lease ran out: its process died running it). */
export const REBUILD_MAX_ATTEMPTS = 3;

/**
 * The originating address of a request (spec §8 "tracked by originating address"), as the caller
 * limits count it ({@link callerGroup}): the socket's address, or — only when that address is a
 * configured trusted proxy — the right-most address of `X-Forwarded-For` that is not itself a
 * trusted proxy (matched as written in TRUSTED_PROXIES, before grouping).
 */
export function callerAddress(request: Request, clientAddress: string | undefined, trustedProxies: string): string {
  const socket = clientAddress ?? 'unknown';
  const trusted = new Set(trustedProxies.split(',').map((s) => s.trim()).filter(Boolean));
  if (!trusted.has(socket)) return callerGroup(socket);
  const hops = (request.headers.get('X-Forwarded-For') ?? '').split(',').map((s) => s.trim()).filter(Boolean);
  for (let i = hops.length - 1; i >= 0; i--) if (!trusted.has(hops[i]!)) return callerGroup(hops[i]!);
  return callerGroup(socket);
}

/**
 * The caller an address counts as, for every per-caller limit (rebuild starts, searches, key
 * rotations, Stripe calls) and in `/api/v1/usage`: an IPv4 address as it is (an IPv4-mapped IPv6
 * address, `::ffff:203.0.113.7`, as its IPv4); an IPv6 address as its /64 network,
 * `2001:db8:1:2::/64` — a subscriber's network is a /64 (RFC 6177) and one host may take any of its
 * 2^64 addresses in turn, so counting single IPv6 addresses would be no limit (`::1` stays
 * itself). Anything that is not a dotted IPv4 or an IPv6 address (`unknown`, a malformed `X-Forwarded-For` hop) is returned as it is. Pure; parsing
 * by ipaddr.js.
 * @example callerGroup('2001:db8:1:2:aaaa:bbbb:cccc:dddd') // '2001:db8:1:2::/64'
 * @example callerGroup('::ffff:203.0.113.7') // '203.0.113.7'
 */
export function callerGroup(address: string): string {
  // IPv4 only in its dotted form: ipaddr.js also reads `1.2.3` and `0x7f.1`, which no socket gives
  if (ipaddr.IPv4.isValidFourPartDecimal(address) || !ipaddr.IPv6.isValid(address)) return address;
  const ip = ipaddr.process(address); // IPv4-mapped IPv6 → IPv4
  if (ip.kind() === 'ipv4') return ip.toString();
  if (ip.range() === 'loopback') return '::1';
  const parts = (ip as ipaddr.IPv6).parts.slice(0, 4).concat([0, 0, 0, 0]);
  return `${new ipaddr.IPv6(parts).toString()}/64`;
}
