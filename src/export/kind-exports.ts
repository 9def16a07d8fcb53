import { hasManifests } from '../kinds/capabilities.js';
import { kinds } from '../kinds/kinds.js';

/**
 * unexportedKinds are the notes an export adds for each registered kind that declares
 * manifest kinds of its own (`Manifests`): export reads and writes the built-in
 * documents only, so such a kind's documents are never written, and the note says so
 * rather than leave a reviewer to think the workspace has none of them.
 */
export function unexportedKinds(): string[] {
  return kinds().flatMap((kind) =>
    hasManifests(kind) ? kind.manifests.map((entry) => `kind ${entry.kind}: not exported (no export capability)`) : [],
  );
}
