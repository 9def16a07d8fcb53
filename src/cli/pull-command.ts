import { readFile, stat } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { Option } from 'commander';
import type { Command } from 'commander';
import type { ApiUser, ApiView } from '../domain/api-types.js';
import { DOMAINS } from '../domain/domains.js';
import { EXIT, ViewctlError } from '../errors.js';
import { declaredTargets, type DeclaredTargets } from '../export/declared-targets.js';
import { EXPORT_FOLDERS } from '../export/export-files.js';
import { isPinsTargetOf, mergeFiles, viewTarget } from '../export/merge-files.js';
import { pinDocumentMatcher } from '../export/pin-coverage.js';
import { noTabToday, pullPlan, type PullPlan } from '../export/pull-edits.js';
import { spliceEdits, writeSplicedFiles } from '../export/pull-files.js';
import { SCHEMAS_FOLDER } from '../export/schema-ref.js';
import { takenPaths, writeNewFiles } from '../export/write-files.js';
import { toDesired } from '../manifest/desired.js';
import { formatProblems, ManifestInvalidError } from '../manifest/format-problems.js';
import { loadManifests } from '../manifest/load.js';
import { hasErrors } from '../manifest/problems.js';
import { schemaTexts } from '../manifest/schema-registry.js';
import { nodeManifestSource, type ManifestSource } from '../manifest/source.js';
import type { ManifestDocument } from '../manifest/types.js';
import { selectTargets, type TargetSelector } from '../plan/targets-selection.js';
import { readMemberPins } from '../state/read-member-pins.js';
import { readUsers } from '../state/read-live.js';
import type { ServiceClient } from '../service/types.js';
import { pinsKey, type Live } from '../state/types.js';
import { addConnectionOptions, openConnection, type ConnectionOptions } from './connection.js';
import type { CliIo } from './io.js';
import { listenForReads, stopOnInterrupt } from './interrupt.js';
import type { Outcome } from './outcome.js';
import { planAgainst } from './plan-flow.js';
import { checkPulledManifests } from './pull-check.js';
import { jsonReport, textReport, type PullResult } from './pull-report.js';
import { addBaseOption, addBudgetOptions, addReserveOption, resolveScope, type ScopeOptions } from './scope-options.js';
import { targetOption } from './target-option.js';

/**
 * `viewctl pull [PATH...] [--target SELECTOR]...` (README, "Keeping the app's version"):
 * write the live value of the selected targets into the manifests that declare them,
 * in place. It plans as `plan` does, splices each changed value into its source range
 * (every other byte of the file stays), adds what no manifest declares in new files as
 * `export --merge` does, checks that the result loads without an error, and only then
 * writes, each file whole or not at all. It never writes to the service.
 */

interface PullOptions extends ConnectionOptions, ScopeOptions {
  format: 'text' | 'json';
  target?: TargetSelector[];
}

const UNWRITTEN = ', and no manifest was changed';

/** registerPullCommand adds `viewctl pull [PATH...]`. */
export function registerPullCommand(program: Command, io: CliIo, outcome: Outcome): void {
  const command = program
    .command('pull')
    .description(
      'write the live value of the selected targets into the manifests that declare them, in place (never writes to the service)',
    )
    .argument('[paths...]', 'manifest files or folders (every *.yaml / *.yml below)', ['.'])
    .addOption(new Option('--format <format>', 'output format').choices(['text', 'json']).default('text'))
    .addOption(targetOption());
  addReserveOption(addBudgetOptions(addBaseOption(command), false));
  addConnectionOptions(command).action(async (paths: string[], options: PullOptions) => {
    const interrupt = listenForReads(io, UNWRITTEN);
    try {
      const source = nodeManifestSource(io.cwd);
      const documents = await loadChecked(paths, source, io);
      const desired = toDesired(documents);
      const declared = declaredTargets(documents);
      const selectors = options.target ?? [];
      const selectedMembers = new Set(
        selectors.flatMap((selector) => (selector.type === 'pins' ? [selector.userEmail.toLowerCase()] : [])),
      );
      const scoped = await resolveScope(options, paths, io);
      const connection = await openConnection(options, io, { dailyReserve: options.reserve, stop: interrupt.signal });
      const read = await stopOnInterrupt(interrupt, UNWRITTEN, async () => {
        // A member no document reaches is no target plan knows: pull adds them as export --merge does.
        const { undeclared, users } = await undeclaredMembers(selectedMembers, declared, connection.client);
        const planned = selectors.filter(
          (selector) => selector.type !== 'pins' || !undeclared.has(selector.userEmail.toLowerCase()),
        );
        const plans = selectors.length === 0 || planned.length > 0;
        const planning = plans
          ? await planAgainst(desired, connection.client, io, {
              scoped,
              ...(planned.length === 0 ? {} : { targets: planned }),
            })
          : undefined;
        // The members' lists are read, and what the plan and the check above did not read: nothing twice.
        const known = {
          workspace: planning?.live.workspace,
          views: planning?.live.views,
          users: planning?.live.users ?? users,
        };
        const members =
          undeclared.size === 0
            ? undefined
            : await readMemberPins(
                connection.client,
                (all) => all.filter((user) => undeclared.has(user.email.toLowerCase()) && user.state === 'Active'),
                known,
              );
        return { planning, members, planned, undeclared };
      }).finally(() => connection.close());
      const { planning, members, planned, undeclared } = read;
      const views =
        planned.length === 0 ? (selectors.length === 0 ? desired.views : []) : selectTargets(desired, planned).views;
      const live = liveOf(planning?.live, members?.live);
      const pulled = pullPlan({
        changes: planning?.plan.changes ?? [],
        held: planning?.plan.held ?? [],
        live,
        documents,
        views,
        declared,
        selectedMembers,
      });
      for (const user of members?.pinUsers ?? []) pulled.added.members.push({ user, domains: [...DOMAINS] });
      const found = new Set((members?.pinUsers ?? []).map((user) => user.email.toLowerCase()));
      for (const email of undeclared)
        if (!found.has(email))
          pulled.notPulled.push({
            target: `pins/${email}`,
            reason: 'no manifest declares this member, and no active member has this address: nothing to pull',
          });
      interrupt.writingFiles('writing the pulled manifests');
      const result = await writePull(pulled, declared, live, paths, source, io);
      io.stdout.write(
        options.format === 'json' ? `${JSON.stringify(jsonReport(result), null, 2)}\n` : textReport(result),
      );
      outcome.exitCode = EXIT.ok;
    } finally {
      interrupt.dispose();
    }
  });
}

