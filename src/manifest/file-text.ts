/**
 * FileText is one decoded manifest file for the `yaml` library to read: what the
 * simple reader (parsed-file.ts) hands on when it declines a file, and what the
 * `yaml` reader (yaml-file.ts) takes. A module of its own, so neither reader
 * imports the other for it.
 */
export interface FileText {
  file: string;
  text: string;
}
