/**
 * Fixed program ids and protocol wallets (reference.md §1.1). Pure constants.
 */
export const PUMP_PROGRAM_ID = '6EF8rrecthR5Dkzon8Nwu78hRvfCKubJ14M5uBEwF6P';
/**
 * The pump program's mint authority PDA (seeds "mint-authority"; src/core/idl/pump.json): `create` and
 * `create_v2` touch it and no other instruction does, so its signature history lists creations only.
 */
export const PUMP_MINT_AUTHORITY = 'TSLvdd1pWpHVjahSpsvCXUbgwsL3JAcvokwaKt1eokM';
export const PUMP_AMM_PROGRAM_ID = 'pAMMBay6oceH9fJKBRHGP5D4bD4sWpmSwMn52FMfXEA';
/** Pump Fees (fee config, fee sharing; pump and PumpSwap trades CPI its `get_fees`). IDL: src/core/idl/pump_fees.json. */
export const PUMP_FEES_PROGRAM_ID = 'pfeeUxB6jkeY1Hxd7CsFCAjcbHA9rWtchMGdZ6VojVZ';
/** The System program. */
export const SYSTEM_PROGRAM_ID = '11111111111111111111111111111111';
export const WSOL_MINT = 'So11111111111111111111111111111111111111112';
/** USDC, the launchpad's whitelisted quote mint (SPL Token, 6 decimals; reference.md §1.5, idl/2026-10 FACTS §6). */
export const USDC_MINT = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v';
/** The default key: `quote_mint` = this means SOL (reference.md §1.5). */
export const DEFAULT_KEY = '11111111111111111111111111111111';

/**
 * The decimals of a quote mint known without reading the chain: 9 for SOL (absent, the default
 * key or WSOL: lamports), 6 for USDC; null for any other quote (a pump coin, a token listed through
 * QuoteControl such as an 8-decimal xStock: idl/2026-10 FACTS §6), whose decimals come from the
 * chain (record-building: launch-events.ts quoteDecimalsOf; the pool: chain-state.ts's mint read).
 * @example knownQuoteDecimals(USDC_MINT) // 6
 */
export function knownQuoteDecimals(quoteMint: string | null | undefined): number | null {
  if (!quoteMint || quoteMint === DEFAULT_KEY || quoteMint === WSOL_MINT) return 9;
  return quoteMint === USDC_MINT ? 6 : null;
}
export const TOKEN_PROGRAM_ID = 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA';
export const TOKEN_2022_PROGRAM_ID = 'TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb';
export const ASSOCIATED_TOKEN_PROGRAM_ID = 'ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL';
/** Migration / withdraw authority: the keeper wallet (Global.withdraw_authority). */
export const KEEPER_WALLET = '39azUYFWPz3VHgKCf3VChUwbpURdCHRxjWVowf5jUJjg';
/** Mayhem agent (GlobalConfig.whitelist_pda): appears as `user` in Mayhem trades. */
export const MAYHEM_AGENT = 'BwWK17cbHxwWBKZkUYvzxLcNQ1YVyaFezduWbtm2de6s';
export const PUMP_FEE_RECIPIENTS = [
  '62qc2CNXwrYqQScmEdiZFFAnJR262PxWEuNQtxfafNgV',
  '7VtfL8fvgNfhz17qKRMjzQEXgbdpnHHHQRh54R9jP2RJ',
  '7hTckgnGnLQR6sdH7YkqFTAA7VwTfYFaZ6EhEsU3saCX',
  '9rPYyANsfQZw3DnDmKE3YCQF5E8oD89UXoHn9JFEhJUz',
  'AVmoTthdrX6tKt4nDjco2D775W2YK3sDhxPcMmzUAmTY',
  'CebN5WGQ4jvEPvsVU4EoHEpgzq1VV7AbicfhtW4xC9iM',
  'FWsW1xNtWscwNmKv6wVsU1iTzRN6wmmk3MjxRP5tT7hz',
  'G5UZAVbAf46s7cKWoyKu8kYTip9DGTpbLZ2qa9Aq69dP',
];
export const BUYBACK_FEE_RECIPIENTS = [
  '5YxQFdt3Tr9zJLvkFccqXVUwhdTWJQc1fFg2YPbxvxeD',
  '9M4giFFMxmFGXtc3feFzRai56WbBqehoSeRE5GK7gf7',
  'GXPFM2caqTtQYC2cJ5yJRi9VDkpsYZXzYdwYpGnLmtDL',
  '3BpXnfJaUTiwXnJNe7Ej1rcbzqTTQUvLShZaWazebsVR',
  '5cjcW9wExnJJiqgLjq7DEG75Pm6JBgE1hNv4B2vHXUW6',
  'EHAAiTxcdDwQ3U4bU6YcMsQGaekdzLS3B5SmYo46kJtL',
  '5eHhjP8JaYkz83CWwvGU2uMUXefd3AazWGx4gpcuEEYD',
  'A7hAgCzFw14fejgCp387JUJRMNyz4j89JKnhtKU8piqW',
];
/**
 * Who a multi-hop route's middle hop traded for (markers-v10): PumpSwap's `multi_hop_swap` runs the
 * route, and a coin between the user's own currency and the coin at the far end of the route
 * "never touches the user's wallet" — the hop's tokens go to (a sell's come from) the route's next
 * (previous) curve or pool, not to a wallet (idl/2026-10 docs/instructions/MULTI_HOP_SWAP.md; FACTS
 * §1: "the middle coin nets to zero for the user"). Such a trade is recorded as this program's:
 * real volume on the curve, no wallet's buy or sale.
 */
export const MULTI_HOP_ROUTE = PUMP_AMM_PROGRAM_ID;

/** Wallets that are the protocol itself: never counted as outside buyers (reference.md §1.1, §3). */
export const PROTOCOL_WALLETS: ReadonlySet<string> = new Set([
  ...PUMP_FEE_RECIPIENTS,
  ...BUYBACK_FEE_RECIPIENTS,
  KEEPER_WALLET,
  MAYHEM_AGENT,
  MULTI_HOP_ROUTE,
]);

/**
 * The 8 Jito tip accounts (reference.md §3 "Jito tip accounts", from getTipAccounts examples in the
 * QuickNode and Alchemy docs). A System transfer to one of them marks a Jito-landed transaction.
 */
export const JITO_TIP_ACCOUNTS = [
  '96gYZGLnJYVFmbjzopPSU6QiEV5fGqZNyN9nmNhvrZU5',
  'HFqU5x63VTqvQss8hp11i4wVV8bD44PvwucfZ2bU7gRe',
  'Cw8CFyM9FkoMi7K7Crf6HNQqf4uEMzpKw6QNghXLvLkY',
  'ADaUMid9yfUytqMBgopwjb2DTLSokTSzL1zt6iGPaS49',
  'DfXygSm4jCyNCybVYYK6DwvWqjKee8pbDmJGcLWNDXjh',
  'ADuUkR4vqLUMWXxW9gh6D6L8pMSawimctcNZ5pGwDcEt',
  'DttWaMuVvTiduZRnguLF7jNxTgiMBZ1hyAumKUiL2KRL',
  '3AVi9Tg9Uo68tJfuvoKvqKNWKkC5wPdSSdeBnizKZ6jT',
] as const;
/** {@link JITO_TIP_ACCOUNTS} as a set. */
export const JITO_TIP_ACCOUNT_SET: ReadonlySet<string> = new Set(JITO_TIP_ACCOUNTS);
