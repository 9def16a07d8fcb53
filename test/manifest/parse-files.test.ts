import { describe, expect, it } from 'vitest';
import { parseWithYaml } from '../../src/manifest/yaml-file.js';

describe('parseWithYaml', () => {
  it('parses with the process environment as it is: process.env is never replaced, not even while yaml parses', () => {
    const environment = process.env;
    let during: NodeJS.ProcessEnv | undefined;
    const watched = {
      file: 'a.yaml',
      get text(): string {
        during = process.env;
        return 'kind: DealView\nname: Deals\nlist: &x [a]\n';
      },
    };
    const [parsed] = parseWithYaml([watched]);
    expect(during).toBe(environment);
    expect(process.env).toBe(environment);
    expect(parsed?.documents[0]?.body).toEqual({ kind: 'DealView', name: 'Deals', list: ['a'] });
  });
});
