import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ViewctlError } from '../../src/errors.js';
import { loadManifests } from '../../src/manifest/load.js';
import { memoryManifestSource } from '../../src/manifest/source.js';
import {
  GLOB_INVALID,
  compileGlobs,
  compileNameGlob,
  escapeGlob,
  globProblem,
  globSteps,
} from '../../src/text/glob.js';
import { editDistance, suggestNames } from '../../src/text/suggest.js';

const matches = (glob: string, name: string): boolean => compileNameGlob(glob)(name);

describe('globs', () => {
  it('match * and ? and nothing else specially', () => {
    expect(matches('Scratch *', 'Scratch ')).toBe(true);
    expect(matches('Scratch *', 'Scratch pad 2')).toBe(true);
    expect(matches('Scratch *', 'scratch pad')).toBe(false);
    expect(matches('v?', 'v1')).toBe(true);
    expect(matches('v?', 'v12')).toBe(false);
    expect(matches('a.b (c)+[d]', 'a.b (c)+[d]')).toBe(true);
    expect(matches('a.b', 'axb')).toBe(false);
    expect(compileGlobs(['x*', 'Tmp*'])('Tmp 1')).toBe('Tmp*');
    expect(compileGlobs([])('anything')).toBeUndefined();
  });

  it('compile globs with - and other punctuation (they used to crash the regex compiler)', () => {
    expect(matches('Scratch-*', 'Scratch-1')).toBe(true);
    expect(matches('Q1 - {old} @(x) !y', 'Q1 - {old} @(x) !y')).toBe(true);
    expect(matches('a{b,c}', 'ab')).toBe(false);
  });

  it('treat names as text, not paths: * crosses / and matches dot names', () => {
    expect(matches('*', 'Q1/Q2 deals')).toBe(true);
    expect(matches('a?c', 'a/c')).toBe(true);
    expect(matches('*', '..')).toBe(true);
    expect(matches('*', 'line\nbreak')).toBe(true);
  });

  it('escape with a backslash; a trailing backslash or an empty glob is a coded error', () => {
    expect(matches('\\*', '*')).toBe(true);
    expect(matches('\\*', 'a')).toBe(false);
    expect(globProblem('x\\')).toContain('escapes nothing');
    expect(globProblem('')).toBeDefined();
    expect(globProblem('ok*')).toBeUndefined();
  });

  it('fuzz: any glob compiles or fails with glob.invalid, and an escaped name matches itself', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: 'grapheme-composite', maxLength: 30 }),
        fc.string({ maxLength: 20 }),
        (glob, name) => {
          try {
            const test = compileNameGlob(glob);
            expect(typeof test(name)).toBe('boolean');
          } catch (error) {
            expect(error).toBeInstanceOf(ViewctlError);
            expect((error as ViewctlError).code).toBe(GLOB_INVALID);
          }
        },
      ),
      { numRuns: 200 },
    );
    fc.assert(
      fc.property(fc.string({ unit: 'binary', minLength: 1, maxLength: 30 }), (name) => {
        expect(matches(escapeGlob(name), name)).toBe(true);
        expect(matches(escapeGlob(name), `${name}x`)).toBe(false);
      }),
      { numRuns: 200 },
    );
  });
});

/** Characters a generated glob or name is made of: few, so that matches are common; `😀` is two UTF-16 units, `\ud83d` a lone one. */
const GLOB_PARTS = ['*', '*', '*', '?', '?', 'a', 'a', 'b', '\\*', '\\?', '\\\\', '\\a', '😀', '.', '/', '\ud83d'];
const NAME_PARTS = ['a', 'a', 'a', 'b', '*', '?', '\\', '😀', '.', '/', '\ud83d', '\ude00'];

/** tokensOf reads a glob as the reference does: each character (code point) a literal, or `*`, or `?`. */
function tokensOf(glob: string): { kind: 'star' | 'one' | 'literal'; char: string }[] {
  const tokens: { kind: 'star' | 'one' | 'literal'; char: string }[] = [];
  const chars = [...glob];
  for (let index = 0; index < chars.length; index += 1) {
    const char = chars[index] ?? '';
    if (char === '\\') tokens.push({ kind: 'literal', char: chars[(index += 1)] ?? '' });
    else tokens.push({ kind: char === '*' ? 'star' : char === '?' ? 'one' : 'literal', char });
  }
  return tokens;
}

