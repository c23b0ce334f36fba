#!/usr/bin/env node
// Entry point of the `lpa` CLI: loads the TypeScript sources through tsx.
import { register } from 'tsx/esm/api';

const [major, minor] = process.versions.node.split('.').map(Number);
if (major < 22 || (major === 22 && minor < 12)) {
  console.error(`lpa needs Node >= 22.12 (this is ${process.versions.node}). See README "Getting Node".`);
  process.exit(1);
}
register();
// The development chain's commands live in devchain/ (tests, bench, demo), outside the archive's CLI.
const DEVCHAIN_COMMANDS = new Set(['simulate', 'replay-rpc']);
await import(DEVCHAIN_COMMANDS.has(process.argv[2]) ? '../devchain/cli.ts' : '../collector/cli.ts');
