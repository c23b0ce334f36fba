/**
 * Decode one pump / PumpSwap / Pump Fees instruction from its program id, data and account list. Pure.
 * Source: IDL instructions (src/core/idl), reference.md §1.3 (discriminators), §1.4 (account orders).
 */
import { ASSOCIATED_TOKEN_PROGRAM_ID } from '../programs.ts';
import type { DecodedValue, ProgramName } from '../types.ts';
import { decodeFields } from './borsh.ts';
import { startsWith, toHex } from './bytes.ts';
import { EVENT_IX_TAG, registryFor } from './idl.ts';

const RENT_SYSVAR = 'SysvarRent111111111111111111111111111111111';

/** A decoded instruction (without position; {@link DecodedInstruction} adds `inner` and `path`). */
export interface InstructionDecode {
  program: ProgramName;
  name: string;
  /** IDL account name → base58 address, by position; extra trailing accounts ignored */
  accounts: Record<string, string>;
  /** IDL arg name → value; args absent from older, shorter data are absent */
  args: Record<string, DecodedValue>;
}

/** Why an instruction of pump, PumpSwap or Pump Fees was not decoded. */
export interface InstructionSkip {
  skipped: string;
}

/**
 * Map account addresses onto IDL names by position. Legacy layouts of pump `buy`/`sell` used the
 * same positions for other accounts (2024: `rent` at buy[9] where `creator_vault` is now,
 * `associated_token_program` at sell[8]); those are named by what the address is.
 */
function mapAccounts(program: ProgramName, name: string, names: readonly string[], accounts: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  const n = Math.min(names.length, accounts.length);
  for (let i = 0; i < n; i++) {
    let key = names[i];
    if (program === 'pump' && key === 'creator_vault') {
      if (name === 'buy' && i === 9 && accounts[i] === RENT_SYSVAR) key = 'rent';
      if (name === 'sell' && i === 8 && accounts[i] === ASSOCIATED_TOKEN_PROGRAM_ID) key = 'associated_token_program';
    }
    if (!(key in out)) out[key] = accounts[i];
  }
  return out;
}

/**
 * Decode an instruction of pump (`6EF8…`), PumpSwap (`pAMM…`) or Pump Fees (`pfee…`).
 *
 * The 8-byte Anchor discriminator is always checked first; args are then read field by field from
 * byte 8 (args absent from older, shorter data are absent; trailing bytes are ignored). Accounts are
 * mapped by position onto the IDL names; extra trailing (remaining) accounts are ignored, fewer
 * accounts map what there is. The legacy Raydium-era pump `withdraw` (b712469c946da122, 12 accounts)
 * is included; the same discriminator on PumpSwap is its own `withdraw`.
 *
 * @param programId base58 program id
 * @param data raw instruction data
 * @param accounts base58 account addresses in instruction order
 * @returns the decode; `{skipped: reason}` for an instruction of those programs that cannot be decoded
 *   (short data, unknown discriminator, an Anchor self-CPI event — those are events — or malformed args);
 *   `null` when the program is none of them. Never throws.
 * @example decodeInstruction(PUMP_PROGRAM_ID, data, keys) // {program:'pump', name:'buy', accounts:{global:…}, args:{amount:'…'}}
 */
export function decodeInstruction(programId: string, data: Uint8Array, accounts: string[]): InstructionDecode | InstructionSkip | null {
  const reg = registryFor(programId);
  if (!reg) return null;
  if (data.length < 8) return { skipped: `${reg.program} instruction data is ${data.length} bytes, shorter than the 8-byte discriminator` };
  if (startsWith(data, EVENT_IX_TAG)) return { skipped: `${reg.program} anchor self-CPI event (e445a52e51cb9a1d), not an instruction` };
  const disc = toHex(data.subarray(0, 8));
  const def = reg.instructions.get(disc);
  if (!def) return { skipped: `unknown ${reg.program} instruction discriminator ${disc}` };
  const args = decodeFields(def.args, data, 8, reg.types);
  if (args.status === 'malformed') return { skipped: `malformed ${reg.program} ${def.name} args: ${args.error}` };
  return { program: reg.program, name: def.name, accounts: mapAccounts(reg.program, def.name, def.accounts, accounts), args: args.fields };
}

/** Type guard: a successful {@link decodeInstruction} result. */
export function isInstructionDecode(x: InstructionDecode | InstructionSkip | null): x is InstructionDecode {
  return x !== null && !('skipped' in x);
}
