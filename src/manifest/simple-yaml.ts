import { resolveCoreScalar, UNRESOLVED } from './core-scalars.js';
import type { DocumentSpots, EntrySpot, NodeSpot } from './yaml-positions.js';

/**
 * A reader for the plain YAML that manifests are written in: block mappings and
 * sequences, one-line flow collections, plain and quoted scalars, comments and `---`
 * between documents, with LF or CR LF line breaks. On such text it yields what the `yaml` library yields (the same
 * values and the same offsets for every node), some twenty times faster; that is
 * what lets `viewctl validate` keep pace with a bare schema checker on thousands of
 * files. A plain scalar that may be something other than a string (`42`, `true`,
 * `~`, `.inf`) is resolved with the `yaml` library's own core-schema tags
 * (core-scalars.ts), so it means what it means there by construction. Anything else
 * (anchors, tags, block scalars, multi-line scalars, escapes, a duplicate key, any
 * problem at all) makes it answer `undefined`, and the file goes to `yaml`, which
 * stays the parser of record: every problem and its position come from there.
 * test/manifest/simple-yaml.test.ts compares the two on generated documents, on every
 * spelling of every core-schema scalar and on every manifest of the repository.
 */

/** SimpleDocument is one document read: its value and its full spot tree. */
export interface SimpleDocument {
  body: Record<string, unknown>;
  spots: DocumentSpots;
}

/**
 * readSimpleYaml reads `text` when it is plain manifest YAML in which every document
 * is a mapping; undefined otherwise. Spots are kept `indexDepth` levels below the root,
 * as `indexDocument` keeps them (all levels by default).
 */
export function readSimpleYaml(text: string, indexDepth = Number.POSITIVE_INFINITY): SimpleDocument[] | undefined {
  try {
    return readDocuments(text, indexDepth);
  } catch (error) {
    if (error === NOT_SIMPLE) return undefined;
    throw error;
  }
}

/** lineStartsOf lists the offsets where the lines of `text` start, as the `yaml` library's LineCounter does. */
export function lineStartsOf(text: string): number[] {
  const starts = [0];
  for (let at = text.indexOf('\n'); at >= 0; at = text.indexOf('\n', at + 1)) starts.push(at + 1);
  return starts;
}

/** NOT_SIMPLE is thrown, and caught in readSimpleYaml only, where the text leaves the subset. */
const NOT_SIMPLE = new Error('not simple YAML');

function give(): never {
  throw NOT_SIMPLE;
}

/** Line is one line holding content: where it starts, its indentation and its text. */
interface Line {
  start: number;
  indent: number;
  text: string;
}

