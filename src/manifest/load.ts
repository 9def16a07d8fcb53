import { didYouMean } from '../text/suggest.js';
import { rawDocuments, type RawDocument } from './parsed-file.js';
import { parseFiles } from './parse-files.js';
import { makeProblem, sortProblems } from './problems.js';
import { documentValidator, manifestKindNames } from './kind-manifests.js';
import { schemaProblems } from './schema-problems.js';
import { semanticProblems } from './semantic.js';
import type { Listing, ManifestSource, PathInfo, SkippedEntry } from './source.js';
import { unreadable } from './unreadable.js';
import type { ManifestDocument, Problem } from './types.js';

// The sources are re-exported so that callers find the loader and its inputs in one place.
export { memoryManifestSource, nodeManifestSource } from './source.js';

/**
 * LoadResult is every document that parsed to a mapping with a known kind, and every
 * problem found in every file, sorted by file, line and column. Callers go on only
 * when no problem is an error.
 */
export interface LoadResult {
  documents: ManifestDocument[];
  problems: Problem[];
  /** Files read, relative to the working directory, in order. */
  files: string[];
}

/**
 * loadManifests reads, parses and checks the manifests under `paths` (files, or
 * folders searched for `*.yaml` / `*.yml`). It never stops at the first problem: a
 * user fixes a whole batch in one round.
 */
export async function loadManifests(paths: readonly string[], source: ManifestSource): Promise<LoadResult> {
  const problems: Problem[] = [];
  const files = await resolveFiles(paths.length === 0 ? ['.'] : paths, source, problems);
  const documents: ManifestDocument[] = [];
  for (const parsed of await parseFiles(files, source)) {
    problems.push(...parsed.problems);
    for (const raw of rawDocuments(parsed)) {
      const checked = checkDocument(raw);
      problems.push(...checked.problems);
      if (checked.document !== undefined) documents.push(checked.document);
    }
  }
  // Semantic rules run on schema-invalid documents too (they check types as they go),
  // so that one round of fixes clears every problem.
  problems.push(...semanticProblems(documents));
  return { documents, problems: sortProblems(dedupe(problems)), files };
}

async function resolveFiles(paths: readonly string[], source: ManifestSource, problems: Problem[]): Promise<string[]> {
  const files: string[] = [];
  for (const path of paths) {
    let info: PathInfo | undefined;
    try {
      info = await source.stat(path);
    } catch (error) {
      problems.push(unreadable(source, path, error));
      continue;
    }
    const shown = source.display(path);
    const at = { file: shown, line: 1, column: 1 };
    if (info === undefined) {
      problems.push(makeProblem({ code: 'file.not-found', message: `no file or folder at "${shown}"`, at }));
    } else if (info.type === 'other') {
      problems.push(
        makeProblem({
          code: 'file.not-regular',
          message: `"${shown}" is ${info.what}, not a file or folder viewctl can read`,
          at,
          hint: 'pass regular *.yaml / *.yml files or folders of them',
        }),
      );
    } else if (info.type === 'directory') {
      let listed: Listing;
      try {
        listed = await source.list(path);
      } catch (error) {
        problems.push(unreadable(source, path, error));
        continue;
      }
      problems.push(...listed.skipped.map(skippedProblem));
      // An empty folder is most likely a wrong path: say so rather than "all valid".
      if (listed.files.length === 0 && listed.skipped.length === 0) {
        problems.push(
          makeProblem({
            severity: 'warning',
            code: 'file.no-manifests',
            message: `no *.yaml or *.yml file below "${shown}"`,
            at,
          }),
        );
      }
      files.push(...listed.files);
    } else {
      files.push(shown);
    }
  }
  return [...new Set(files)];
}

/**
 * skippedProblem reports a manifest-named entry a folder walk could not read: left out
 * silently, the views it declares would count as undeclared, and prune would delete them.
 */
function skippedProblem(entry: SkippedEntry): Problem {
  const at = { file: entry.path, line: 1, column: 1 };
  return entry.reason === 'dangling-link'
    ? makeProblem({
        code: 'file.dangling-link',
        message: `"${entry.path}" is a symbolic link to "${entry.detail}", which does not exist`,
        at,
        hint: 'point the link at the manifest it stands for, or remove it',
      })
    : makeProblem({
        code: 'file.not-regular',
        message: `"${entry.path}" is ${entry.detail}, not a file viewctl can read`,
        at,
        hint: 'replace it with a regular file, or rename it so it does not end in .yaml or .yml',
      });
}

function checkDocument(raw: RawDocument): { document?: ManifestDocument; problems: Problem[] } {
  const kind = raw.body.kind;
  const validate = typeof kind === 'string' ? documentValidator(kind) : undefined;
  if (typeof kind !== 'string' || validate === undefined) return { problems: [kindProblem(raw, kind)] };
  const problems = validate(raw.body) ? [] : schemaProblems(validate.errors ?? [], raw, kind);
  return { document: { ...raw, kind }, problems };
}

/** kindProblem reports a `kind` that is missing, not text, or not one of the manifest kinds. */
function kindProblem(raw: RawDocument, kind: unknown): Problem {
  const known = manifestKindNames();
  const where = { document: raw.index, pointer: '/kind' };
  if (kind === undefined) {
    const message = `missing required attribute "kind" (one of ${known.join(', ')})`;
    return makeProblem({ code: 'schema.required', message, at: raw.positionOf(''), ...where });
  }
  const at = raw.positionOf('/kind');
  if (typeof kind !== 'string') {
    return makeProblem({ code: 'schema.type', message: '"kind" must be a string', at, ...where });
  }
  return makeProblem({
    code: 'manifest.unknown-kind',
    message: `unknown kind "${kind}"; expected one of ${known.join(', ')}`,
    at,
    ...where,
    hint: didYouMean(kind, known),
  });
}

/** dedupe drops a problem already reported with the same code at the same place. */
function dedupe(problems: readonly Problem[]): Problem[] {
  const seen = new Set<string>();
  return problems.filter((problem) => {
    const key = [problem.file, problem.document, problem.code, problem.pointer, problem.line, problem.column].join(
      '\u0000',
    );
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
