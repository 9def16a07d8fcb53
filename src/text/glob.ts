import picomatch from 'picomatch';
import { ViewctlError } from '../errors.js';

/**
 * Name globs (the Workspace `ignore` list): `*` matches any run of characters (none
 * included), `?` exactly one, `\` makes the next character literal; everything else
 * is literal and case-sensitive, as view names are. picomatch compiles them (no regex
 * escaping of our own). picomatch is a path matcher, so the two characters it treats
 * as path syntax, `/` and `.`, are swapped for Unicode noncharacters in both the glob
 * and the name before matching: a name such as `Q1/Q2 ..` is matched as text.
 */

export const GLOB_INVALID = 'glob.invalid';

const PATH_CHARACTERS: Readonly<Record<string, string>> = { '/': '\ufdd0', '.': '\ufdd1' };
const OPTIONS = { dot: true, nonegate: true, noextglob: true, nobrace: true, nobracket: true, windows: false, debug: true, flags: 's' } as const;

function asText(text: string): string {
  return text.replace(/[/.]/g, (char) => PATH_CHARACTERS[char] ?? char);
}

/**
 * toPicomatch writes a name glob in picomatch syntax: wildcards as they are, every
 * other ASCII punctuation character escaped so picomatch reads it literally. Letters,
 * digits and non-ASCII characters need no escape (and `\d`, `\S` would mean classes).
 */
function toPicomatch(glob: string): string {
  let out = '';
  let escaped = false;
  for (const char of asText(glob)) {
    if (escaped) {
      out += /[\p{L}\p{N}\s]/u.test(char) || (char.codePointAt(0) ?? 0) > 0x7f ? char : `\\${char}`;
      escaped = false;
    } else if (char === '\\') escaped = true;
    else if (char === '*' || char === '?') out += char;
    else out += /[!-/:-@[-`{-~]/.test(char) ? `\\${char}` : char;
  }
  if (escaped) throw new ViewctlError('glob.invalid', `the glob "${glob}" ends with a \\ that escapes nothing`, { hint: 'write \\\\ for a literal backslash, or remove it' });
  return out;
}

export type NameGlob = (name: string) => boolean;

/**
 * compileNameGlob compiles one glob. A glob that cannot be compiled throws a
 * ViewctlError `glob.invalid` saying why; nothing else is ever thrown.
 */
export function compileNameGlob(glob: string): NameGlob {
  const pattern = toPicomatch(glob);
  try {
    const regExp = picomatch.makeRe(pattern, OPTIONS);
    // picomatch's lone-star pattern wants at least one character; an empty name is text too.
    return (name) => regExp.test(asText(name)) || (name === '' && /^\**$/.test(glob) && glob !== '');
  } catch (error) {
    throw new ViewctlError('glob.invalid', `the glob "${glob}" cannot be compiled: ${error instanceof Error ? error.message : String(error)}`, {
      hint: 'use * for any run of characters, ? for one, and \\ before a character to match it literally',
    });
  }
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
