import { readFile, stat } from 'node:fs/promises';
import { dirname, isAbsolute, relative, resolve, sep } from 'node:path';
import { Option } from 'commander';
import type { Command } from 'commander';
import type { ApiView } from '../domain/api-types.js';
import { VIEW_KINDS } from '../domain/domains.js';
import { formatLine, type SourcePosition } from '../domain/source-position.js';
import { EXIT, ViewctlError } from '../errors.js';
import { writeAtomically, writeFailureReason } from '../export/atomic-file.js';
import { declaredTargets } from '../export/declared-targets.js';
import { EXPORT_FOLDERS } from '../export/export-files.js';
import { mergeFiles } from '../export/merge-files.js';
import { pullPlan, type NotPulled, type PullPlan } from '../export/pull-edits.js';
import { spliceEdits, type PulledValue } from '../export/pull-files.js';
import { SCHEMAS_FOLDER } from '../export/schema-ref.js';
import { takenPaths, writeNewFiles } from '../export/write-files.js';
import { quoted } from '../export/yaml-text.js';
import { toDesired } from '../manifest/desired.js';
import { formatProblems, ManifestInvalidError } from '../manifest/format-problems.js';
import { loadManifests } from '../manifest/load.js';
import { hasErrors } from '../manifest/problems.js';
import { schemaTexts } from '../manifest/schema-registry.js';
import { nodeManifestSource, type ManifestSource } from '../manifest/source.js';
import type { ManifestDocument } from '../manifest/types.js';
import { selectTargets, type TargetSelector } from '../plan/targets-selection.js';
import { pinsKey, type Live } from '../state/types.js';
import { plural } from '../text/plural.js';
import { safeText } from '../text/safe-text.js';
import { addConnectionOptions, openConnection, type ConnectionOptions } from './connection.js';
import type { CliIo } from './io.js';
import { listenForReads, stopOnInterrupt } from './interrupt.js';
import type { Outcome } from './outcome.js';
import { planAgainst } from './plan-flow.js';
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

/** registerPullCommand adds `viewctl pull [PATH...]`. */
export function registerPullCommand(program: Command, io: CliIo, outcome: Outcome): void {
  const command = program
    .command('pull')
    .description('write the live value of the selected targets into the manifests that declare them, in place (never writes to the service)')
    .argument('[paths...]', 'manifest files or folders (every *.yaml / *.yml below)', ['.'])
    .addOption(new Option('--format <format>', 'output format').choices(['text', 'json']).default('text'))
    .addOption(targetOption());
  addReserveOption(addBudgetOptions(addBaseOption(command)));
  addConnectionOptions(command).action(async (paths: string[], options: PullOptions) => {
    const interrupt = listenForReads(io, ', and no manifest was changed');
    try {
      const source = nodeManifestSource(io.cwd);
      const documents = await loadChecked(paths, source, io);
      const desired = toDesired(documents);
      const scoped = await resolveScope(options, paths, io);
      const connection = await openConnection(options, io, { dailyReserve: options.reserve, stop: interrupt.signal });
      const { plan, live } = await stopOnInterrupt(interrupt, ', and no manifest was changed', () => planAgainst(desired, connection.client, io, { scoped, targets: options.target }))
        .finally(() => connection.close());
      const views = options.target === undefined || options.target.length === 0 ? desired.views : selectTargets(desired, options.target).views;
      const pulled = pullPlan({ changes: plan.changes, held: plan.held ?? [], live, documents, views });
      const result = await writePull(pulled, documents, live, paths, source, io);
      io.stdout.write(options.format === 'json' ? `${JSON.stringify(jsonReport(result), null, 2)}\n` : textReport(result));
      outcome.exitCode = EXIT.ok;
    } finally {
      interrupt.dispose();
    }
  });
}

/** loadChecked loads the manifests as plan does: any error stops here, before a request. */
async function loadChecked(paths: readonly string[], source: ManifestSource, io: CliIo): Promise<ManifestDocument[]> {
  const loaded = await loadManifests(paths.length === 0 ? ['.'] : paths, source);
  if (hasErrors(loaded.problems)) throw new ManifestInvalidError(loaded.problems);
  if (loaded.problems.length > 0) io.stderr.write(`${formatProblems(loaded.problems, { color: false })}\n`);
  return loaded.documents;
}