/** referenceMatch is the definition, memoised: does the glob from token `t` match the name from character `i`. */
function referenceMatch(glob: string, name: string): boolean {
  const tokens = tokensOf(glob);
  const chars = [...name];
  const memo = new Map<number, boolean>();
  const from = (t: number, i: number): boolean => {
    const key = t * (chars.length + 1) + i;
    const known = memo.get(key);
    if (known !== undefined) return known;
    const token = tokens[t];
    let result: boolean;
    if (token === undefined) result = i === chars.length;
    else if (token.kind === 'star') result = from(t + 1, i) || (i < chars.length && from(t, i + 1));
    else result = i < chars.length && (token.kind === 'one' || token.char === chars[i]) && from(t + 1, i + 1);
    memo.set(key, result);
    return result;
  };
  return from(0, 0);
}

/** regexMatch is a second reference: the glob as a regular expression over code points, every literal escaped. */
function regexMatch(glob: string, name: string): boolean {
  const source = tokensOf(glob)
    .map((token) =>
      token.kind === 'star'
        ? '[^]*'
        : token.kind === 'one'
          ? '[^]'
          : token.char.replace(/[\\^$.*+?()[\]{}|/-]/g, '\\$&'),
    )
    .join('');
  return new RegExp(`^(?:${source})$`, 'u').test(name);
}

/** bound is the stated bound on the matcher's steps: (glob length + 1) × (name length + 1), in characters. */
function bound(glob: string, name: string): number {
  return ([...glob].length + 1) * ([...name].length + 1);
}

