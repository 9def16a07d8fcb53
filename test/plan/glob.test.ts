import { describe, expect, it } from 'vitest';
import { compileGlobs, globToRegExp } from '../../src/plan/glob.js';
import { editDistance, suggestNames } from '../../src/plan/suggest.js';

describe('globs', () => {
  it('match * and ? and nothing else specially', () => {
    expect(globToRegExp('Scratch *').test('Scratch ')).toBe(true);
    expect(globToRegExp('Scratch *').test('Scratch pad 2')).toBe(true);
    expect(globToRegExp('Scratch *').test('scratch pad')).toBe(false);
    expect(globToRegExp('v?').test('v1')).toBe(true);
    expect(globToRegExp('v?').test('v12')).toBe(false);
    expect(globToRegExp('a.b (c)+[d]').test('a.b (c)+[d]')).toBe(true);
    expect(globToRegExp('a.b').test('axb')).toBe(false);
    expect(compileGlobs(['x*', 'Tmp*'])('Tmp 1')).toBe('Tmp*');
    expect(compileGlobs([])('anything')).toBeUndefined();
  });
});

describe('did you mean', () => {
  it('suggests close names, nearest first', () => {
    expect(editDistance('kitten', 'sitting')).toBe(3);
    expect(suggestNames('Demo', ['Demos', 'Calls', 'demo'])).toEqual(['demo', 'Demos']);
    expect(suggestNames('Zzzzzz', ['Calls'])).toEqual([]);
  });
});
