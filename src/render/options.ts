export interface RenderOptions {
  /** Colour the text output (the CLI decides: TTY, `NO_COLOR`). Ignored by markdown and json. */
  color: boolean;
  /**
   * Columns the text output is wrapped to: the terminal's (the CLI decides, `COLUMNS`
   * first). Unset off a terminal: lists wrap at `WRAP_WIDTH` and no other line is
   * broken, so logs and tests read the same everywhere. Ignored by markdown and json.
   */
  width?: number;
  /** Where the JSON plan was written (`--out`), named in the apply hint and the markdown footer. */
  planFile?: string;
  /** Time the live read took, shown in the text header. */
  elapsedMs?: number;
  /**
   * Where the plan is shown: `plan` ends with how to apply exactly this plan; `apply`,
   * which is about to carry it out, shows only the digest.
   */
  context?: 'plan' | 'apply';
  /** Requests per second per endpoint (`--rate`) for the apply estimate; default 3. */
  rate?: number;
  /**
   * Where the full plan can be read (`--details-url`; the action passes its run's page,
   * which holds the plan file): the markdown plan links it, above all when it left
   * something out to fit one comment.
   */
  detailsUrl?: string;
  /** `--max-deletes` apply will enforce: a plan deleting more says apply will refuse it; default 5. */
  maxDeletes?: number;
  /** `--max-pin-changes` apply will enforce: a plan rewriting more pinned lists says apply will refuse it; default 100. */
  maxPinChanges?: number;
  /** `--show-warnings`: every warning on its own line, instead of one line per code. */
  showWarnings?: boolean;
}