describe('the glob matcher', () => {
  it('answers as the references do, on generated globs and names', () => {
    const glob = fc
      .array(fc.constantFrom(...GLOB_PARTS), { minLength: 1, maxLength: 10 })
      .map((parts) => parts.join(''));
    const name = fc.array(fc.constantFrom(...NAME_PARTS), { maxLength: 10 }).map((parts) => parts.join(''));
    let matched = 0;
    fc.assert(
      fc.property(glob, name, (g, n) => {
        const expected = referenceMatch(g, n);
        expect(regexMatch(g, n), `${g} ${n}`).toBe(expected);
        const { matches, steps } = globSteps(g, n);
        expect(matches, `${JSON.stringify(g)} ${JSON.stringify(n)}`).toBe(expected);
        expect(compileNameGlob(g)(n)).toBe(expected);
        expect(steps).toBeLessThanOrEqual(bound(g, n));
        if (expected) matched += 1;
      }),
      { numRuns: 5000, seed: 24 },
    );
    // Enough names match that both answers are exercised (the next test makes only matching ones).
    expect(matched).toBeGreaterThan(200);
  });

  it('matches names made by filling a glob in (without lone surrogates, which two parts could join into one character)', () => {
    const whole = (part: string): boolean => !/[\ud800-\udfff]/.test(part) || part.length === 2;
    const fill = NAME_PARTS.filter(whole);
    const filled = fc
      .array(fc.constantFrom(...GLOB_PARTS.filter(whole)), { minLength: 1, maxLength: 12 })
      .chain((parts) =>
        fc.tuple(
          fc.constant(parts.join('')),
          fc
            .tuple(
              ...parts.map((part) =>
                part === '*'
                  ? fc.array(fc.constantFrom(...fill), { maxLength: 3 }).map((run) => run.join(''))
                  : part === '?'
                    ? fc.constantFrom(...fill)
                    : fc.constant(part.startsWith('\\') ? part.slice(1) : part),
              ),
            )
            .map((runs) => runs.join('')),
        ),
      );
    fc.assert(
      fc.property(filled, ([g, n]) => {
        expect(referenceMatch(g, n)).toBe(true);
        expect(globSteps(g, n).matches, `${JSON.stringify(g)} ${JSON.stringify(n)}`).toBe(true);
      }),
      { numRuns: 2000, seed: 8 },
    );
  });

  it('stays within (glob length + 1) × (name length + 1) steps on every glob of up to 12 stars and names of up to 200 characters, adversarial ones included', () => {
    const families: [string, string][] = [];
    for (let stars = 1; stars <= 12; stars += 1) {
      for (const length of [0, 1, 40, 60, 199, 200]) {
        const run = 'a'.repeat(length);
        families.push(
          [`${'*a'.repeat(stars)}*z`, run],
          [`${'*a'.repeat(stars)}z`, run],
          [`${'a*'.repeat(stars)}b`, run],
          [`${'*aa?'.repeat(stars)}`, run],
          [`${'*'.repeat(stars)}${'a'.repeat(12)}b`, run],
          [`*${'a?'.repeat(stars)}b*`, run],
          [`${'?*'.repeat(stars)}b`, run],
          [`${'*😀'.repeat(stars)}*x`, '😀'.repeat(length)],
          [`${'*a'.repeat(stars)}*z`, `${run}@acme.test`.slice(0, 200)],
          [`${'*ab'.repeat(stars)}*c`, 'ab'.repeat(length).slice(0, 200)],
        );
      }
    }
    let worst = 0;
    for (const [g, n] of families) {
      const { matches, steps } = globSteps(g, n);
      expect(matches, `${g} ${n.length}`).toBe(referenceMatch(g, n));
      expect(steps, `${g} against ${n.length} characters`).toBeLessThanOrEqual(bound(g, n));
      worst = Math.max(worst, steps / bound(g, n));
    }
    const glob = fc
      .array(fc.constantFrom('*', 'a', 'a', '?', 'b', '😀'), { maxLength: 40 })
      .map((parts) => parts.join(''))
      .filter((g) => g !== '' && [...g].filter((char) => char === '*').length <= 12);
    const name = fc.array(fc.constantFrom('a', 'a', 'a', 'b', '😀'), { maxLength: 200 }).map((parts) => parts.join(''));
    fc.assert(
      fc.property(glob, name, (g, n) => {
        const { steps } = globSteps(g, n);
        expect(steps).toBeLessThanOrEqual(bound(g, n));
        worst = Math.max(worst, steps / bound(g, n));
      }),
      { numRuns: 2000, seed: 12 },
    );
    expect(worst).toBeLessThanOrEqual(1);
  });

  it("matches the hostile glob of issue 24 against forty a's in steps linear in the name (it took minutes before)", () => {
    const hostile = '*a*a*a*a*a*a*a*a*a*a*a*a*z';
    for (const name of ['a'.repeat(40), `${'a'.repeat(40)}@acme.test`, 'a'.repeat(200)]) {
      const { matches, steps } = globSteps(hostile, name);
      expect(matches).toBe(false);
      expect(steps).toBeLessThanOrEqual(2 * (name.length + hostile.length));
    }
    expect(globSteps(hostile, `${'a'.repeat(40)}z`).matches).toBe(true);
  });

  it('reads ? as one character, a code point: one emoji beyond the BMP, or one lone surrogate', () => {
    expect(matches('?', '😀')).toBe(true);
    expect(matches('??', '😀')).toBe(false);
    expect(matches('a?b', 'a😀b')).toBe(true);
    expect(matches('?', '\ud83d')).toBe(true);
    expect(matches('??', '\ud83d\ud83d')).toBe(true);
    expect(matches('*\\😀', 'x😀')).toBe(true);
    expect(matches('*😀?', '😀😀😀')).toBe(true);
  });

  it('matches the empty name with stars only', () => {
    expect(matches('*', '')).toBe(true);
    expect(matches('***', '')).toBe(true);
    expect(matches('?*', '')).toBe(false);
    expect(matches('\\*', '')).toBe(false);
  });
});

describe('validate', () => {
  it('rejects an ignore glob that cannot be compiled, at its position', async () => {
    const source = memoryManifestSource({
      'workspace.yaml': 'kind: Workspace\nprune: true\nignore:\n  - "Scratch-*"\n  - "tmp\\\\"\n',
    });
    const { problems } = await loadManifests(['.'], source);
    expect(problems.map((problem) => `${problem.file}:${problem.line}:${problem.column} ${problem.code}`)).toEqual([
      'workspace.yaml:5:5 glob.invalid',
    ]);
  });
});

describe('did you mean', () => {
  it('suggests close names, nearest first', () => {
    expect(editDistance('kitten', 'sitting')).toBe(3);
    expect(suggestNames('Demo', ['Demos', 'Calls', 'demo'])).toEqual(['demo', 'Demos']);
    expect(suggestNames('Zzzzzz', ['Calls'])).toEqual([]);
  });
});
