import type { Domain } from '../domain/domains.js';
import type { Desired, DesiredPins, DesiredView } from '../domain/desired.js';
import type { ApiUser } from '../domain/api-types.js';
import { memberPinLists } from '../kinds/pin-members.js';
import { canonicalJson } from '../kinds/canonical.js';

/**
 * What a manifest asks for, without where it is written: two states of the manifests
 * (at a git REF and now) ask for the same thing exactly when these values are equal,
 * whatever lines moved around them. Scoped plans and the "changed outside viewctl"
 * label both compare through them.
 */

/** KeyedPins is one member's desired pinned list in one domain, with its stable key (`pinsKey`). */
export interface KeyedPins {
  key: string;
  pins: DesiredPins;
}

/**
 * keyedPins lists the per-member desired pinned lists of the manifests, one per
 * (member, domain), keyed by `pinsKey`: `userEmail` documents as written, group
 * documents expanded to the active members they reach (`memberPinLists`, which needs
 * `users` whenever a group document exists). Refusals of the expansion are the diff's
 * to report; here a list is only compared.
 */
export function keyedPins(desired: Pick<Desired, 'pins' | 'pinGroups'>, users?: readonly ApiUser[]): KeyedPins[] {
  return memberPinLists(desired, users).lists.map(({ key, ...pins }) => ({ key, pins }));
}

/** pinsValue is what a desired pinned list asks for: its entries in order and whether it drops private tabs. */
export function pinsValue(pins: DesiredPins): string {
  return canonicalJson({ refs: pins.refs, unpinPrivate: pins.unpinPrivate });
}

/** viewIdentity is how a view document is found in another state of the manifests: its bound id, else its name. */
export function viewIdentity(view: Pick<DesiredView, 'domain' | 'name' | 'viewId'>): string {
  return view.viewId === undefined ? `${view.domain}:name:${view.name}` : `${view.domain}:id:${view.viewId}`;
}

/** viewValue is what a view document asks for. */
export function viewValue(view: DesiredView): string {
  return canonicalJson({ domain: view.domain, name: view.name, viewId: view.viewId ?? null, managed: view.managed });
}

/** pruneValue is what the Workspace document asks of prune: whether it runs and what it leaves alone. */
export function pruneValue(desired: Desired): string {
  return canonicalJson({ prune: desired.workspace.prune, ignore: desired.workspace.ignore });
}

/** automationsValue is what the AdminAutomations document expects, or null when there is none. */
export function automationsValue(desired: Desired): string | null {
  if (desired.automations === undefined) return null;
  return canonicalJson(desired.automations.automations.map(({ source: _source, ...expected }) => expected));
}

/** declaresView tells whether the manifests declare a view of `domain` named `name` or bound to `id`. */
export function declaresView(desired: Desired, domain: Domain, name: string, id: string | undefined): boolean {
  return desired.views.some((view) => view.domain === domain && (view.name === name || (id !== undefined && view.viewId === id)));
}
