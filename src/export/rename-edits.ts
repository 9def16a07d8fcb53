import { domainOfKind, VIEW_KINDS, type Domain, type ViewKind } from '../domain/domains.js';
import { formatLine, type SourcePosition } from '../domain/source-position.js';
import { ViewctlError } from '../errors.js';
import { encodePointer } from '../manifest/yaml-positions.js';
import type { ManifestDocument } from '../manifest/types.js';
import type { DocumentEdit } from './pull-edits.js';

/**
 * The pure half of `viewctl rename KIND "OLD" "NEW"` (README, "Renaming a view"): which
 * values of which documents to rewrite so that the view document of KIND named OLD is
 * named NEW, and every pinned list of its domain that names OLD names NEW (a `{viewId}`
 * entry already means the view whatever its name). Refused, before any file is touched,
 * when no view document or more than one has that name, or when NEW is another declared
 * view's name in that domain.
 */

/** RenameEdits are the edits to splice, one per document, and each reference rewritten. */
export interface RenameEdits {
  kind: ViewKind;
  domain: Domain;
  edits: DocumentEdit[];
  /** Each place rewritten: the view document's name first, then the pinned lists, in file order. */
  places: SourcePosition[];
}

/** renameEdits plans the rename of the `kind` view named `from` to `to` in `documents`; throws ViewctlError (`rename.*`) with the way out. */
export function renameEdits(
  documents: readonly ManifestDocument[],
  kind: string,
  from: string,
  to: string,
): RenameEdits {
  const domain = domainOfKind(kind);
  if (domain === undefined)
    throw new ViewctlError('rename.unknown-kind', `"${kind}" is no kind of view`, {
      hint: `name one of ${Object.values(VIEW_KINDS).join(', ')}`,
    });
  const viewKind = VIEW_KINDS[domain];
  if (to.trim() === '' || to !== to.trim())
    throw new ViewctlError('rename.bad-name', `the new name "${to}" is empty or starts or ends with spaces`, {
      hint: 'give the view a name with no spaces around it',
    });
  const views = documents.filter((document) => document.kind === viewKind);
  const named = views.filter((document) => document.body.name === from);
  const [view] = named;
  if (view === undefined)
    throw new ViewctlError('rename.unknown-view', `no ${viewKind} document is named "${from}"`, {
      hint: `name a ${viewKind} the manifests declare (viewctl validate lists the documents it loads)`,
    });
  if (named.length > 1)
    throw new ViewctlError(
      'rename.ambiguous-view',
      `${named.length} ${viewKind} documents are named "${from}": ${named.map((document) => formatLine(document.position)).join(', ')}`,
      { hint: 'give each its own name first: two views of one name are refused by plan too' },
    );
  if (from === to)
    throw new ViewctlError('rename.same-name', `${viewKind} "${from}" is already named so`, {
      hint: 'give the new name',
    });
  const taken = views.find((document) => document.body.name === to);
  if (taken !== undefined)
    throw new ViewctlError(
      'rename.name-taken',
      `${viewKind} "${to}" is already declared at ${formatLine(taken.position)}: two views of one name would be refused`,
      { hint: 'choose a name no other view of the domain has, or rename that one first' },
    );
  const edits: DocumentEdit[] = [documentEdit(view, `view:${domain}:name:${from}`, [['name']], to)];
  const places: SourcePosition[] = [view.positionOf('/name')];
  for (const document of documents) {
    if (document.kind !== 'PinnedViews') continue;
    const list = document.body[domain];
    if (!Array.isArray(list)) continue;
    // `unpin` (mode: include) names views of every domain the document lists: the old name there goes too.
    const unpin = Array.isArray(document.body.unpin) ? document.body.unpin : [];
    const paths = [
      ...list.flatMap((entry, index) => (entry === from ? [[domain, index]] : [])),
      ...unpin.flatMap((entry, index) => (entry === from ? [['unpin', index]] : [])),
    ];
    if (paths.length === 0) continue;
    const member = String(document.body.userEmail ?? document.body.name);
    edits.push(documentEdit(document, `pins:${domain}:${member}`, paths, to));
    places.push(...paths.map((path) => document.positionOf(encodePointer(path))));
  }
  return { kind: viewKind, domain, edits, places };
}

function documentEdit(
  document: ManifestDocument,
  target: string,
  paths: (string | number)[][],
  to: string,
): DocumentEdit {
  return {
    target,
    file: document.file,
    index: document.index,
    edits: paths.map((path) => ({ path, value: to })),
    at: document.position,
  };
}
