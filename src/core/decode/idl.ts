/**
 * Registries built from the pump, PumpSwap and Pump Fees IDLs (src/core/idl/pump.json, pump_amm.json,
 * pump_fees.json: the 2026-10 pump-public-docs IDLs, Anchor 0.30 format): instructions by 8-byte
 * discriminator, events by discriminator, types by name.
 * Plus the legacy Raydium-era pump `withdraw`, which the current IDL no longer has (reference.md §1.3/§1.4,
 * FIX/11). Pure: the IDLs are JSON imports.
 */
import pumpIdl from '../idl/pump.json' with { type: 'json' };
import pumpAmmIdl from '../idl/pump_amm.json' with { type: 'json' };
import pumpFeesIdl from '../idl/pump_fees.json' with { type: 'json' };
import { PUMP_AMM_PROGRAM_ID, PUMP_FEES_PROGRAM_ID, PUMP_PROGRAM_ID } from '../programs.ts';
import type { ProgramName } from '../types.ts';
import { typeRegistry, type IdlField, type IdlTypeDef, type TypeRegistry } from './borsh.ts';
import { toHex } from './bytes.ts';

/** Anchor EVENT_IX_TAG: sha256("anchor:event")[:8], the first 8 bytes of every self-CPI event instruction (reference.md §1.6). */
export const EVENT_IX_TAG = new Uint8Array([0xe4, 0x45, 0xa5, 0x2e, 0x51, 0xcb, 0x9a, 0x1d]);
export const EVENT_IX_TAG_HEX = 'e445a52e51cb9a1d';

/** One instruction of an IDL. */
export interface InstructionDef {
  name: string;
  discriminator: string;
  /** account names in order (nested account groups flattened) */
  accounts: string[];
  args: IdlField[];
}

/** One event of an IDL: its name, discriminator and the fields of the same-named type. */
export interface EventDef {
  name: string;
  discriminator: string;
  fields: IdlField[];
}

/** One account type of an IDL. */
export interface AccountDef {
  name: string;
  discriminator: string;
  fields: IdlField[];
}

/** Everything the decoder needs about one program. */
export interface ProgramRegistry {
  program: ProgramName;
  programId: string;
  instructions: ReadonlyMap<string, InstructionDef>;
  /** names of the listed instructions (for `Program log: Instruction: X` lines) */
  instructionNames: ReadonlySet<string>;
  /** discriminators of instructions that are known but not listed in a decode ({@link FEE_QUERIES}) */
  unlisted: ReadonlySet<string>;
  /** names of those known, unlisted instructions: a log line naming one is neither listed nor unknown */
  unlistedNames: ReadonlySet<string>;
  events: ReadonlyMap<string, EventDef>;
  accounts: ReadonlyMap<string, AccountDef>;
  types: TypeRegistry;
}

interface RawIdl {
  instructions: { name: string; discriminator: number[]; accounts: unknown[]; args: IdlField[] }[];
  events?: { name: string; discriminator: number[] }[];
  accounts?: { name: string; discriminator: number[] }[];
  types?: unknown[];
}

function flattenAccounts(list: unknown[]): string[] {
  const out: string[] = [];
  for (const a of list as { name: string; accounts?: unknown[] }[]) {
    if (Array.isArray(a.accounts)) out.push(...flattenAccounts(a.accounts));
    else out.push(a.name);
  }
  return out;
}

function structFields(types: TypeRegistry, name: string): IdlField[] {
  const t = types.get(name);
  if (!t || t.type.kind !== 'struct') return [];
  return (t.type.fields ?? []).filter((f): f is IdlField => typeof f === 'object' && f !== null && 'name' in f);
}

/** The legacy pump `withdraw` (Raydium-era migration): 12 on-chain accounts, no args (FIX/11; the legacy IDL lacks last_withdraw). */
export const LEGACY_WITHDRAW: InstructionDef = {
  name: 'withdraw',
  discriminator: 'b712469c946da122',
  accounts: [
    'global',
    'last_withdraw',
    'mint',
    'bonding_curve',
    'associated_bonding_curve',
    'associated_user',
    'user',
    'system_program',
    'token_program',
    'rent',
    'event_authority',
    'program',
  ],
  args: [],
};

