import { parseDocument } from 'yaml';
import { describe, expect, it } from 'vitest';
import { indexDocument } from '../../src/manifest/yaml-index.js';
import { locateOffset } from '../../src/manifest/yaml-positions.js';

const text = 'kind: RecordingView\nname: Calls\nfilters:\n  sourceIn: [Call, Zoom]\nalias: &a {x: 1}\nagain: *a\n';
const document = parseDocument(text);

describe('indexDocument and locateOffset', () => {
  it('finds values, keys, aliases (at their anchor) and the closest ancestor of what is absent', () => {
    const spots = indexDocument(document, 0);
    expect(locateOffset(spots, '/name')).toBe(text.indexOf('Calls'));
    expect(locateOffset(spots, '/name', true)).toBe(text.indexOf('name'));
    expect(locateOffset(spots, '/filters/sourceIn/1')).toBe(text.indexOf('Zoom'));
    expect(locateOffset(spots, '/filters/stateIn')).toBe(text.indexOf('sourceIn'));
    expect(locateOffset(spots, '/again/x')).toBe(text.indexOf('1}'));
  });

  it('built to a depth, answers down to it and says when a pointer goes further', () => {
    const shallow = indexDocument(document, 0, 1);
    expect(locateOffset(shallow, '/name')).toBe(text.indexOf('Calls'));
    expect(locateOffset(shallow, '/filters')).toBe(text.indexOf('sourceIn'));
    expect(locateOffset(shallow, '/filters', true)).toBe(text.indexOf('filters'));
    expect(locateOffset(shallow, '/missing')).toBe(0);
    expect(locateOffset(shallow, '/filters/sourceIn')).toBeUndefined();
  });
});
