import { afterEach, describe, expect, it } from 'vitest';
import { dropsNotification, PROFILES, ProviderLimiter, SlidingWindow } from '../../devchain/replay/limiter.ts';
import { startReplayRpc, type ReplayRpc } from '../../devchain/replay/server.ts';

describe('SlidingWindow', () => {
  it('admits max calls per window and says when the next fits', () => {
    const w = new SlidingWindow({ max: 3, windowMs: 1000 });
    expect(w.waitFor(3, 0)).toBe(0);
    w.add(1, 0);
    w.add(2, 400);
    expect(w.used(500)).toBe(3);
    expect(w.waitFor(1, 500)).toBe(500); // the call at 0 leaves the window at 1000
    expect(w.waitFor(2, 500)).toBe(900); // the second oldest (400) leaves at 1400
    expect(w.waitFor(1, 1000)).toBe(0);
    expect(w.used(1400)).toBe(0);
    expect(w.waitFor(4, 0)).toBe(Infinity);
  });
});

describe('ProviderLimiter', () => {
  it('public: 40 calls per 10 s per method, 100 per caller, each batch element counted', () => {
    const l = new ProviderLimiter(PROFILES.public);
    for (let i = 0; i < 40; i++) expect(l.admit('a', ['getTransaction'], i)).toBeNull();
    expect(l.admit('a', ['getTransaction'], 50)).toEqual({ retryAfterS: 10, limit: 'getTransaction' });
    // other methods still pass until the caller's 100
    expect(l.admit('a', Array(40).fill('getSignaturesForAddress'), 60)).toBeNull();
    expect(l.admit('a', Array(20).fill('getSlot'), 70)).toBeNull();
    expect(l.admit('a', ['getAccountInfo'], 80)).toEqual({ retryAfterS: 10, limit: 'caller' });
    // another caller has its own windows
    expect(l.admit('b', ['getTransaction'], 80)).toBeNull();
    // the window slides: the first call (t=0) leaves at 10 000
    expect(l.admit('a', ['getTransaction'], 10_000)).toBeNull();
    expect(l.admit('a', ['getTransaction'], 10_000)).not.toBeNull();
  });

  it('refuses a batch larger than a limit, and a refusal counts nothing', () => {
    const l = new ProviderLimiter(PROFILES.public);
    expect(l.admit('a', Array(41).fill('getTransaction'), 0)?.limit).toBe('getTransaction');
    expect(l.admit('a', Array(40).fill('getTransaction'), 0)).toBeNull();
  });

  it('paid: 200 calls per second; none: no limit', () => {
    const paid = new ProviderLimiter(PROFILES.paid);
    expect(paid.admit('a', Array(200).fill('getTransaction'), 0)).toBeNull();
    expect(paid.admit('a', ['getSlot'], 999)).toEqual({ retryAfterS: 1, limit: 'caller' });
    expect(paid.admit('a', ['getSlot'], 1000)).toBeNull();
    const none = new ProviderLimiter(PROFILES.none);
    for (let i = 0; i < 10_000; i++) expect(none.admit('a', ['getTransaction'], 0)).toBeNull();
  });
});

describe('dropsNotification', () => {
  it('drops exactly the share, repeatably', () => {
    let dropped = 0;
    for (let n = 1; n <= 10_000; n++) if (dropsNotification(n, 0.01)) dropped++;
    expect(dropped).toBe(100);
    expect(dropsNotification(5, 0)).toBe(false);
  });
});

describe('replay RPC with a provider profile', () => {
  let rpc: ReplayRpc | null = null;
  afterEach(async () => {
    await rpc?.close();
    rpc = null;
  });

  it('answers 429 with Retry-After past the per-method limit and counts the refusals', async () => {
    rpc = await startReplayRpc({ provider: PROFILES.public });
    const call = () => fetch(rpc!.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'getSlot' }) });
    for (let i = 0; i < 40; i++) expect((await call()).status).toBe(200);
    const refused = await call();
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toMatch(/^(9|10)$/);
    expect(((await refused.json()) as { error: { code: number } }).error.code).toBe(429);
    expect(rpc.stats.refused).toEqual({ getSlot: 1 });
    expect(rpc.stats.calls.getSlot).toBe(41);
  });
});
