import { isAlias, isMap, isScalar, isSeq, type Document, type Node, type Pair } from 'yaml';
import type { DocumentSpots, NodeSpot } from './yaml-positions.js';

/**
 * indexDocument builds the spot tree of a parsed document in one walk, down to
 * `depth` levels below the root (all of them by default). An alias points at its
 * anchor (the definition is where the text is), so both share a spot; a node reached
 * twice is indexed once, which also ends recursive aliases.
 */
export function indexDocument(
  document: Document.Parsed,
  fallbackOffset: number,
  depth = Number.POSITIVE_INFINITY,
): DocumentSpots {
  const spots = new Map<Node, NodeSpot>();
  const spotOf = (node: Node | undefined, level: number): NodeSpot | undefined => {
    const target = resolveAlias(document, node);
    if (target === undefined) return undefined;
    const known = spots.get(target);
    if (known !== undefined) return known;
    const spot: NodeSpot = { offset: target.range?.[0] };
    spots.set(target, spot);
    if ((isMap(target) || isSeq(target)) && level >= depth) {
      spot.unindexed = true;
    } else if (isMap(target)) {
      spot.entries = target.items.map((pair) => ({
        key: keyText(pair),
        keyOffset: asNode(pair.key)?.range?.[0],
        value: spotOf(asNode(pair.value), level + 1),
      }));
    } else if (isSeq(target)) {
      spot.items = target.items.map((item) => spotOf(asNode(item), level + 1));
    }
    return spot;
  };
  return { root: spotOf(document.contents ?? undefined, 0), fallbackOffset };
}

function resolveAlias(document: Document.Parsed, node: Node | undefined): Node | undefined {
  let current = node;
  for (let hops = 0; isAlias(current) && hops < 16; hops += 1) {
    current = asNode(current.resolve(document));
  }
  return isAlias(current) ? undefined : current;
}

function asNode(value: unknown): Node | undefined {
  return value !== null && typeof value === 'object' && 'range' in value ? (value as Node) : undefined;
}

function keyText(pair: Pair): string | undefined {
  const key = pair.key;
  if (isScalar(key)) return String(key.value);
  return typeof key === 'string' || typeof key === 'number' ? String(key) : undefined;
}