/** loadChecked loads the manifests as plan does: any error stops here, before a request. */
async function loadChecked(paths: readonly string[], source: ManifestSource, io: CliIo): Promise<ManifestDocument[]> {
  const loaded = await loadManifests(paths, source);
  if (hasErrors(loaded.problems)) throw new ManifestInvalidError(loaded.problems);
  if (loaded.problems.length > 0) io.stderr.write(`${formatProblems(loaded.problems, { color: false })}\n`);
  return loaded.documents;
}

/**
 * undeclaredMembers are the members `--target pins/EMAIL` names (`emails`, lower-cased)
 * whom no PinnedViews document reaches: none names the address (by `userEmail`, or a
 * `users` email or glob) and no `roles` group takes their role. The users are read (1
 * request per 100 members), and answered, only when a group selects by role and an
 * address is named nowhere else.
 */
async function undeclaredMembers(
  emails: ReadonlySet<string>,
  declared: DeclaredTargets,
  client: ServiceClient,
): Promise<{ undeclared: Set<string>; users?: ApiUser[] }> {
  const named = (email: string): boolean =>
    declared.pins.some((document) => pinDocumentMatcher({ ...document, roles: [] })({ email, role: '' }));
  const candidates = [...emails].filter((email) => !named(email));
  if (candidates.length === 0 || !declared.pins.some((document) => document.roles.length > 0))
    return { undeclared: new Set(candidates) };
  const users = await readUsers(client);
  const undeclared = new Set(
    candidates.filter((email) => {
      const user = users.find((candidate) => candidate.email.toLowerCase() === email);
      return user === undefined || !declared.pins.some((document) => pinDocumentMatcher(document)(user));
    }),
  );
  return { undeclared, users };
}

/** liveOf joins what the plan read and what the members' read added: its listings and users include the plan's. */
function liveOf(planned: Live | undefined, members: Live | undefined): Live {
  if (planned === undefined) return members as Live;
  if (members === undefined) return planned;
  return { ...planned, views: members.views, pins: { ...planned.pins, ...members.pins }, users: members.users };
}

/**
 * writePull splices the edits, renders the new files, loads the manifests as they
 * would be and, only when they load without an error, writes every file.
 */
async function writePull(
  pulled: PullPlan,
  declared: DeclaredTargets,
  live: Live,
  paths: readonly string[],
  source: ManifestSource,
  io: CliIo,
): Promise<PullResult> {
  const texts = new Map<string, string>();
  for (const file of new Set(pulled.edits.map((edit) => edit.file)))
    texts.set(file, await readFile(resolve(io.cwd, file), 'utf8'));
  const spliced = spliceEdits(pulled.edits, texts);
  const folder = await newFilesFolder(paths, io);
  const added = await newDocuments(pulled, declared, live, folder, source);
  const shownAdded = new Map([...added.files].map(([path, text]) => [source.display(resolve(folder, path)), text]));
  await checkPulledManifests(paths, source, new Map([...spliced.texts, ...shownAdded]));
  await writeSplicedFiles(spliced.texts, io.cwd);
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
async function newFilesFolder(paths: readonly string[], io: CliIo): Promise<string> {
  const first = resolve(io.cwd, paths[0] ?? '.');
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
