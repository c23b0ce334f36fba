import { signature as toSignature } from '@solana/kit';
import { toPlainJson, type ArchiveRpc } from './rpc.ts';
import { TRANSACTION_CONFIG } from './transaction-reader.ts';

/**
 * Fetch one transaction (getTransaction, `json`, plain JSON). A `null` answer (not yet available at
 * this commitment) is retried a few times; `null` after that, so the caller can stop before it and
 * skip nothing. Errors: the transport's, after its retries.
 */
export async function fetchAnswer(rpc: ArchiveRpc, sig: string, signal?: AbortSignal): Promise<Record<string, unknown> | null> {
  for (let attempt = 0; attempt < 5; attempt++) {
    const res = await rpc
      .getTransaction(toSignature(sig), TRANSACTION_CONFIG)
      .send({ abortSignal: signal });
    if (res) return toPlainJson(res) as Record<string, unknown>;
    await new Promise((r) => setTimeout(r, 200 * 2 ** attempt));
  }
  return null;
}
