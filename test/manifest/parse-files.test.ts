import { describe, expect, it } from 'vitest';
import { parseWithYaml } from '../../src/manifest/yaml-file.js';

describe('parseWithYaml', () => {
  it('parses with a plain copy of process.env, and puts the real one back, also when parsing throws', () => {
    const environment = process.env;
    let during: NodeJS.ProcessEnv | undefined;
    const unreadable = {
      file: 'a.yaml',
      get text(): string {
        during = process.env;
        throw new Error('unreadable text');
      },
    };
    expect(() => parseWithYaml([unreadable])).toThrow('unreadable text');
    expect(during).not.toBe(environment);
    expect(during).toEqual({ ...environment });
    expect(process.env).toBe(environment);
    const [parsed] = parseWithYaml([{ file: 'b.yaml', text: 'kind: DealView\nname: Deals\n' }]);
    expect(parsed?.documents[0]?.body).toEqual({ kind: 'DealView', name: 'Deals' });
    expect(process.env).toBe(environment);
  });
});
