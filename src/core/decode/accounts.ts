/**
 * Account decoders: pump BondingCurve, PumpSwap Pool, any IDL account of either program, and SPL /
 * Token-2022 token accounts. Pure. IDL-driven (src/core/idl) and read field by field with length
 * checks; BondingCurve fields past the IDL are appended per reference.md §1.7 for v3-length accounts.
 */
import { PUMP_AMM_PROGRAM_ID, PUMP_PROGRAM_ID } from '../programs.ts';
import type { DecodedValue } from '../types.ts';
import { decodeFields, type DecodeStatus, type IdlField } from './borsh.ts';
import { toBase58, toHex } from './bytes.ts';
import { PUMP, PUMP_AMM, type ProgramRegistry } from './idl.ts';

/** A decoded Anchor account. */
export interface AccountDecode {
  /** IDL account name, e.g. `BondingCurve`, `Pool`, `GlobalConfig` */
  name: string;
  /** IDL field name → value (u64/i128 decimal strings, pubkeys base58); fields absent from shorter data are absent */
  fields: Record<string, DecodedValue>;
  /** total data length including the 8-byte discriminator */
  dataLength: number;
  /** how the field-by-field read ended (`short` = an older, shorter layout; see borsh.ts) */
  status: DecodeStatus;
  /** bytes after the last decoded field (zero padding of the allocation, or fields newer than we know) */
  extraBytes: number;
  error?: string;
}

/**
 * Accounts whose 2026-10 IDL layout appends fields to the 2026-09 SDK layout (idl/2026-10/DIFF.md), with
 * the field count of the SDK layout and the whole new layout's length. Live accounts are allocated with
 * zero padding (a 151-byte curve holds the 125-byte SDK layout), so the appended group is read only from
 * an account that holds all of it; a shorter one is read to the SDK layout's end and the rest counted in
 * `extraBytes`. (The docs say missing trailing fields read as 0, which is what a caller sees as absent.)
 */
const APPENDED: Record<string, { sdkFields: number; fullLength: number }> = {
  BondingCurve: { sdkFields: 13, fullLength: 166 },
  Pool: { sdkFields: 16, fullLength: 287 },
};

function fieldsFor(def: { name: string; fields: IdlField[] }, data: Uint8Array): IdlField[] {
  const a = APPENDED[def.name];
  return a && data.length < a.fullLength ? def.fields.slice(0, a.sdkFields) : def.fields;
}

function decodeNamed(reg: ProgramRegistry, name: string, data: Uint8Array): AccountDecode | null {
  let def;
  for (const a of reg.accounts.values()) if (a.name === name) def = a;
  if (!def || data.length < 8 || toHex(data.subarray(0, 8)) !== def.discriminator) return null;
  return decodeWith(reg, def.name, fieldsFor(def, data), data);
}

function decodeWith(reg: ProgramRegistry, name: string, fields: IdlField[], data: Uint8Array): AccountDecode {
  const d = decodeFields(fields, data, 8, reg.types);
  const out: AccountDecode = { name, fields: d.fields, dataLength: data.length, status: d.status, extraBytes: d.status === 'complete' ? d.extraBytes : 0 };
  if (d.error) out.error = d.error;
  return out;
}

/**
 * Decode a pump BondingCurve (disc 17b7f83760d8ac60, reference.md §1.7). Field names per the SDK2 IDL:
 * virtual_token_reserves, virtual_quote_reserves (was virtual_sol_reserves), real_token_reserves,
 * real_quote_reserves, token_total_supply (u64 strings, raw units / lamports), complete | creator |
 * is_mayhem_mode, is_cashback_coin, quote_mint (default key = SOL), creator_fee_bps, can_edit_creator_fee,
 * is_holder_reward (SDK2 IDL end: byte 125) | and only for accounts of ≥ 166 B (the 2026-10 IDL's whole layout):
 * creator_fee, protocol_fees, depth, initial_virtual_quote_reserves, post_complete_base_out, post_complete_quote_in.
 * Lengths: 49 B (2024: no creator; status `short`) · 150/151 B (bytes 125.. are allocation padding, counted in
 * `extraBytes`, not decoded as zeros) · 166 B.
 * @returns null when the data is shorter than 8 bytes or the discriminator is not BondingCurve's.
 */
