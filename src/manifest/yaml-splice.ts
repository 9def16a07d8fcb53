import {
  Document,
  visit,
  isAlias,
  isCollection,
  isMap,
  isNode,
  isPair,
  isScalar,
  isSeq,
  parseAllDocuments,
  Scalar,
  type Node,
  type YAMLMap,
  type YAMLSeq,
} from 'yaml';
import type { JsonValue } from '../domain/api-types.js';
import { jsonEqual } from '../kinds/canonical.js';
import { lineColumn } from './parsed-file.js';
import { lineStartsOf } from './simple-yaml.js';
import { mergeKey, PARSE_OPTIONS } from './yaml-file.js';

/**
 * Splicing new values into a manifest's text in place (`viewctl pull`): only the
 * characters of the nodes whose value changes are replaced, so every other byte of the
 * file (comments, quotes, key order, blank lines, line endings, the other documents)
 * stays as it is. Re-stringifying a document would change quotes and line widths.
 *
 * The `yaml` library gives each node its range `[start, valueEnd, nodeEnd]`; a
 * replacement covers `[start, valueEnd)` of the node it replaces, and keeps the node's
 * style: a scalar its quoting where the new value allows it, a flow collection flow, a
 * block collection block at the same indentation. Where the old and the new value are
 * both mappings with the same keys, or sequences of the same length, only the members
 * that differ are replaced, so comments beside unchanged members stay too.
 */

/** YAML_11_BOOLEAN is text that YAML 1.1 tools (yamllint's truthy rule, older parsers) read as a boolean; viewctl (YAML 1.2) reads it as text. */
const YAML_11_BOOLEAN = /^(?:yes|no|on|off)$/i;

/** quoteYaml11Booleans double-quotes the string scalars of `document` that YAML 1.1 tools would read as booleans. */
function quoteYaml11Booleans(document: Document): Document {
  visit(document, {
    Scalar(_key, node) {
      if (typeof node.value === 'string' && YAML_11_BOOLEAN.test(node.value)) node.type = 'QUOTE_DOUBLE';
    },
  });
  return document;
}

/** TO_STRING_OPTIONS render a replacement: never folded, as export writes. */
const TO_STRING_OPTIONS = { lineWidth: 0, flowCollectionPadding: false } as const;

/** Path is where a value sits in a document: mapping keys and sequence indexes from its root. */
export type Path = readonly (string | number)[];

/**
 * Equal tells whether the old value at `path` already means `wanted` (a set written in
 * another order, an empty set for an absent one): such a member is left as it is.
 */
export type Equal = (path: Path, old: unknown, wanted: JsonValue | undefined) => boolean;

/** ValueEdit asks that the value at `path` of one document become `value`. */
export interface ValueEdit {
  path: Path;
  value: JsonValue;
}

/** Splice is one replacement of the text: `[start, end)` becomes `text`. */
export interface Splice {
  start: number;
  end: number;
  text: string;
}

/** Replaced is one value a splice replaced: where it sits, what it held and what it holds now, and its line (1-based) in the new text. */
interface Replaced {
  path: Path;
  before: unknown;
  /** Undefined for an entry removed. */
  after: JsonValue | undefined;
  line: number;
}

/** SpliceError says why a value cannot be spliced in place (an alias, a merge key, no such key); nothing is changed. */
export class SpliceError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SpliceError';
  }
}

/**
 * spliceDocument splices `edits` into document `index` of `text` and answers the new
 * text, with the splices made (offsets in the old text). Each edit's path must lead to
 * a value the document writes (the key of its last step must be there): pull never
 * adds an attribute a document leaves unmanaged. Throws SpliceError, changing nothing,
 * when a value cannot be replaced in place.
 */
