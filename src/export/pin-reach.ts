import type { ApiUser } from '../domain/api-types.js';
import { compileNameGlob } from '../text/glob.js';

/**
 * How an exported group document names its members, the way a person would (README,
 * "export"): by roles when the members are exactly the active members of those roles;
 * else by one glob that reaches exactly them among the active members (their mail
 * domain, `*@sales.acme.com`, or a shared start, `sales.*@acme.com`); else by their
 * addresses. Exactly, but for members whose own document manages the group's domains
 * (a member's document wins over groups, README "Manifests"): a role or glob that
 * reached any other member would manage that member's list, and the plan of the export
 * would not be a no-op.
 */

/** GroupReach is how a group document names its members: `roles`, or `users` (one glob, or the addresses). */
export type GroupReach = { roles: string[] } | { users: string[] };

/** NamedReach is a group's reach and the name it is written under. */
interface NamedReach {
  name: string;
  reach: GroupReach;
  /** Members the role or glob reaches whose own document wins over the group. */
  exceptions: number;
}

/** ADDRESSES_IN_NAME is how many addresses a group's name spells before "and N others". */
const ADDRESSES_IN_NAME = 3;

/**
 * pinReach names `members` (active, sorted by email) among `active`, every active
 * member; `exempt` tells a member whose own document manages the group's domains.
 */
export function pinReach(
  members: readonly ApiUser[],
  active: readonly ApiUser[],
  exempt: (user: ApiUser) => boolean,
): NamedReach {
  const emails = new Set(members.map((user) => user.email.toLowerCase()));
  // The exceptions a reach needs, or undefined when it reaches a member it must not.
  const exceptions = (reaches: (user: ApiUser) => boolean): number | undefined => {
    let count = 0;
    let others = 0;
    for (const user of active) {
      if (!reaches(user)) continue;
      if (emails.has(user.email.toLowerCase())) count += 1;
      else if (exempt(user)) others += 1;
      else return undefined;
    }
    return count === emails.size ? others : undefined;
  };
  const roles = [...new Set(members.map((user) => user.role))].sort(roleOrder);
  const byRoles = exceptions((user) => roles.includes(user.role));
  if (byRoles !== undefined) {
    return {
      name: `${roles.length === 1 ? 'Role' : 'Roles'} ${roles.join(', ')}`,
      reach: { roles },
      exceptions: byRoles,
    };
  }
  for (const glob of globCandidates([...emails])) {
    const test = compileNameGlob(glob);
    const byGlob = exceptions((user) => test(user.email.toLowerCase()));
    if (byGlob !== undefined) return { name: `Users ${glob}`, reach: { users: [glob] }, exceptions: byGlob };
  }
  const addresses = members.map((user) => user.email);
  return { name: addressesName(addresses), reach: { users: addresses }, exceptions: 0 };
}

/** ROLE_ORDER lists roles from the most to the least privileged, as the schema does. */
const ROLE_ORDER = ['Owner', 'Admin', 'Member'];

function roleOrder(a: string, b: string): number {
  return ROLE_ORDER.indexOf(a) - ROLE_ORDER.indexOf(b);
}

/**
 * globCandidates are the globs a person would write for lower-cased `emails`, most
 * general first: the mail domain they share, then the start of the address they share
 * up to a separator (`.`, `-`, `_`, `+`).
 */
export function globCandidates(emails: readonly string[]): string[] {
  const parts = emails.map((email) => {
    const at = email.lastIndexOf('@');
    return { local: email.slice(0, at), domain: email.slice(at + 1) };
  });
  const domain = parts[0]?.domain;
  if (domain === undefined || parts.some((part) => part.domain !== domain || part.local === '')) return [];
  const globs = [`*@${escapeGlob(domain)}`];
  const prefix = commonPrefix(parts.map((part) => part.local));
  const cut = Math.max(...['.', '-', '_', '+'].map((separator) => prefix.lastIndexOf(separator)));
  if (cut > 0) globs.push(`${escapeGlob(prefix.slice(0, cut + 1))}*@${escapeGlob(domain)}`);
  return globs;
}

function commonPrefix(texts: readonly string[]): string {
  let prefix = texts[0] ?? '';
  for (const text of texts) {
    let length = 0;
    while (length < prefix.length && length < text.length && prefix[length] === text[length]) length += 1;
    prefix = prefix.slice(0, length);
  }
  return prefix;
}

/** escapeGlob makes `*`, `?` and `\` in an address literal, so a glob reaches only what it spells. */
function escapeGlob(text: string): string {
  return text.replace(/[*?\\]/g, (char) => `\\${char}`);
}

/**
 * addressesName names a group by its addresses: up to three, else their count and the
 * mail domain they share (`48 members at sales.acme.com`), else the first three and how
 * many others.
 */
function addressesName(emails: readonly string[]): string {
  const domains = new Set(emails.map((email) => email.slice(email.lastIndexOf('@') + 1).toLowerCase()));
  const [domain] = domains;
  if (emails.length > ADDRESSES_IN_NAME && domains.size === 1 && domain !== undefined) {
    return `${emails.length} members at ${domain}`;
  }
  if (emails.length <= ADDRESSES_IN_NAME) {
    return emails.length === 1 ? (emails[0] ?? '') : `${emails.slice(0, -1).join(', ')} and ${emails.at(-1) ?? ''}`;
  }
  const others = emails.length - ADDRESSES_IN_NAME;
  return `${emails.slice(0, ADDRESSES_IN_NAME).join(', ')} and ${others} other${others === 1 ? '' : 's'}`;
}