/** PullResult is what pull wrote in place, the new files it added, and what it left and why. */
interface PullResult {
  written: PulledValue[];
  files: string[];
  added: { path: string; target: string }[];
  notPulled: NotPulled[];
}

/**
 * writePull splices the edits, renders the new files, loads the manifests as they
 * would be and, only when they load without an error, writes every file.
 */
async function writePull(pulled: PullPlan, documents: readonly ManifestDocument[], live: Live, paths: readonly string[], source: ManifestSource, io: CliIo): Promise<PullResult> {
  const texts = new Map<string, string>();
  for (const file of new Set(pulled.edits.map((edit) => edit.file))) texts.set(file, await readFile(resolve(io.cwd, file), 'utf8'));
  const spliced = spliceEdits(pulled.edits, texts);
  const folder = await newFilesFolder(paths, io);
  const added = await newDocuments(pulled, documents, live, folder, source);
  const shownAdded = new Map([...added.files].map(([path, text]) => [source.display(resolve(folder, path)), text]));
  const after = new Map([...spliced.texts, ...shownAdded]);
  if (after.size > 0) await checkResult(paths, source, after);
  for (const [file, text] of spliced.texts) {
    await writeAtomically(resolve(io.cwd, file), text).catch((error: unknown) => {
      throw new ViewctlError('pull.write-failed', `cannot write ${file}: ${writeFailureReason(error)}`, { hint: 'check that the file is writable; files listed before it were written, run pull again for the rest' });
    });
  }
  if (added.files.size > 0) await writeNewFiles(folder, Object.fromEntries(added.files));
  return { written: spliced.written, files: [...spliced.texts.keys()], added: added.written.map((entry) => ({ path: source.display(resolve(folder, entry.path)), target: entry.target })), notPulled: [...pulled.notPulled, ...spliced.notPulled] };
}

/** newFilesFolder is where new documents go: the first PATH when it is a folder, else the folder of that file. */
async function newFilesFolder(paths: readonly string[], io: CliIo): Promise<string> {
  const first = resolve(io.cwd, paths[0] ?? '.');
  const info = await stat(first).catch(() => undefined);
  return info?.isDirectory() === true ? first : dirname(first);
}

/**
 * newDocuments writes, as `export --merge` writes them, a `userEmail` document for each
 * member a group reaches whose lists pull keeps, and a view document for each view no
 * manifest declares; the merge's other files are left out.
 */
async function newDocuments(pulled: PullPlan, documents: readonly ManifestDocument[], live: Live, folder: string, source: ManifestSource): Promise<{ files: Map<string, string>; written: { path: string; target: string }[] }> {
  const { members, views } = pulled.added;
  if (members.length === 0 && views.length === 0) return { files: new Map(), written: [] };
  const declared = declaredTargets(documents);
  // Only the members' own documents count as declaring their lists: the group is the list pull overrides for them.
  const ownOnly = { ...declared, workspace: declared.workspace ?? { file: '', line: 1, column: 1 }, pins: declared.pins.filter((pins) => pins.userEmail !== undefined) };
  const pins: Record<string, ApiView[]> = {};
  for (const { user, domains } of members) for (const domain of domains) pins[pinsKey(domain, user.email)] = live.pins[pinsKey(domain, user.email)] ?? [];
  const result = mergeFiles({
    live: { workspace: live.workspace, views: live.views, pins },
    pinUsers: members.map((member) => member.user),
    declared: ownOnly,
    schemas: schemaTexts(),
    taken: await takenPaths(folder, ['.', ...EXPORT_FOLDERS, SCHEMAS_FOLDER]),
    folder: source.display(folder),
  });
  const wanted = new Set(views.map(({ domain, view }) => `${VIEW_KINDS[domain]} ${quoted(view.name)} (${view.viewId})`));
  const emails = members.map((member) => `pins of ${member.user.email}:`);
  const written = result.written.filter((entry) => wanted.has(entry.target) || emails.some((prefix) => entry.target.startsWith(prefix)));
  const keep = new Set(written.map((entry) => entry.path));
  const files = new Map(Object.entries(result.files).filter(([path]) => keep.has(path) || (keep.size > 0 && path.startsWith(`${SCHEMAS_FOLDER}/`))));
  return { files, written };
}

