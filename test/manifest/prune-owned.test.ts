import { describe, expect, it } from 'vitest';
import { loadDesired } from '../../src/manifest/load-desired.js';
import { loadManifests } from '../../src/manifest/load.js';
import { memoryManifestSource } from '../../src/manifest/source.js';

describe('prune: owned in the Workspace document', () => {
  it('is read as prune "owned"', async () => {
    const { desired } = await loadDesired(
      ['.'],
      memoryManifestSource({ 'w.yaml': 'kind: Workspace\ncreatorEmail: ops@acme.com\nprune: owned\n' }),
    );
    expect(desired.workspace.prune).toBe('owned');
  });

  it('needs creatorEmail, reported at prune (workspace.prune-owned-no-creator)', async () => {
    const { problems } = await loadManifests(
      ['.'],
      memoryManifestSource({ 'w.yaml': 'kind: Workspace\nprune: owned\n' }),
    );
    expect(problems.map((problem) => `${problem.file}:${problem.line}:${problem.column} ${problem.code}`)).toEqual([
      'w.yaml:2:8 workspace.prune-owned-no-creator',
    ]);
  });

  it('takes no other word, with the YAML 1.2 hint for yes/no', async () => {
    const { problems } = await loadManifests(
      ['.'],
      memoryManifestSource({ 'w.yaml': 'kind: Workspace\nprune: yes\n' }),
    );
    expect(problems).toMatchObject([
      { code: 'schema.enum', pointer: '/prune', hint: 'write true or false (YAML 1.2 reads yes/no/on/off as text)' },
    ]);
  });
});
