import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { nodeManifestSource } from '../../src/manifest/source.js';

const root = mkdtempSync(join(tmpdir(), 'viewctl-walk-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('nodeManifestSource list', () => {
  mkdirSync(join(root, 'repo', 'work', 'sub'), { recursive: true });
  mkdirSync(join(root, 'other'), { recursive: true });
  for (const file of ['repo/top.yaml', 'repo/work/here.yaml', 'repo/work/sub/deep.yml', 'other/far.yaml'])
    writeFileSync(join(root, file), 'kind: DealView\nname: x\n');
  const source = nodeManifestSource(join(root, 'repo', 'work'));

  it('names files below the working directory relative to it', async () => {
    expect((await source.list('.')).files).toEqual(['here.yaml', 'sub/deep.yml']);
    expect((await source.list('sub')).files).toEqual(['sub/deep.yml']);
  });

  it('names files of a walk that passes back through the working directory as from it', async () => {
    expect((await source.list('..')).files).toEqual(['../top.yaml', 'here.yaml', 'sub/deep.yml']);
    expect((await source.list('../../other')).files).toEqual(['../../other/far.yaml']);
  });
});
