/**
 * How the collector's RPC queue (p-queue) paces calls to RPC_MAX_RPS a second (README settings;
 * every call of a batch counts). Pure.
 *
 * One call per `1000 / rps` ms (the first form) needs a timer every 5 ms at 200 calls a second; under
 * load timers fire late, and in a 2-minute `paid` soak trial (RPC_MAX_RPS=200, load ~15) the collector
 * sent 32.5 getTransaction calls a second, its catch-up reads waiting on the queue while it used 0.08
 * of a core. From 110 calls a second on, calls are therefore paced in windows of 100 ms, at most
 * `floor(rps / 11)` each: a sliding second overlaps at most 11 such windows, so it never holds more than
 * `rps` calls (a provider counting over a sliding window refuses none), at 83–91 % of the rate.
 * Below that, one call per `ceil(1000 / rps)` ms, as before.
 */
export function rpcPacing(rps: number): { interval: number; intervalCap: number } | null {
  if (!(rps > 0)) return null;
  if (rps >= PACING_WINDOWED_FROM) return { interval: 100, intervalCap: Math.floor(rps / 11) };
  return { interval: Math.ceil(1000 / rps), intervalCap: 1 };
}

/** From this RPC_MAX_RPS on, {@link rpcPacing} paces in 100 ms windows (at least 10 calls each). */
export const PACING_WINDOWED_FROM = 110;
