import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { schemaTexts } from '../../src/manifest/schema-registry.js';
import { runInProcess, scratchDir } from '../support/cli.js';

describe('viewctl schemas --out DIR', () => {
  it('writes every JSON Schema of the package, creating the folder', async () => {
    const folder = await scratchDir();
    try {
      const result = await runInProcess(['schemas', '--out', 'editor/schemas'], { cwd: folder.dir });
      expect(result.code, result.stderr).toBe(0);
      const written = join(folder.dir, 'editor', 'schemas');
      expect(readdirSync(written).sort()).toEqual([...schemaTexts().keys()].sort());
      expect(readFileSync(join(written, 'common.schema.json'), 'utf8')).toBe(schemaTexts().get('common.schema.json'));
      expect(result.stdout).toMatch(/^wrote 9 JSON Schemas to editor\/schemas/);
    } finally {
      await folder.cleanup();
    }
  });

  it('says so when the folder cannot be written', async () => {
    const result = await runInProcess(['schemas', '--out', '/proc/version/schemas']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('error[output.write-failed]: cannot write the schemas to /proc/version/schemas');
  });
});
