/**
 * Typed errors and the exit codes of the product contract. Code throws these; the one
 * top-level catch in `cli/run.ts` prints them and exits with `exitCode`.
 */

/** EXIT holds the exit codes (README, "Exit codes"). */
export const EXIT = {
  ok: 0,
  /** Error before any write: bad manifests, unreachable service, bad key, refusals. */
  error: 1,
  /** `plan --detailed-exitcode`: changes or drift. */
  changes: 2,
  /** `apply` refused: not the reviewed plan, or `--max-deletes` / `--max-pin-changes` broken (a stale target is held, not refused). */
  refused: 3,
  /** `apply` failed part-way. */
  partial: 4,
} as const;

export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/** systemErrorCode is the code of a failed file-system call (`ENOENT`, `EACCES`, ...) for a message. */
export function systemErrorCode(error: unknown): string {
  return error instanceof Error && 'code' in error ? String(error.code) : 'unknown error';
}

/**
 * ViewctlError is the base of every error a user can cause or fix. `code` is stable
 * (tests assert it); `hint` says how to fix it. The message never carries the API key.
 */
export class ViewctlError extends Error {
  readonly code: string;
  readonly hint: string | undefined;
  readonly exitCode: ExitCode;

  constructor(code: string, message: string, options: { hint?: string; exitCode?: ExitCode; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.code = code;
    this.hint = options.hint;
    this.exitCode = options.exitCode ?? EXIT.error;
  }
}

/** UsageError is a bad flag, a missing option or a missing environment variable. */
export class UsageError extends ViewctlError {
  constructor(code: string, message: string, hint?: string) {
    super(code, message, { hint });
  }
}

/**
 * ServiceError is a failure talking to the service: an error response after retries,
 * a timeout, or a network error. `status` is absent for network errors.
 */
export class ServiceError extends ViewctlError {
  readonly status: number | undefined;
  readonly errorType: string | undefined;
  readonly path: string | undefined;
  /** `METHOD /v1/route/{template}` of the failed request. */
  readonly endpoint: string;
  /**
   * A write that may have been carried out although it failed: an attempt timed out,
   * lost its connection after sending, got a 5xx, or got a 2xx the client could not
   * read. Set by the client; apply lists such writes as "may have landed" (exit 4).
   */
  mayHaveLanded = false;

  constructor(
    code: string,
    message: string,
    details: { endpoint: string; status?: number; errorType?: string; path?: string; hint?: string; cause?: unknown },
  ) {
    super(code, message, { hint: details.hint, cause: details.cause });
    this.status = details.status;
    this.errorType = details.errorType;
    this.path = details.path;
    this.endpoint = details.endpoint;
  }
}

/** RefusedError is an apply refusal (not the reviewed plan, `--max-deletes`, `--max-pin-changes`): exit 3, nothing written. */
export class RefusedError extends ViewctlError {
  constructor(code: string, message: string, hint?: string) {
    super(code, message, { exitCode: EXIT.refused, hint });
  }
}

/**
 * InternalError is a bug in viewctl, not something the user did. The top-level catch
 * says so and prints the stack.
 */
export class InternalError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'InternalError';
  }
}
