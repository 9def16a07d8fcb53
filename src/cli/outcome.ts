/**
 * Outcome carries the exit code a command action decided. It lives apart from the
 * program that builds the commands so each command file can name it without
 * importing the program that imports them.
 */
export interface Outcome {
  exitCode: number;
  /**
   * Set by apply before its first write: from then on, an error nobody expected (a bug)
   * may come after writes that landed, so it exits 4, not 1 ("error before any write").
   */
  writing?: boolean;
}
