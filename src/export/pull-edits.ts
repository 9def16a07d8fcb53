import type { ApiUser, ApiView, JsonObject, JsonValue } from '../domain/api-types.js';
import type { DesiredView } from '../domain/desired.js';
import { VIEW_KINDS, type Domain } from '../domain/domains.js';
import type { SourcePosition } from '../domain/source-position.js';
import { isPublicSaved } from '../domain/views.js';
import { jsonEqual } from '../kinds/canonical.js';
import type {
  Change,
  ChangeShape,
  DriftChange,
  HeldTarget,
  PinChange,
  PinnedTab,
  ViewSnapshot,
} from '../kinds/changes.js';
import { desiredSnapshot, normalizeFilters, normalizeSnapshot, normalizeView } from '../kinds/normalize.js';
import type { ManifestDocument } from '../manifest/types.js';
import { encodePointer } from '../manifest/yaml-positions.js';
import type { Equal, Path, ValueEdit } from '../manifest/yaml-splice.js';
import type { Live } from '../state/types.js';
import type { DeclaredTargets, DeclaredView } from './declared-targets.js';
import { nameClash } from './merge-files.js';
import { pinEntry } from './pin-documents.js';
import { includePull } from './pull-include.js';
import { quoted } from './yaml-text.js';

/**
 * The pure half of `viewctl pull` (README, "Keeping the app's version"): from a plan
 * of the selected targets and the live state it read, which values to write into
 * which documents, what to add as new files, and what cannot be pulled and why. The
 * live value is the plan's `before`; a document is edited only where it writes the
 * attribute (an attribute it leaves unmanaged stays so), and a group document is never
 * edited for one member: that member gets a `userEmail` document of their own, which
 * wins over the group for them.
 */

/** DocumentEdit is what to write into one document for one target, with each value's old and new form for the report. */
export interface DocumentEdit {
  target: string;
  file: string;
  index: number;
  edits: ValueEdit[];
  /** When a value already means the new one (a set in another order), it is left as written; absent, equal JSON. */
  equal?: Equal;
  /** Where the first value sits in the file, for a refusal to point at. */
  at: SourcePosition;
}

/** NotPulled is a selected target pull leaves as it is, and why. */
export interface NotPulled {
  target: string;
  reason: string;
  source?: SourcePosition;
}

/** NewDocuments are the targets written in new files, as `export --merge` writes them. */
interface NewDocuments {
  /** Members a group reaches whose lists pull writes in a `userEmail` document of their own, with the domains. */
  members: { user: ApiUser; domains: Domain[] }[];
  /** Views no manifest declares (plan prunes them), to declare as they are live. */
  views: { domain: Domain; view: ApiView }[];
}

/** PullPlan is everything `pull` writes, adds and leaves. */
export interface PullPlan {
  edits: DocumentEdit[];
  added: NewDocuments;
  notPulled: NotPulled[];
}

/** PullInput is a plan of the selected targets, the live state it read, and the manifests it was made from. */
export interface PullInput {
  changes: readonly Change[];
  held: readonly HeldTarget[];
  live: Pick<Live, 'views' | 'pins' | 'users'>;
  documents: readonly ManifestDocument[];
  /** The view documents planned (the selection of `--target`, or all). */
  views: readonly DesiredView[];
  /** What `documents` declare (`declaredTargets`): the names a new tab must not clash with. */
  declared: DeclaredTargets;
  /**
   * The members `--target pins/EMAIL` names (lower-cased). Only they are split off a
   * group into a document of their own: in a whole pull, a member's list that differs
   * from their group's may be a joiner the group has not reached yet, not a choice to keep.
   */
  selectedMembers?: ReadonlySet<string>;
}

const VIEW_ATTRIBUTES = ['name', 'icon', 'columns', 'filters', 'sort'] as const;

