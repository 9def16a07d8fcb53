/**
 * Types shared by the manifest loader, the validator and everything that reports a
 * position in a manifest. Problems are data: a stable code, a
 * position and a JSON pointer; wording is for people, tests assert codes.
 */

import type { ProblemLine } from '../text/problem-lines.js';
import type { SourcePosition } from '../domain/source-position.js';

export type { SourcePosition };

/** Severity of a problem: errors stop plan and apply; warnings are printed only. */
export type Severity = 'error' | 'warning';

/**
 * Problem is one thing wrong with a manifest, with where and how to fix it: a problem
 * line as printed (`ProblemLine`: severity, stable code such as
 * `schema.unknown-attribute`, message, file:line:column, JSON pointer, hint) and the
 * YAML document it is in.
 */
export interface Problem extends ProblemLine {
  severity: Severity;
  /** Zero-based index of the YAML document inside its file. */
  document: number;
}

/**
 * ManifestDocument is one YAML document that parsed to an object with a `kind`.
 * `body` is the plain JSON value; `positionOf` maps a JSON pointer inside it to the
 * position of the node in the file (the closest existing ancestor when the pointer
 * names something absent).
 */
export interface ManifestDocument {
  kind: string;
  body: Record<string, unknown>;
  file: string;
  /** Zero-based index of the document inside its file. */
  index: number;
  position: SourcePosition;
  positionOf(pointer: string): SourcePosition;
}
