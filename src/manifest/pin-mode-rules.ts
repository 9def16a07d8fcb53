import { DOMAINS } from '../domain/domains.js';
import { makeProblem } from './problems.js';
import type { ManifestDocument, Problem } from './types.js';
import { encodePointer } from './yaml-positions.js';

/**
 * pinModeProblems checks what a `PinnedViews` document's `mode` allows (README,
 * Manifests): `unpin` belongs to `mode: include` (an exact list already says what is
 * pinned), `unpinPrivate` to `mode: exact` (under include the member's other tabs are
 * theirs), and no name is both listed and unpinned. Each at the attribute's position.
 */
export function pinModeProblems(document: ManifestDocument): Problem[] {
  const body = document.body;
  const include = body.mode === 'include';
  const problems: Problem[] = [];
  const at = (pointer: string, code: string, message: string, hint: string) =>
    problems.push(
      makeProblem({ code, message, pointer, at: document.positionOf(pointer), document: document.index, hint }),
    );
  if (!include && body.unpin !== undefined)
    at(
      '/unpin',
      'pins.unpin-needs-include',
      '`unpin` removes tabs from lists the member otherwise keeps: it needs `mode: include`',
      'add `mode: include`, or, with an exact list, leave the tabs out of the list',
    );
  if (include && body.unpinPrivate !== undefined)
    at(
      '/unpinPrivate',
      'pins.unpin-private-needs-exact',
      'with `mode: include` the member keeps the tabs the document does not list: `unpinPrivate` has nothing to drop',
      'remove `unpinPrivate`, or use `mode: exact`',
    );
  const unpinned = Array.isArray(body.unpin) ? body.unpin : [];
  for (const domain of DOMAINS) {
    const list = body[domain];
    if (!Array.isArray(list)) continue;
    list.forEach((entry, index) => {
      if (typeof entry !== 'string' || !unpinned.includes(entry)) return;
      at(
        encodePointer([domain, index]),
        'pins.listed-and-unpinned',
        `"${entry}" is both listed and in \`unpin\`: the tab cannot be pinned and removed`,
        'keep it in one of the two',
      );
    });
  }
  return problems;
}
