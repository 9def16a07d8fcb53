import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

// Lives under test/ because the repository keeps its top level to the files the
// layout names. Vitest 4 no longer skips dist/, hence the explicit include.
export default defineConfig({
  test: {
    root: new URL('..', import.meta.url).pathname,
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // Vitest's default is one worker fewer than the cores: a single worker on two, and
    // many files mostly wait on sockets and child processes. Two at least.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    // A worker keeps its modules from one test file to the next instead of starting a
    // fresh process per file (a third of the run was start-up and imports). No test
    // mocks modules, stubs globals or changes process state, and the source keeps no
    // state between runs but caches of compiled schemas (a test that registers a kind
    // removes it again when its file ends).
    isolate: false,
  },
});
