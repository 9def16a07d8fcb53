import { formatMemoryFile, parseMemoryFile } from './memory-parse.js';
import type { SweepMemory } from './sweep-memory.js';

/**
 * Where the sweep memory lives, behind one small interface, so the runs that read and
 * feed it (plan, apply, self-heal) take a store by type: the file of `--ledger FILE`
 * (`fileMemoryStore`, memory-file-store.ts) or a memory held in the process
 * (`inMemoryStore`, for tests and for callers that keep it elsewhere).
 */

/**
 * MemoryStore holds one sweep memory. `read` is what it holds now; `writeMerged` is
 * the only way to write: one writer at a time, it reads what is held at that moment and
 * writes what `merge` makes of it, so two runs that overlap lose nothing either saw.
 */
export interface MemoryStore {
  /** The memory's name for messages (`--ledger FILE` as given). */
  readonly file: string;
  /**
   * read is the memory held now: an empty memory when there is none yet. Anything that
   * is not a sweep memory is `ledger.invalid`; a store that cannot be read says why
   * (`ledger.unreadable`, `output.write-failed` for a path that cannot hold the file).
   */
  read(): Promise<SweepMemory>;
  /**
   * writeMerged reads the memory held now, as `read` does (and fails as it does, writing
   * nothing), and replaces it whole with `merge(held)`, with no other writer in between.
   */
  writeMerged(merge: (held: SweepMemory) => SweepMemory): Promise<void>;
}

/** InMemoryStore is a store held in the process; `text` is what a file would hold (undefined: none yet). */
export interface InMemoryStore extends MemoryStore {
  text: string | undefined;
}

/**
 * inMemoryStore is a store held in the process, starting from `text` (a file's
 * content; undefined for none), read and written exactly as the file would be, one
 * writer at a time (writes queue behind each other).
 */
export function inMemoryStore(text?: string, file = 'ledger.json'): InMemoryStore {
  let queue: Promise<unknown> = Promise.resolve();
  const store: InMemoryStore = {
    file,
    text,
    read: async () => parseMemoryFile(store.text, file),
    writeMerged(merge) {
      const write = queue.then(async () => {
        const held = await store.read();
        store.text = formatMemoryFile(merge(held));
      });
      queue = write.catch(() => undefined);
      return write;
    },
  };
  return store;
}
