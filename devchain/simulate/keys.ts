/**
 * Deterministic fake keys (addresses, signatures, blockhashes, vanity "…pump" mints) and fast
 * synchronous PDA / ATA derivation for the chain simulator. The canonical per-launch addresses are
 * also derived with @solana/kit's getProgramDerivedAddress (see {@link kitPda}); tests check that
 * both agree.
 */
import { createHash, createPrivateKey, createPublicKey } from 'node:crypto';
import { address, getAddressEncoder, getBase58Decoder, getBase58Encoder, getProgramDerivedAddress, isOffCurveAddress } from '@solana/kit';
import type { Rng } from './prng.ts';

const b58enc = getBase58Encoder();
const b58dec = getBase58Decoder();
const text = new TextEncoder();

/** bytes → base58 string. */
export function toBase58(bytes: Uint8Array): string {
  return b58dec.decode(bytes);
}

/** base58 string → bytes. */
export function fromBase58(s: string): Uint8Array {
  return new Uint8Array(b58enc.encode(s));
}

// Fixed program ids and accounts (reference.md §1.1).
export const PUMP = '6EF8rrecthR5Dkzon8Nwu78hRvfCKubJ14M5uBEwF6P';
export const PUMP_AMM = 'pAMMBay6oceH9fJKBRHGP5D4bD4sWpmSwMn52FMfXEA';
export const PUMP_FEES = 'pfeeUxB6jkeY1Hxd7CsFCAjcbHA9rWtchMGdZ6VojVZ';
export const MAYHEM_PROGRAM = 'MAyhSmzXzV1pTf7LsNkrNwkWKTo4ougAJ1PPg47MD4e';
export const GLOBAL = '4wTV1YmiEkRvAtNtsSGPtUrqRYQMe5SKy2uB4Jjaxnjf';
export const EVENT_AUTHORITY = 'Ce6TQqeHC9p8KetsN6JsjHK7UTZk7nasjjnr7XxXp9F1';
export const AMM_EVENT_AUTHORITY = 'GS4CU59F31iL7aR2Q8zVS8DRrcRnXX1yjQ66TqNVQnaR';
export const MINT_AUTHORITY = 'TSLvdd1pWpHVjahSpsvCXUbgwsL3JAcvokwaKt1eokM';
export const GLOBAL_VOLUME_ACCUMULATOR = 'Hq2wp8uJ9jCPsYgNHex8RtqdvMPfVGoYwjvF1ATiwn2Y';
export const FEE_CONFIG = '8Wf5TiAheLUqBrKXeYg2JtAFFMWtKdG2BSFgqUcPVwTt';
export const AMM_GLOBAL_CONFIG = 'ADyA8hdefvWN2dbGGWFotbzWxrAvLW83WG6QCVXvJKqw';
export const KEEPER = '39azUYFWPz3VHgKCf3VChUwbpURdCHRxjWVowf5jUJjg';
export const LAST_WITHDRAW = 'EGqbBGXmDA9QYd1XJkf3GDFoerQYeFW3FrQZZXRza9JL';
export const MAYHEM_AGENT = 'BwWK17cbHxwWBKZkUYvzxLcNQ1YVyaFezduWbtm2de6s';
export const MPL_TOKEN_METADATA = 'metaqbxxUerdq28cj1RbAWkYQm3ybzjb6a8bt518x1s';
export const SYSTEM_PROGRAM = '11111111111111111111111111111111';
export const DEFAULT_KEY = '11111111111111111111111111111111';
export const TOKEN_PROGRAM = 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA';
export const TOKEN_2022_PROGRAM = 'TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb';
export const ATA_PROGRAM = 'ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL';
export const COMPUTE_BUDGET = 'ComputeBudget111111111111111111111111111111';
export const RENT_SYSVAR = 'SysvarRent111111111111111111111111111111111';
export const WSOL_MINT = 'So11111111111111111111111111111111111111112';
export const USDC_MINT = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v';
export const JITO_TIP_ACCOUNT = '96gYZGLnJYVFmbjzopPSU6QiEV5fGqZNyN9nmNhvrZU5';
/** The 8 Jito tip accounts (reference.md §3, from getTipAccounts); the 2026-10 era tips any of them. */
export const JITO_TIP_ACCOUNTS = [
  '96gYZGLnJYVFmbjzopPSU6QiEV5fGqZNyN9nmNhvrZU5', 'HFqU5x63VTqvQss8hp11i4wVV8bD44PvwucfZ2bU7gRe', 'Cw8CFyM9FkoMi7K7Crf6HNQqf4uEMzpKw6QNghXLvLkY',
  'ADaUMid9yfUytqMBgopwjb2DTLSokTSzL1zt6iGPaS49', 'DfXygSm4jCyNCybVYYK6DwvWqjKee8pbDmJGcLWNDXjh', 'ADuUkR4vqLUMWXxW9gh6D6L8pMSawimctcNZ5pGwDcEt',
  'DttWaMuVvTiduZRnguLF7jNxTgiMBZ1hyAumKUiL2KRL', '3AVi9Tg9Uo68tJfuvoKvqKNWKkC5wPdSSdeBnizKZ6jT',
] as const;
export const PUMP_FEE_RECIPIENTS = [
  '62qc2CNXwrYqQScmEdiZFFAnJR262PxWEuNQtxfafNgV',
  '7VtfL8fvgNfhz17qKRMjzQEXgbdpnHHHQRh54R9jP2RJ',
  '7hTckgnGnLQR6sdH7YkqFTAA7VwTfYFaZ6EhEsU3saCX',
  '9rPYyANsfQZw3DnDmKE3YCQF5E8oD89UXoHn9JFEhJUz',
  'AVmoTthdrX6tKt4nDjco2D775W2YK3sDhxPcMmzUAmTY',
  'CebN5WGQ4jvEPvsVU4EoHEpgzq1VV7AbicfhtW4xC9iM',
  'FWsW1xNtWscwNmKv6wVsU1iTzRN6wmmk3MjxRP5tT7hz',
  'G5UZAVbAf46s7cKWoyKu8kYTip9DGTpbLZ2qa9Aq69dP',
] as const;
export const BUYBACK_FEE_RECIPIENTS = [
  '5YxQFdt3Tr9zJLvkFccqXVUwhdTWJQc1fFg2YPbxvxeD',
  '9M4giFFMxmFGXtc3feFzRai56WbBqehoSeRE5GK7gf7',
  'GXPFM2caqTtQYC2cJ5yJRi9VDkpsYZXzYdwYpGnLmtDL',
  '3BpXnfJaUTiwXnJNe7Ej1rcbzqTTQUvLShZaWazebsVR',
  '5cjcW9wExnJJiqgLjq7DEG75Pm6JBgE1hNv4B2vHXUW6',
  'EHAAiTxcdDwQ3U4bU6YcMsQGaekdzLS3B5SmYo46kJtL',
  '5eHhjP8JaYkz83CWwvGU2uMUXefd3AazWGx4gpcuEEYD',
  'A7hAgCzFw14fejgCp387JUJRMNyz4j89JKnhtKU8piqW',
] as const;
/** The simulator's router program (a fixed fake address; not a real program). */
export const ROUTER_PROGRAM = 'RouTe4Ef7hY1bZr2gM9sC3vKqX5nWp8LdJ6aTy2uVxQ';
/** The fee payer of Mayhem-agent trades (a fixed fake crank wallet). */
export const MAYHEM_CRANK = 'MayHemCrankWa11et9n3ZpQ4sVt7uXr2yLk5dFgH1jc';