/**
 * Pump Fees' read-only fee queries `get_fees` and `get_fees_with_quote_mint`: every pump and PumpSwap
 * trade since late 2025 CPIs one (its fees come back as return data; no state changes, no event).
 * They are known — never skipped as unrecognised — but not listed among a transaction's
 * instructions: they say nothing about a launch, and listing them would turn every plain trade into
 * a trade plus an instruction of another program (src/core/record/from-logs.ts takes a transaction
 * from its logs only when every instruction is a pump trade).
 */
export const FEE_QUERIES: ReadonlySet<string> = new Set(['get_fees', 'get_fees_with_quote_mint']);

function buildRegistry(program: ProgramName, programId: string, idl: RawIdl, extra: InstructionDef[] = [], unlistedNames: ReadonlySet<string> = new Set()): ProgramRegistry {
  const types = typeRegistry((idl.types ?? []) as IdlTypeDef[]);
  const instructions = new Map<string, InstructionDef>();
  for (const ix of idl.instructions) {
    const disc = toHex(Uint8Array.from(ix.discriminator));
    instructions.set(disc, { name: ix.name, discriminator: disc, accounts: flattenAccounts(ix.accounts), args: ix.args });
  }
  for (const ix of extra) if (!instructions.has(ix.discriminator)) instructions.set(ix.discriminator, ix);
  const events = new Map<string, EventDef>();
  for (const ev of idl.events ?? []) {
    const disc = toHex(Uint8Array.from(ev.discriminator));
    events.set(disc, { name: ev.name, discriminator: disc, fields: structFields(types, ev.name) });
  }
  const accounts = new Map<string, AccountDef>();
  for (const ac of idl.accounts ?? []) {
    const disc = toHex(Uint8Array.from(ac.discriminator));
    accounts.set(disc, { name: ac.name, discriminator: disc, fields: structFields(types, ac.name) });
  }
  return {
    program,
    programId,
    instructions,
    instructionNames: new Set([...instructions.values()].map((i) => i.name).filter((n) => !unlistedNames.has(n))),
    unlisted: new Set([...instructions.values()].filter((i) => unlistedNames.has(i.name)).map((i) => i.discriminator)),
    unlistedNames: new Set([...instructions.values()].map((i) => i.name).filter((n) => unlistedNames.has(n))),
    events,
    accounts,
    types,
  };
}

/** pump (6EF8…): SDK2 IDL + legacy withdraw. */
export const PUMP: ProgramRegistry = buildRegistry('pump', PUMP_PROGRAM_ID, pumpIdl as unknown as RawIdl, [LEGACY_WITHDRAW]);
/** PumpSwap (pAMM…): SDK2 IDL. Its `withdraw` shares pump's legacy withdraw discriminator; the program id tells them apart. */
export const PUMP_AMM: ProgramRegistry = buildRegistry('pump_amm', PUMP_AMM_PROGRAM_ID, pumpAmmIdl as unknown as RawIdl);

/** Pump Fees (pfee…): fee config and fee sharing; pump and PumpSwap trades CPI its `get_fees*` ({@link FEE_QUERIES}: known, not listed). */
export const PUMP_FEES: ProgramRegistry = buildRegistry('pump_fees', PUMP_FEES_PROGRAM_ID, pumpFeesIdl as unknown as RawIdl, [], FEE_QUERIES);

/** The registry for a program id, or null when it is none of pump, PumpSwap, Pump Fees. */
export function registryFor(programId: string): ProgramRegistry | null {
  if (programId === PUMP_PROGRAM_ID) return PUMP;
  if (programId === PUMP_AMM_PROGRAM_ID) return PUMP_AMM;
  if (programId === PUMP_FEES_PROGRAM_ID) return PUMP_FEES;
  return null;
}

/** The registry of a program by name. */
export function registryOf(program: ProgramName): ProgramRegistry {
  return program === 'pump' ? PUMP : program === 'pump_amm' ? PUMP_AMM : PUMP_FEES;
}

/** Account type definition by name (e.g. `BondingCurve` in pump, `Pool` in pump_amm). */
export function accountDef(reg: ProgramRegistry, name: string): AccountDef | undefined {
  for (const a of reg.accounts.values()) if (a.name === name) return a;
  return undefined;
}
