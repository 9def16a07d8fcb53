import type { ApiAdminAutomation, ApiUser, ApiView } from '../domain/api-types.js';
import { DOMAINS, type Domain } from '../domain/domains.js';
import { compareCodePoints } from '../kinds/canonical.js';
import { pinsKey, type Live } from '../state/types.js';
import { renderPinGroupFile, renderPinsFile, type PinsMode } from './pin-documents.js';
import { groupPinLists, type PinDocumentPlan } from './pin-groups.js';
import type { PinLayout } from './pin-layout.js';
import { schemaCopies, schemaModeline } from './schema-ref.js';
import { assignStems, slugify } from './slug.js';
import { isPublicSaved } from '../domain/views.js';
import { plural } from '../text/plural.js';
import { renderViewFile } from './view-documents.js';
import { renderAutomationsFile, renderWorkspaceFile } from './workspace-documents.js';
import { unexportedKinds } from './kind-exports.js';

/**
 * The pure half of `viewctl export`: live state in, file texts out. The writer
 * (write-files.ts) puts them on disk; keeping them apart lets tests check the exact
 * output from in-memory data.
 *
 * Layout of the output folder:
 *   workspace.yaml            Workspace
 *   automations.yaml          AdminAutomations
 *   <domain>/<name-slug>.yaml one view document per public saved view
 *   pins/<name-slug>.yaml     PinnedViews: a group document per list members share,
 *                             a member's own for a list nobody shares (--pins groups);
 *                             or one per exported user (--pins per-member)
 *   .viewctl/schemas/*.json   the JSON Schemas the files' modelines point editors at
 */

export const WORKSPACE_FILE = 'workspace.yaml';
export const AUTOMATIONS_FILE = 'automations.yaml';

/** PINS_FOLDER holds the PinnedViews files. */
export const PINS_FOLDER = 'pins';

/** EXPORT_FOLDERS are the folders whose YAML files an export owns (one per domain, and pins). */
export const EXPORT_FOLDERS: readonly string[] = [...DOMAINS, PINS_FOLDER];

/** ExportInput is what an export needs: the live state, and whose pins it holds. */
export interface ExportInput {
  /** Listings of every domain, the automations, and the pins of `pinUsers` in every domain. */
  live: Pick<Live, 'workspace' | 'views' | 'pins' | 'automations'>;
  /** Users whose pinned lists to write (their lists are in `live.pins`). */
  pinUsers: readonly ApiUser[];
  /**
   * Every member an export run over several days writes a `pins/` file for (`export
   * --all-users --budget`), when more than `pinUsers`: file names are chosen among all
   * of them, so a member's file keeps its name from one run to the next.
   */
  stemUsers?: readonly ApiUser[];
  /** The package's JSON Schemas (file name to text), copied for editors under SCHEMAS_FOLDER. */
  schemas: ReadonlyMap<string, string>;
  /** `export --pins`: how the pinned lists are written (default exact). */
  pinsMode?: PinsMode;
  /**
   * How the pinned lists are written (`--pins`): `groups` (the default), one document per
   * list members share; `per-member`, one document per member, every list in it.
   */
  pinLayout?: PinLayout;
  /** Every workspace user (`live.users`), which a group's role or glob must reach exactly; default `pinUsers`. */
  everyone?: readonly ApiUser[];
}

/** ExportSummary counts what was exported, for the closing message. */
interface ExportSummary {
  views: Record<Domain, number>;
  automations: number | null;
  pinUsers: number;
  /** PinnedViews documents written: groups, and members' own. */
  pinDocuments: { groups: number; members: number };
}

/** ExportResult is every file (path relative to the output folder → text), sorted by path. */
export interface ExportResult {
  files: Record<string, string>;
  /** Things a reviewer should know that the files alone do not say. */
  notes: string[];
  summary: ExportSummary;
}

