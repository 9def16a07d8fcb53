import { ViewctlError } from '../errors.js';

/**
 * Name globs (the Workspace `ignore` list, the `users` of a group PinnedViews
 * document): `*` matches any run of characters (none included), `?` exactly one
 * character, `\` makes the next character literal; everything else is literal and
 * case-sensitive, `/` and `.` included. A character is a Unicode code point, so `?`
 * matches one emoji beyond the BMP (`😀` is two UTF-16 units, one character).
 *
 * The names matched come from the service, where any member can name a view, so a
 * glob must never take exponential time: the matcher below is the classic two-pointer
 * wildcard match, which returns to the last `*` only. It takes at most
 * (glob length + 1) × (name length + 1) steps, in characters; test/plan/glob.test.ts
 * counts them.
 */

export const GLOB_INVALID = 'glob.invalid';

/** A token standing for `*`; tokens that are code points are never negative. */
const STAR = -1;
/** A token standing for `?`. */
const ONE = -2;

/** GlobSteps counts the steps of one match, for the tests of the bound. */
export interface GlobSteps {
  steps: number;
}

/**
 * globTokens reads a glob into tokens: each literal character as its code point, `*`
 * (a run of them is one) and `?` as STAR and ONE.
 */
function globTokens(glob: string): number[] {
  if (glob === '')
    throw new ViewctlError('glob.invalid', 'the glob is empty', {
      hint: 'write * for every name, or remove the entry',
    });
  const tokens: number[] = [];
  let escaped = false;
  for (const char of glob) {
    const code = char.codePointAt(0) ?? 0;
    if (escaped) {
      tokens.push(code);
      escaped = false;
    } else if (char === '\\') escaped = true;
    else if (char === '*') {
      if (tokens[tokens.length - 1] !== STAR) tokens.push(STAR);
    } else tokens.push(char === '?' ? ONE : code);
  }
  if (escaped)
    throw new ViewctlError('glob.invalid', `the glob "${glob}" ends with a \\ that escapes nothing`, {
      hint: 'write \\\\ for a literal backslash, or remove it',
    });
  return tokens;
}

/**
 * matchTokens tells whether `name` matches the tokens. It keeps one position in each:
 * a literal or `?` that fits advances both; a `*` is remembered with where in the name
 * it started, matching nothing; on a mismatch the last `*` takes one more character
 * and matching resumes after it. Returning to an earlier `*` is never needed (whatever
 * it could absorb, the last one can), hence the bound. `counter`, when given, counts
 * the steps (turns of the loop).
 */
function matchTokens(tokens: readonly number[], name: string, counter?: GlobSteps): boolean {
  let token = 0;
  let at = 0;
  let star = -1;
  let starAt = 0;
  for (;;) {
    if (counter !== undefined) counter.steps += 1;
    const wanted = tokens[token];
    if (wanted === STAR) {
      star = token;
      starAt = at;
      token += 1;
      continue;
    }
    if (at < name.length) {
      const code = name.codePointAt(at) ?? 0;
      if (wanted === ONE || wanted === code) {
        at += code > 0xffff ? 2 : 1;
        token += 1;
        continue;
      }
    } else if (wanted === undefined) return true;
    if (star < 0 || starAt >= name.length) return false;
    starAt += (name.codePointAt(starAt) ?? 0) > 0xffff ? 2 : 1;
    at = starAt;
    token = star + 1;
  }
}

/**
 * globSteps matches `name` against `glob` and counts the steps it took: for the tests
 * of the bound, beside the compiled matcher, which counts nothing.
 */
export function globSteps(glob: string, name: string): { matches: boolean; steps: number } {
  const counter = { steps: 0 };
  const matches = matchTokens(globTokens(glob), name, counter);
  return { matches, steps: counter.steps };
}

export type NameGlob = (name: string) => boolean;

/**
 * compileNameGlob compiles one glob. A glob that cannot be compiled (empty, or ending
 * with a lone `\`) throws a ViewctlError `glob.invalid` saying why; nothing else is
 * ever thrown.
 */
export function compileNameGlob(glob: string): NameGlob {
  const tokens = globTokens(glob);
  return (name) => matchTokens(tokens, name);
}

/** globProblem returns why a glob cannot be compiled, or undefined when it can (for validation). */
export function globProblem(glob: string): string | undefined {
  try {
    compileNameGlob(glob);
    return undefined;
  } catch (error) {
    if (error instanceof ViewctlError && error.code === GLOB_INVALID) return error.message;
    throw error;
  }
}

/** escapeGlob returns the glob that matches exactly `name`: its wildcards and backslashes escaped. */
export function escapeGlob(name: string): string {
  return name.replace(/[\\*?]/g, (char) => `\\${char}`);
}

/** NameMatcher tells which glob, if any, matches a name. */
export type NameMatcher = (name: string) => string | undefined;

/** compileGlobs returns a matcher answering the first glob of `globs` that matches. */
export function compileGlobs(globs: readonly string[]): NameMatcher {
  const compiled = globs.map((glob) => ({ glob, test: compileNameGlob(glob) }));
  return (name) => compiled.find((entry) => entry.test(name))?.glob;
}
