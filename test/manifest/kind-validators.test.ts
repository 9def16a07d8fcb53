import { readdirSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import type { ValidateFunction } from 'ajv';
import { parseAllDocuments } from 'yaml';
import { describe, expect, it } from 'vitest';
import { kindValidatorsSource } from '../../src/manifest/build-kind-validators.js';
import { KIND_SCHEMAS, schemasDigest, validatorFor } from '../../src/manifest/schema-registry.js';

const corpus = fileURLToPath(new URL('./corpus/bad/', import.meta.url));

/** The module the build writes, evaluated here as Node would load it. */
function compiledModule(): Record<string, unknown> {
  const module = { exports: {} as Record<string, unknown> };
  new Function('exports', 'require', 'module', kindValidatorsSource())(
    module.exports,
    createRequire(import.meta.url),
    module,
  );
  return module.exports;
}

/** Every document of the bad corpus that names a known kind: schema errors of every sort. */
function corpusDocuments(): { kind: string; body: unknown }[] {
  const files = readdirSync(corpus).flatMap((entry) =>
    statSync(`${corpus}${entry}`).isDirectory()
      ? readdirSync(`${corpus}${entry}`).map((file) => `${entry}/${file}`)
      : [entry],
  );
  return files.flatMap((file) =>
    parseAllDocuments(readFileSync(`${corpus}${file}`, 'utf8'), { merge: true })
      .filter((document) => document.errors.length === 0)
      .flatMap((document) => {
        try {
          const body = document.toJS({ maxAliasCount: 100 }) as Record<string, unknown> | null;
          const kind = body?.kind;
          return typeof kind === 'string' && Object.hasOwn(KIND_SCHEMAS, kind) ? [{ kind, body }] : [];
        } catch {
          return [];
        }
      }),
  );
}

describe('validators compiled at build time', () => {
  it('give the same errors, failing schemas included, as validators compiled at run time', () => {
    const compiled = compiledModule();
    const documents = corpusDocuments();
    expect(new Set(documents.map((document) => document.kind)).size).toBeGreaterThanOrEqual(5);
    let failing = 0;
    for (const { kind, body } of documents) {
      const atBuild = compiled[kind] as ValidateFunction;
      const atRun = validatorFor(kind) as ValidateFunction;
      expect(atBuild(body)).toBe(atRun(body));
      expect(atBuild.errors ?? null).toEqual(atRun.errors ?? null);
      if (atRun.errors) failing += 1;
    }
    expect(failing).toBeGreaterThan(20);
  });

  it('carry the digest of the schemas they were compiled from', () => {
    expect(compiledModule().schemasDigest).toBe(schemasDigest());
    expect(schemasDigest(new Map([['a.schema.json', '{}']]))).not.toBe(schemasDigest());
  });
});