/** exportFiles turns live state into manifests that plan finds in sync with it. */
export function exportFiles(input: ExportInput): ExportResult {
  const { live, schemas } = input;
  const files = new Map<string, string>();
  const notes: string[] = [];
  for (const [path, text] of schemaCopies(schemas)) files.set(path, text);

  files.set(WORKSPACE_FILE, renderWorkspaceFile(live.workspace, schemaModeline('Workspace', WORKSPACE_FILE)));

  const views = {} as Record<Domain, number>;
  for (const domain of DOMAINS) {
    const listing = live.views[domain] ?? [];
    // Every file binds its viewId, so views sharing a name are all exportable.
    const kept = listing.filter(isPublicSaved);
    views[domain] = kept.length;
    for (const [view, path] of viewPaths(domain, kept)) files.set(path, renderViewFile(domain, view, listing, path));
  }

  let automations: number | null = null;
  if (live.automations !== undefined) {
    const output = automationsFile(live.automations, schemaModeline('AdminAutomations', AUTOMATIONS_FILE));
    notes.push(...output.notes);
    if (output.text !== undefined) {
      files.set(AUTOMATIONS_FILE, output.text);
      automations = live.automations.length;
    }
  }

  const pinDocuments = { groups: 0, members: 0 };
  if ((input.pinLayout ?? 'groups') === 'groups') {
    const grouping = groupPinLists({
      members: input.pinUsers,
      everyone: input.everyone ?? input.pinUsers,
      listOf: (domain, user) => live.pins[pinsKey(domain, user.email)],
      listings: live.views,
    });
    const grouped = groupedPinFiles(grouping.documents, live.views, input.pinsMode);
    for (const [path, text] of grouped.files) files.set(path, text);
    pinDocuments.groups = grouped.groups;
    pinDocuments.members = grouped.members;
    notes.push(...grouped.notes);
    notes.push(...unmanagedNotes(grouping));
  } else {
    const userStems = pinStems(input.stemUsers ?? input.pinUsers);
    for (const user of input.pinUsers) {
      const path = `${PINS_FOLDER}/${userStems.get(user.id) ?? slugify(user.id)}.yaml`;
      const pins: Partial<Record<Domain, ApiView[]>> = {};
      for (const domain of DOMAINS) {
        const list = live.pins[pinsKey(domain, user.email)];
        if (list !== undefined) pins[domain] = list;
      }
      const rendered = renderPinsFile(user, pins, live.views, schemaModeline('PinnedViews', path), {
        ...(input.pinsMode === undefined ? {} : { mode: input.pinsMode }),
      });
      files.set(path, rendered.text);
      pinDocuments.members += 1;
      if (rendered.emptyDomains.length > 0) {
        notes.push(
          `${user.email} has no pinned ${rendered.emptyDomains.join(', ')} views today: ${path} leaves them unmanaged`,
        );
      }
    }
  }

  // A registered kind's documents are not exported: said, never left out in silence.
  notes.push(...unexportedKinds());

  return {
    files: Object.fromEntries([...files].sort(([a], [b]) => compareCodePoints(a, b))),
    notes,
    summary: { views, automations, pinUsers: input.pinUsers.length, pinDocuments },
  };
}

/**
 * groupedPinFiles renders the documents of `--pins groups`, each under `pins/` with a
 * stem from its name: a group's (`role-member`, `users-sales-acme-com`), or the member's email.
 */