export function decodeBondingCurve(data: Uint8Array): AccountDecode | null {
  return decodeNamed(PUMP, 'BondingCurve', data);
}

/**
 * Decode a PumpSwap Pool (disc f19a6d0411b16dbc, reference.md §1.7): pool_bump, index (u16 number),
 * creator, base_mint, quote_mint, lp_mint, pool_base_token_account, pool_quote_token_account, lp_supply,
 * coin_creator, is_mayhem_mode, is_cashback_coin, virtual_quote_reserves (**i128, signed** decimal string),
 * creator_fee_bps, can_edit_creator_fee, is_holder_reward (SDK IDL end: byte 271) | and from accounts of ≥ 287 B
 * (the 2026-10 IDL's whole layout; pools are allocated ~300 B) protocol_fees, creator_fees (u64: fees waiting
 * for a sweep, idl/2026-10 FACTS §5).
 * @returns null when the discriminator is not Pool's.
 */
export function decodePool(data: Uint8Array): AccountDecode | null {
  return decodeNamed(PUMP_AMM, 'Pool', data);
}

/**
 * Decode any account type of the pump or PumpSwap IDL by its discriminator (BondingCurve, Global,
 * GlobalConfig, Pool, FeeConfig, SharingConfig, volume accumulators, …). BondingCurve and Pool read their
 * appended 2026-10 fields as {@link decodeBondingCurve} and {@link decodePool} say.
 * @param owner the account's owner program id (pump or PumpSwap); other owners → null
 * @returns null for another owner or an unknown discriminator.
 */
export function decodeProgramAccount(owner: string, data: Uint8Array): AccountDecode | null {
  const reg = owner === PUMP_PROGRAM_ID ? PUMP : owner === PUMP_AMM_PROGRAM_ID ? PUMP_AMM : null;
  if (!reg || data.length < 8) return null;
  const def = reg.accounts.get(toHex(data.subarray(0, 8)));
  if (!def) return null;
  return decodeWith(reg, def.name, fieldsFor(def, data), data);
}

/**
 * The decimals of an SPL Token or Token-2022 mint account: byte 44 of the `Mint` layout
 * (mint_authority COption<Pubkey> 0..36, supply u64 36..44, decimals 44, is_initialized 45).
 * @returns null unless the data is an initialized mint: 82 bytes, or longer with Token-2022's account type 1 at byte 165.
 * @example decodeMintDecimals(usdcMintData) // 6
 */
export function decodeMintDecimals(data: Uint8Array): number | null {
  if (!(data.length === 82 || (data.length > 165 && data[165] === 1))) return null;
  return data[45] === 1 ? data[44]! : null;
}

/** A decoded SPL / Token-2022 token account. */
export interface TokenAccountDecode {
  mint: string;
  owner: string;
  /** raw token units, decimal string */
  amount: string;
  /** 0 uninitialized, 1 initialized, 2 frozen (byte 108), or null when the data is shorter */
  state: number | null;
}

/**
 * Decode an SPL Token or Token-2022 token account: mint 0..32, owner 32..64, amount u64 at 64,
 * state at 108 (spl-token `Account` layout; Token-2022 extensions follow byte 165 with account type 2).
 * @returns null when the data is shorter than 72 bytes, is a mint (82 B, or a Token-2022 account type byte 1 at 165).
 */
export function decodeTokenAccount(data: Uint8Array): TokenAccountDecode | null {
  if (data.length < 72 || data.length === 82) return null;
  if (data.length > 165 && data[165] !== 2) return null;
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  return {
    mint: toBase58(data.subarray(0, 32)),
    owner: toBase58(data.subarray(32, 64)),
    amount: view.getBigUint64(64, true).toString(),
    state: data.length > 108 ? data[108] : null,
  };
}
