import { describe, expect, it } from 'vitest';
import { checkOutOfManifests } from '../../src/flows/plan-out-path.js';

/** `plan --out manifests/plan.yaml` wrote JSON the next validate loaded as a manifest (issue 36). */
describe('checkOutOfManifests', () => {
  const refuse = (out: string, paths: string[]) => () => checkOutOfManifests(out, paths, '/repo');

  it('refuses a .yaml or .yml name inside a manifest folder or equal to a manifest path', () => {
    expect(refuse('manifests/plan.yaml', ['manifests'])).toThrow(
      expect.objectContaining({ code: 'output.in-manifests', exitCode: 1 }),
    );
    expect(refuse('/repo/manifests/deep/plan.YML', ['manifests'])).toThrow(/inside the manifest path manifests/);
    expect(refuse('plan.yaml', [])).toThrow(/inside the manifest path \./);
    expect(refuse('one.yaml', ['one.yaml'])).toThrow(/output\.in-manifests|manifest path one\.yaml/);
  });

  it('lets a JSON name anywhere, and a YAML name outside the manifest paths, through', () => {
    expect(refuse('manifests/plan.json', ['manifests'])).not.toThrow();
    expect(refuse('plan.yaml', ['manifests'])).not.toThrow();
    expect(refuse('manifests-plan.yaml', ['manifests'])).not.toThrow();
    expect(refuse('../plan.yaml', ['.'])).not.toThrow();
  });
});