/** pullPlan decides what `pull` writes for each change of a plan (README, "pull"). */
export function pullPlan(input: PullInput): PullPlan {
  const result: PullPlan = { edits: [], added: { members: [], views: [] }, notPulled: [] };
  const renames: { domain: Domain; from: string; to: string; source: SourcePosition }[] = [];
  const groupLists = new Map<string, { user: ApiUser | undefined; email: string; domains: Domain[] }>();
  const pinChanges: PinChange[] = [];
  const bound = new Set<string>();
  for (const change of input.changes) {
    switch (change.action) {
      case 'update': {
        bound.add(placeKey(change.domain, change.source));
        const document = documentAt(input.documents, change.source);
        const view = liveView(input.live, change.domain, change.id);
        if (document === undefined || view === undefined) {
          result.notPulled.push({
            target: viewLabel(change.domain, change.name),
            reason: 'its document or its live view was not found',
            ...sourceOf(change),
          });
          break;
        }
        const edit = viewEdit(
          document,
          change.domain,
          change.before,
          change.after,
          view.viewId,
          viewLabel(change.domain, change.name),
        );
        if (edit.edits.length > 0) result.edits.push(edit);
        if (change.before.name !== change.after.name)
          renames.push({
            domain: change.domain,
            from: change.after.name,
            to: change.before.name,
            source: document.position,
          });
        break;
      }
      case 'pin':
        if (change.group === undefined) pinChanges.push(change);
        else if (input.selectedMembers?.has(change.userEmail.toLowerCase()) !== true) {
          result.notPulled.push({
            target: pinsLabel(change),
            reason: `reached by the group ${quoted(change.group)}: a whole pull never splits a member off a group; \`--target pins/${change.userEmail}\` keeps their tabs in a document of their own`,
            ...sourceOf(change),
          });
        } else {
          const key = change.userEmail.toLowerCase();
          const entry = groupLists.get(key) ?? {
            user: input.live.users?.find((user) => user.email.toLowerCase() === key),
            email: change.userEmail,
            domains: [],
          };
          entry.domains.push(change.domain);
          groupLists.set(key, entry);
        }
        break;
      case 'create': {
        // Bound by name only, a view renamed in the app is no longer found: that is a create too.
        const byName =
          input.views.find((view) => view.domain === change.domain && view.name === change.name)?.viewId === undefined;
        result.notPulled.push({
          target: viewLabel(change.domain, change.name),
          reason: `nothing to pull: no live view ${byName ? 'has this name' : 'is bound'} (apply creates it)${byName ? '; a view renamed in the app is found only through the viewId of its document' : ''}`,
          ...sourceOf(change),
        });
        break;
      }
      case 'delete': {
        const view = liveView(input.live, change.domain, change.id);
        if (view === undefined)
          result.notPulled.push({
            target: viewLabel(change.domain, change.name),
            reason: 'nothing to pull: the view is gone live',
          });
        else result.added.views.push({ domain: change.domain, view });
        break;
      }
      case 'drift':
        automationEdit(input.documents, change, result);
        break;
      default: {
        // A registered kind's change: pull writes only the built-in documents, so it is said, never skipped silently.
        const other = change as ChangeShape;
        result.notPulled.push({
          target: other.target,
          reason: `pull writes views, pinned lists and automations only: this ${other.kind} is left as the manifests say`,
          ...(other.source === undefined ? {} : { source: other.source }),
        });
      }
    }
  }
  const stale = staleViewIds(input, bound, result);
  for (const held of input.held) {
    // A stale viewId pull answered for itself (rewritten, or why not) is not held twice.
    if (
      held.code === 'view.id-not-found' &&
      stale.some((source) => held.source !== undefined && samePosition(source, held.source))
    )
      continue;
    result.notPulled.push({
      target: held.target,
      reason: `nothing to pull: held, ${held.reason}`,
      ...(held.source === undefined ? {} : { source: held.source }),
    });
  }
  const declared = declaredViewsAfter(input.declared.views, renames);
  const pinEdits: PullPlan = { edits: [], added: result.added, notPulled: result.notPulled };
  for (const change of pinChanges) pinEdit(input, change, declared, pinEdits);
  // A list pull rewrites whole needs no rename of its tabs first.
  const rewritten = new Set(
    pinEdits.edits.map((edit) => `${edit.file}#${edit.index}#${String(edit.edits[0]?.path[0])}`),
  );
  for (const edit of renameReferences(input.documents, renames)) {
    edit.edits = edit.edits.filter((one) => !rewritten.has(`${edit.file}#${edit.index}#${String(one.path[0])}`));
    if (edit.edits.length > 0) result.edits.push(edit);
  }
  result.edits.push(...pinEdits.edits);
  for (const entry of groupLists.values()) {
    if (entry.user === undefined)
      result.notPulled.push({
        target: `pins/${entry.email}`,
        reason: 'the member is not in the users read: nothing to pull',
      });
    else result.added.members.push({ user: entry.user, domains: entry.domains });
  }
  return result;
}

