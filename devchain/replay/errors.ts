/**
 * JSON-RPC errors of the replay RPC, with the codes and messages mainnet (Agave) uses.
 */

/** A JSON-RPC error answer `{code, message, data?}`. Thrown by method handlers. */
export class RpcError extends Error {
  override name = 'RpcError';
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
  }
  /** The `error` member of a JSON-RPC response. */
  toJson(): { code: number; message: string; data?: unknown } {
    return this.data === undefined ? { code: this.code, message: this.message } : { code: this.code, message: this.message, data: this.data };
  }
}

export const PARSE_ERROR = { code: -32700, message: 'Parse error' } as const;
export const INVALID_REQUEST = { code: -32600, message: 'Invalid request' } as const;
export const METHOD_NOT_FOUND = { code: -32601, message: 'Method not found' } as const;
/** The body mainnet's rate limiter answers with (HTTP 429). */
export const TOO_MANY_REQUESTS = { code: 429, message: 'Too many requests for a specific RPC call' } as const;

/** -32602 `Invalid params: …` (serde's wording for malformed parameters). */
export const invalidParams = (detail: string) => new RpcError(-32602, `Invalid params: ${detail}.`);
/** -32602 `Invalid param: Invalid` / `WrongSize` (a malformed pubkey or signature, as mainnet words it). */
export const invalidParam = (why: 'Invalid' | 'WrongSize') => new RpcError(-32602, `Invalid param: ${why}`);
/** -32602 for commitment `processed` on archival methods. */
export const commitmentTooLow = () => new RpcError(-32602, 'Method does not support commitment below `confirmed`');
/** -32016 when minContextSlot is ahead of the node. */
export const minContextSlotNotReached = (contextSlot: number) => new RpcError(-32016, 'Minimum context slot has not been reached', { contextSlot });
/** -32004 for a slot whose block is unknown. */
export const blockNotAvailable = (slot: number | bigint) => new RpcError(-32004, `Block not available for slot ${slot}`);
/** -32015 for a versioned transaction requested without maxSupportedTransactionVersion or with one below its version. */
export const unsupportedTransactionVersion = (version: number) =>
  new RpcError(
    -32015,
    `Transaction version (${version}) is not supported by the requesting client. Please try the request again with the following configuration parameter: "maxSupportedTransactionVersion": ${version}`,
  );
