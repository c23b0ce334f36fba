import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { CONFIG_KEYS } from '../../src/config.ts';
import { ERROR_CODES } from '../../src/server/errors.ts';

/** The docs are part of the product: every setting and every error code is documented. */
const ROOT = resolve(import.meta.dirname, '../..');
const read = (p: string) => readFileSync(join(ROOT, p), 'utf8');

describe('documentation covers the code', () => {
  const readme = read('README.md');
  const configTable = readme.slice(readme.indexOf('| setting |'), readme.indexOf('## API summary'));
  const envExample = read('.env.example');
  const api = read('docs/api.md');

  it.each(CONFIG_KEYS.map((k) => [k]))('setting %s has a row in README "Configuration" and a line in .env.example', (key) => {
    expect(configTable).toContain(`| \`${key}\` |`);
    expect(envExample).toMatch(new RegExp(`^#? ?${key}=`, 'm'));
  });

  it.each(ERROR_CODES.map((c) => [c]))('error code %s is documented in docs/api.md', (code) => {
    expect(api).toContain(`\`${code}\``);
  });
});
