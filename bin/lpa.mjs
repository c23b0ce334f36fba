#!/usr/bin/env node
// Entry point of the `lpa` CLI: loads the TypeScript sources through tsx.
import { register } from 'tsx/esm/api';

const [major, minor] = process.versions.node.split('.').map(Number);
if (major < 22 || (major === 22 && minor < 12)) {
  console.error(`lpa needs Node >= 22.12 (this is ${process.versions.node}). See README "Getting Node".`);
  process.exit(1);
}
register();
await import('../collector/cli.ts');
