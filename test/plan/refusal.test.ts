import { describe, expect, it } from 'vitest';
import { sortReasons, type RefusalReason } from '../../src/plan/refusal.js';
import { at } from './fixtures.js';

/** The order refusals are shown in (refusal.ts): the same reasons always print the same way. */

const reason = (code: string, message: string, source?: ReturnType<typeof at>): RefusalReason => ({
  code,
  message,
  wayOut: 'fix it',
  ids: [],
  ...(source === undefined ? {} : { source }),
});

describe('sortReasons', () => {
  it('puts reasons without a position first, then orders by file, line, column, code and message', () => {
    const reasons = [
      reason('b.code', 'second', at('a.yaml', 2, 1)),
      reason('b.code', 'first', at('a.yaml', 2, 1)),
      reason('a.code', 'x', at('a.yaml', 2, 1)),
      reason('z.code', 'x', at('a.yaml', 1, 9)),
      reason('z.code', 'x', at('B.yaml', 1, 1)),
      reason('z.code', 'plan-wide'),
    ];
    expect(
      sortReasons(reasons).map(
        (entry) => `${entry.source?.file ?? '-'}:${entry.source?.line ?? 0} ${entry.code} ${entry.message}`,
      ),
    ).toEqual([
      '-:0 z.code plan-wide',
      'B.yaml:1 z.code x',
      'a.yaml:1 z.code x',
      'a.yaml:2 a.code x',
      'a.yaml:2 b.code first',
      'a.yaml:2 b.code second',
    ]);
  });
});
