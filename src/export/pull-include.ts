import type { JsonValue } from '../domain/api-types.js';
import type { PinChange } from '../kinds/changes.js';
import type { ManifestDocument } from '../manifest/types.js';
import { encodePointer } from '../manifest/yaml-positions.js';
import type { SourcePosition } from '../domain/source-position.js';
import type { ValueEdit } from '../manifest/yaml-splice.js';

/** IncludeEdit is a `DocumentEdit` of pull-edits.ts: the document's new list. */
interface IncludeEdit {
  target: string;
  file: string;
  index: number;
  edits: ValueEdit[];
  at: SourcePosition;
}

/** NotPulled is pull-edits.ts's: a target left as it is, and why. */
interface NotPulled {
  target: string;
  reason: string;
  source?: SourcePosition;
}

/**
 * What `pull` writes into a `mode: include` document (README, Manifests): the document
 * says which tabs must be pinned, never the member's list, so pull takes out of it the
 * listed tabs the member unpinned in the app, and writes none of the member's own tabs
 * in (that would mandate them). An `unpin` name the member pinned again is the team's
 * word on every member: pull leaves it and says so.
 */

/** IncludePull is the edit of the document's list (absent when nothing is to take out), and what is left as it is. */
interface IncludePull {
  edit?: IncludeEdit;
  notPulled: NotPulled[];
}

/** includePull is what pull makes of `change` (planned from `document`, a `mode: include` document), labelled `target`. */
export function includePull(document: ManifestDocument, change: PinChange, target: string): IncludePull {
  const notPulled: NotPulled[] = [];
  const live = change.before;
  const pinned = (entry: JsonValue): boolean =>
    typeof entry === 'string'
      ? live.some((tab) => tab.name === entry)
      : typeof entry === 'object' &&
        entry !== null &&
        !Array.isArray(entry) &&
        live.some((tab) => tab.viewId === entry.viewId);
  const list = document.body[change.domain] as JsonValue[];
  const kept = list.filter(pinned);
  const afterIds = new Set(change.after.map((tab) => tab.viewId));
  const unpinnedAgain = live.filter((tab) => !afterIds.has(tab.viewId)).map((tab) => tab.name);
  if (unpinnedAgain.length > 0)
    notPulled.push({
      target,
      reason: `\`unpin\` is left as it is: ${change.userEmail} pins ${unpinnedAgain.map((name) => `"${name}"`).join(', ')} again, and unpin speaks for every member the document reaches`,
      source: document.positionOf('/unpin'),
    });
  if (kept.length === list.length) return { notPulled };
  if (kept.length === 0) {
    notPulled.push({
      target,
      reason: `${change.userEmail} pins none of the listed ${change.domain} tabs any more (remove the domain from the document to leave it unmanaged)`,
      source: document.positionOf(`/${change.domain}`),
    });
    return { notPulled };
  }
  const path = [change.domain];
  return {
    edit: {
      target,
      file: document.file,
      index: document.index,
      edits: [{ path, value: kept }],
      at: document.positionOf(encodePointer(path)),
    },
    notPulled,
  };
}
