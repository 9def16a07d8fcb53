import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { toDesired } from '../../src/manifest/desired.js';
import { loadManifests, memoryManifestSource } from '../../src/manifest/load.js';
import { hasErrors } from '../../src/manifest/problems.js';
import { lineCount, lineSoup, malformedProblems, manifestText, parsedYaml } from './manifest-arbitraries.js';

/**
 * Random manifests, valid and broken, never crash the loader: every outcome is
 * documents and coded problems with a real position, and whatever loads without an
 * error turns into a Desired state.
 */

async function loadTexts(
  texts: readonly string[],
): Promise<{ wrong: string[]; desiredError?: unknown; errors: boolean }> {
  const files = Object.fromEntries(texts.map((text, index) => [`m/${index}.yaml`, text]));
  const result = await loadManifests(['m'], memoryManifestSource(files));
  const lines = new Map(Object.entries(files).map(([file, text]) => [file, lineCount(text)]));
  lines.set('m', 1);
  const wrong = malformedProblems(result, lines);
  for (const document of result.documents) {
    if (typeof document.kind !== 'string')
      wrong.push(`document ${document.file}#${document.index} without a string kind`);
  }
  const errors = hasErrors(result.problems);
  if (errors) return { wrong, errors };
  try {
    toDesired(result.documents);
    return { wrong, errors };
  } catch (error) {
    return { wrong, errors, desiredError: error };
  }
}

describe('the loader on random manifests', () => {
  it('reports coded problems with positions for random YAML documents built from the schema vocabulary', async () => {
    let withErrors = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(parsedYaml, { minLength: 1, maxLength: 3 }), async (texts) => {
        const outcome = await loadTexts(texts);
        expect(outcome.wrong).toEqual([]);
        expect(outcome.desiredError).toBeUndefined();
        if (outcome.errors) withErrors += 1;
      }),
      { numRuns: 200, seed: 4242 },
    );
    // The generator must reach the error paths, not only the happy one.
    expect(withErrors).toBeGreaterThan(60);
  });

  it('reports coded problems with positions for line soup that is mostly not YAML', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(lineSoup, { minLength: 1, maxLength: 3 }), async (texts) => {
        const outcome = await loadTexts(texts);
        expect(outcome.wrong).toEqual([]);
        expect(outcome.desiredError).toBeUndefined();
      }),
      { numRuns: 200, seed: 777 },
    );
  });

  it('keeps problems well formed when valid and broken files are mixed', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(manifestText, { minLength: 2, maxLength: 5 }), async (texts) => {
        const outcome = await loadTexts(texts);
        expect(outcome.wrong).toEqual([]);
        expect(outcome.desiredError).toBeUndefined();
      }),
      { numRuns: 100, seed: 99 },
    );
  });
});
