import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { ParseOptions, ScalarTag } from 'yaml';

/**
 * How the simple reader (simple-yaml.ts) resolves a plain scalar: with the `yaml`
 * library's own core-schema tags, the ones `yaml` itself tries on a plain scalar when
 * it parses a manifest (YAML 1.2's core schema, its default), in the library's order,
 * each with its own `test` and `resolve`. So `true`, `True`, `0x1F`, `.NaN` or `~` mean
 * here exactly what they mean there, by construction.
 *
 * The library's entry point exports these tags only with the whole library (parser,
 * composer, stringifier: about 33 ms of CPU to load, which is what the simple reader
 * spares a run), and its core schema module brings the collection tags and the string
 * stringifier along (about 20 ms). The four modules that define the scalar tags take
 * about 6 ms; they are loaded from beside the entry point Node resolves for `yaml`,
 * and only once a scalar may not be a string. test/manifest/core-scalars.test.ts checks
 * that they are the very tag objects, in the very order, that `yaml` tries when the
 * loader parses. Should a later version of the library move them, nothing is guessed:
 * every plain scalar that may not be a string is declined, and `yaml` reads the file.
 */

/** CORE_SCALAR_TAGS: where each scalar tag of the core schema is defined in `yaml`'s build, in the schema's order. */
const CORE_SCALAR_TAGS: readonly (readonly [string, string])[] = [
  ['schema/common/null.js', 'nullTag'],
  ['schema/core/bool.js', 'boolTag'],
  ['schema/core/int.js', 'intOct'],
  ['schema/core/int.js', 'int'],
  ['schema/core/int.js', 'intHex'],
  ['schema/core/float.js', 'floatNaN'],
  ['schema/core/float.js', 'floatExp'],
  ['schema/core/float.js', 'float'],
];

/** UNRESOLVED stands for a scalar the core tags could not resolve here; the reader then declines the file. */
export const UNRESOLVED: unique symbol = Symbol('unresolved');

/** CoreTags is what is loaded from the library: its core schema's scalar tags and its test for a scalar node. */
interface CoreTags {
  tags: readonly ScalarTag[];
  isScalar(value: unknown): value is { value: unknown };
}

/** The options the loader's `yaml` parse gives a tag's `resolve` (its defaults: yaml-file.ts sets none of them). */
const RESOLVE_OPTIONS: ParseOptions = { intAsBigInt: false };

/** The tags, once loaded; null when they could not be (not tried again). */
let core: CoreTags | null | undefined;

function coreTags(): CoreTags | null {
  if (core === undefined) core = loadCoreTags();
  return core;
}

/**
 * loadCoreTags loads the core schema's scalar tags from the installed `yaml` (or the
 * package `entryPoint` names, for the tests); null when it cannot.
 */
export function loadCoreTags(entryPoint = 'yaml'): CoreTags | null {
  try {
    const require = createRequire(import.meta.url);
    const dist = dirname(require.resolve(entryPoint));
    const tags = CORE_SCALAR_TAGS.map(
      ([file, name]) => (require(join(dist, file)) as Record<string, ScalarTag | undefined>)[name],
    );
    const { isScalar } = require(join(dist, 'nodes', 'identity.js')) as Partial<CoreTags>;
    if (
      typeof isScalar !== 'function' ||
      !tags.every((tag) => tag?.default === true && tag.test instanceof RegExp && typeof tag.resolve === 'function')
    )
      return null;
    return { tags: tags as ScalarTag[], isScalar };
  } catch {
    return null;
  }
}

/**
 * resolveCoreScalar reads a plain scalar as `yaml` does: the value of the first core
 * tag whose test it passes, or the text itself (a string) when none does. UNRESOLVED
 * when the tags are not at hand or the tag reports an error.
 */
export function resolveCoreScalar(text: string, tags: CoreTags | null = coreTags()): unknown {
  if (tags === null) return UNRESOLVED;
  const tag = tags.tags.find((candidate) => candidate.test?.test(text) === true);
  if (tag === undefined) return text;
  let failed = false;
  const resolved = tag.resolve(text, () => (failed = true), RESOLVE_OPTIONS);
  if (failed) return UNRESOLVED;
  return tags.isScalar(resolved) ? resolved.value : resolved;
}
