import { ViewctlError } from '../errors.js';
import { unrealDateProblems } from './memory-dates.js';
import { memoryShapeProblems } from './memory-schema.js';
import { emptyMemory, type SweepMemory } from './sweep-memory.js';

/**
 * Reading the sweep memory file (`--ledger FILE`, README "The sweep memory"). A file
 * that is not a memory of this workspace is never used and never written over: the
 * run stops with what is wrong and the way out, before any pinned list is read.
 */

/** LEDGER_WAY_OUT is the hint of every refusal of the file: the memory is advice, so starting anew is always safe. */
const LEDGER_WAY_OUT =
  'point --ledger at another file, or delete this one: the next run writes a new memory (without it viewctl only knows less)';

/**
 * parseMemoryFile reads the text of the memory file `file` (named in messages).
 * `undefined` (no file yet) is an empty memory: the first run creates it. Text that is
 * not JSON, or JSON that is not a memory of format 1 (the schema's account, each problem
 * with its JSON path), or that holds a date naming no instant (each with its JSON path
 * and FILE:LINE:COLUMN), is `ledger.invalid`.
 */
export function parseMemoryFile(text: string | undefined, file: string): SweepMemory {
  if (text === undefined) return emptyMemory();
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw invalid(file, `it is not JSON${whereBroken(text, file, message)} (${message})`);
  }
  const shape = memoryShapeProblems(data);
  const problems = shape.length > 0 ? shape : unrealDateProblems(data as SweepMemory, text, file);
  if (problems.length > 0) {
    throw invalid(
      file,
      problems.slice(0, 5).join('; ') + (problems.length > 5 ? `; and ${problems.length - 5} more` : ''),
    );
  }
  return data as SweepMemory;
}

/** formatMemoryFile is the text of the memory file: `memory` as JSON, two spaces, a final newline (the schema's form, keys as given). */
export function formatMemoryFile(memory: SweepMemory): string {
  return `${JSON.stringify(memory, null, 2)}\n`;
}

/** whereBroken is ` at FILE:LINE:COLUMN` of the offset a JSON.parse message names (`at position N`), or nothing when it names none. */
function whereBroken(text: string, file: string, message: string): string {
  const match = /position (\d+)/.exec(message);
  if (match === null) return '';
  const offset = Math.min(Number(match[1]), text.length);
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  const column = offset - (before.lastIndexOf('\n') + 1) + 1;
  return ` at ${file}:${line}:${column}`;
}

function invalid(file: string, why: string): ViewctlError {
  return new ViewctlError(
    'ledger.invalid',
    `--ledger ${file} is not a viewctl sweep memory, so it is neither used nor written over: ${why}`,
    { hint: LEDGER_WAY_OUT },
  );
}

/**
 * checkMemoryWorkspace refuses a memory of another workspace than the key's
 * (`ledger.other-workspace`): what it remembers of lists and views is not this
 * workspace's. Called on the workspace's answer, the first read, before any other read
 * uses the memory and before anything is written. A memory without a workspace (a new
 * file) fits any.
 */
export function checkMemoryWorkspace(
  memory: SweepMemory,
  workspace: { id: string; name?: string },
  file: string,
): void {
  if (memory.workspaceId === undefined || memory.workspaceId === workspace.id) return;
  const name = workspace.name === undefined ? '' : ` (${JSON.stringify(workspace.name)})`;
  throw new ViewctlError(
    'ledger.other-workspace',
    `--ledger ${file} is the memory of workspace ${memory.workspaceId}, but the API key is for workspace ${workspace.id}${name}; it is neither used nor written over`,
    { hint: LEDGER_WAY_OUT },
  );
}
