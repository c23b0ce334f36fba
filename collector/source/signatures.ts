import { address } from '@solana/kit';
import { PUMP_PROGRAM_ID } from '../../src/core/programs.ts';
import type { ArchiveRpc } from '../../src/chain/rpc.ts';
import type { TransactionReader } from '../../src/chain/transaction-reader.ts';
import { pageSignatures, signaturePage, type SignatureInfo } from '../../src/chain/signatures.ts';

/** Cursor name of the pump program's signature history. */
export const PROGRAM_CURSOR = 'program';

/**
 * Signatures of the pump program newer than the cursor (`until`; null: from the beginning), oldest
 * first, read through the collector's batched reader (plain JSON) when given, else through kit.
 */
export async function fetchNewSignatures(rpc: ArchiveRpc, until: string | null, signal?: AbortSignal, reader?: TransactionReader): Promise<SignatureInfo[]> {
  return (await pageSignatures(rpc, PUMP_PROGRAM_ID, { until, signal, reader })).signatures.reverse();
}

/** The program's newest signature (a page of one). Errors: the transport's, or the page's when it is malformed. */
export async function fetchLatest(rpc: ArchiveRpc, signal?: AbortSignal): Promise<SignatureInfo[]> {
  const page = signaturePage(await rpc.getSignaturesForAddress(address(PUMP_PROGRAM_ID), { limit: 1, commitment: 'confirmed' }).send({ abortSignal: signal }));
  if (page instanceof Error) throw page;
  return page;
}