export function spliceDocument(
  text: string,
  index: number,
  edits: readonly ValueEdit[],
  equal: Equal = (_path, a, b) => jsonEqual(a, b),
): { text: string; splices: Splice[]; replaced: Replaced[] } {
  const documents = parseAllDocuments(text, PARSE_OPTIONS);
  const document = Array.isArray(documents) ? documents[index] : undefined;
  if (document === undefined || document.errors.length > 0)
    throw new SpliceError(`document ${index + 1} of the file does not parse`);
  const context: Context = {
    text,
    lineStarts: lineStartsOf(text),
    newline: text.includes('\r\n') ? '\r\n' : '\n',
    equal,
    splices: [],
    replaced: [],
    anchors: [],
  };
  for (const edit of edits) {
    const { node, flow } = nodeAt(document.contents, edit.path);
    replaceIn(context, node, edit.value, edit.path, flow);
  }
  // An insertion sorts before a removal that starts where it goes.
  const splices = [...context.splices].sort((a, b) => a.start - b.start || a.end - b.end);
  splices.forEach((splice, position) => {
    const next = splices[position + 1];
    if (next !== undefined && next.start < splice.end) throw new SpliceError('two edits overlap in one value');
  });
  // Each value's line moves by the lines the splices before its own add or remove.
  const replaced = context.replaced.map((value, at) => ({
    ...value,
    line:
      value.line +
      linesAdded(
        text,
        splices.filter((splice) => splice.start < (context.anchors[at] ?? 0)),
      ),
  }));
  return { text: applySplices(text, splices), splices, replaced };
}

/** linesAdded is how many lines `splices` of `text` add (negative: remove). */
export function linesAdded(text: string, splices: readonly Splice[]): number {
  const count = (part: string): number => part.split('\n').length - 1;
  return splices.reduce((sum, splice) => sum + count(splice.text) - count(text.slice(splice.start, splice.end)), 0);
}

/** applySplices replaces the ranges of `splices` (sorted, not overlapping) in `text`. */
function applySplices(text: string, splices: readonly Splice[]): string {
  let out = '';
  let at = 0;
  for (const splice of splices) {
    out += text.slice(at, splice.start) + splice.text;
    at = splice.end;
  }
  return out + text.slice(at);
}

interface Context {
  text: string;
  /** Where each line of `text` starts: the lines of the values replaced are counted in it. */
  lineStarts: number[];
  newline: string;
  equal: Equal;
  splices: Splice[];
  /** Lines counted in the old text; `spliceDocument` moves them to the new one. */
  replaced: Replaced[];
  /** Per replaced value, the offset in the old text where its own splices start: those before it move its line. */
  anchors: number[];
}

/** nodeAt finds the node at `path`, and whether it sits inside a flow collection (where plain scalars may not hold `,[]{}`). */
function nodeAt(root: unknown, path: Path): { node: Node; flow: boolean } {
  let node: unknown = root;
  let flow = false;
  for (const [step, segment] of path.entries()) {
    const shown = path.slice(0, step + 1).join('.');
    if (isAlias(node)) throw new SpliceError(`"${shown}" goes through an alias; write the value out to pull it`);
    if (isCollection(node) && node.flow === true) flow = true;
    if (isMap(node) && typeof segment === 'string') {
      const pair = node.items.find((candidate) => isScalar(candidate.key) && candidate.key.value === segment);
      if (pair === undefined)
        throw new SpliceError(
          `the document does not write "${shown}"${node.items.some((pair) => mergeKey(pair) !== undefined) ? ' (it may come from a merge key <<, which pull does not edit)' : ''}`,
        );
      if (!isNode(pair.value)) throw new SpliceError(`"${shown}" has no value to replace`);
      node = pair.value;
    } else if (isSeq(node) && typeof segment === 'number') {
      node = node.items[segment];
      if (!isNode(node)) throw new SpliceError(`the document has no "${shown}"`);
    } else {
      throw new SpliceError(`the document has no "${shown}"`);
    }
  }
  if (!isNode(node)) throw new SpliceError('the document is empty');
  return { node, flow };
}

/**
 * replaceIn makes `node` (at `path`) hold `wanted`: nothing when it already means it;
 * member by member when both are mappings with the same differing keys, or sequences
 * of one length; else the whole node, in its style.
 */
