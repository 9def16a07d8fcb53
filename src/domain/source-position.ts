/** SourcePosition is a 1-based line and column in a manifest file. */
export interface SourcePosition {
  /** Path as the user gave it (relative to the working directory when possible). */
  file: string;
  line: number;
  column: number;
}

/** formatPosition renders `file:line:column`, the one spelling of a position in messages. */
export function formatPosition(source: SourcePosition): string {
  return `${source.file}:${source.line}:${source.column}`;
}

/** formatLine renders `file:line`, for lists where the column adds nothing. */
export function formatLine(source: SourcePosition): string {
  return `${source.file}:${source.line}`;
}