/**
 * viewEdit writes, into a view document, the live value of every attribute it writes
 * that differs from the live one, and the live id when the document's `viewId` is stale.
 */
function viewEdit(
  document: ManifestDocument,
  domain: Domain,
  live: ViewSnapshot,
  asked: ViewSnapshot,
  liveId: string,
  target: string,
): DocumentEdit {
  const edit: DocumentEdit = {
    target,
    file: document.file,
    index: document.index,
    edits: [],
    equal: viewEqual(domain),
    at: document.position,
  };
  if (typeof document.body.viewId === 'string' && document.body.viewId !== liveId)
    addValue(edit, document, ['viewId'], liveId);
  for (const attribute of VIEW_ATTRIBUTES) {
    if (!Object.hasOwn(document.body, attribute)) continue;
    const value = live[attribute] ?? null;
    if (jsonEqual(asked[attribute] ?? null, value)) continue;
    addValue(edit, document, [attribute], value as JsonValue);
  }
  return edit;
}

/**
 * viewEqual tells when a written value already means the live one, by the plan's own
 * normalisation: filter sets in any order, an empty set for an absent one, a column's
 * `isHidden: false` for none.
 */
function viewEqual(domain: Domain): Equal {
  const snapshot = (parts: Partial<Record<'columns' | 'sort', unknown>>): unknown => {
    try {
      return normalizeSnapshot(domain, { name: '', ...(parts as object) });
    } catch {
      return parts;
    }
  };
  return (path, a, b) => {
    const [attribute, key] = path;
    if (attribute === 'filters' && path.length <= 2) {
      const wrap = (value: unknown): JsonObject | undefined =>
        path.length === 1
          ? isObject(value)
            ? value
            : undefined
          : typeof key === 'string'
            ? ({ [key]: value } as JsonObject)
            : undefined;
      const [left, right] = [wrap(a), wrap(b)];
      if (left !== undefined && right !== undefined)
        return jsonEqual(normalizeFilters(domain, left), normalizeFilters(domain, right));
    }
    if ((attribute === 'columns' || attribute === 'sort') && path.length <= 2) {
      const list = (value: unknown): unknown => (path.length === 1 ? value : value === undefined ? [] : [value]);
      return jsonEqual(snapshot({ [attribute]: list(a) }), snapshot({ [attribute]: list(b) }));
    }
    return jsonEqual(a, b);
  };
}

/**
 * staleViewIds finds the planned view documents whose `viewId` the service no longer
 * has while exactly one live public view of their name (no other document binds)
 * replaced it: pull rewrites the id, and the attributes that differ from that view.
 */
function staleViewIds(input: PullInput, bound: ReadonlySet<string>, result: PullPlan): SourcePosition[] {
  const answered: SourcePosition[] = [];
  const claimed = new Set(
    input.documents.flatMap((document) => (typeof document.body.viewId === 'string' ? [document.body.viewId] : [])),
  );
  for (const view of input.views) {
    const listing = input.live.views[view.domain];
    if (
      view.viewId === undefined ||
      listing === undefined ||
      listing.some((candidate) => candidate.viewId === view.viewId)
    )
      continue;
    if (bound.has(placeKey(view.domain, view.source))) continue;
    const target = viewLabel(view.domain, view.name);
    const namesakes = listing.filter(
      (candidate) => isPublicSaved(candidate) && candidate.name === view.name && !claimed.has(candidate.viewId),
    );
    const [replacement] = namesakes;
    const document = documentAt(input.documents, view.source);
    answered.push(view.viewIdSource ?? view.source);
    if (namesakes.length !== 1 || replacement === undefined || document === undefined) {
      result.notPulled.push({
        target,
        reason: `nothing to pull: the service no longer has ${view.viewId}, and ${namesakes.length === 0 ? 'no' : namesakes.length} unbound live public view${namesakes.length === 1 ? '' : 's'} named ${quoted(view.name)} ${namesakes.length === 1 ? 'replaces' : 'replace'} it`,
        source: view.viewIdSource ?? view.source,
      });
      continue;
    }
    const live = normalizeView(view.domain, replacement);
    result.edits.push(
      viewEdit(document, view.domain, live, desiredSnapshot(view.domain, view, live), replacement.viewId, target),
    );
  }
  return answered;
}

/**
 * renameReferences rewrites, in every PinnedViews document (groups too), the tabs that
 * name a view by the name pull renames it from: the manifests resolve a tab's name
 * first, so the tab meant that view, and would otherwise name nothing after the pull.
 */
