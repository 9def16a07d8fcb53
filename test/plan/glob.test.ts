import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ViewctlError } from '../../src/errors.js';
import { loadManifests } from '../../src/manifest/load.js';
import { memoryManifestSource } from '../../src/manifest/source.js';
import { GLOB_INVALID, compileGlobs, compileNameGlob, escapeGlob, globProblem } from '../../src/text/glob.js';
import { editDistance, suggestNames } from '../../src/text/suggest.js';

const matches = (glob: string, name: string): boolean => compileNameGlob(glob)(name);

describe('globs', () => {
  it('match * and ? and nothing else specially', () => {
    expect(matches('Scratch *', 'Scratch ')).toBe(true);
    expect(matches('Scratch *', 'Scratch pad 2')).toBe(true);
    expect(matches('Scratch *', 'scratch pad')).toBe(false);
    expect(matches('v?', 'v1')).toBe(true);
    expect(matches('v?', 'v12')).toBe(false);
    expect(matches('a.b (c)+[d]', 'a.b (c)+[d]')).toBe(true);
    expect(matches('a.b', 'axb')).toBe(false);
    expect(compileGlobs(['x*', 'Tmp*'])('Tmp 1')).toBe('Tmp*');
    expect(compileGlobs([])('anything')).toBeUndefined();
  });

  it('compile globs with - and other punctuation (they used to crash the regex compiler)', () => {
    expect(matches('Scratch-*', 'Scratch-1')).toBe(true);
    expect(matches('Q1 - {old} @(x) !y', 'Q1 - {old} @(x) !y')).toBe(true);
    expect(matches('a{b,c}', 'ab')).toBe(false);
  });

  it('treat names as text, not paths: * crosses / and matches dot names', () => {
    expect(matches('*', 'Q1/Q2 deals')).toBe(true);
    expect(matches('a?c', 'a/c')).toBe(true);
    expect(matches('*', '..')).toBe(true);
    expect(matches('*', 'line\nbreak')).toBe(true);
  });

  it('escape with a backslash; a trailing backslash or an empty glob is a coded error', () => {
    expect(matches('\\*', '*')).toBe(true);
    expect(matches('\\*', 'a')).toBe(false);
    expect(globProblem('x\\')).toContain('escapes nothing');
    expect(globProblem('')).toBeDefined();
    expect(globProblem('ok*')).toBeUndefined();
  });

  it('fuzz: any glob compiles or fails with glob.invalid, and an escaped name matches itself', () => {
    fc.assert(fc.property(fc.string({ unit: 'grapheme-composite', maxLength: 30 }), fc.string({ maxLength: 20 }), (glob, name) => {
      try {
        const test = compileNameGlob(glob);
        expect(typeof test(name)).toBe('boolean');
      } catch (error) {
        expect(error).toBeInstanceOf(ViewctlError);
        expect((error as ViewctlError).code).toBe(GLOB_INVALID);
      }
    }), { numRuns: 200 });
    fc.assert(fc.property(fc.string({ unit: 'binary', minLength: 1, maxLength: 30 }), (name) => {
      expect(matches(escapeGlob(name), name)).toBe(true);
      expect(matches(escapeGlob(name), `${name}x`)).toBe(false);
    }), { numRuns: 200 });
  });
});

describe('validate', () => {
  it('rejects an ignore glob that cannot be compiled, at its position', async () => {
    const source = memoryManifestSource({ 'workspace.yaml': 'kind: Workspace\nprune: true\nignore:\n  - "Scratch-*"\n  - "tmp\\\\"\n' });
    const { problems } = await loadManifests(['.'], source);
    expect(problems.map((problem) => `${problem.file}:${problem.line}:${problem.column} ${problem.code}`)).toEqual(['workspace.yaml:5:5 glob.invalid']);
  });
});

describe('did you mean', () => {
  it('suggests close names, nearest first', () => {
    expect(editDistance('kitten', 'sitting')).toBe(3);
    expect(suggestNames('Demo', ['Demos', 'Calls', 'demo'])).toEqual(['demo', 'Demos']);
    expect(suggestNames('Zzzzzz', ['Calls'])).toEqual([]);
  });
});