/** Wallets never counted as outside buyers (mirrors src/core/programs.ts PROTOCOL_WALLETS). */
export const PROTOCOL_WALLETS: ReadonlySet<string> = new Set<string>([...PUMP_FEE_RECIPIENTS, ...BUYBACK_FEE_RECIPIENTS, KEEPER, MAYHEM_AGENT]);

const B58_ALPHABET = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';

/** PKCS #8 DER of an Ed25519 private key (RFC 8410), before its 32-byte seed. */
const ED25519_PKCS8_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');

/**
 * The address of the Ed25519 key pair of a 32-byte seed: its public key, in base58. A wallet's
 * address on Solana is such a key, on the ed25519 curve — unlike a program-derived address, and
 * unlike 32 random bytes, half of which are off the curve and would read as a program's address
 * (the record builder tells them apart since markers-v11: launch-events.ts isWalletAddress,
 * isProgramAddress). Deterministic: the same seed, the same address.
 */
export function walletAddressOfSeed(seed: Uint8Array): string {
  const key = createPrivateKey({ key: Buffer.concat([ED25519_PKCS8_PREFIX, seed]), format: 'der', type: 'pkcs8' });
  const spki = createPublicKey(key).export({ format: 'der', type: 'spki' });
  return toBase58(new Uint8Array(spki.subarray(spki.length - 32)));
}

/** Draws fake keys from a seeded stream. */
export class KeyFactory {
  constructor(private readonly rng: Rng) {}

  /** A fresh wallet address (base58): the public key of a key pair seeded from the stream, on the ed25519 curve as a wallet's is. */
  address(): string {
    return walletAddressOfSeed(this.rng.bytes(32));
  }

  /** A fresh 64-byte transaction signature (base58). */
  signature(): string {
    return toBase58(this.rng.bytes(64));
  }

  /** A recent blockhash (32 bytes, base58). */
  blockhash(): string {
    return toBase58(this.rng.bytes(32));
  }

  /**
   * A vanity mint address ending in "pump" (as pump.fun's front end grinds them): a random 44-char
   * base58 string ending in "pump" whose decoding is exactly 32 bytes.
   */
  pumpMint(): string {
    for (;;) {
      let s = B58_ALPHABET[this.rng.int(1, 15)];
      for (let i = 1; i < 40; i++) s += B58_ALPHABET[this.rng.int(0, 57)];
      s += 'pump';
      const bytes = fromBase58(s);
      if (bytes.length === 32 && toBase58(bytes) === s) return s;
    }
  }
}

