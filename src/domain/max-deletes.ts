/**
 * DEFAULT_MAX_DELETES is `--max-deletes` when not given: apply refuses a plan deleting
 * more views (exit 3), and plan says so at review time.
 */
export const DEFAULT_MAX_DELETES = 5;
