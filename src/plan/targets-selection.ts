import { DOMAINS, VIEW_KINDS, type ViewKind } from '../domain/domains.js';
import type { Desired } from '../domain/desired.js';
import { UsageError, ViewctlError } from '../errors.js';
import { quoted } from '../text/safe-text.js';
import { closestName } from '../text/suggest.js';
import { hasTargets, type Targets } from '../kinds/capabilities.js';
import type { Kind } from '../kinds/kind.js';
import { kinds } from '../kinds/kinds.js';

/**
 * `--target SELECTOR` (README, "Working alongside the app"): plan and apply only some
 * targets. The whole manifests folder is still loaded and checked, and the Workspace
 * guard holds; only the selected targets are read and planned.
 */

/**
 * TargetSelector is one parsed `--target`: a view document, one member's pinned lists,
 * the automations, or a target of a registered kind that names its own (`Targets`).
 */
export type TargetSelector =
  | { type: 'view'; kind: ViewKind; name: string }
  | { type: 'pins'; userEmail: string }
  | { type: 'automations' }
  | { type: 'kind'; kind: string; name: string };

const VIEW_KIND_NAMES: readonly ViewKind[] = DOMAINS.map((domain) => VIEW_KINDS[domain]);

/** selectable are the registered kinds whose targets `--target KIND/NAME` names (`Targets`). */
function selectable(): (Kind & Targets)[] {
  return kinds().filter(hasTargets);
}

/** parseTargetSelector parses a `--target` value, or throws `usage.bad-target` naming the accepted forms. */
export function parseTargetSelector(text: string): TargetSelector {
  const value = text.trim();
  if (value === 'automations') return { type: 'automations' };
  const slash = value.indexOf('/');
  const prefix = slash === -1 ? value : value.slice(0, slash);
  const rest = slash === -1 ? '' : value.slice(slash + 1).trim();
  const own = selectable().map((kind) => kind.targetKind);
  if (slash !== -1 && rest !== '') {
    if (prefix === 'pins') return { type: 'pins', userEmail: rest };
    const kind = VIEW_KIND_NAMES.find((candidate) => candidate === prefix);
    if (kind !== undefined) return { type: 'view', kind, name: rest };
    if (own.includes(prefix)) return { type: 'kind', kind: prefix, name: rest };
  }
  const kindNames = [...VIEW_KIND_NAMES, ...own];
  const PREFIXES = [...kindNames, 'pins'];
  const FORMS = `KIND/NAME (KIND one of ${kindNames.join(', ')}; e.g. "RecordingView/Customer calls"), pins/EMAIL or automations`;
  const near = closestName(prefix, slash === -1 ? [...PREFIXES, 'automations'] : PREFIXES);
  const meant =
    near === undefined
      ? ''
      : near === 'automations'
        ? '; did you mean "automations"?'
        : `; did you mean "${near}/${rest === '' ? '...' : rest}"?`;
  const why =
    slash !== -1 && rest === '' && PREFIXES.includes(prefix)
      ? `it names no ${prefix === 'pins' ? 'email' : own.includes(prefix) ? 'target' : 'view'} after the /`
      : 'it is not one of the accepted forms';
  throw new UsageError('usage.bad-target', `--target ${quoted(text)}: ${why}${meant}`, `write the target as ${FORMS}`);
}

/** selectorText is a selector as the plan records and prints it: `RecordingView/Customer calls`. */
function selectorText(selector: TargetSelector): string {
  switch (selector.type) {
    case 'view':
      return `${selector.kind}/${selector.name}`;
    case 'pins':
      return `pins/${selector.userEmail.toLowerCase()}`;
    case 'automations':
      return 'automations';
    case 'kind':
      return `${selector.kind}/${selector.name}`;
  }
}

/**
 * selectTargets narrows `desired` to the selected targets: the view documents named,
 * every pinned list of the members named (with the declared views those lists name;
 * a member only a group document reaches is found once the users are read, by
 * `selectMemberLists` in src/kinds/pin-second-reads.ts), the automations if named. The Workspace document stays (its
 * `workspaceId` guard and `creatorEmail` still hold) but prune is off: a selected view
 * is declared, so never a prune candidate, and no other view is selected. A selector
 * no manifest declares is an error (`target.unknown`), all of them at once, so a typo
 * never plans nothing in silence.
 */
