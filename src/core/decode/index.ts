/**
 * The decoder's public surface (pure: no I/O). See each module for shapes, units and sources.
 */
export { decodeTransaction, incompleteAnswer, unwrapEnvelope } from './transaction.ts';
export { unrecognisedOf } from './unrecognised.ts';
export { decodeLogsNotification, isLogsNotification } from './logs-notification.ts';
export { decodeInstruction, isInstructionDecode, type InstructionDecode, type InstructionSkip } from './instruction.ts';
export { decodeEventData, decodeCpiEvent, scanLogs, discriminatorHex, type EventDecode } from './events.ts';
export { decodeBondingCurve, decodeMintDecimals, decodePool, decodeProgramAccount, decodeTokenAccount, type AccountDecode, type TokenAccountDecode } from './accounts.ts';
export { decodeWireTransaction, MAX_SUPPORTED_TRANSACTION_VERSION, TRANSACTION_CONFIG_BITS, type TransactionConfig, type WireTransaction } from './wire.ts';
export { PUMP, PUMP_AMM, PUMP_FEES, registryFor, registryOf, EVENT_IX_TAG, EVENT_IX_TAG_HEX } from './idl.ts';
export { systemTransferOf, parsedSystemTransferOf, type SolTransfer } from './system.ts';
export { fromBase58, toBase58, fromBase64, toBase64, fromHex, toHex } from './bytes.ts';
