import { describe, expect, it } from 'vitest';
import { parseEntries } from '../../src/manifest/parse-files.js';

describe('parseEntries', () => {
  it('parses with a plain copy of process.env, and puts the real one back, also when parsing throws', () => {
    const environment = process.env;
    let during: NodeJS.ProcessEnv | undefined;
    const bytes = {
      get byteLength(): number {
        during = process.env;
        throw new Error('unreadable bytes');
      },
    } as unknown as Uint8Array;
    expect(() => parseEntries([{ file: 'a.yaml', bytes }])).toThrow('unreadable bytes');
    expect(during).not.toBe(environment);
    expect(during).toEqual({ ...environment });
    expect(process.env).toBe(environment);
    const [parsed] = parseEntries([{ file: 'b.yaml', bytes: new TextEncoder().encode('kind: DealView\nname: Deals\n') }]);
    expect(parsed?.documents[0]?.body).toEqual({ kind: 'DealView', name: 'Deals' });
    expect(process.env).toBe(environment);
  });
});
