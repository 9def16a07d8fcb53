import { DOMAINS, type Domain } from '../../src/domain/domains.js';
import type { EmulatorData } from '../../src/emulator/model.js';
import { normalizeView } from '../../src/kinds/normalize.js';

/**
 * Views of an emulator snapshot that can be compared across runs (the generic CLI
 * helpers the hardening tests use live in test/support/cli.ts).
 */

/**
 * comparable is a workspace's views and pinned tabs by name, without the ids the
 * emulator picked, so that a run under faults can be compared with a fault-free one.
 */
export function comparable(data: EmulatorData): Record<Domain, unknown> {
  const out = {} as Record<Domain, unknown>;
  for (const domain of DOMAINS) {
    const views = data.views[domain];
    const nameOf = (id: string): string => views.find((view) => view.viewId === id)?.name ?? `missing ${id}`;
    out[domain] = {
      views: views
        .map((view) => ({ ...normalizeView(domain, view), visibility: view.visibility, isDefault: view.isDefault, ownerId: view.ownerId }))
        .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)),
      pinned: Object.fromEntries(
        Object.entries(data.pinned[domain])
          .sort(([a], [b]) => (a < b ? -1 : 1))
          .map(([user, ids]) => [user, ids.map(nameOf)]),
      ),
    };
  }
  return out;
}
