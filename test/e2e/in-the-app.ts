import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { expect } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/server.js';
import { commitAll } from './days.js';

/**
 * What people do beside viewctl in the tests of simulated days: a request as the app
 * would send it (an admin's, or a member's tabs), and a repository of manifests as a
 * team keeps them.
 */

/** inTheApp sends a request as the app would (`path` from the root, `/v1/...`), straight to the emulator; it must succeed. */
export async function inTheApp(emulator: RunningEmulator, method: string, path: string, body?: unknown): Promise<void> {
  const response = await fetch(`${emulator.url}${path}`, {
    method,
    headers: { 'x-service-key': emulator.apiKey, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  expect(response.status, `${method} ${path}`).toBeLessThan(300);
}

/** repositoryOf writes `files` (path to text) under `root` and commits them as one commit on `main`; answers `root`. */
export async function repositoryOf(root: string, files: Readonly<Record<string, string>>): Promise<string> {
  for (const [path, text] of Object.entries(files)) {
    await mkdir(dirname(join(root, path)), { recursive: true });
    await writeFile(join(root, path), text);
  }
  return commitAll(root);
}