function replaceIn(context: Context, node: Node, wanted: JsonValue, path: Path, inFlow: boolean): void {
  const old: unknown = node.toJSON();
  if (context.equal(path, old, wanted)) return;
  if (isAlias(node) || node.anchor !== undefined) {
    throw new SpliceError(
      `"${path.join('.')}" is ${isAlias(node) ? 'an alias' : `the anchor &${node.anchor}`}; write the value out to pull it`,
    );
  }
  const flow = inFlow || (isCollection(node) && node.flow === true);
  if (isMap(node) && isObject(wanted) && isObject(old)) {
    const keys = [...new Set([...Object.keys(old), ...Object.keys(wanted)])];
    const differing = keys.filter((key) => !context.equal([...path, key], old[key], wanted[key]));
    const pairs = new Map(
      node.items.flatMap((pair) =>
        isScalar(pair.key) && isNode(pair.value) && typeof pair.key.value === 'string'
          ? [[pair.key.value, pair.value] as const]
          : [],
      ),
    );
    if (differing.every((key) => pairs.has(key) && wanted[key] !== undefined)) {
      for (const key of differing)
        replaceIn(context, pairs.get(key) as Node, wanted[key] as JsonValue, [...path, key], flow);
      return;
    }
    if (!flow && editBlockMap(context, node, wanted, differing, path)) return;
  }
  // Items re-ordered move with their lines (and the comments beside them), not replaced in place under another item's comment.
  const moved =
    Array.isArray(wanted) &&
    Array.isArray(old) &&
    wanted.some(
      (item, at) => !jsonEqual(old[at], item) && old.some((other, from) => from !== at && jsonEqual(other, item)),
    );
  if (isSeq(node) && !flow && moved && editBlockSequence(context, node, wanted as JsonValue[], path)) return;
  if (
    isSeq(node) &&
    Array.isArray(wanted) &&
    wanted.length > 0 &&
    node.items.length === wanted.length &&
    node.items.every(isNode)
  ) {
    node.items.forEach((item, position) => {
      replaceIn(context, item as Node, wanted[position] as JsonValue, [...path, position], flow);
    });
    return;
  }
  if (
    isSeq(node) &&
    !flow &&
    Array.isArray(wanted) &&
    wanted.length > 0 &&
    editBlockSequence(context, node, wanted, path)
  )
    return;
  const splice = replacement(context, node, wanted, inFlow);
  context.splices.push(splice);
  context.replaced.push({ path, before: old, after: wanted, line: lineOf(context, splice.start) });
  context.anchors.push(splice.start);
}

/** lineOf is the line (1-based) of `offset` in the old text. */
function lineOf(context: Context, offset: number): number {
  return lineColumn(context.lineStarts, offset).line;
}

/**
 * editBlockMap edits a block mapping whose keys changed entry by entry: an entry the
 * new value drops loses its lines, a new one gets a line of its own after the last
 * entry, at the entries' indentation (its value on that line, collections in flow
 * style), and the entries of both are replaced in place; comments beside the others
 * stay. False, having changed nothing, when an entry is not on lines of its own.
 */
