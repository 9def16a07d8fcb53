import fc from 'fast-check';

/**
 * Byte and line mutations of manifest files, for fuzzing the loader with inputs
 * that are close to real manifests: lines deleted, duplicated or swapped, tabs,
 * anchors, aliases, merge keys, tags, deep nesting, long lines, NUL bytes and
 * invalid UTF-8.
 */

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** DEEP is how deep the nesting mutation nests: far beyond any manifest. */
export const DEEP = 10_000;

/** Mutation is one change to a file's bytes; `at` and `other` pick places, modulo the size. */
export type Mutation =
  | { type: 'delete-line' | 'duplicate-line' | 'insert-tab' | 'anchor' | 'alias' | 'merge' | 'binary-tag'; at: number }
  | { type: 'swap-lines'; at: number; other: number }
  | { type: 'deep-flow' | 'deep-block' | 'long-line'; at: number; size: number }
  | ByteMutation;

/** ByteMutation is a mutation of bytes rather than lines. */
type ByteMutation = { type: 'nul' | 'truncate'; at: number } | { type: 'invalid-utf8'; at: number; bytes: number[] };

/** INVALID_UTF8 are byte sequences no UTF-8 decoder accepts. */
export const INVALID_UTF8: readonly number[][] = [
  [0xff],
  [0xc3],
  [0xc0, 0xaf],
  [0xed, 0xa0, 0x80],
  [0xf8, 0x88, 0x80, 0x80, 0x80],
  [0x80],
];

/** mutation is a random Mutation; heavy ones (deep nesting, long lines) are rarer. */
export const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({
      type: fc.constantFrom(
        'delete-line' as const,
        'duplicate-line' as const,
        'insert-tab' as const,
        'anchor' as const,
        'alias' as const,
        'merge' as const,
        'binary-tag' as const,
      ),
      at: fc.nat(),
    }),
  },
  { weight: 1, arbitrary: fc.record({ type: fc.constantFrom('nul' as const, 'truncate' as const), at: fc.nat() }) },
  { weight: 2, arbitrary: fc.record({ type: fc.constant('swap-lines' as const), at: fc.nat(), other: fc.nat() }) },
  {
    weight: 1,
    arbitrary: fc.record({
      type: fc.constant('invalid-utf8' as const),
      at: fc.nat(),
      bytes: fc.constantFrom(...INVALID_UTF8),
    }),
  },
  // Sizes stay modest here to keep runs fast; the tests also try DEEP once per style.
  {
    weight: 1,
    arbitrary: fc.record({
      type: fc.constantFrom('deep-flow' as const, 'deep-block' as const, 'long-line' as const),
      at: fc.nat(),
      size: fc.integer({ min: 100, max: 1500 }),
    }),
  },
);

/** mutate applies one mutation to a file's bytes. */
export function mutate(bytes: Uint8Array, change: Mutation): Uint8Array {
  if (change.type === 'invalid-utf8' || change.type === 'nul' || change.type === 'truncate')
    return mutateBytes(bytes, change);
  const lines = decoder.decode(bytes).split('\n');
  const pick = (n: number): number => n % Math.max(1, lines.length);
  const i = pick(change.at);
  const line = lines[i] ?? '';
  const colon = line.indexOf(': ');
  const valueAt = colon < 0 ? line.length : colon + 2;
  switch (change.type) {
    case 'delete-line':
      lines.splice(i, 1);
      break;
    case 'duplicate-line':
      lines.splice(i, 0, line);
      break;
    case 'swap-lines': {
      const j = pick(change.other);
      [lines[i], lines[j]] = [lines[j] ?? '', line];
      break;
    }
    case 'insert-tab':
      lines[i] = `${line.slice(0, change.at % (line.length + 1))}\t${line.slice(change.at % (line.length + 1))}`;
      break;
    case 'anchor':
      lines[i] = `${line.slice(0, valueAt)}&a ${line.slice(valueAt)}`;
      break;
    case 'alias':
      lines[i] = `${line.slice(0, valueAt)}*a`;
      break;
    case 'merge':
      lines.splice(i, 0, `${leadingSpace(line)}<<: *a`);
      break;
    case 'binary-tag':
      lines[i] = `${line.slice(0, valueAt)}!!binary ${line.slice(valueAt)}`;
      break;
    case 'deep-flow':
      lines.splice(i, 0, `deep: ${'['.repeat(change.size)}1${']'.repeat(change.size)}`);
      break;
    case 'deep-block':
      // Block nesting costs its indentation squared in bytes: nest as deep as fits under 5 MiB.
      lines.splice(
        i,
        0,
        ...Array.from({ length: Math.min(change.size, 2000) }, (_, depth) => `${' '.repeat(depth)}k${depth}:`),
      );
      break;
    case 'long-line':
      lines.splice(i, 0, `name: ${'x'.repeat(change.size * 100)}`);
      break;
  }
  return encoder.encode(lines.join('\n'));
}

function mutateBytes(bytes: Uint8Array, change: ByteMutation): Uint8Array {
  const at = change.at % (bytes.length + 1);
  if (change.type === 'truncate') return bytes.slice(0, at);
  const inserted = 'bytes' in change ? change.bytes : [0];
  const out = new Uint8Array(bytes.length + inserted.length);
  out.set(bytes.subarray(0, at), 0);
  out.set(inserted, at);
  out.set(bytes.subarray(at), at + inserted.length);
  return out;
}

function leadingSpace(line: string): string {
  return /^\s*/.exec(line)?.[0] ?? '';
}
