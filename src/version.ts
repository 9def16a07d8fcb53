/** VERSION is viewctl's version, printed by `--version` and recorded nowhere secret. */
export const VERSION = '0.1.0';
