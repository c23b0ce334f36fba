/**
 * Provider limits for the replay RPC (development tooling: the soak, `npm run soak`): sliding-window
 * request counts per caller and per method, answered the way Solana's public RPC answers — HTTP 429
 * with a `Retry-After` header — plus the WebSocket faults a provider shows (dropped notifications,
 * a forced disconnect now and then). Pure: the caller passes the time.
 *
 * Counting: every call counts, each element of a JSON-RPC batch included (the public RPC's limits
 * are per call; the collector's `RPC_MAX_RPS` counts the same way). A request is admitted whole or
 * refused whole, and a refused request counts nothing.
 */

/** One limit: at most `max` calls in any `windowMs`. */
export interface WindowLimit {
  max: number;
  windowMs: number;
}

/** What a provider allows. */
export interface ProviderProfile {
  name: string;
  /** calls per caller (per remote address); none when absent */
  perCaller?: WindowLimit;
  /** calls per caller and method; none when absent */
  perMethod?: WindowLimit;
  /** share of logsNotifications not sent (0–1; default 0) */
  dropNotificationShare?: number;
  /** every WebSocket is cut (no close handshake) this often, ms; never when absent */
  disconnectEveryMs?: number;
}

/**
 * The soak's profiles. `public`: Solana's public mainnet RPC as documented in 2026 (about 100 calls
 * per 10 s per IP, 40 per 10 s per method), with 1 % of WebSocket notifications lost and a disconnect
 * a minute; `paid`: a 200 calls/s plan; `none`: no limit.
 */
export const PROFILES = {
  public: {
    name: 'public',
    perCaller: { max: 100, windowMs: 10_000 },
    perMethod: { max: 40, windowMs: 10_000 },
    dropNotificationShare: 0.01,
    disconnectEveryMs: 60_000,
  },
  paid: { name: 'paid', perCaller: { max: 200, windowMs: 1_000 } },
  none: { name: 'none' },
} as const satisfies Record<string, ProviderProfile>;

export type ProfileName = keyof typeof PROFILES;

/** Whether `s` names a profile of {@link PROFILES}. */
export const isProfileName = (s: string): s is ProfileName => Object.hasOwn(PROFILES, s);

/** A refusal: wait `retryAfterS` seconds (whole, ≥ 1, as the header carries it). */
export interface Refusal {
  retryAfterS: number;
  /** which limit refused: `caller` or the method's name */
  limit: string;
}

/**
 * Sliding-window call log: the times of the calls admitted in the last `windowMs`, oldest first.
 * Memory is at most `max` times.
 */
export class SlidingWindow {
  private readonly times: number[] = [];
  private head = 0;

  constructor(readonly limit: WindowLimit) {}

  private prune(nowMs: number): void {
    while (this.head < this.times.length && this.times[this.head]! <= nowMs - this.limit.windowMs) this.head++;
    if (this.head > 1024 && this.head * 2 > this.times.length) {
      this.times.splice(0, this.head);
      this.head = 0;
    }
  }

  /** Calls admitted in the window ending at `nowMs`. */
  used(nowMs: number): number {
    this.prune(nowMs);
    return this.times.length - this.head;
  }

  /** Milliseconds from `nowMs` until `n` more calls fit (0 when they fit now; Infinity when n > max). */
  waitFor(n: number, nowMs: number): number {
    if (n > this.limit.max) return Infinity;
    const over = this.used(nowMs) + n - this.limit.max;
    if (over <= 0) return 0;
    // the window frees the `over`-th oldest call at its time + windowMs
    return this.times[this.head + over - 1]! + this.limit.windowMs - nowMs;
  }

  /** Record `n` calls at `nowMs` (the caller checked {@link waitFor}). */
  add(n: number, nowMs: number): void {
    for (let i = 0; i < n; i++) this.times.push(nowMs);
  }
}

/** The HTTP limiter of one profile: per-caller and per-method windows. */
export class ProviderLimiter {
  private readonly callers = new Map<string, SlidingWindow>();
  private readonly methods = new Map<string, SlidingWindow>();

  constructor(readonly profile: ProviderProfile) {}

  private window(map: Map<string, SlidingWindow>, key: string, limit: WindowLimit): SlidingWindow {
    let w = map.get(key);
    if (!w) map.set(key, (w = new SlidingWindow(limit)));
    return w;
  }

  /**
   * Admit one HTTP request from `caller` holding `methods` (one entry per call, a batch's in order)
   * at `nowMs`, or refuse it. Admitted calls are counted; a refusal counts nothing.
   * A batch larger than a limit's `max` is refused with that limit's window as `retryAfterS`.
   *
   * @example
   * const l = new ProviderLimiter(PROFILES.public);
   * l.admit('127.0.0.1', ['getSlot'], Date.now()); // null: admitted
   */
  admit(caller: string, methods: string[], nowMs: number): Refusal | null {
    const checks: { w: SlidingWindow; n: number; limit: string }[] = [];
    const { perCaller, perMethod } = this.profile;
    if (perCaller) checks.push({ w: this.window(this.callers, caller, perCaller), n: methods.length, limit: 'caller' });
    if (perMethod) {
      const byMethod = new Map<string, number>();
      for (const m of methods) byMethod.set(m, (byMethod.get(m) ?? 0) + 1);
      for (const [m, n] of byMethod) checks.push({ w: this.window(this.methods, `${caller} ${m}`, perMethod), n, limit: m });
    }
    let worst: { ms: number; limit: string } | null = null;
    for (const c of checks) {
      const ms = c.w.waitFor(c.n, nowMs);
      const wait = ms === Infinity ? c.w.limit.windowMs : ms;
      if (ms > 0 && (!worst || wait > worst.ms)) worst = { ms: wait, limit: c.limit };
    }
    if (worst) return { retryAfterS: Math.max(1, Math.ceil(worst.ms / 1000)), limit: worst.limit };
    for (const c of checks) c.w.add(c.n, nowMs);
    return null;
  }
}

/**
 * Whether to drop the `n`-th notification (1-based) at `share`: every ⌈1/share⌉-th one, so the share
 * is exact and a run is repeatable (no randomness). `share` 0 never drops.
 *
 * @example
 * dropsNotification(100, 0.01); // true
 */
export function dropsNotification(n: number, share: number): boolean {
  if (!(share > 0)) return false;
  return n % Math.max(1, Math.round(1 / share)) === 0;
}
