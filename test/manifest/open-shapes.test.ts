import { describe, expect, it } from 'vitest';
import { loadManifests } from '../../src/manifest/load.js';
import { memoryManifestSource } from '../../src/manifest/source.js';

async function codes(text: string): Promise<string[]> {
  return (await loadManifests(['m.yaml'], memoryManifestSource({ 'm.yaml': text }))).problems.map(
    (problem) => problem.code,
  );
}

describe('shapes the service allows are valid manifests (export writes them)', () => {
  it('a deal owner filter holds emails or {type: Me} (service rule 7), and excluding Me warns', async () => {
    expect(await codes('kind: DealView\nname: Mine\nfilters:\n  ownerEmailIn: [{type: Me}, max@acme.test]\n')).toEqual(
      [],
    );
    expect(await codes('kind: DealView\nname: Not mine\nfilters:\n  ownerEmailNotIn: [{type: Me}]\n')).toEqual([
      'filter.excludes-me',
    ]);
    expect(await codes('kind: DealView\nname: Bad\nfilters:\n  ownerEmailIn: [{type: User}]\n')).not.toEqual([]);
  });

  it('automation filter types and actions the service does not show are allowed; the shown shapes stay exact', async () => {
    const open =
      'kind: AdminAutomations\nautomations:\n  - name: A\n    filters: [{type: Channel, channelId: c1}]\n    actions: {autoTag: {tag: x}}\n';
    expect(await codes(open)).toEqual([]);
    const typo = 'kind: AdminAutomations\nautomations:\n  - name: A\n    actions: {autoRecord: {onlyHostd: true}}\n';
    expect(await codes(typo)).toEqual(['schema.unknown-attribute']);
  });
});

describe('values the service refuses are refused before any write', () => {
  it('a blank view name, and an empty icon', async () => {
    expect(await codes('kind: RecordingView\nname: "   "\n')).toEqual(['schema.pattern']);
    expect(await codes('kind: RecordingView\nname: X\nicon: ""\n')).toEqual(['schema.min-length']);
    expect(await codes('kind: RecordingView\nname: X\nicon: null\n')).toEqual([]);
  });
});
