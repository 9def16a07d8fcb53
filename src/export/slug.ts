import { compareCodePoints } from '../kinds/canonical.js';

/** MAX_SLUG_LENGTH keeps file names readable and far below file-system limits. */
const MAX_SLUG_LENGTH = 60;

/**
 * slugify turns a name into a file-name stem: lowercase ASCII letters and digits
 * separated by single dashes. Accents are folded (`Café` → `cafe`); anything else
 * outside ASCII (emoji, CJK) is dropped, so the result may be empty.
 */
export function slugify(text: string): string {
  const folded = text.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase();
  const slug = folded.replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '');
  if (slug.length <= MAX_SLUG_LENGTH) return slug;
  return slug.slice(0, MAX_SLUG_LENGTH).replace(/-+$/, '');
}

/** Nameable is something that gets a file: a display name and a unique, stable id. */
interface Nameable {
  name: string;
  id: string;
}

/**
 * assignStems gives each item a unique file-name stem, keyed by id. The stem is the
 * slug of the name (the slug of the id when the name has no ASCII letter or digit).
 * Items whose stems collide all get their id's slug appended, so the result depends
 * only on the set of items, never on their order, and an item keeps its file name
 * across runs as long as no other item slugs alike.
 */
export function assignStems(items: readonly Nameable[]): Map<string, string> {
  const stems = new Map<string, string>();
  for (const item of items) stems.set(item.id, slugify(item.name) || slugify(item.id) || 'item');
  const suffixed = new Set<string>();
  // Each round suffixes every not-yet-suffixed member of a colliding group; suffixes
  // are unique per id, so this ends once only ids that slug alike still collide.
  for (;;) {
    const collisions = collidingGroups(stems);
    if (collisions.length === 0) return stems;
    let progressed = false;
    for (const group of collisions) {
      for (const id of group) {
        if (suffixed.has(id)) continue;
        const item = items.find((candidate) => candidate.id === id);
        const base = slugify(item?.name ?? '') || 'item';
        stems.set(id, `${base}-${slugify(id) || 'id'}`);
        suffixed.add(id);
        progressed = true;
      }
    }
    if (!progressed) return numberCollisions(stems, collisions);
  }
}

function collidingGroups(stems: Map<string, string>): string[][] {
  const byStem = new Map<string, string[]>();
  for (const [id, stem] of stems) {
    const group = byStem.get(stem) ?? [];
    group.push(id);
    byStem.set(stem, group);
  }
  return [...byStem.values()].filter((group) => group.length > 1);
}

/** numberCollisions is the last resort for ids that slug alike (`v_1`, `v-1`): a counter in id order. */
function numberCollisions(stems: Map<string, string>, collisions: string[][]): Map<string, string> {
  const taken = new Set(stems.values());
  for (const group of collisions) {
    const ordered = [...group].sort(compareCodePoints);
    for (const [index, id] of ordered.entries()) {
      if (index === 0) continue;
      const stem = stems.get(id) ?? 'item';
      let counter = index + 1;
      while (taken.has(`${stem}-${counter}`)) counter += 1;
      stems.set(id, `${stem}-${counter}`);
      taken.add(`${stem}-${counter}`);
    }
  }
  return stems;
}
