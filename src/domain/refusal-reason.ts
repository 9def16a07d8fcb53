import type { SourcePosition } from './source-position.js';

/**
 * RefusalReason is one fail-safe rule that refuses the plan (README,
 * "Fail-safe rules"): a stable code, the manifest position that causes it, the ids
 * involved and the way out.
 */
export interface RefusalReason {
  code: string;
  message: string;
  /** What the user can change to get past the rule. */
  wayOut: string;
  source?: SourcePosition;
  ids: string[];
}