function renameReferences(
  documents: readonly ManifestDocument[],
  renames: readonly { domain: Domain; from: string; to: string }[],
): DocumentEdit[] {
  const edits: DocumentEdit[] = [];
  for (const document of documents) {
    if (document.kind !== 'PinnedViews') continue;
    const edit: DocumentEdit = {
      target: pinsDocumentLabel(document),
      file: document.file,
      index: document.index,
      edits: [],
      at: document.position,
    };
    for (const rename of renames) {
      const list = document.body[rename.domain];
      if (!Array.isArray(list)) continue;
      list.forEach((entry, position) => {
        if (entry === rename.from) addValue(edit, document, [rename.domain, position], rename.to);
      });
    }
    if (edit.edits.length > 0) edits.push(edit);
  }
  return edits;
}

/** declaredViewsAfter is what the folder declares once pull's renames are written: the names a new tab must not clash with. */
function declaredViewsAfter(
  views: readonly DeclaredView[],
  renames: readonly { domain: Domain; to: string; source: SourcePosition }[],
): DeclaredView[] {
  return views.map((view) => {
    const renamed = renames.find((rename) => rename.domain === view.domain && samePosition(rename.source, view.source));
    return renamed === undefined ? view : { ...view, name: renamed.to };
  });
}

/**
 * pinEdit writes a member's live tabs into their `userEmail` document's list of the
 * domain. Private tabs stay implicit when they lead the list and the document keeps
 * them (no `unpinPrivate`), as plan keeps them there; otherwise each is written by
 * `{viewId}` at its place.
 */
function pinEdit(input: PullInput, change: PinChange, declared: readonly DeclaredView[], result: PullPlan): void {
  const target = pinsLabel(change);
  const document = input.documents.find(
    (candidate) =>
      candidate.kind === 'PinnedViews' &&
      typeof candidate.body.userEmail === 'string' &&
      candidate.body.userEmail.toLowerCase() === change.userEmail.toLowerCase() &&
      Array.isArray(candidate.body[change.domain]),
  );
  if (document === undefined) {
    result.notPulled.push({ target, reason: 'its userEmail document was not found', ...sourceOf(change) });
    return;
  }
  if (document.body.mode === 'include') {
    // Only what the document mandates is pulled: the member's own tabs stay theirs.
    const pulled = includePull(document, change, target);
    if (pulled.edit !== undefined) result.edits.push(pulled.edit);
    result.notPulled.push(...pulled.notPulled);
    return;
  }
  const listing = input.live.views[change.domain] ?? [];
  const inDomain = declared.filter((view) => view.domain === change.domain);
  const privates = (tab: PinnedTab): boolean => tab.visibility === 'Private' && !tab.isDefault;
  const firstShared = change.before.findIndex((tab) => !privates(tab));
  const leading = firstShared === -1 || change.before.slice(firstShared).every((tab) => !privates(tab));
  // Private tabs the document already lists by id stay listed, all of them in their live order: the member wrote them down (and a comment beside them).
  const written = new Set(
    (document.body[change.domain] as JsonValue[]).flatMap((entry) =>
      isObject(entry) && typeof entry.viewId === 'string' ? [entry.viewId] : [],
    ),
  );
  const listsPrivate = change.before.some((tab) => privates(tab) && tab.viewId !== null && written.has(tab.viewId));
  const implicit = document.body.unpinPrivate !== true && leading && firstShared !== -1 && !listsPrivate;
  const value: JsonValue[] = change.before.flatMap((tab): JsonValue[] => {
    if (tab.viewId === null) return [];
    if (privates(tab)) return implicit ? [] : [{ viewId: tab.viewId }];
    const view = listing.find((candidate) => candidate.viewId === tab.viewId);
    if (view === undefined) return [{ viewId: tab.viewId }];
    const entry = pinEntry(view, listing);
    return 'name' in entry && nameClash(inDomain, view) === undefined ? [entry.name] : [{ viewId: view.viewId }];
  });
  if (value.length === 0) {
    result.notPulled.push({
      target,
      reason: `${noTabToday(change.userEmail, [change.domain])} (remove the domain from the document to leave it unmanaged)`,
      source: document.positionOf(`/${change.domain}`),
    });
    return;
  }
  const path = [change.domain];
  result.edits.push({
    target,
    file: document.file,
    index: document.index,
    edits: [{ path, value }],
    at: document.positionOf(encodePointer(path)),
  });
}

