import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { validateManifests } from '../../src/flows/validate-manifests.js';
import { MAX_FILE_BYTES } from '../../src/manifest/parsed-file.js';
import { validateReport } from '../../src/render/validate-report.js';
import { memoryManifestSource, nodeManifestSource, type ManifestSource } from '../../src/manifest/source.js';

// Each entry of corpus/bad (a file, or a folder for cross-file rules) is validated and
// its report compared with test/golden/validate/<name>.txt. UPDATE_GOLDEN=1 rewrites
// the golden files on purpose; review the diff before committing.
const corpus = fileURLToPath(new URL('./corpus/', import.meta.url));
const goldenDirectory = fileURLToPath(new URL('../golden/validate/', import.meta.url));
const update = process.env.UPDATE_GOLDEN === '1';

async function report(paths: string[], source: ManifestSource): Promise<string> {
  // The flow and the report `viewctl validate` runs, as it runs them.
  const result = await validateManifests(paths, source);
  return `${validateReport(result, { color: false })}exit ${result.valid ? 0 : 1}\n`;
}

function compare(name: string, actual: string): void {
  const file = `${goldenDirectory}${name}.txt`;
  if (update) {
    mkdirSync(goldenDirectory, { recursive: true });
    writeFileSync(file, actual);
    return;
  }
  expect(existsSync(file), `missing golden file ${file}; run with UPDATE_GOLDEN=1`).toBe(true);
  expect(actual).toBe(readFileSync(file, 'utf8'));
}

/** Files the repository cannot hold as such: written in memory here. */
const generated: Record<string, Record<string, Uint8Array | string>> = {
  'not-utf8': {
    // "Café" in Latin-1: the é byte is not UTF-8.
    'generated/not-utf8.yaml': Uint8Array.from([
      ...Buffer.from('kind: RecordingView\nname: Caf'),
      0xe9,
      ...Buffer.from(' calls\n'),
    ]),
  },
  'too-large': {
    'generated/too-large.yaml': `kind: RecordingView\nname: Big\n${'# padding padding padding padding\n'.repeat(Math.ceil(MAX_FILE_BYTES / 34) + 1)}`,
  },
  'bom-and-crlf': {
    'generated/bom.yaml': '\uFEFFkind: RecordingView\r\nname: With BOM\r\nfiltres: {}\r\n',
  },
};

describe('validate golden corpus', () => {
  const cases = readdirSync(`${corpus}bad`).sort();

  it('covers at least 25 bad manifests', () => {
    expect(cases.length + Object.keys(generated).length).toBeGreaterThanOrEqual(25);
  });

  for (const entry of cases) {
    const name = entry.replace(/\.ya?ml$/, '');
    it(name, async () => {
      compare(name, await report([`bad/${entry}`], nodeManifestSource(corpus)));
    });
  }

  for (const [name, files] of Object.entries(generated)) {
    it(name, async () => {
      compare(name, await report(['generated'], memoryManifestSource(files)));
    });
  }

  it('has no golden file without a case', () => {
    const names = new Set([...cases.map((entry) => entry.replace(/\.ya?ml$/, '')), ...Object.keys(generated)]);
    const orphans = readdirSync(goldenDirectory).filter((file) => !names.has(file.replace(/\.txt$/, '')));
    expect(orphans).toEqual([]);
  });
});
