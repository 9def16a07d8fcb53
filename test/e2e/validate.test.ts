import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { schemasDigest } from '../../src/manifest/schema-registry.js';
import { runBuilt } from './harness.js';

// The built CLI on the bad corpus prints what the golden files hold: the validators
// it loads were compiled at build, and positions deeper than a document's attributes
// come from parsing a file again.
const corpus = fileURLToPath(new URL('../manifest/corpus/', import.meta.url));
const goldenDirectory = fileURLToPath(new URL('../golden/validate/', import.meta.url));

describe('viewctl validate (built CLI)', () => {
  it('loads validators the build compiled from these schemas', () => {
    const compiled = createRequire(import.meta.url)('../../dist/manifest/kind-validators.cjs') as Record<
      string,
      unknown
    >;
    expect(compiled.schemasDigest).toBe(schemasDigest());
  });

  for (const entry of readdirSync(`${corpus}bad`).sort()) {
    const name = entry.replace(/\.ya?ml$/, '');
    it(`prints the golden report of ${name}`, async () => {
      const run = await runBuilt(['validate', `bad/${entry}`], { cwd: corpus });
      expect(`${run.stdout}exit ${run.code}\n`).toBe(readFileSync(`${goldenDirectory}${name}.txt`, 'utf8'));
    });
  }
});
