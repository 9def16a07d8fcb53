import { InternalError } from '../errors.js';
import { ADMIN_AUTOMATIONS } from './admin-automations.js';
import type { Change, ChangeShape } from './changes.js';
import type { Kind, KindAction } from './kind.js';
import { PINNED_VIEWS } from './pinned-views.js';
import { SAVED_VIEWS } from './saved-views.js';

/**
 * The registry of resource kinds: the engine (plan/, apply/, the flows) loops over
 * `kinds()` and finds a change's kind by its action, so a kind is one entry here, and
 * a test can register a kind of its own (`registerKind`) and run it through every flow.
 */

/**
 * BUILT_IN are the resource kinds, in dependency order: a kind's diff sees what the
 * kinds before it decided (pins resolve names against the views the plan declares and
 * deletes), and plans list actions in this order. A new kind joins here.
 */
const BUILT_IN: readonly Kind[] = [SAVED_VIEWS, PINNED_VIEWS, ADMIN_AUTOMATIONS];

const registered: Kind[] = [...BUILT_IN];
let byAction = indexActions(registered);
let names = actionList(registered);
let version = 0;

/** kinds are the registered resource kinds in dependency order: the built-in ones, then any a test registered. */
export function kinds(): readonly Kind[] {
  return registered;
}

/**
 * registerKind adds `kind` after the registered ones and returns the function that
 * removes it again. Its actions must be new: an action names exactly one kind. A kind
 * of changes of its own shape (`Kind<C>`, C not among the built-in `Change`s) is held
 * as any other: the engine hands each kind only the changes of its actions.
 */
export function registerKind<C extends ChangeShape>(own: Kind<C>): () => void {
  const kind = own as unknown as Kind;
  const taken = kind.actions.filter((entry) => byAction.has(entry.action));
  if (taken.length > 0)
    throw new InternalError(`the action ${taken.map((entry) => entry.action).join(', ')} already belongs to a kind`);
  registered.push(kind);
  reindex();
  return () => {
    const at = registered.indexOf(kind);
    if (at < 0) return;
    registered.splice(at, 1);
    reindex();
  };
}

/** registryVersion changes whenever a kind is registered or removed, so what is built from the registry (the plan schema) knows to rebuild. */
export function registryVersion(): number {
  return version;
}

/** kindActions are every registered action, in the order plans list them: by kind, then as each kind lists its own. */
export function kindActions(): readonly KindAction[] {
  return registered.flatMap((kind) => kind.actions);
}

/** actionNames are the names of `kindActions()`: a plan's `summary` counts each. */
export function actionNames(): readonly string[] {
  return names;
}

/** kindOf is the kind that owns a change: the one naming its action; every change has one. */
export function kindOf(change: Pick<Change, 'action'>): Kind {
  const found = byAction.get(change.action);
  if (found === undefined) throw new InternalError(`no kind owns a ${String(change.action)} change`);
  return found.kind;
}

/** actionOf is the descriptor of a change's action (`KindAction`), as its kind gives it. */
export function actionOf(change: Pick<Change, 'action'>): KindAction {
  const found = byAction.get(change.action);
  if (found === undefined) throw new InternalError(`no kind owns a ${String(change.action)} change`);
  return found.action;
}

/** isApplied tells whether apply carries a change out: its action has a phase (drift is only shown). */
export function isApplied(change: Pick<Change, 'action'>): boolean {
  return actionOf(change).phase !== undefined;
}

function reindex(): void {
  byAction = indexActions(registered);
  names = actionList(registered);
  version += 1;
}

function actionList(list: readonly Kind[]): readonly string[] {
  return list.flatMap((kind) => kind.actions.map((entry) => entry.action));
}

function indexActions(list: readonly Kind[]): Map<string, { kind: Kind; action: KindAction }> {
  return new Map(list.flatMap((kind) => kind.actions.map((action) => [action.action, { kind, action }] as const)));
}
