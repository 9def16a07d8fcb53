import { parseDocument } from 'yaml';
import { describe, expect, it } from 'vitest';
import { loadCoreTags, resolveCoreScalar, UNRESOLVED } from '../../src/manifest/core-scalars.js';

// The simple reader resolves a plain scalar that may not be a string with these tags;
// test/manifest/simple-yaml.test.ts compares it with `yaml` on every spelling of each.

describe('the core-schema tags the simple reader resolves plain scalars with', () => {
  it('are the very tags yaml tries on a plain scalar when the loader parses, in its order', () => {
    const loaded = loadCoreTags();
    // The options of yaml-file.ts's parse: merge keys add a tag tried on keys only (`<<`, never a key the reader takes).
    const parsing = parseDocument('a: 1\n', { uniqueKeys: true, merge: true }).schema.tags.filter(
      (tag) => tag.default === true && tag.test !== undefined,
    );
    expect(loaded?.tags.length).toBe(parsing.length);
    loaded?.tags.forEach((tag, index) => {
      expect(tag).toBe(parsing[index]);
    });
  });

  it("accept only what the reader's quick test assumes: a string of 4 or 5 characters starting with n, t or f in either case, or one starting with a digit, sign, dot or tilde", () => {
    // simple-yaml.ts reads a plain scalar as a string without asking the tags when it
    // starts otherwise (MAY_NOT_BE_STRING). That holds for these tests; a release of
    // `yaml` that changes one fails here, and the quick test must be checked again.
    expect(loadCoreTags()?.tags.map((tag) => tag.test?.source)).toEqual([
      '^(?:~|[Nn]ull|NULL)?$',
      '^(?:[Tt]rue|TRUE|[Ff]alse|FALSE)$',
      '^0o[0-7]+$',
      '^[-+]?[0-9]+$',
      '^0x[0-9a-fA-F]+$',
      '^(?:[-+]?\\.(?:inf|Inf|INF)|\\.nan|\\.NaN|\\.NAN)$',
      '^[-+]?(?:\\.[0-9]+|[0-9]+(?:\\.[0-9]*)?)[eE][-+]?[0-9]+$',
      '^[-+]?(?:\\.[0-9]+|[0-9]+\\.[0-9]*)$',
    ]);
    expect(loadCoreTags()?.tags.every((tag) => tag.test?.flags === '')).toBe(true);
  });

  it('resolve as yaml does: the first tag whose test passes, else the text', () => {
    expect(resolveCoreScalar('True')).toBe(true);
    expect(resolveCoreScalar('0x1F')).toBe(31);
    expect(resolveCoreScalar('0o17')).toBe(15);
    expect(resolveCoreScalar('-.Inf')).toBe(Number.NEGATIVE_INFINITY);
    expect(resolveCoreScalar('.NaN')).toBeNaN();
    expect(resolveCoreScalar('1.50')).toBe(1.5);
    expect(resolveCoreScalar('~')).toBeNull();
    expect(resolveCoreScalar('tRue')).toBe('tRue');
  });

  it("leave every scalar unresolved, and the reader declines it, when the library's core schema cannot be loaded", () => {
    expect(loadCoreTags('viewctl-no-such-package')).toBeNull();
    // A package without yaml's build layout (as a later yaml that moved its tags would be).
    expect(loadCoreTags('fast-check')).toBeNull();
    expect(resolveCoreScalar('true', null)).toBe(UNRESOLVED);
    expect(resolveCoreScalar('Recording view', null)).toBe(UNRESOLVED);
  });
});