/**
 * checkResult loads the manifests as pull would leave them (the spliced and new files
 * in place of the disk's) and refuses, writing nothing, when any has an error.
 */
async function checkResult(paths: readonly string[], source: ManifestSource, after: ReadonlyMap<string, string>): Promise<void> {
  const overlay = overlaySource(source, after);
  const loaded = await loadManifests(paths.length === 0 ? ['.'] : paths, overlay);
  const errors = loaded.problems.filter((problem) => problem.severity === 'error');
  if (errors.length === 0) return;
  const files = [...new Set(errors.map((problem) => problem.file))];
  throw new ViewctlError('pull.invalid-result', `pulling would make ${files.join(', ')} invalid, so nothing was written:\n${formatProblems(errors, { color: false })}`, {
    hint: 'edit the manifests by hand for these targets, or pull the others with --target',
  });
}

/** overlaySource is `source` with `after` (display path → text) in place of, or beside, the files on disk. */
function overlaySource(source: ManifestSource, after: ReadonlyMap<string, string>): ManifestSource {
  const shown = (path: string): string => source.display(path);
  return {
    display: shown,
    async stat(path) {
      const text = after.get(shown(path));
      return text === undefined ? source.stat(path) : { type: 'file', size: Buffer.byteLength(text) };
    },
    async list(directory) {
      const listing = await source.list(directory);
      const folder = shown(directory);
      const extra = [...after.keys()].filter((file) => !listing.files.includes(file) && isWithin(file, folder) && /\.ya?ml$/.test(file));
      return { ...listing, files: [...listing.files, ...extra].sort() };
    },
    async read(path, maxBytes) {
      const text = after.get(shown(path));
      return text === undefined ? source.read(path, maxBytes) : { bytes: new TextEncoder().encode(text) };
    },
  };
}

function isWithin(file: string, folder: string): boolean {
  if (folder === '.') return !file.startsWith('../') && !isAbsolute(file);
  const rel = relative(folder, file);
  return rel !== '' && !rel.startsWith('..') && !rel.split(sep).some((part) => part.startsWith('.'));
}

/** textReport prints what pull wrote (file:line, target, old -> new), the files it added, and what it left and why. */
function textReport(result: PullResult): string {
  const lines: string[] = [];
  if (result.written.length > 0) {
    lines.push(`written in place, ${plural(result.written.length, 'value')} in ${plural(result.files.length, 'file')}:`);
    for (const value of result.written) lines.push(`  ${formatLine(value.at)}  ${value.target}  ${value.what}: ${shortValue(value.before)} -> ${shortValue(value.after)}`);
  }
  if (result.added.length > 0) {
    lines.push(`added, ${plural(result.added.length, 'new file')}:`);
    for (const entry of result.added) lines.push(`  ${entry.path}  ${entry.target}`);
  }
  if (result.notPulled.length > 0) {
    lines.push(`not pulled (${result.notPulled.length}):`);
    for (const entry of result.notPulled) lines.push(`  ${entry.target}${entry.source === undefined ? '' : `  ${formatLine(entry.source)}`}: ${entry.reason}`);
  }
  if (result.written.length === 0 && result.added.length === 0) lines.push('nothing to pull: the manifests already say what the workspace has for the selected targets');
  lines.push(`${plural(result.files.length + result.added.length, 'file')} written, every other byte kept; nothing was changed in the workspace`);
  return `${lines.map(safeText).join('\n')}\n`;
}

/** shortValue shows a value on one line: JSON, cut past 80 characters. */
function shortValue(value: unknown): string {
  const text = value === undefined ? '(absent)' : JSON.stringify(value);
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

function jsonReport(result: PullResult): object {
  const where = (at: SourcePosition | undefined) => (at === undefined ? {} : { file: at.file, line: at.line });
  return {
    written: result.written.map((value) => ({ ...where(value.at), target: value.target, attribute: value.what, before: value.before ?? null, after: value.after })),
    added: result.added,
    notPulled: result.notPulled.map((entry) => ({ target: entry.target, reason: entry.reason, ...where(entry.source) })),
  };
}
