import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { expect } from 'vitest';

/** snapshot reads every file below `root`, hidden ones included, as bytes, keyed by its path from `root`. */
export async function snapshot(root: string): Promise<Map<string, Buffer>> {
  const files = new Map<string, Buffer>();
  for (const entry of await readdir(root, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const path = join(entry.parentPath, entry.name);
    files.set(relative(root, path).split('\\').join('/'), await readFile(path));
  }
  return files;
}

/** edit rewrites a file as a person would, and fails the test when `change` left it as it was. */
export async function edit(path: string, change: (text: string) => string): Promise<void> {
  const before = await readFile(path, 'utf8');
  const after = change(before);
  expect(after, path).not.toBe(before);
  await writeFile(path, after);
}