export function selectTargets(desired: Desired, selectors: readonly TargetSelector[]): Desired {
  const texts = [...new Set(selectors.map(selectorText))];
  const unknown: string[] = [];
  const views = new Set<Desired['views'][number]>();
  const emails = new Set<string>();
  // Per registered kind (its KIND), the names selected of its targets.
  const named = new Map<string, Set<string>>();
  for (const selector of selectors) {
    if (selector.type === 'kind') {
      const kind = selectable().find((candidate) => candidate.targetKind === selector.kind);
      const names = kind?.targetNames(desired) ?? [];
      if (!names.includes(selector.name)) {
        const near = closestName(selector.name, names);
        unknown.push(
          `${selectorText(selector)}${near === undefined ? '' : ` (did you mean ${quoted(`${selector.kind}/${near}`)}?)`}`,
        );
      }
      named.set(selector.kind, new Set([...(named.get(selector.kind) ?? []), selector.name]));
    } else if (selector.type === 'view') {
      const matches = desired.views.filter(
        (view) => VIEW_KINDS[view.domain] === selector.kind && view.name === selector.name,
      );
      if (matches.length === 0) {
        const near = closestName(
          selector.name,
          desired.views.filter((view) => VIEW_KINDS[view.domain] === selector.kind).map((view) => view.name),
        );
        unknown.push(
          `${selectorText(selector)}${near === undefined ? '' : ` (did you mean ${quoted(`${selector.kind}/${near}`)}?)`}`,
        );
      }
      for (const view of matches) views.add(view);
    } else if (selector.type === 'pins') {
      const email = selector.userEmail.toLowerCase();
      // A member a group may reach is known only once the users are read (planWorkspace checks then).
      if (
        !desired.pins.some((pins) => pins.userEmail.toLowerCase() === email) &&
        (desired.pinGroups ?? []).length === 0
      ) {
        const near = closestName(
          email,
          desired.pins.map((pins) => pins.userEmail.toLowerCase()),
        );
        unknown.push(
          `${selectorText(selector)}${near === undefined ? '' : ` (did you mean ${quoted(`pins/${near}`)}?)`}`,
        );
      }
      emails.add(email);
    } else if (desired.automations === undefined) {
      unknown.push('automations');
    }
  }
  if (unknown.length > 0) {
    throw new ViewctlError(
      'target.unknown',
      `no manifest declares ${unknown.length === 1 ? 'this target' : 'these targets'}: ${unknown.join(', ')}; nothing was read`,
      {
        hint: 'a target is a view document (KIND/NAME, its kind and name), pins/EMAIL of a PinnedViews document, automations of the AdminAutomations document, or KIND/NAME of a kind that names its targets',
      },
    );
  }
  const pins = desired.pins.filter((entry) => emails.has(entry.userEmail.toLowerCase()));
  const pinGroups = emails.size === 0 ? [] : (desired.pinGroups ?? []);
  // A selected pinned list brings along the declared views it names, as Terraform's
  // -target brings what a target depends on: a tab then never names a view the plan
  // leaves uncreated, and an update of that view shows in the same plan.
  for (const entry of [...pins, ...pinGroups]) {
    for (const ref of entry.refs) {
      for (const view of desired.views) {
        if (view.domain !== entry.domain) continue;
        if ('name' in ref ? view.name === ref.name : view.viewId === ref.viewId) views.add(view);
      }
    }
  }
  const automations = selectors.some((selector) => selector.type === 'automations');
  // A registered kind's slices are planned only for the targets named of it: the others' are left out, as unselected views are.
  const slices = Object.assign(
    {},
    ...selectable().flatMap((kind) => {
      const names = named.get(kind.targetKind);
      return names === undefined ? [] : [kind.selectedSlices(desired, names)];
    }),
  ) as Record<string, unknown>;
  return {
    workspace: { ...desired.workspace, prune: false },
    views: desired.views.filter((view) => views.has(view)),
    pins,
    ...(pinGroups.length === 0 ? {} : { pinGroups }),
    ...(emails.size === 0 ? {} : { pinMembers: [...emails] }),
    targets: texts,
    ...(automations && desired.automations !== undefined ? { automations: desired.automations } : {}),
    ...(Object.keys(slices).length === 0 ? {} : { slices }),
  };
}
