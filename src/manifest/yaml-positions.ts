import { isAlias, isMap, isScalar, isSeq, type Document, type LineCounter, type Node, type Pair } from 'yaml';

/** LineColumn is a 1-based line and column. */
export interface LineColumn {
  line: number;
  column: number;
}

/** decodePointer splits a JSON pointer into its unescaped segments (`''` is the root). */
export function decodePointer(pointer: string): string[] {
  if (pointer === '') return [];
  return pointer
    .slice(1)
    .split('/')
    .map((segment) => segment.replace(/~1/g, '/').replace(/~0/g, '~'));
}

/** encodePointer joins segments into a JSON pointer. */
export function encodePointer(segments: readonly (string | number)[]): string {
  return segments.map((segment) => `/${String(segment).replace(/~/g, '~0').replace(/\//g, '~1')}`).join('');
}

/**
 * NodeLocator finds where a JSON pointer sits in one YAML document: the node of a
 * value, or the key of a mapping entry. A pointer to something absent gives the
 * closest existing ancestor, so a missing attribute points at its parent object.
 */
export class NodeLocator {
  constructor(
    private readonly document: Document.Parsed,
    private readonly lineCounter: LineCounter,
    /** Offset of the document start, for pointers that find no node at all. */
    private readonly fallbackOffset: number,
  ) {}

  /** valuePosition is the position of the value a pointer names (or its closest ancestor). */
  valuePosition(pointer: string): LineColumn {
    const { node, pair } = this.walk(decodePointer(pointer));
    // `key:` with no value has a null value node without a range: point at the key.
    return this.at(node ?? keyNode(pair));
  }

  /** keyPosition is the position of the key of the mapping entry a pointer names. */
  keyPosition(pointer: string): LineColumn {
    const { node, pair, complete } = this.walk(decodePointer(pointer));
    if (complete && pair !== undefined) return this.at(keyNode(pair));
    return this.at(node);
  }

  private walk(segments: string[]): { node: Node | undefined; pair: Pair | undefined; complete: boolean } {
    let node = this.resolve(this.document.contents ?? undefined);
    let pair: Pair | undefined;
    for (const segment of segments) {
      let next: Node | undefined;
      let nextPair: Pair | undefined;
      if (isMap(node)) {
        nextPair = node.items.find((item) => keyText(item) === segment);
        next = nextPair === undefined ? undefined : this.resolve(asNode(nextPair.value));
        if (nextPair !== undefined && next === undefined) return { node: undefined, pair: nextPair, complete: true };
      } else if (isSeq(node) && /^\d+$/.test(segment)) {
        next = this.resolve(asNode(node.items[Number(segment)]));
      }
      if (next === undefined) return { node, pair, complete: false };
      node = next;
      pair = nextPair;
    }
    return { node, pair, complete: true };
  }

  private resolve(node: Node | undefined): Node | undefined {
    // An alias points at its anchor: report the definition, where the text is.
    let current = node;
    for (let hops = 0; isAlias(current) && hops < 16; hops += 1) {
      current = asNode(current.resolve(this.document));
    }
    return isAlias(current) ? undefined : current;
  }

  private at(node: Node | undefined): LineColumn {
    const offset = node?.range?.[0] ?? this.fallbackOffset;
    const { line, col } = this.lineCounter.linePos(offset);
    return { line, column: col };
  }
}

function asNode(value: unknown): Node | undefined {
  return value !== null && typeof value === 'object' && 'range' in value ? (value as Node) : undefined;
}

function keyNode(pair: Pair | undefined): Node | undefined {
  return asNode(pair?.key);
}

function keyText(pair: Pair): string | undefined {
  const key = pair.key;
  if (isScalar(key)) return String(key.value);
  return typeof key === 'string' || typeof key === 'number' ? String(key) : undefined;
}
