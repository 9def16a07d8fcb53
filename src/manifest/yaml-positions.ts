/** decodePointer splits a JSON pointer into its unescaped segments (`''` is the root). */
export function decodePointer(pointer: string): string[] {
  if (pointer === '') return [];
  return pointer
    .slice(1)
    .split('/')
    .map((segment) => segment.replace(/~1/g, '/').replace(/~0/g, '~'));
}

export function encodePointer(segments: readonly (string | number)[]): string {
  return segments.map((segment) => `/${String(segment).replace(/~/g, '~0').replace(/\//g, '~1')}`).join('');
}

/**
 * NodeSpot is where one YAML node starts and, for a mapping or a sequence, where its
 * children are: the part of a parsed document that positions need. Documents are
 * dropped once read and only this small tree is kept (thousands of files would
 * otherwise keep every YAML node alive). A tree may stop at a depth: a collection
 * below it is `unindexed` (its start is known, its children are not).
 */
export interface NodeSpot {
  /** Offset of the node's first character; undefined when the node has no range. */
  offset: number | undefined;
  /** A mapping's entries, in order (the first of two equal keys wins, as a lookup would). */
  entries?: EntrySpot[];
  /** A sequence's items; undefined where an item is not a node or an alias leads nowhere. */
  items?: (NodeSpot | undefined)[];
  /** A mapping or sequence below the depth the tree was built to. */
  unindexed?: true;
}

/** EntrySpot is one entry of a mapping: its key as text (undefined for a collection key), and where key and value start. */
export interface EntrySpot {
  key: string | undefined;
  keyOffset: number | undefined;
  /** Undefined when the value is not a node, or an alias that leads nowhere. */
  value: NodeSpot | undefined;
}

/** DocumentSpots is the spot tree of one document and the offset of its start. */
export interface DocumentSpots {
  root: NodeSpot | undefined;
  /** Offset of the document start, for pointers that find no node at all. */
  fallbackOffset: number;
}

/**
 * locateOffset finds where a JSON pointer sits in a document's spot tree: the offset
 * of the value it names or, with `key`, of the key of the mapping entry it names. A
 * pointer to something absent gives the closest existing ancestor, so a missing
 * attribute points at its parent object; `key: ` with no value points at the key.
 * Undefined when the pointer leads below the depth the tree was built to.
 */
export function locateOffset(spots: DocumentSpots, pointer: string, key = false): number | undefined {
  let node = spots.root;
  let entry: EntrySpot | undefined;
  for (const segment of decodePointer(pointer)) {
    if (node?.unindexed === true) return undefined;
    const found = node?.entries?.find((candidate) => candidate.key === segment);
    if (found !== undefined && found.value === undefined) return found.keyOffset ?? spots.fallbackOffset;
    const next = found?.value ?? (/^\d+$/.test(segment) ? node?.items?.[Number(segment)] : undefined);
    if (next === undefined) return node?.offset ?? spots.fallbackOffset;
    node = next;
    entry = found;
  }
  return (key && entry !== undefined ? entry.keyOffset : node?.offset) ?? spots.fallbackOffset;
}
