import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { REPO } from './workflow-files.js';

/**
 * Finds the stable error and problem codes viewctl can report, by reading src/: codes
 * are string literals such as 'apply.stale-target', given to the error constructors, to
 * `code:` of problems and refusals, or to helpers that build them.
 */

/** NAMESPACES known to hold codes; the scan adds any other it sees in a certain place. */
const KNOWN_NAMESPACES = [
  'service',
  'usage',
  'connection',
  'workspace',
  'view',
  'pins',
  'plan',
  'apply',
  'export',
  'emulator',
  'manifest',
  'schema',
  'yaml',
  'file',
  'filter',
  'date',
  'email',
  'automations',
  'output',
];

const CODE = /^[a-z]+\.[a-z]+(?:-[a-z]+)*$/;
const FILE_NAME = /\.(?:ya?ml|json|ts|js|md)$/;
/** Places where a literal is certainly a code: constructor first arguments and `code:` values. */
const CERTAIN = [
  /new (?:ViewctlError|UsageError|ServiceError|RefusedError)\(\s*'([a-z]+\.[a-z-]+)'/g,
  /\bcode: (?:[^,\n]*\? )?'([a-z]+\.[a-z-]+)'(?: : '([a-z]+\.[a-z-]+)')?/g,
];
/** A code built from a template, e.g. `schema.${keyword}`: documented as `schema.<...>`. */
const TEMPLATE = /\bcode: `([a-z]+)\.\$\{/g;

/** SourceCodes are the codes found in src/ and where each was seen first. */
export interface SourceCodes {
  codes: Map<string, string>;
  /** Namespaces whose codes are also built from templates. */
  templated: Set<string>;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** stripComments drops comment lines, where codes are only mentioned. */
function stripComments(text: string): string {
  return text
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .split('\n')
    .filter((line) => !line.trim().startsWith('//'))
    .join('\n');
}

/** scanSourceCodes reads every .ts file under src/ and returns the codes it reports. */
export function scanSourceCodes(): SourceCodes {
  const files = sourceFiles(join(REPO, 'src'))
    .sort()
    .map((path) => ({ path: relative(REPO, path), text: stripComments(readFileSync(path, 'utf8')) }));
  const namespaces = new Set(KNOWN_NAMESPACES);
  const templated = new Set<string>();
  for (const { text } of files) {
    for (const pattern of CERTAIN) {
      for (const match of text.matchAll(pattern))
        for (const code of match.slice(1)) if (code !== undefined) namespaces.add(code.split('.')[0] ?? '');
    }
    for (const match of text.matchAll(TEMPLATE)) templated.add(match[1] ?? '');
  }
  const codes = new Map<string, string>();
  for (const { path, text } of files) {
    for (const match of text.matchAll(/'([^'\n]*)'|"([^"\n]*)"/g)) {
      const literal = match[1] ?? match[2] ?? '';
      if (!CODE.test(literal) || FILE_NAME.test(literal) || !namespaces.has(literal.split('.')[0] ?? '')) continue;
      if (!codes.has(literal)) codes.set(literal, path);
    }
  }
  return { codes, templated };
}

/** TroubleshootingRow is one row of the README's troubleshooting tables. */
export interface TroubleshootingRow {
  code: string;
  meaning: string;
  fix: string;
}

/** troubleshootingRows reads the `code | what it means | how to fix` rows of the README's Troubleshooting section. */
export function troubleshootingRows(readme: string): TroubleshootingRow[] {
  const start = readme.indexOf('\n## Troubleshooting');
  if (start === -1) return [];
  const next = readme.indexOf('\n## ', start + 1);
  const section = readme.slice(start, next === -1 ? undefined : next);
  return section.split('\n').flatMap((line) => {
    const match = /^\| `([^`]+)` \|(.*)\|(.*)\|$/.exec(line);
    return match === null
      ? []
      : [{ code: match[1] ?? '', meaning: (match[2] ?? '').trim(), fix: (match[3] ?? '').trim() }];
  });
}
