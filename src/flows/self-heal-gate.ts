import { checkRepairBase, reviewDue, type ManifestsCommit, type ReviewDue } from '../apply/repair.js';
import { untrackedManifests, untrackedWords } from '../manifest/git-files.js';
import { manifestRepository, type ManifestsHead } from '../manifest/git-source.js';
import { descendsFrom, hasCommit, sameManifestsAt } from '../manifest/git-trees.js';
import { emptyMemory, type SweepMemory } from '../state/sweep-memory.js';
import { shownPath, sortedPaths } from './applied-record.js';

/** LoadedManifests are the manifests as a run loaded them: the paths given, the files read (absolute), the digest of the desired state, and where git stood then. */
export interface LoadedManifests {
  paths: readonly string[];
  cwd: string;
  files: readonly string[];
  digest: string;
  read: ManifestsHead | undefined;
}

/**
 * checkSelfHeal is self-heal's review gate, run once, before any request: it asks git
 * what the memory's record claims (is the recorded commit HEAD or an ancestor of it,
 * with the same manifests; is every file read the content git tracks at HEAD) and hands
 * that, with the paths and the digest of the desired state loaded, to `checkRepairBase`,
 * which refuses anything but the desired state a complete reviewed apply carried out.
 */
export async function checkSelfHeal(memory: SweepMemory | undefined, loaded: LoadedManifests): Promise<void> {
  checkRepairBase(memory, memory?.lastApplied === undefined ? undefined : await repairBase(memory, loaded));
}

/**
 * selfHealDue is the same gate answering why a reviewed apply is due (`reviewDue`), or
 * undefined when self-heal may repair; no memory at all (`--ledger` not given) is
 * still refused (`checkRepairBase`).
 */
export async function selfHealDue(
  memory: SweepMemory | undefined,
  loaded: LoadedManifests,
): Promise<ReviewDue | undefined> {
  if (memory === undefined) checkRepairBase(memory, undefined);
  return reviewDue(
    memory?.lastApplied,
    memory?.lastApplied === undefined ? undefined : await repairBase(memory ?? emptyMemory(), loaded),
  );
}

/** repairBase is what git says of the loaded manifests against the memory's last applied commit (`ManifestsCommit`); undefined outside git. */
async function repairBase(memory: SweepMemory, loaded: LoadedManifests): Promise<ManifestsCommit | undefined> {
  const { read, paths, cwd } = loaded;
  const repository = await manifestRepository(paths, cwd);
  if (read === undefined || repository === undefined) return undefined;
  const untracked = await untrackedManifests(repository.root, loaded.files, (file) => shownPath(cwd, file));
  const base: ManifestsCommit = {
    ...read,
    paths: sortedPaths(repository.inRepo),
    digest: loaded.digest,
    untracked:
      untracked === undefined
        ? ['git could not tell whether the manifests read are the ones it tracks']
        : untracked.map(untrackedWords),
  };
  const applied = memory.lastApplied?.commit;
  if (applied === undefined || applied === read.commit) return base;
  const folder = repository.root;
  // A checkout without the last applied commit cannot compare: the refusal then says to fetch the history.
  if (!(await hasCommit(applied, folder))) return { ...base, lacks: applied };
  if (!(await descendsFrom(read.commit, applied, folder))) return { ...base, offHistory: applied };
  return (await sameManifestsAt(read.commit, applied, repository.inRepo, folder))
    ? { ...base, sameManifestsAs: applied }
    : base;
}
