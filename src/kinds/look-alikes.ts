import { formatLine } from '../domain/source-position.js';
import { VIEW_KINDS } from '../domain/domains.js';
import type { Change, CreateChange, DeleteChange, PlanWarning } from './changes.js';

/**
 * Look-alike names under prune: a manifest name and a live name that print the same
 * (one in NFD, with a trailing space, a zero-width character or another case) make a
 * plan that creates one view and deletes the other, losing the deleted view's
 * unmanaged attributes and pins. The plan still does what the manifests say, but it
 * warns, shows where the names differ, code point by code point, and names the way
 * to make it a rename: bind the manifest with `viewId`.
 */

// Characters that print as nothing: controls, format characters (zero-width, bidi),
// separators, and the Hangul fillers.
const INVISIBLE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\u115f\u1160\u3164\uffa0]/gu;

/** lookAlikeKey is a name after NFC, without invisible characters, trimmed and case-folded. */
export function lookAlikeKey(name: string): string {
  return name.normalize('NFC').replace(INVISIBLE, '').trim().toLowerCase().normalize('NFC');
}

/** lookAlikeWarnings warns about each create whose name looks like the name of a view the plan deletes. */
export function lookAlikeWarnings(changes: readonly Change[]): PlanWarning[] {
  const deletes = changes.filter((change): change is DeleteChange => change.action === 'delete');
  const warnings: PlanWarning[] = [];
  for (const create of changes.filter((change): change is CreateChange => change.action === 'create')) {
    const key = lookAlikeKey(create.name);
    for (const deleted of deletes) {
      if (deleted.domain !== create.domain || lookAlikeKey(deleted.name) !== key) continue;
      const where = create.source === undefined ? '' : ` (${formatLine(create.source)})`;
      warnings.push({
        code: 'plan.look-alike-names',
        message:
          `look-alike names: the plan creates ${VIEW_KINDS[create.domain]} "${create.name}"${where} and deletes "${deleted.name}" (${deleted.id}), ` +
          `which differ only in Unicode form, spacing, case or invisible characters: ${difference(create.name, deleted.name)}; ` +
          `if they are the same view, bind the manifest with \`viewId: ${deleted.id}\` so the plan renames it and keeps its pins and unmanaged attributes`,
      });
    }
  }
  return warnings;
}

/** difference shows the code points where two names part, after their common start and end. */
function difference(created: string, deleted: string): string {
  const a = [...created];
  const b = [...deleted];
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start += 1;
  let end = 0;
  while (end < a.length - start && end < b.length - start && a[a.length - 1 - end] === b[b.length - 1 - end]) end += 1;
  const spell = (chars: string[]): string => (chars.length === 0 ? 'nothing' : chars.map(codePoint).join(' '));
  return `at code point ${start + 1}, the manifest has ${spell(a.slice(start, a.length - end))} where the live name has ${spell(b.slice(start, b.length - end))}`;
}

function codePoint(char: string): string {
  return `U+${(char.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`;
}
