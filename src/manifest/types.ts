/**
 * Types shared by the manifest loader, the validator and everything that reports a
 * position in a manifest. Problems are data: a stable code, a
 * position and a JSON pointer; wording is for people, tests assert codes.
 */

import type { SourcePosition } from '../domain/source-position.js';

export type { SourcePosition };

/** Severity of a problem: errors stop plan and apply; warnings are printed only. */
export type Severity = 'error' | 'warning';

/** Problem is one thing wrong with a manifest, with where and how to fix it. */
export interface Problem {
  severity: Severity;
  /** Stable code, e.g. `schema.unknown-attribute`, `yaml.duplicate-key`. */
  code: string;
  message: string;
  file: string;
  line: number;
  column: number;
  /** JSON pointer inside the document, `''` for the whole document. */
  pointer: string;
  /** Zero-based index of the YAML document inside its file. */
  document: number;
  hint?: string;
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
