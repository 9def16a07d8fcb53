import { readFile, stat } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import type { ApiUser, ApiView } from '../domain/api-types.js';
import { ViewctlError } from '../errors.js';
import type { DeclaredTargets } from '../export/declared-targets.js';
import { EXPORT_FOLDERS } from '../export/export-files.js';
import { isPinsTargetOf, mergeFiles, viewTarget } from '../export/merge-files.js';
import { noTabToday, type NotPulled, type PullPlan } from '../export/pull-edits.js';
import { spliceEdits, writeSplicedFiles, type PulledValue } from '../export/pull-files.js';
import { SCHEMAS_FOLDER } from '../export/schema-ref.js';
import { takenPaths, writeNewFiles } from '../export/write-files.js';
import { schemaTexts } from '../manifest/schema-registry.js';
import type { ManifestSource } from '../manifest/source.js';
import { pinsKey, type Live } from '../state/types.js';
import { checkPulledManifests } from './pull-check.js';

/** PullResult is what pull wrote in place, the new files it added (and the schema copies beside them), and what it left and why. */
export interface PullResult {
  written: PulledValue[];
  files: string[];
  added: { path: string; target: string }[];
  schemaCopies: number;
  notPulled: NotPulled[];
}

/**
 * writePull splices the edits, renders the new files, loads the manifests as they
 * would be and, only when they load without an error, writes every file.
 */
export async function writePull(
  pulled: PullPlan,
  declared: DeclaredTargets,
  live: Live,
  paths: readonly string[],
  source: ManifestSource,
  cwd: string,
): Promise<PullResult> {
  const texts = new Map<string, string>();
  for (const file of new Set(pulled.edits.map((edit) => edit.file)))
    texts.set(file, await readFile(resolve(cwd, file), 'utf8'));
  const spliced = spliceEdits(pulled.edits, texts);
  const folder = await newFilesFolder(paths, cwd);
  const added = await newDocuments(pulled, declared, live, folder, source);
  const shownAdded = new Map([...added.files].map(([path, text]) => [source.display(resolve(folder, path)), text]));
  await checkPulledManifests(paths, source, new Map([...spliced.texts, ...shownAdded]));
  await writeSplicedFiles(spliced.texts, cwd, { roots: paths });
  if (added.files.size > 0) {
    await writeNewFiles(folder, Object.fromEntries(added.files)).catch((error: unknown) => {
      // The spliced files are written by now: say so beside what failed.
      if (!(error instanceof ViewctlError) || spliced.texts.size === 0) throw error;
      throw new ViewctlError(error.code, `${error.message}; written already: ${[...spliced.texts.keys()].join(', ')}`, {
        ...(error.hint === undefined ? {} : { hint: error.hint }),
        exitCode: error.exitCode,
      });
    });
  }
  return {
    written: spliced.written,
    files: [...spliced.texts.keys()],
    added: added.written.map((entry) => ({ path: source.display(resolve(folder, entry.path)), target: entry.target })),
    schemaCopies: added.files.size - added.written.length,
    notPulled: [...pulled.notPulled, ...spliced.notPulled],
  };
}

/** newFilesFolder is where new documents go: the first PATH when it is a folder, else the folder of that file. */
async function newFilesFolder(paths: readonly string[], cwd: string): Promise<string> {
  const first = resolve(cwd, paths[0] ?? '.');
  const info = await stat(first).catch(() => undefined);
  return info?.isDirectory() === true ? first : dirname(first);
}

/**
 * newDocuments writes, as `export --merge` writes them, a `userEmail` document for each
 * member whose lists pull keeps and no document of their own declares (a group reaches
 * them, or nothing does), and a view document for each view no manifest declares; the
 * merge's other files are left out, and the JSON Schema copies the folder lacks added.
 */
async function newDocuments(
  pulled: PullPlan,
  declared: DeclaredTargets,
  live: Live,
  folder: string,
  source: ManifestSource,
): Promise<{ files: Map<string, string>; written: { path: string; target: string }[] }> {
  const { members, views } = pulled.added;
  if (members.length === 0 && views.length === 0) return { files: new Map(), written: [] };
  // Only the members' own documents count as declaring their lists: a group is what pull overrides for them.
  const ownOnly = { ...declared, pins: declared.pins.filter((pins) => pins.userEmail !== undefined) };
  const pins: Record<string, ApiView[]> = {};
  const users: ApiUser[] = [];
  for (const { user, domains } of members) {
    users.push(user);
    for (const domain of domains) pins[pinsKey(domain, user.email)] = live.pins[pinsKey(domain, user.email)] ?? [];
  }
  const result = mergeFiles({
    live: { workspace: live.workspace, views: live.views, pins },
    pinUsers: users,
    declared: ownOnly,
    schemas: schemaTexts(),
    taken: await takenPaths(folder, ['.', ...EXPORT_FOLDERS, SCHEMAS_FOLDER]),
    folder: source.display(folder),
  });
  const wanted = new Set(views.map(({ domain, view }) => viewTarget(domain, view)));
  const written = result.written.filter(
    (entry) => wanted.has(entry.target) || users.some((user) => isPinsTargetOf(entry.target, user.email)),
  );
  const keep = new Set(written.map((entry) => entry.path));
  const files = new Map(
    Object.entries(result.files).filter(
      ([path]) => keep.has(path) || (keep.size > 0 && path.startsWith(`${SCHEMAS_FOLDER}/`)),
    ),
  );
  for (const { user, domains } of members) {
    if (!written.some((entry) => isPinsTargetOf(entry.target, user.email)))
      pulled.notPulled.push({ target: `pins/${user.email}`, reason: noTabToday(user.email, domains) });
  }
  return { files, written };
}
