import { describe, expect, it } from 'vitest';
import { decodeCursor, encodeCursor, paginate } from '../../../src/emulator/records/pagination.js';

const items = Array.from({ length: 45 }, (_, index) => index);

function page(query: string): { items: number[]; pagination: { nextCursor?: string; totalCount: number } } {
  const result = paginate(items, new URLSearchParams(query), 'items');
  if (result.status !== 200) throw new Error(`unexpected ${result.status} ${result.message}`);
  return result.result as { items: number[]; pagination: { nextCursor?: string; totalCount: number } };
}

describe('paginate', () => {
  it('defaults to 20 per page and walks every item once', () => {
    const first = page('');
    expect(first.items).toEqual(items.slice(0, 20));
    expect(first.pagination.totalCount).toBe(45);
    const seen = [...first.items];
    let cursor = first.pagination.nextCursor;
    while (cursor !== undefined) {
      const next = page(`cursor=${cursor}`);
      seen.push(...next.items);
      cursor = next.pagination.nextCursor;
    }
    expect(seen).toEqual(items);
  });

  it('omits nextCursor on the last page, also when it is exactly full', () => {
    expect(page('limit=100').pagination).toEqual({ totalCount: 45 });
    expect(page('limit=45').pagination.nextCursor).toBeUndefined();
    expect(page('limit=44').pagination.nextCursor).toBe(encodeCursor(44));
    const empty = paginate([], new URLSearchParams(), 'items');
    expect(empty).toEqual({ status: 200, result: { items: [], pagination: { totalCount: 0 } } });
  });

  it('accepts the limit bounds 1 and 100', () => {
    expect(page('limit=1').items).toEqual([0]);
    expect(page('limit=100').items).toHaveLength(45);
  });

  it.each(['0', '101', '-1', '2.5', 'ten', ''])('rejects limit=%s with path limit', (limit) => {
    expect(paginate(items, new URLSearchParams({ limit }), 'items')).toMatchObject({
      status: 400,
      type: 'validation_error',
      path: 'limit',
    });
  });

  it.each([
    'garbage!',
    '',
    'MTA',
    Buffer.from('o:-1').toString('base64url'),
    Buffer.from('o:01').toString('base64url'),
  ])('rejects cursor=%s with path cursor', (cursor) => {
    expect(paginate(items, new URLSearchParams({ cursor }), 'items')).toMatchObject({
      status: 400,
      type: 'validation_error',
      path: 'cursor',
    });
  });

  it('round-trips cursors and treats one past the end as an empty last page', () => {
    expect(decodeCursor(encodeCursor(37))).toBe(37);
    expect(page(`cursor=${encodeCursor(1000)}`)).toEqual({ items: [], pagination: { totalCount: 45 } });
  });

  it('shapes only the items of the page', () => {
    const shaped: number[] = [];
    paginate(items, new URLSearchParams('limit=3'), 'items', (item) => shaped.push(item));
    expect(shaped).toEqual([0, 1, 2]);
  });
});
