import { defineConfig } from 'vitest/config';

// Lives under test/ because the repository keeps its top level to the files the
// layout names. Vitest 4 no longer skips dist/, hence the explicit include.
export default defineConfig({
  test: {
    root: new URL('..', import.meta.url).pathname,
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
