import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { scanSourceCodes, troubleshootingRows } from './error-codes.js';
import { REPO } from './workflow-files.js';

// Every code viewctl can print must have a row in the README's troubleshooting
// tables, and every row must name a code that still exists: the docs cannot drift.

const readme = readFileSync(join(REPO, 'README.md'), 'utf8');
const rows = troubleshootingRows(readme);
const { codes, templated } = scanSourceCodes();

describe('error codes', () => {
  it('are found in src/ (the scan works)', () => {
    expect(codes.size).toBeGreaterThan(80);
    for (const code of [
      'apply.stale-target',
      'manifest.invalid',
      'service.unauthorized',
      'schema.required',
      'pins.group-overlap',
    ]) {
      expect([...codes.keys()]).toContain(code);
    }
    expect([...templated]).toContain('schema');
  });

  it('each have a row in the README troubleshooting tables', () => {
    const documented = new Set(rows.map((row) => row.code));
    const missing = [...codes].filter(([code]) => !documented.has(code)).map(([code, file]) => `${code} (${file})`);
    expect(missing, 'add a `code | what it means | how to fix` row to README.md, "Troubleshooting"').toEqual([]);
  });

  it('each row names a code that src/ still reports', () => {
    const stale = rows
      .map((row) => row.code)
      .filter((code) => !codes.has(code) && !(code.endsWith('.<keyword>') && templated.has(code.split('.')[0] ?? '')));
    expect(stale, 'remove or rename these README rows').toEqual([]);
  });

  it('covers codes built from templates with a `namespace.<keyword>` row', () => {
    for (const namespace of templated) expect(rows.map((row) => row.code)).toContain(`${namespace}.<keyword>`);
  });

  it('lists each code once, with what it means and how to fix it', () => {
    const seen = rows.map((row) => row.code);
    expect(seen.filter((code, index) => seen.indexOf(code) !== index)).toEqual([]);
    for (const row of rows) {
      expect(row.meaning, row.code).not.toBe('');
      expect(row.fix, row.code).not.toBe('');
    }
  });
});