function groupedPinFiles(
  documents: readonly PinDocumentPlan[],
  listings: Partial<Record<Domain, readonly ApiView[]>>,
  mode: PinsMode = 'exact',
): { files: Map<string, string>; groups: number; members: number; notes: string[] } {
  const keyOf = (document: PinDocumentPlan) =>
    document.kind === 'group' ? `group:${document.name}` : `member:${document.user.id}`;
  const stems = assignStems(
    documents.map((document) => ({
      name: document.kind === 'group' ? document.name : document.user.email,
      id: keyOf(document),
    })),
  );
  const written = { files: new Map<string, string>(), groups: 0, members: 0, notes: [] as string[] };
  for (const document of documents) {
    const path = `${PINS_FOLDER}/${stems.get(keyOf(document)) ?? 'pins'}.yaml`;
    const modeline = schemaModeline('PinnedViews', path);
    if (document.kind === 'group') {
      written.files.set(path, renderPinGroupFile(document, document.tabs, listings, modeline, mode));
      written.groups += 1;
      continue;
    }
    const domains = DOMAINS.filter((domain) => document.tabs[domain] !== undefined);
    const rendered = renderPinsFile(document.user, document.tabs, listings, modeline, { domains, mode });
    // Under include a list of private tabs alone requires nothing: that domain stays the member's, said in a note.
    if (rendered.emptyDomains.length > 0)
      written.notes.push(
        `${document.user.email} has no pinned ${rendered.emptyDomains.join(', ')} views to require today: ${rendered.emptyDomains.length === domains.length ? 'no document written, their' : `${path} leaves those`} lists unmanaged`,
      );
    if (rendered.emptyDomains.length === domains.length) continue;
    written.files.set(path, rendered.text);
    written.members += 1;
  }
  return written;
}

/** unmanagedNotes tells, in two lines at most, which lists no exported document manages and why that is right. */
function unmanagedNotes(grouping: { onDefaults: number; empty: number }): string[] {
  const notes: string[] = [];
  if (grouping.onDefaults > 0) {
    notes.push(
      `${plural(grouping.onDefaults, 'pinned list')} (member × domain) ${grouping.onDefaults === 1 ? 'is' : 'are'} the built-in default tabs: no document manages ${grouping.onDefaults === 1 ? 'it' : 'them'} (the service gives those tabs to whoever never changed theirs)`,
    );
  }
  if (grouping.empty > 0) {
    notes.push(
      `${plural(grouping.empty, 'pinned list')} (member × domain) ${grouping.empty === 1 ? 'has' : 'have'} no tab today, and a pinned list needs one: left unmanaged`,
    );
  }
  return notes;
}

/** AutomationsOutput is the automations file, unless it cannot be written, and what a reviewer should know. */
interface AutomationsOutput {
  text?: string;
  notes: string[];
}

/**
 * automationsFile renders the `AdminAutomations` document, except when several
 * automations share a name: expectations match automations by name, so such a file
 * would report drift forever.
 */
export function automationsFile(automations: readonly ApiAdminAutomation[], modeline: string): AutomationsOutput {
  const sharedNames = repeatedNames(automations.map((automation) => automation.name));
  if (sharedNames.length > 0) {
    return {
      notes: [
        `${AUTOMATIONS_FILE} not written: several admin automations are named ${sharedNames.map((name) => JSON.stringify(name)).join(', ')}, ` +
          'and expectations match automations by name; rename them in the admin settings and export again to check them for drift',
      ],
    };
  }
  const rendered = renderAutomationsFile(automations, modeline);
  return {
    text: rendered.text,
    notes: rendered.dropped.map(
      (entry) =>
        `admin automation ${entry}: the manifest format has no place for this attribute; it is not checked for drift`,
    ),
  };
}

/** viewPaths gives each view of a domain its file, `<domain>/<name-slug>.yaml`, unique among `views`. */
export function viewPaths(domain: Domain, views: readonly ApiView[]): [ApiView, string][] {
  const stems = assignStems(views.map((view) => ({ name: view.name, id: view.viewId })));
  return views.map((view) => [view, `${domain}/${stems.get(view.viewId) ?? slugify(view.viewId)}.yaml`]);
}

/** pinStems gives each member the stem of their `pins/<stem>.yaml` file, unique among `users`. */
export function pinStems(users: readonly ApiUser[]): Map<string, string> {
  return assignStems(users.map((user) => ({ name: user.email, id: user.id })));
}

function repeatedNames(names: readonly string[]): string[] {
  return [...new Set(names.filter((name, index) => names.indexOf(name) !== index))];
}
