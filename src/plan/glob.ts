/**
 * Name globs of the `Workspace` document's `ignore`: `*` matches any run of
 * characters (none included), `?` exactly one; everything else is literal and
 * case-sensitive, as view names are.
 */

/** globToRegExp compiles one glob into an anchored regular expression. */
export function globToRegExp(glob: string): RegExp {
  let source = '';
  for (const char of glob) {
    if (char === '*') source += '.*';
    else if (char === '?') source += '.';
    else source += char.replace(/[\\^$.*+?()[\]{}|/-]/g, '\\$&');
  }
  return new RegExp(`^${source}$`, 'su');
}

/** NameMatcher tells which glob, if any, matches a name. */
export type NameMatcher = (name: string) => string | undefined;

/** compileGlobs returns a matcher answering the first glob of `globs` that matches. */
export function compileGlobs(globs: readonly string[]): NameMatcher {
  const compiled = globs.map((glob) => ({ glob, regExp: globToRegExp(glob) }));
  return (name) => compiled.find((entry) => entry.regExp.test(name))?.glob;
}
