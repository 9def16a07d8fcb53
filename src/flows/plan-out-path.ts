import { isAbsolute, relative, resolve } from 'node:path';
import { UsageError } from '../errors.js';

/**
 * checkOutOfManifests refuses, before any file is read or request sent, a `--out FILE`
 * whose name ends in `.yaml` or `.yml` inside the manifest paths (`paths`, files or
 * folders, as the command was given them; `.` when none): every such file is loaded as a
 * manifest, so the JSON plan written there would fail the next `validate` and `plan`.
 */
export function checkOutOfManifests(out: string, paths: readonly string[], cwd: string): void {
  if (!/\.ya?ml$/i.test(out)) return;
  const target = resolve(cwd, out);
  const holder = (paths.length === 0 ? ['.'] : paths).find((path) => {
    const inside = relative(resolve(cwd, path), target);
    return inside === '' || (!inside.startsWith('..') && !isAbsolute(inside));
  });
  if (holder === undefined) return;
  throw new UsageError(
    'output.in-manifests',
    `--out ${out} is a YAML file inside the manifest path ${holder}: the JSON plan written there would be loaded as a manifest and fail the next validate and plan; nothing was read from the service`,
    `write the plan outside the manifests, or under a .json name: e.g. --out plan.json`,
  );
}