// A character outside the subset: anything but line breaks (LF, or CR LF) and the
// printable characters that need no special case (no tab, lone carriage return, line
// or paragraph separator, byte order mark or lone surrogate).
const OUTSIDE = /\r(?!\n)|[^\r\n\x20-\x7E\u00A0-\u2027\u202A-\uD7FF\uE000-\uFEFE\uFF00-\uFFFD\u{10000}-\u{10FFFF}]/u;
// A plain scalar inside a flow collection: up to `,`, `]` or `}`, and no other indicator.
const FLOW_PLAIN = /[^,[\]{}:#"']*/y;
// What may follow a value on its line: spaces, and a comment after at least one.
const LINE_END = /^ *(?: #.*)?$/;
// A key: a plain word; anything else (quoted, spaced, a number) goes to yaml.
const KEY_WORD = '[A-Za-z_$][A-Za-z0-9_$-]*';
const KEY = new RegExp(`^${KEY_WORD}$`);
// A mapping entry opened right after `- `.
const COMPACT_ENTRY = new RegExp(`^${KEY_WORD}:(?: |$)`);
// A plain scalar cannot start with an indicator, nor with `- ` (an item); this one is
// declined also where YAML would allow it (`?x`, `:x`).
const NOT_PLAIN_START = /^(?:[?:,[\]{}#&*!|>'"%@`]|-(?: |$))/;
// A plain scalar that may be something other than a string: it starts as a number or
// null may (a digit, sign, dot or tilde), or it starts as null or a boolean may and is
// as long as they are (4 or 5 characters). Every other plain scalar is a string under
// the core schema: no core tag's test accepts it (test/manifest/core-scalars.test.ts
// holds every tag's test to what this assumes, and tries every spelling). Those that
// may not be strings are resolved with the `yaml` library's own tags.
const MAY_NOT_BE_STRING = /^(?:[-+.~0-9]|[nNtTfF][\s\S]{3,4}$)/;
const MAX_DEPTH = 64;

function readDocuments(text: string, indexDepth: number): SimpleDocument[] | undefined {
  if (OUTSIDE.test(text)) return undefined;
  const documents: SimpleDocument[] = [];
  let lines: Line[] = [];
  let marker: number | undefined;
  const close = (): void => {
    const first = lines[0] ?? give();
    if (first.indent !== 0) give();
    const reader = new BlockReader(lines, indexDepth);
    const root = reader.mapping(0, 0);
    if (reader.at < lines.length) give();
    documents.push({
      body: root.value as Record<string, unknown>,
      spots: { root: root.spot, fallbackOffset: marker ?? first.start },
    });
    lines = [];
  };
  let start = 0;
  while (start < text.length) {
    const end = text.indexOf('\n', start);
    const stop = end < 0 ? text.length : text.charCodeAt(end - 1) === 13 ? end - 1 : end;
    let indent = 0;
    while (text.charCodeAt(start + indent) === 32) indent += 1;
    const first = start + indent < stop ? text[start + indent] : '';
    if (text.startsWith('---', start) || text.startsWith('...', start) || first === '%') {
      if (stop - start !== 3 || first !== '-') give();
      if (lines.length > 0) close();
      else if (documents.length > 0 || marker !== undefined) give();
      marker = start;
    } else if (first !== '' && first !== '#') {
      lines.push({ start, indent, text: text.slice(start, stop) });
    }
    start = end < 0 ? text.length : end + 1;
  }
  if (lines.length > 0) close();
  else if (marker !== undefined && documents.length > 0) give();
  return documents.length > 0 ? documents : undefined;
}

/** Node is a value read and its spot. */
interface Node {
  value: unknown;
  spot: NodeSpot;
}

/**
 * collectionSpot is the spot of a mapping or sequence at `level` (the root is 0): with
 * its children's spots above `indexDepth`, as `unindexed` from there on.
 */
function collectionSpot(
  offset: number,
  level: number,
  indexDepth: number,
  children: { entries: EntrySpot[] } | { items: NodeSpot[] },
): NodeSpot {
  return level >= indexDepth ? { offset, unindexed: true } : { offset, ...children };
}

/** BlockReader reads block collections from the content lines of one document, line by line. */
class BlockReader {
  at = 0;

  constructor(
    private readonly lines: readonly Line[],
    private readonly indexDepth: number,
  ) {}

  /**
   * mapping reads the entries at `indent`, the first starting at column `column` of
   * the current line (a mapping opened after `- ` starts mid-line).
   */
  mapping(indent: number, column: number, level = 0): Node {
    if (level > MAX_DEPTH) give();
    const value: Record<string, unknown> = {};
    const entries: EntrySpot[] = [];
    let line = this.lines[this.at] ?? give();
    const offset = line.start + column;
    for (let from = column; ; from = indent) {
      const colon = line.text.indexOf(':', from);
      const key = colon < 0 ? give() : line.text.slice(from, colon);
      // yaml refuses an implicit key whose `:` stands more than 1,024 characters after it.
      if (!isKey(key) || key.length > 1024 || Object.hasOwn(value, key)) give();
      let entry: Node;
      if (LINE_END.test(line.text.slice(colon + 1))) {
        this.at += 1;
        entry = this.nested(indent, level + 1);
      } else {
        if (line.text[colon + 1] !== ' ') give();
        entry = new FlowReader(line, this.indexDepth).lineValue(colon + 1, level + 1);
        this.at += 1;
      }
      value[key] = entry.value;
      entries.push({ key, keyOffset: line.start + from, value: entry.spot });
      const next = this.lines[this.at];
      if (next === undefined || next.indent < indent) break;
      if (next.indent > indent) give();
      line = next;
    }
    return { value, spot: collectionSpot(offset, level, this.indexDepth, { entries }) };
  }

  /** nested reads the block value, at `level`, of a key at `indent` whose line ends after the colon. */
  private nested(indent: number, level: number): Node {
    const line = this.lines[this.at] ?? give();
    // A sequence may stand at the key's own indentation (the compact form).
    if (isItem(line) && line.indent === indent) return this.sequence(indent, level);
    if (line.indent <= indent) give();
    return isItem(line) ? this.sequence(line.indent, level) : this.mapping(line.indent, line.indent, level);
  }

  /** sequence reads the `- ` items at `indent`; a line at that indentation that is not an item ends it. */
  private sequence(indent: number, level: number): Node {
    const value: unknown[] = [];
    const items: NodeSpot[] = [];
    const offset = (this.lines[this.at] ?? give()).start + indent;
    for (;;) {
      const line = this.lines[this.at] ?? give();
      let column = indent + 2;
      while (line.text[column] === ' ') column += 1;
      const content = line.text.slice(column);
      let item: Node;
      if (COMPACT_ENTRY.test(content)) {
        item = this.mapping(column, column, level + 1);
      } else {
        if (content.startsWith('- ') || content === '-') give();
        item = new FlowReader(line, this.indexDepth).lineValue(column, level + 1);
        this.at += 1;
      }
      value.push(item.value);
      items.push(item.spot);
      const next = this.lines[this.at];
      if (next === undefined || next.indent < indent || (next.indent === indent && !isItem(next))) break;
      if (next.indent > indent) give();
    }
    return { value, spot: collectionSpot(offset, level, this.indexDepth, { items }) };
  }
}

/**
 * withoutTrailingSpaces drops the spaces that end a plain scalar: YAML's white space is
 * space and tab only, where `trimEnd` would also take a no-break space that is part of
 * the value.
 */
function withoutTrailingSpaces(text: string): string {
  let end = text.length;
  while (text.charCodeAt(end - 1) === 32) end -= 1;
  return text.slice(0, end);
}

/**
 * isKey tells whether `text` is a key the reader takes: a plain word that the core
 * schema reads as itself (`true`, `Null` are not), and not the one key a plain object
 * cannot hold as an attribute.
 */
function isKey(text: string): boolean {
  return KEY.test(text) && text !== '__proto__' && (!MAY_NOT_BE_STRING.test(text) || resolveCoreScalar(text) === text);
}

function isItem(line: Line): boolean {
  return line.text.startsWith('- ', line.indent);
}

/** FlowReader reads the value that ends a line: a flow collection, a quoted or a plain scalar. */
class FlowReader {
  private at = 0;
  private readonly text: string;

  constructor(
    private readonly line: Line,
    private readonly indexDepth: number,
  ) {
    this.text = line.text;
  }

  /** lineValue reads the value, at `level`, that starts after column `from` and runs to the end of the line (a comment aside). */
  lineValue(from: number, level: number): Node {
    const { text } = this;
    this.at = from;
    this.skipSpaces();
    const start = this.at;
    const opener = text[start];
    if (opener === '[' || opener === '{' || opener === '"' || opener === "'") {
      const node = this.value(level);
      if (!LINE_END.test(text.slice(this.at))) give();
      return node;
    }
    const comment = text.indexOf(' #', start);
    const scalar = withoutTrailingSpaces(comment < 0 ? text.slice(start) : text.slice(start, comment));
    if (scalar.includes(': ') || scalar.endsWith(':') || scalar.includes('#')) give();
    return { value: plainValue(scalar), spot: { offset: this.line.start + start } };
  }

  /** value reads one value inside a flow collection (or a quoted scalar), moving past it. */
  private value(level: number): Node {
    if (level > MAX_DEPTH) give();
    const { text } = this;
    const start = this.at;
    const offset = this.line.start + start;
    const opener = text[start];
    if (opener === '"' || opener === "'") return { value: this.quoted(), spot: { offset } };
    if (opener === '[') {
      const list: unknown[] = [];
      const items: NodeSpot[] = [];
      this.members(']', () => {
        const item = this.value(level + 1);
        list.push(item.value);
        items.push(item.spot);
      });
      return { value: list, spot: collectionSpot(offset, level, this.indexDepth, { items }) };
    }
    if (opener === '{') {
      const object: Record<string, unknown> = {};
      const entries: EntrySpot[] = [];
      this.members('}', () => {
        const keyStart = this.at;
        const colon = text.indexOf(':', keyStart);
        const key = colon < 0 ? give() : text.slice(keyStart, colon);
        if (!isKey(key) || Object.hasOwn(object, key) || text[colon + 1] !== ' ') give();
        this.at = colon + 1;
        this.skipSpaces();
        const entry = this.value(level + 1);
        object[key] = entry.value;
        entries.push({ key, keyOffset: this.line.start + keyStart, value: entry.spot });
      });
      return { value: object, spot: collectionSpot(offset, level, this.indexDepth, { entries }) };
    }
    FLOW_PLAIN.lastIndex = start;
    const scalar = withoutTrailingSpaces((FLOW_PLAIN.exec(text) ?? give())[0]);
    this.at = start + scalar.length;
    return { value: plainValue(scalar), spot: { offset } };
  }

  /** members reads the members of a collection opened at the cursor, separated by `, `, up to `closer`. */
  private members(closer: string, member: () => void): void {
    const { text } = this;
    this.at += 1;
    this.skipSpaces();
    if (text[this.at] === closer) {
      this.at += 1;
      return;
    }
    for (;;) {
      member();
      this.skipSpaces();
      const separator = text[this.at];
      this.at += 1;
      if (separator === closer) return;
      if (separator !== ',' || text[this.at] !== ' ') give();
      this.skipSpaces();
      if (text[this.at] === closer || text[this.at] === ',') give();
    }
  }

  /** quoted reads a single-quoted scalar (`''` is a quote) or a double-quoted one without escapes, moving past it. */
  private quoted(): string {
    const { text } = this;
    const quote = text[this.at] ?? give();
    let value = '';
    let at = this.at + 1;
    for (;;) {
      const close = text.indexOf(quote, at);
      if (close < 0) give();
      value += text.slice(at, close);
      if (quote === "'" && text[close + 1] === "'") {
        value += "'";
        at = close + 2;
        continue;
      }
      at = close + 1;
      break;
    }
    if (quote === '"' && value.includes('\\')) give();
    this.at = at;
    return value;
  }

  private skipSpaces(): void {
    while (this.text[this.at] === ' ') this.at += 1;
  }
}

/**
 * plainValue resolves a plain scalar as the core schema does, with the `yaml` library's
 * own tags (core-scalars.ts) for one that may not be a string. A scalar that starts
 * with an indicator, or that the tags cannot resolve here, leaves the subset.
 */
function plainValue(scalar: string): unknown {
  if (scalar === '' || NOT_PLAIN_START.test(scalar)) give();
  if (!MAY_NOT_BE_STRING.test(scalar)) return scalar;
  const value = resolveCoreScalar(scalar);
  return value === UNRESOLVED ? give() : value;
}