function editBlockMap(
  context: Context,
  node: YAMLMap,
  wanted: Record<string, JsonValue>,
  differing: readonly string[],
  path: Path,
): boolean {
  const { text } = context;
  const entries = node.items.map((pair) => ({
    key: isScalar(pair.key) ? pair.key.value : undefined,
    keyNode: isNode(pair.key) ? pair.key : undefined,
    value: isNode(pair.value) ? pair.value : undefined,
  }));
  const last = entries[entries.length - 1];
  const firstKey = entries[0]?.keyNode?.range?.[0];
  if (
    last?.value?.range == null ||
    firstKey === undefined ||
    entries.some((entry) => typeof entry.key !== 'string' || entry.keyNode?.range == null || entry.value?.range == null)
  )
    return false;
  const ownLine = (offset: number): boolean => text.slice(lineStart(text, offset), offset).trim() === '';
  const dropped = entries.filter(
    (entry) => differing.includes(entry.key as string) && wanted[entry.key as string] === undefined,
  );
  const added = differing.filter((key) => !entries.some((entry) => entry.key === key) && wanted[key] !== undefined);
  const lineEnds = (offset: number): boolean => offset === text.length || text[offset - 1] === '\n';
  // A mapping left with no entry has no block form: it is written whole, as `{}`.
  if (dropped.length === entries.length && added.length === 0) return false;
  if (
    !ownLine(firstKey) ||
    dropped.some((entry) => !ownLine(entry.keyNode?.range?.[0] ?? 0) || !lineEnds(entry.value?.range?.[2] ?? 0))
  )
    return false;
  const end = last.value.range[2];
  if (added.length > 0 && !lineEnds(end)) return false;
  for (const entry of entries) {
    const key = entry.key as string;
    if (!differing.includes(key) || entry.value === undefined) continue;
    if (wanted[key] === undefined) {
      const stop = entry.value.range?.[2] ?? text.length;
      // The last line of a file without a final line break takes the line break before it along.
      const start = Math.max(
        0,
        lineStart(text, entry.keyNode?.range?.[0] ?? 0) -
          (stop === text.length && !text.endsWith('\n')
            ? text[lineStart(text, entry.keyNode?.range?.[0] ?? 0) - 2] === '\r'
              ? 2
              : 1
            : 0),
      );
      context.splices.push({ start, end: stop, text: '' });
      context.replaced.push({
        path: [...path, key],
        before: entry.value.toJSON(),
        after: undefined,
        line: lineOf(context, start),
      });
      context.anchors.push(start);
    } else {
      replaceIn(context, entry.value, wanted[key] as JsonValue, [...path, key], false);
    }
  }
  if (added.length === 0) return true;
  const indent = ' '.repeat(firstKey - lineStart(text, firstKey));
  // One line each, whatever the value: a multi-line string in block style (`|-`) would need lines indented under the key.
  const lines = added.map(
    (key) => `${indent}${renderScalar(key, 'PLAIN', false)}: ${renderFlow(wanted[key] as JsonValue, false)}`,
  );
  // After a last line without a line break, the new lines start with one and end without.
  const lead = end === text.length && !text.endsWith('\n') ? context.newline : '';
  context.splices.push({
    start: end,
    end,
    text: `${lead}${lines.join(context.newline)}${lead === '' ? context.newline : ''}`,
  });
  for (const key of added) {
    context.replaced.push({
      path: [...path, key],
      before: undefined,
      after: wanted[key] as JsonValue,
      line: lineOf(context, end) + (lead === '' ? 0 : 1),
    });
    context.anchors.push(end);
  }
  return true;
}

/**
 * editBlockSequence edits a block sequence of another length item by item: the items
 * the old and the new list share, in order (a longest common subsequence), keep their
 * lines and the comments beside them; the others lose their lines, and each new item
 * gets a line `- value` of its own at its place. False, having changed nothing, when no
 * item is shared or an item is not on lines of its own.
 */
