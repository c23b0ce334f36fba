import { address, createSolanaRpc } from '@solana/kit';
import { bondingCurveAddress } from './pda.ts';

/**
 * Whether a launchpad bonding curve exists for a mint, as the chain says now:
 * - `never`: the curve PDA account is null AND it has no transaction history — the only answer that
 *   lets the API say 404 `not_a_curve_launch` (a finding, so it must be true);
 * - `exists`: the account exists or it has history (a curve launch the archive does not hold yet);
 * - `unknown`: a chain read failed; nothing may be claimed.
 */
export type CurveStatus = 'never' | 'exists' | 'unknown';

/** Checks a mint's curve; injected into the handlers so tests can fake it. */
export type CurveStatusFn = (mint: string) => Promise<CurveStatus>;

/**
 * A {@link CurveStatusFn} over JSON-RPC at `rpcUrl`: getAccountInfo(curve) and
 * getSignaturesForAddress(curve, {limit: 1}) in parallel, each bounded by `timeoutMs` (default 10 s).
 * Never throws: any failure (network, timeout, RPC error, malformed mint) is `unknown`.
 * @example await createCurveStatus('https://api.mainnet-beta.solana.com')(mint) // 'exists'
 */
export function createCurveStatus(rpcUrl: string, opts: { timeoutMs?: number } = {}): CurveStatusFn {
  const rpc = createSolanaRpc(rpcUrl);
  const timeoutMs = opts.timeoutMs ?? 10_000;
  return async (mint) => {
    try {
      const curve = address(await bondingCurveAddress(mint));
      const abortSignal = AbortSignal.timeout(timeoutMs);
      const [account, signatures] = await Promise.all([
        rpc.getAccountInfo(curve, { encoding: 'base64', dataSlice: { offset: 0, length: 0 } }).send({ abortSignal }),
        rpc.getSignaturesForAddress(curve, { limit: 1 }).send({ abortSignal }),
      ]);
      if (!Array.isArray(signatures)) return 'unknown';
      if (account.value === null && signatures.length === 0) return 'never';
      return 'exists';
    } catch {
      return 'unknown';
    }
  };
}
