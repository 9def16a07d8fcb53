import { ViewctlError } from '../errors.js';
import { compileNameGlob } from '../text/glob.js';

/**
 * Which members a `PinnedViews` document targets: the one member of `userEmail`, or,
 * for a group document, every member whose email is listed in `users` (an email or a
 * glob such as `*@sales.acme.com`) or whose role is listed in `roles` (README,
 * Manifests). Emails compare case-insensitively, as the service treats them.
 */

/** PinDocumentTarget is the part of a `PinnedViews` document that names its members. */
export interface PinDocumentTarget {
  userEmail?: string;
  /** A group document's name, for messages. */
  name?: string;
  /** Emails or email globs. */
  users: readonly string[];
  /** `Owner`, `Admin`, `Member`. */
  roles: readonly string[];
}

/** PinMember is what matching needs to know of a workspace member. */
export interface PinMember {
  email: string;
  role: string;
}

/** pinDocumentMatcher compiles a document's targets once into a test of members. */
export function pinDocumentMatcher(target: PinDocumentTarget): (member: PinMember) => boolean {
  if (target.userEmail !== undefined) {
    const email = target.userEmail.toLowerCase();
    return (member) => member.email.toLowerCase() === email;
  }
  const emails = target.users.map(emailMatcher);
  const roles = new Set(target.roles);
  return (member) => roles.has(member.role) || emails.some((matches) => matches(member.email.toLowerCase()));
}

/**
 * emailMatcher tests lowercased emails against one `users` entry. An entry is a glob
 * (an email without wildcards matches only itself); one that cannot be compiled is
 * compared as a plain email, since validate reports it and the merge must not guess.
 */
function emailMatcher(entry: string): (email: string) => boolean {
  const lowered = entry.toLowerCase();
  try {
    return compileNameGlob(lowered);
  } catch (error) {
    if (!(error instanceof ViewctlError)) throw error;
    return (email) => email === lowered;
  }
}