const PDA_MARKER = text.encode('ProgramDerivedAddress');
const pdaCache = new Map<string, string>();
const bumpCache = new Map<string, number>();

/** Seed given as a UTF-8 string, raw bytes, or a base58 address (prefix `@`). */
export type Seed = string | Uint8Array;

function seedBytes(seed: Seed): Uint8Array {
  if (seed instanceof Uint8Array) return seed;
  if (seed.startsWith('@')) return fromBase58(seed.slice(1));
  return text.encode(seed);
}

/**
 * Program-derived address, synchronous (sha256 via node:crypto, off-curve check by @solana/kit's
 * isOffCurveAddress), memoized. Seeds: strings are UTF-8 literals, `@<base58>` are addresses.
 */
export function pda(programId: string, seeds: Seed[]): string {
  const key = programId + '|' + seeds.map((s) => (s instanceof Uint8Array ? Buffer.from(s).toString('hex') : s)).join('|');
  const hit = pdaCache.get(key);
  if (hit) return hit;
  const parts = seeds.map(seedBytes);
  const program = fromBase58(programId);
  for (let bump = 255; bump >= 0; bump--) {
    const h = createHash('sha256');
    for (const p of parts) h.update(p);
    h.update(Uint8Array.of(bump));
    h.update(program);
    h.update(PDA_MARKER);
    const candidate = toBase58(new Uint8Array(h.digest()));
    if (isOffCurveAddress(address(candidate))) {
      pdaCache.set(key, candidate);
      bumpCache.set(candidate, bump);
      return candidate;
    }
  }
  throw new Error('no viable bump');
}

/** The bump seed of an address previously derived by {@link pda}. */
export function bumpOf(derived: string): number {
  const b = bumpCache.get(derived);
  if (b === undefined) throw new Error('address was not derived here');
  return b;
}

/** Associated token account of owner for mint under tokenProgram. */
export function ata(owner: string, mint: string, tokenProgram: string): string {
  return pda(ATA_PROGRAM, ['@' + owner, '@' + tokenProgram, '@' + mint]);
}

/** Same as {@link pda} but through @solana/kit's async getProgramDerivedAddress (canonical accounts). */
export async function kitPda(programId: string, seeds: Seed[]): Promise<string> {
  const enc = getAddressEncoder();
  const [p] = await getProgramDerivedAddress({
    programAddress: address(programId),
    seeds: seeds.map((s) => (typeof s === 'string' && s.startsWith('@') ? enc.encode(address(s.slice(1))) : s instanceof Uint8Array ? s : text.encode(s))),
  });
  return p;
}

/** Bonding curve PDA ["bonding-curve", mint] under pump. */
export const curvePda = (mint: string): string => pda(PUMP, ['bonding-curve', '@' + mint]);
/** ["bonding-curve-v2", mint] under pump (2026 remaining account). */
export const curveV2Pda = (mint: string): string => pda(PUMP, ['bonding-curve-v2', '@' + mint]);
/** ["pool-authority", mint] under pump. */
export const poolAuthorityPda = (mint: string): string => pda(PUMP, ['pool-authority', '@' + mint]);
/** Canonical PumpSwap pool ["pool", u16le 0, pool_authority, mint, quote] (quote = WSOL for SOL coins). */
export const poolPda = (mint: string, quoteMint: string): string =>
  pda(PUMP_AMM, ['pool', Uint8Array.of(0, 0), '@' + poolAuthorityPda(mint), '@' + mint, '@' + (quoteMint === DEFAULT_KEY ? WSOL_MINT : quoteMint)]);
/** ["pool_lp_mint", pool] under pAMM. */
export const lpMintPda = (pool: string): string => pda(PUMP_AMM, ['pool_lp_mint', '@' + pool]);
/** ["creator-vault", creator] under pump. */
export const creatorVaultPda = (creator: string): string => pda(PUMP, ['creator-vault', '@' + creator]);
/** ["user_volume_accumulator", user] under pump. */
export const userVolumePda = (user: string): string => pda(PUMP, ['user_volume_accumulator', '@' + user]);
/** ["sharing-config", mint] under the Pump Fees program. */
export const sharingConfigPda = (mint: string): string => pda(PUMP_FEES, ['sharing-config', '@' + mint]);
/** Metaplex metadata ["metadata", mpl, mint] under mpl. */
export const metadataPda = (mint: string): string => pda(MPL_TOKEN_METADATA, ['metadata', '@' + MPL_TOKEN_METADATA, '@' + mint]);
/** ["boost_vault", pool] under pAMM (migrate remaining account). */
export const boostVaultAuthorityPda = (pool: string): string => pda(PUMP_AMM, ['boost_vault', '@' + pool]);
