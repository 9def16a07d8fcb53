import { Document } from 'yaml';
import type { ApiView, JsonObject, JsonValue } from '../domain/api-types.js';
import { VIEW_KINDS, type Domain } from '../domain/domains.js';
import { normalizeView } from '../kinds/normalize.js';
import { schemaModeline } from './schema-ref.js';
import { compactLeaves, flowEach, orderKeys, quoted, renderFile } from './yaml-text.js';

/**
 * View documents (`RecordingView`, `DealView`, `CompanyView`, `ContactView`): one per
 * public saved view, in exactly the normalisation plan compares (kinds/normalize.ts),
 * so planning the export against the workspace it came from finds nothing to do.
 *
 * Every export writes `viewId`: the document stays bound to its live view when the
 * view is renamed in the app, or when another view of the same name appears (by name
 * alone the document would then be ambiguous, which plan refuses).
 */

/** VIEW_HEADER explains, in each view file, why `viewId` is there and what omission means. */
const VIEW_HEADER = [
  'viewId binds this document to its live view: renaming the view here is an update,',
  'and a name that another view takes later stays unambiguous. Remove viewId to match by name.',
  'Attributes written here are managed; an attribute you delete is left as it is live.',
] as const;

/**
 * viewDocumentValue is the manifest of a live view: kind, name, viewId, icon when
 * set, columns, filters and sort, normalised (sets sorted, `isHidden: false` and
 * response-only attributes dropped) and in a stable key order.
 */
function viewDocumentValue(domain: Domain, view: ApiView, appOwns: readonly string[]): JsonObject {
  const snapshot = normalizeView(domain, view);
  const value: JsonObject = { kind: VIEW_KINDS[domain], name: view.name, viewId: view.viewId };
  const managed = (attribute: string) => !appOwns.includes(attribute);
  if (snapshot.icon !== undefined && managed('icon')) value.icon = snapshot.icon;
  if (managed('columns'))
    value.columns = snapshot.columns.map((column) => orderKeys(column, ['type', 'columnId', 'fieldId', 'title']));
  if (managed('filters')) value.filters = typeFirst(snapshot.filters) as JsonObject;
  if (managed('sort')) value.sort = snapshot.sort.map((entry) => orderKeys(entry, ['field', 'insight', 'order']));
  return value;
}

/**
 * renderViewFile prints the file of one view, to be written at `path`. The other views
 * of the domain's `listing` with the same name (saved or default) are named in the
 * header, since only `viewId` tells them apart. The attributes the Workspace leaves to
 * the app (`appOwns`) are not written: a value there would only serve a create.
 */
export function renderViewFile(
  domain: Domain,
  view: ApiView,
  listing: readonly ApiView[],
  path: string,
  appOwns: readonly string[] = [],
): string {
  const document = new Document(viewDocumentValue(domain, view, appOwns));
  if (document.has('columns')) flowEach(document.get('columns', true));
  if (document.has('sort')) flowEach(document.get('sort', true));
  if (document.has('filters')) compactLeaves(document.get('filters', true));
  const header: string[] = [...VIEW_HEADER];
  if (appOwns.length > 0)
    header.push(`${appOwns.join(', ')}: left to the app (the Workspace's appOwns), so not written here.`);
  const namesakes = listing.filter((other) => other.name === view.name && other.viewId !== view.viewId);
  if (namesakes.length > 0) {
    const others = namesakes.map((other) => `${other.viewId}${other.isDefault ? ' (built-in default)' : ''}`);
    header.push(
      `Other ${domain} views are named ${quoted(view.name)} too: ${others.join(', ')}. Keep viewId: the name alone is ambiguous.`,
    );
  }
  return renderFile(document, schemaModeline(VIEW_KINDS[domain], path), header);
}

/** typeFirst puts `type` (then an insight's `fieldId`) first in every object below `value`: it reads as the discriminator it is. */
function typeFirst(value: JsonValue): JsonValue {
  if (Array.isArray(value)) return value.map(typeFirst);
  if (value === null || typeof value !== 'object') return value;
  const ordered = orderKeys(value, ['type', 'fieldId']);
  for (const [key, member] of Object.entries(ordered)) ordered[key] = typeFirst(member);
  return ordered;
}
