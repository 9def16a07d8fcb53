import type { ApiUser, ApiView } from '../domain/api-types.js';
import { DOMAINS, VIEW_KINDS, type Domain } from '../domain/domains.js';
import { formatLine, type SourcePosition } from '../domain/source-position.js';
import { isPublicSaved } from '../domain/views.js';
import { compareCodePoints } from '../kinds/canonical.js';
import { pinsKey, type Live } from '../state/types.js';
import {
  pinCoverage,
  viewDeclaration,
  type DeclaredPins,
  type DeclaredTargets,
  type DeclaredView,
} from './declared-targets.js';
import { AUTOMATIONS_FILE, automationsFile, PINS_FOLDER, pinStems, viewPaths, WORKSPACE_FILE } from './export-files.js';
import { renderPinsFile, type PinsMode } from './pin-documents.js';
import { schemaCopies, schemaModeline } from './schema-ref.js';
import { slugify } from './slug.js';
import { renderViewFile } from './view-documents.js';
import { renderWorkspaceFile } from './workspace-documents.js';
import { compileGlobs } from '../text/glob.js';
import { plural } from '../text/plural.js';
import { quoted } from './yaml-text.js';

/**
 * The pure half of `viewctl export --merge`: live state and what a manifests folder
 * already declares in, new files out. A target is written only when no document
 * declares it, each in a file of its own whose path no existing entry takes, so the
 * writer never has to open an existing file, and the folder plans in sync with the
 * workspace it was merged from (README, "export --merge").
 */

/** MergeInput is what a merge needs besides the live state an export reads. */
interface MergeInput {
  /** Listings of every domain, the automations, and the uncovered pinned lists of `pinUsers`. */
  live: Pick<Live, 'workspace' | 'views' | 'pins' | 'automations'>;
  /** Members whose pinned lists were asked for; only the domains no document covers are written. */
  pinUsers: readonly ApiUser[];
  /**
   * Every member a budgeted export spreads over several runs, when more than
   * `pinUsers`: file names are chosen among all of them, as `exportFiles` chooses
   * them, so a member's file is named alike whichever run writes it.
   */
  stemUsers?: readonly ApiUser[];
  declared: DeclaredTargets;
  /** The package's JSON Schemas (file name to text); copies the folder lacks are added. */
  schemas: ReadonlyMap<string, string>;
  /** `export --pins`: how the pinned lists are written (default exact). */
  pinsMode?: PinsMode;
  /** Paths that exist in the output folder, relative with `/`: never written, compared case-insensitively. */
  taken: Iterable<string>;
  /** The output folder as the declared positions spell it (`.` when they are relative to it): comments in new files cite paths within it. */
  folder: string;
}

/** MergedFile is a manifest the merge writes, and the target it declares. */
interface MergedFile {
  path: string;
  target: string;
}

/** SkippedTarget is a live target left out because a document declares it already. */
interface SkippedTarget {
  target: string;
  declaredAt: SourcePosition;
}

/** MergeResult is every new file (path → text, sorted), what they declare, and what was skipped. */
export interface MergeResult {
  files: Record<string, string>;
  written: MergedFile[];
  skipped: SkippedTarget[];
  notes: string[];
}