function editBlockSequence(context: Context, node: YAMLSeq, wanted: readonly JsonValue[], path: Path): boolean {
  const { text } = context;
  const items = node.items.map((item) =>
    isNode(item) && item.range != null ? { node: item, range: item.range } : undefined,
  );
  const last = items[items.length - 1];
  if (last === undefined || items.some((item) => item === undefined)) return false;
  const dash = (item: { range: [number, number, number] }): RegExpExecArray | null =>
    /^(\s*)-\s+$/.exec(text.slice(lineStart(text, item.range[0]), item.range[0]));
  const lineEnds = (offset: number): boolean => text[offset - 1] === '\n';
  if (items.some((item) => item === undefined || dash(item) === null || !lineEnds(item.range[2]))) return false;
  const old = items.map((item) => item?.node.toJSON() as unknown);
  const kept = commonSubsequence(old, wanted, (a, b) => jsonEqual(a, b));
  if (kept.length === 0) return false;
  const indent = dash(last)?.[1] ?? '';
  const keptOld = new Set(kept.map(([oldIndex]) => oldIndex));
  const movable = items.flatMap((item, at) =>
    item === undefined || keptOld.has(at) ? [] : [{ item, value: old[at] }],
  );
  // An item the list still holds, at another place, keeps its own line (its comment, its quotes).
  const line = (value: JsonValue): string => {
    const from = movable.findIndex((candidate) => jsonEqual(candidate.value, value));
    const source = from === -1 ? undefined : movable.splice(from, 1)[0]?.item;
    if (source !== undefined) return text.slice(lineStart(text, source.range[0]), source.range[2]);
    return `${indent}- ${Array.isArray(value) || isObject(value) ? renderFlow(value) : renderScalar(value, 'PLAIN', false)}${context.newline}`;
  };
  let from = 0;
  let wantedAt = 0;
  for (const [oldIndex, wantedIndex] of [...kept, [items.length, wanted.length] as const]) {
    for (let at = from; at < oldIndex; at += 1) {
      const item = items[at];
      if (item !== undefined)
        context.splices.push({ start: lineStart(text, item.range[0]), end: item.range[2], text: '' });
    }
    const next = items[oldIndex];
    const where = next === undefined ? last.range[2] : lineStart(text, next.range[0]);
    const inserted = wanted.slice(wantedAt, wantedIndex).map(line).join('');
    if (inserted !== '') context.splices.push({ start: where, end: where, text: inserted });
    from = oldIndex + 1;
    wantedAt = wantedIndex + 1;
  }
  context.replaced.push({ path, before: old, after: [...wanted], line: lineOf(context, items[0]?.range[0] ?? 0) });
  context.anchors.push(lineStart(text, items[0]?.range[0] ?? 0));
  return true;
}

/** commonSubsequence pairs the indexes of a longest common subsequence of `a` and `b`, in order. */
function commonSubsequence<T, U>(a: readonly T[], b: readonly U[], same: (x: T, y: U) => boolean): [number, number][] {
  const lengths = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0));
  for (let i = a.length - 1; i >= 0; i -= 1) {
    for (let j = b.length - 1; j >= 0; j -= 1) {
      const row = lengths[i] as number[];
      row[j] = same(a[i] as T, b[j] as U)
        ? (lengths[i + 1]?.[j + 1] ?? 0) + 1
        : Math.max(lengths[i + 1]?.[j] ?? 0, row[j + 1] ?? 0);
    }
  }
  const pairs: [number, number][] = [];
  for (let i = 0, j = 0; i < a.length && j < b.length; ) {
    if (same(a[i] as T, b[j] as U)) {
      pairs.push([i, j]);
      i += 1;
      j += 1;
    } else if ((lengths[i + 1]?.[j] ?? 0) >= (lengths[i]?.[j + 1] ?? 0)) i += 1;
    else j += 1;
  }
  return pairs;
}

function isObject(value: unknown): value is Record<string, JsonValue> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** replacement is the splice that writes `wanted` over `node`, in the node's style. */
function replacement(context: Context, node: Node, wanted: JsonValue, inFlow: boolean): Splice {
  const splice = replacementText(context, node, wanted, inFlow);
  // An empty value (`name:` or `-` with nothing after) has a range of no width right after
  // its indicator: without a space the new value would join it (`name:x` is a key).
  return splice.start === splice.end && splice.start > 0 && !/\s/.test(context.text[splice.start - 1] ?? ' ')
    ? { ...splice, text: ` ${splice.text}` }
    : splice;
}

