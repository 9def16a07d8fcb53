import { isCollection, isMap, isScalar, isSeq, type Document } from 'yaml';
import type { JsonObject, JsonValue } from '../domain/api-types.js';
import { compareCodePoints } from '../kinds/canonical.js';

/**
 * How exported YAML reads: block style for documents and lists a reviewer scans line
 * by line, flow style (`{type: Default, columnId: title}`, `[Call, Zoom]`) for small
 * leaf objects and value lists, as the manifest examples in the product contract do.
 * No line folding, so a long name or title stays on one line and diffs stay clean.
 */

/** TO_STRING_OPTIONS are the `yaml` stringify options every exported file uses. */
const TO_STRING_OPTIONS = { lineWidth: 0, flowCollectionPadding: false } as const;

/** SHORT_FLOW is the longest nested object (as JSON) still written on one line. */
const SHORT_FLOW = 90;

/**
 * compactLeaves writes in flow style every collection below `node` whose members are
 * all scalars, and every short one nested at most two deep
 * (`boolFilter: {is: true}`, `{type: Insight, insight: {fieldId: f}}`). `node`
 * itself keeps its style.
 */
export function compactLeaves(node: unknown): void {
  for (const member of collectionMembers(node)) {
    if (!isCollection(member)) continue;
    if (isFlat(member) || (isShallow(member) && JSON.stringify(member.toJSON()).length <= SHORT_FLOW))
      member.flow = true;
    else compactLeaves(member);
  }
}

/** flowEach writes each member of a list on one line (columns, sort entries), however long. */
export function flowEach(node: unknown): void {
  for (const member of collectionMembers(node)) if (isCollection(member)) member.flow = true;
}

function isFlat(node: unknown): boolean {
  return collectionMembers(node).every((child) => isScalar(child));
}

function isShallow(node: unknown): boolean {
  return collectionMembers(node).every((child) => isScalar(child) || (isCollection(child) && isFlat(child)));
}

function collectionMembers(node: unknown): unknown[] {
  if (isSeq(node)) return node.items;
  if (isMap(node)) return node.items.map((pair) => pair.value);
  return [];
}

/**
 * renderFile prints one document with its header: the schema modeline first (editors
 * read it from the first line), then the comment lines.
 */
export function renderFile(document: Document, modeline: string, header: readonly string[]): string {
  document.commentBefore = [modeline, ...header].map((line) => ` ${line}`).join('\n');
  return document.toString(TO_STRING_OPTIONS);
}

/** quoted spells a user's text inside a comment: quoted and escaped, so it stays on one line. */
export function quoted(text: string): string {
  return JSON.stringify(text);
}

/**
 * orderKeys returns `object` with the keys in `first` leading, in that order, and
 * every other key after them in code-point order.
 */
export function orderKeys(object: JsonObject, first: readonly string[]): JsonObject {
  // Entries, then fromEntries, so a `__proto__` attribute stays an attribute.
  const out: [string, JsonValue][] = [];
  for (const key of first) {
    const value = Object.hasOwn(object, key) ? object[key] : undefined;
    if (value !== undefined) out.push([key, value]);
  }
  for (const key of Object.keys(object).sort(compareCodePoints)) {
    const value = object[key];
    if (!first.includes(key) && value !== undefined) out.push([key, value]);
  }
  return Object.fromEntries(out) as JsonObject;
}