/** mergeFiles writes documents for the live targets `declared` lacks, in paths `taken` lacks. */
export function mergeFiles(input: MergeInput): MergeResult {
  const { live, declared } = input;
  const paths = freePaths(input.taken);
  const files = new Map<string, string>();
  const written: MergedFile[] = [];
  const skipped: SkippedTarget[] = [];
  const notes: string[] = [];
  const add = (wanted: string, target: string, render: (path: string) => string): void => {
    const path = paths.claim(wanted);
    files.set(path, render(path));
    written.push({ path, target });
  };

  const workspaceTarget = `Workspace ${quoted(live.workspace.name)} (${live.workspace.id})`;
  if (declared.workspace !== undefined) skipped.push({ target: workspaceTarget, declaredAt: declared.workspace });
  else
    add(WORKSPACE_FILE, workspaceTarget, (path) =>
      renderWorkspaceFile(live.workspace, schemaModeline('Workspace', path)),
    );

  // Views the Workspace ignores are unmanaged on purpose: a merge would bring them under management.
  const ignoredBy = compileGlobs(declared.ignore);
  for (const domain of DOMAINS) {
    const listing = live.views[domain] ?? [];
    const fresh: ApiView[] = [];
    for (const view of listing.filter(isPublicSaved)) {
      const declaration = viewDeclaration(declared, domain, view);
      const glob = ignoredBy(view.name);
      if (declaration !== undefined) skipped.push({ target: viewTarget(domain, view), declaredAt: declaration.source });
      else if (glob !== undefined && declared.workspace !== undefined) {
        skipped.push({
          target: `${viewTarget(domain, view)}, ignored (${quoted(glob)})`,
          declaredAt: declared.workspace,
        });
      } else fresh.push(view);
    }
    for (const [view, path] of viewPaths(domain, fresh)) {
      add(path, viewTarget(domain, view), (claimed) =>
        renderViewFile(domain, view, listing, claimed, declared.appOwns),
      );
    }
  }

  if (declared.automations !== undefined) {
    skipped.push({ target: 'AdminAutomations', declaredAt: declared.automations });
  } else if (live.automations !== undefined) {
    // A suffixed name stays beside automations.yaml, so the modeline is the same.
    const output = automationsFile(live.automations, schemaModeline('AdminAutomations', AUTOMATIONS_FILE));
    notes.push(...output.notes);
    const { text } = output;
    if (text !== undefined)
      add(AUTOMATIONS_FILE, `AdminAutomations (${plural(live.automations.length, 'automation')})`, () => text);
  }

  const coverage = pinCoverage(declared);
  const userStems = pinStems(input.stemUsers ?? input.pinUsers);
  for (const user of input.pinUsers) {
    const merged = mergePins(input, user, coverage(user));
    skipped.push(...merged.skipped);
    notes.push(...merged.notes);
    const { file } = merged;
    if (file !== undefined)
      add(`${PINS_FOLDER}/${userStems.get(user.id) ?? slugify(user.id)}.yaml`, file.target, file.render);
  }

  let schemaCount = 0;
  for (const [path, text] of schemaCopies(input.schemas)) {
    if (!paths.isFree(path)) continue;
    files.set(paths.claim(path), text);
    schemaCount += 1;
  }
  if (schemaCount > 0 && schemaCount < input.schemas.size) {
    notes.push(
      `${input.schemas.size - schemaCount} of the JSON Schema copies under .viewctl/schemas/ existed and were left as they are`,
    );
  }

  return {
    files: Object.fromEntries([...files].sort(([a], [b]) => compareCodePoints(a, b))),
    written: written.sort((a, b) => compareCodePoints(a.path, b.path)),
    skipped,
    notes,
  };
}

/**
 * mergePins is the part of a merge about one member: the lists documents already
 * manage are skipped, and the other domains with a tab today make one new document.
 */
function mergePins(
  input: MergeInput,
  user: ApiUser,
  covered: ReadonlyMap<Domain, DeclaredPins>,
): { skipped: SkippedTarget[]; notes: string[]; file?: { target: string; render: (path: string) => string } } {
  const skipped = [...byDocument(covered)].map(([document, domains]): SkippedTarget => {
    const group =
      document.userEmail === undefined
        ? ` (group ${document.name === undefined ? 'document' : quoted(document.name)})`
        : '';
    return { target: `${pinsTarget(user.email, domains)}${group}`, declaredAt: document.source };
  });
  const open = DOMAINS.filter((domain) => !covered.has(domain));
  const pins: Partial<Record<Domain, ApiView[]>> = {};
  for (const domain of open) {
    const list = input.live.pins[pinsKey(domain, user.email)];
    if (list !== undefined && list.length > 0) pins[domain] = list;
  }
  const withTabs = open.filter((domain) => pins[domain] !== undefined);
  const empty = open.filter((domain) => pins[domain] === undefined);
  if (withTabs.length === 0) {
    const notes =
      open.length === 0
        ? []
        : [
            `${user.email} has no pinned ${empty.join(', ')} views today: nothing to write (a pinned list needs one tab)`,
          ];
    return { skipped, notes };
  }
  const elsewhere = [...byDocument(covered)].map(
    ([document, domains]) => `${domains.join(', ')} in ${withinFolder(document.source, input.folder)}`,
  );
  const render = (path: string): string =>
    renderPinsFile(user, pins, input.live.views, schemaModeline('PinnedViews', path), {
      domains: open,
      ...(input.pinsMode === undefined ? {} : { mode: input.pinsMode }),
      nameClash: (domain, view) =>
        nameClash(
          input.declared.views.filter((candidate) => candidate.domain === domain),
          view,
          input.folder,
        ),
      header:
        elsewhere.length === 0 ? [] : [`Other domains of this member are managed elsewhere: ${elsewhere.join('; ')}.`],
    }).text;
  return {
    skipped,
    notes: empty.length === 0 ? [] : [`${user.email} has no pinned ${empty.join(', ')} views today: left unmanaged`],
    file: { target: pinsTarget(user.email, withTabs), render },
  };
}