function replacementText(context: Context, node: Node, wanted: JsonValue, inFlow: boolean): Splice {
  const [start, valueEnd] = node.range as [number, number, number];
  // A block collection's or block scalar's range ends after its last line break: the new text ends with one too.
  const lineBreak = /\r?\n$/.test(context.text.slice(start, valueEnd)) ? context.newline : '';
  if (isCollection(node) && node.flow !== true && !isEmpty(wanted) && (Array.isArray(wanted) || isObject(wanted))) {
    const column = start - lineStart(context.text, start);
    const body = renderBlock(wanted)
      .split('\n')
      .map((line, at) => (at === 0 || line === '' ? line : `${' '.repeat(column)}${line}`));
    return { start, end: valueEnd, text: body.join(context.newline).replace(/\r?\n$/, '') + lineBreak };
  }
  if (isCollection(node) && node.flow !== true) {
    // An empty collection has no block form: `[]` or `{}` on the node's first line, then its line break.
    return { start, end: valueEnd, text: renderFlow(wanted) + lineBreak };
  }
  if (isCollection(node) || Array.isArray(wanted) || isObject(wanted))
    return { start, end: valueEnd, text: renderFlow(wanted) };
  return {
    start,
    end: valueEnd,
    text: renderScalar(wanted, isScalar(node) ? node.type : undefined, inFlow) + lineBreak,
  };
}

function isEmpty(value: JsonValue): boolean {
  return Array.isArray(value) ? value.length === 0 : isObject(value) && Object.keys(value).length === 0;
}

function lineStart(text: string, offset: number): number {
  return text.lastIndexOf('\n', offset - 1) + 1;
}

/** renderBlock writes a collection in block style, leaf collections in flow style (`- {type: Default, columnId: title}`). */
function renderBlock(value: JsonValue): string {
  const document = quoteYaml11Booleans(new Document(value));
  const root = document.contents;
  for (const member of isSeq(root)
    ? root.items
    : isMap(root)
      ? root.items.map((pair) => (isPair(pair) ? pair.value : undefined))
      : []) {
    if (isCollection(member)) member.flow = true;
  }
  return document.toString(TO_STRING_OPTIONS);
}

/** renderFlow writes any value on one line, collections in flow style. */
function renderFlow(value: JsonValue, inFlow = true): string {
  if (!Array.isArray(value) && !isObject(value)) return renderScalar(value, undefined, inFlow);
  const document = quoteYaml11Booleans(new Document(value));
  const root = document.contents;
  if (isCollection(root)) root.flow = true;
  return oneLine(document.toString(TO_STRING_OPTIONS));
}

/**
 * renderScalar writes a scalar in `style` (the old node's) where the value allows it:
 * a plain scalar stays plain unless the value would read back as something else, a
 * single-quoted one single-quoted; a block scalar (`|`, `>`) becomes double-quoted, on
 * one line. Inside a flow collection a plain scalar never holds `,[]{}`.
 */
function renderScalar(value: JsonValue, style: Scalar.Type | undefined, inFlow: boolean): string {
  if (typeof value !== 'string') return value === null ? 'null' : String(value);
  const wanted: Scalar.Type =
    style === 'QUOTE_SINGLE'
      ? 'QUOTE_SINGLE'
      : style === 'QUOTE_DOUBLE' || style === 'BLOCK_LITERAL' || style === 'BLOCK_FOLDED'
        ? 'QUOTE_DOUBLE'
        : 'PLAIN';
  // YAML 1.1 tools (yamllint's truthy rule, older parsers) read these as booleans: quoted, the file means one thing to every reader.
  const written = wanted === 'PLAIN' && YAML_11_BOOLEAN.test(value) ? undefined : scalarText(value, wanted);
  if (written !== undefined && !(inFlow && /^[^"']/.test(written) && /[,[\]{}]/.test(written))) return written;
  return scalarText(value, 'QUOTE_DOUBLE') ?? JSON.stringify(value);
}

/** scalarText is `value` as yaml writes it in `type`, when that fits on one line and reads back as the same string. */
function scalarText(value: string, type: Scalar.Type): string | undefined {
  const scalar = new Scalar(value);
  scalar.type = type;
  const written = oneLine(new Document(scalar).toString(TO_STRING_OPTIONS));
  if (written.includes('\n')) return undefined;
  const back = parseAllDocuments(written);
  const first = Array.isArray(back) ? back[0] : undefined;
  return first !== undefined && first.errors.length === 0 && first.toJSON() === value ? written : undefined;
}

function oneLine(written: string): string {
  return written.replace(/\n$/, '');
}