/**
 * automationEdit writes, into the AdminAutomations document's entry of a drifted
 * automation, the live value of each attribute the entry writes that differs. An
 * automation missing live or missing from the document, and an order that differs,
 * are left to the team: pull neither removes nor adds nor moves an entry.
 */
function automationEdit(documents: readonly ManifestDocument[], change: DriftChange, result: PullPlan): void {
  const target = `AdminAutomation ${quoted(change.name)}`;
  const document = documents.find((candidate) => candidate.kind === 'AdminAutomations');
  const entries = document?.body.automations;
  const index = Array.isArray(entries)
    ? entries.findIndex((entry) => isObject(entry) && entry.name === change.name)
    : -1;
  const entry = Array.isArray(entries) ? entries[index] : undefined;
  if (document === undefined || change.before === null || change.after === null || !isObject(entry)) {
    const why =
      change.before === null
        ? 'the automation is not in the workspace'
        : 'the AdminAutomations document does not list it';
    result.notPulled.push({
      target,
      reason: `nothing to pull: ${why} (pull neither adds nor removes an automation: edit the document by hand)`,
      ...sourceOf(change),
    });
    return;
  }
  const live = change.before;
  const attributes = [...new Set(change.differences.map((difference) => difference.pointer.split('/')[1] ?? ''))];
  const edits: ValueEdit[] = attributes
    .filter((attribute) => Object.hasOwn(entry, attribute) && live[attribute] !== undefined)
    .map((attribute) => ({ path: ['automations', index, attribute], value: live[attribute] as JsonValue }));
  if (attributes.includes('priority')) {
    result.notPulled.push({
      target,
      reason: 'its priority differs: re-order the AdminAutomations list by hand (pull does not move entries)',
      ...sourceOf(change),
    });
  }
  if (edits.length === 0) return;
  result.edits.push({
    target,
    file: document.file,
    index: document.index,
    edits,
    at: document.positionOf(encodePointer(['automations', index])),
  });
}

/** documentAt is the loaded document that starts at `source`. */
function documentAt(
  documents: readonly ManifestDocument[],
  source: SourcePosition | undefined,
): ManifestDocument | undefined {
  if (source === undefined) return undefined;
  return documents.find((document) => samePosition(document.position, source));
}

function samePosition(a: SourcePosition, b: SourcePosition): boolean {
  return a.file === b.file && a.line === b.line && a.column === b.column;
}

function sourceOf(change: Change): { source?: SourcePosition } {
  return change.source === undefined ? {} : { source: change.source };
}

function isObject(value: unknown): value is JsonObject {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** viewLabel names a view as a reader and `--target` spell it: `RecordingView "Customer calls"`. */
function viewLabel(domain: Domain, name: string): string {
  return `${VIEW_KINDS[domain]} ${quoted(name)}`;
}

function pinsDocumentLabel(document: ManifestDocument): string {
  const { userEmail, name } = document.body;
  if (typeof userEmail === 'string') return `pins/${userEmail}`;
  return `PinnedViews ${typeof name === 'string' ? quoted(name) : 'group'}`;
}

/** pinsLabel names a member's list of one domain in the report: `pins/EMAIL (deals)`. */
function pinsLabel(change: PinChange): string {
  return `pins/${change.userEmail} (${change.domain})`;
}

/** noTabToday says why a member's list of `domains` is not pulled: it would be empty. */
export function noTabToday(email: string, domains: readonly Domain[]): string {
  return `nothing to pull: ${email} has no ${domains.join(', ')} tab today, and a pinned list needs one`;
}

/** placeKey identifies a view document by its domain and where it starts: an update binds it, so no stale id is looked for. */
function placeKey(domain: Domain, source: SourcePosition | undefined): string {
  return `${domain}:${source?.file}:${source?.line}`;
}

/** liveView is the view of `domain` with id `viewId` in the listing read. */
function liveView(live: PullInput['live'], domain: Domain, viewId: string): ApiView | undefined {
  return (live.views[domain] ?? []).find((candidate) => candidate.viewId === viewId);
}

/** addValue adds the value `value` at `path` to `edit`; the first one added is where a refusal points. */
function addValue(edit: DocumentEdit, document: ManifestDocument, path: Path, value: JsonValue): void {
  if (edit.edits.length === 0) edit.at = document.positionOf(encodePointer(path));
  edit.edits.push({ path, value });
}