/**
 * nameClash says why a tab of `view` must be pinned by `{viewId}` although its name
 * is unique live: plan resolves a name against the manifests first (README,
 * Manifests), so a document declaring that name for another view, or giving this
 * view another name, would make the name mean something else after apply.
 */
export function nameClash(declaredInDomain: readonly DeclaredView[], view: ApiView, folder = '.'): string | undefined {
  const renamed = declaredInDomain.find(
    (candidate) => candidate.viewId === view.viewId && candidate.name !== view.name,
  );
  if (renamed !== undefined) return `renamed to ${quoted(renamed.name)} in ${withinFolder(renamed.source, folder)}`;
  const other = declaredInDomain.find((candidate) => candidate.name === view.name && !binds(candidate, view));
  if (other !== undefined) return `the name is declared for another view in ${withinFolder(other.source, folder)}`;
  return undefined;
}

/** withinFolder spells a position as `file:line` relative to the manifests folder, as a comment in a file of that folder should. */
function withinFolder(source: SourcePosition, folder: string): string {
  const prefix = `${folder}/`;
  return formatLine(
    folder !== '.' && source.file.startsWith(prefix) ? { ...source, file: source.file.slice(prefix.length) } : source,
  );
}

/** binds tells whether a declared view stands for `view`: by its viewId, or, without one, by the name of a public saved view. */
function binds(declared: DeclaredView, view: ApiView): boolean {
  if (declared.viewId !== undefined) return declared.viewId === view.viewId;
  return isPublicSaved(view) && declared.name === view.name;
}

/** viewTarget names a live view in a merge's report: `RecordingView "Customer calls" (rv_1)`. */
export function viewTarget(domain: Domain, view: ApiView): string {
  return `${VIEW_KINDS[domain]} ${quoted(view.name)} (${view.viewId})`;
}

/** pinsTarget names a member's pinned lists of `domains` in a merge's report: `pins of EMAIL: deals, companies`. */
function pinsTarget(email: string, domains: readonly Domain[]): string {
  return `pins of ${email}: ${domains.join(', ')}`;
}

/** isPinsTargetOf tells whether a target of a merge's report (`pinsTarget`) is the pinned lists of `email`. */
export function isPinsTargetOf(target: string, email: string): boolean {
  return target.startsWith(`pins of ${email}:`);
}

function byDocument<T>(covered: ReadonlyMap<Domain, T>): Map<T, Domain[]> {
  const grouped = new Map<T, Domain[]>();
  for (const [domain, document] of covered) grouped.set(document, [...(grouped.get(document) ?? []), domain]);
  return grouped;
}

/**
 * freePaths hands out paths no existing entry takes, case-insensitively (a folder
 * cloned on macOS or Windows must not see two files as one): `calls.yaml` when free,
 * else `calls-2.yaml`, `calls-3.yaml`, ...
 */
function freePaths(taken: Iterable<string>): { claim(path: string): string; isFree(path: string): boolean } {
  const used = new Set([...taken].map((path) => path.toLowerCase()));
  const firstFree = (path: string): string => {
    if (!used.has(path.toLowerCase())) return path;
    const dot = path.lastIndexOf('.');
    const [stem, extension] = dot > path.lastIndexOf('/') ? [path.slice(0, dot), path.slice(dot)] : [path, ''];
    let counter = 2;
    while (used.has(`${stem}-${counter}${extension}`.toLowerCase())) counter += 1;
    return `${stem}-${counter}${extension}`;
  };
  return {
    isFree: (path) => !used.has(path.toLowerCase()),
    claim(path) {
      const free = firstFree(path);
      used.add(free.toLowerCase());
      return free;
    },
  };
}
