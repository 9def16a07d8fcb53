import { describe, expect, it } from 'vitest';
import { DOMAINS } from '../../src/domain/domains.js';
import { demoWorkspace } from '../../src/emulator/demo/demo-workspace.js';
import { RESPONSE_ONLY_FILTERS } from '../../src/emulator/views/body.js';
import { call, useEmulator } from './helpers.js';

const start = useEmulator();

describe('the demo workspace through the emulator', () => {
  it('every public demo view is accepted back by PATCH as it is listed, and nothing is written', async () => {
    const emulator = await start({ data: demoWorkspace() });
    for (const domain of DOMAINS) {
      const listed = (await call(emulator, 'GET', `/v1/${domain}/views`)).body.result as {
        viewId: string;
        isDefault: boolean;
        columns: unknown;
        filters: Record<string, unknown>;
        sort: unknown;
      }[];
      for (const view of listed.filter((entry) => !entry.isDefault)) {
        const filters = { ...view.filters };
        for (const name of RESPONSE_ONLY_FILTERS[domain]) delete filters[name];
        const reply = await call(emulator, 'PATCH', `/v1/${domain}/views/${view.viewId}`, {
          body: { columns: view.columns, filters, sort: view.sort },
        });
        expect(reply.status, `${domain} ${view.viewId}: ${JSON.stringify(reply.body)}`).toBe(200);
      }
    }
    expect(emulator.stats().writes).toBe(0);
  });

  it('the demo records list in every domain', async () => {
    const emulator = await start({ data: demoWorkspace() });
    for (const domain of DOMAINS) {
      const reply = await call(emulator, 'GET', `/v1/${domain}?limit=5`);
      expect(reply.status).toBe(200);
      expect(reply.body.result[domain].length).toBeGreaterThan(0);
    }
  });
});
