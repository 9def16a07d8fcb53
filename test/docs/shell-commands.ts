/**
 * A small reader of the POSIX shell the workflow `run:` steps are written in: enough to
 * find every `viewctl ...` invocation and its arguments, not a shell.
 */

/** OPERATORS end a command's words: control operators and redirections. */
const OPERATORS = ['&&', '||', ';;', '2>&1', '>>', '2>', '&>', ';', '|', '&', '(', ')', '>', '<'] as const;

/** COMMAND_PREFIXES may stand before a command name without being its arguments. */
const COMMAND_PREFIXES = new Set([
  'if',
  'then',
  'else',
  'elif',
  'do',
  'while',
  'until',
  '!',
  'time',
  'exec',
  'command',
]);

/** Token is a shell word (quotes removed, `$VAR` kept as written) or an operator. */
export type Token = { type: 'word'; text: string } | { type: 'operator'; text: string };

/** tokenize splits one logical line into words and operators; `#` starts a comment. */
export function tokenize(line: string): Token[] {
  const tokens: Token[] = [];
  let word: string | null = null;
  const flush = (): void => {
    if (word !== null) tokens.push({ type: 'word', text: word });
    word = null;
  };
  for (let i = 0; i < line.length; ) {
    const char = line[i] ?? '';
    if (/\s/.test(char)) {
      flush();
      i += 1;
    } else if (char === '#' && word === null) {
      break;
    } else if (char === "'") {
      const end = line.indexOf("'", i + 1);
      word = (word ?? '') + line.slice(i + 1, end === -1 ? line.length : end);
      i = end === -1 ? line.length : end + 1;
    } else if (char === '"') {
      let j = i + 1;
      let text = '';
      while (j < line.length && line[j] !== '"') {
        if (line[j] === '\\' && j + 1 < line.length) j += 1;
        text += line[j];
        j += 1;
      }
      word = (word ?? '') + text;
      i = j + 1;
    } else if (char === '$' && line[i + 1] === '(') {
      // A command substitution holds commands of its own: split it like a subshell.
      flush();
      tokens.push({ type: 'operator', text: '(' });
      i += 2;
    } else {
      const operator = OPERATORS.find((op) => line.startsWith(op, i));
      if (operator !== undefined && !(operator === '2>' && word !== null)) {
        flush();
        tokens.push({ type: 'operator', text: operator });
        i += operator.length;
      } else {
        word = (word ?? '') + char;
        i += 1;
      }
    }
  }
  flush();
  return tokens;
}

/** logicalLines joins backslash-continued lines, so one command is one line. */
export function logicalLines(script: string): string[] {
  return script.replace(/\\\n/g, ' ').split('\n');
}

/** Invocation is one `viewctl` command: its subcommand and the words after it. */
export interface Invocation {
  line: string;
  subcommand: string | undefined;
  args: string[];
}

/**
 * viewctlInvocations finds every command whose name is `viewctl` in a script. Words in
 * quotes (messages that mention viewctl) and package specs such as `viewctl@0.1.0`
 * are not commands.
 */
export function viewctlInvocations(script: string): Invocation[] {
  const found: Invocation[] = [];
  for (const line of logicalLines(script)) {
    const tokens = tokenize(line);
    let atCommand = true;
    for (let i = 0; i < tokens.length; i += 1) {
      const token = tokens[i];
      if (token === undefined) continue;
      if (token.type === 'operator') {
        // After a redirection comes its target, then the command goes on.
        atCommand = !['>', '>>', '2>', '&>', '<', '2>&1'].includes(token.text) ? true : atCommand;
        if (['>', '>>', '2>', '&>', '<'].includes(token.text)) i += 1;
        continue;
      }
      if (!atCommand) continue;
      if (COMMAND_PREFIXES.has(token.text) || /^[A-Za-z_][A-Za-z0-9_]*=/.test(token.text)) continue;
      atCommand = false;
      if (token.text !== 'viewctl') continue;
      const words: string[] = [];
      for (let j = i + 1; j < tokens.length; j += 1) {
        const next = tokens[j];
        if (next === undefined || next.type === 'operator') break;
        words.push(next.text);
      }
      found.push({ line: line.trim(), subcommand: words[0], args: words.slice(1) });
    }
  }
  return found;
}
