/**
 * The guard against forged workflow commands (README, "Exit codes": what names made in the app can and cannot do to the output). A pipeline's
 * runner reads each line of a step's output whose text starts, after whitespace, with
 * `::` (`::warning title=Approved::…`, `::add-mask::`, `::group::`) or the older `##[`
 * as a command: an annotation, a mask, a hidden log group. A view, workspace or member
 * name made in the app, printed where a line starts (a wrapped tab list, a message),
 * must not become one.
 */

// A runner reads lines as .NET does: a CR alone ends one too; the Unicode separators are counted, to be safe.
const LINE_BREAK = /[\n\r\u2028\u2029]/;
const LINE_BREAK_AFTER = /[\n\r\u2028\u2029]/g;

/**
 * commandGuard makes one output stream, written in chunks, unable to carry a GitHub
 * workflow command (README, "Exit codes": what names made in the app can and cannot do to the output): the runner of a workflow reads every line
 * of a step's output whose text starts, after whitespace, with `::` (`::warning
 * title=Approved::…`, `::add-mask::`, `::group::`, `::stop-commands::`) or with the
 * older `##[`. viewctl writes no such command itself, so a line that would start with
 * one can only come from data (a view, workspace or member name made in the app, a
 * message): its second character is written as a visible escape (`:\u{3a}warning`,
 * `##\u{5b}`), which the runner reads as plain text. Each call takes the next chunk and
 * returns it guarded; a line may span chunks.
 */
export function commandGuard(): (chunk: string) => string {
  // What the current line holds so far: only whitespace, whitespace and a `:` or a `#`
  // (`##` for the older form), or anything else.
  let state: 'start' | 'colon' | 'hash' | 'hashes' | 'text' = 'start';
  return (chunk) => {
    let out = '';
    let from = 0;
    for (let index = 0; index < chunk.length; index += 1) {
      const char = chunk[index] ?? '';
      if (LINE_BREAK.test(char)) {
        state = 'start';
        continue;
      }
      if (state === 'text') {
        // The rest of the line cannot start a command: on to its end.
        LINE_BREAK_AFTER.lastIndex = index;
        const end = LINE_BREAK_AFTER.exec(chunk)?.index;
        if (end === undefined) break;
        index = end - 1;
        continue;
      }
      if ((state === 'colon' && char === ':') || (state === 'hashes' && char === '[')) {
        out += `${chunk.slice(from, index)}\\u{${char.charCodeAt(0).toString(16)}}`;
        from = index + 1;
        state = 'text';
      } else if (state === 'hash' && char === '#') state = 'hashes';
      else if (state === 'start' && char === ':') state = 'colon';
      else if (state === 'start' && char === '#') state = 'hash';
      else if (state !== 'start' || !/\s/.test(char)) state = 'text';
    }
    return out + chunk.slice(from);
  };
}

/**
 * commandSafeStream wraps an output stream so that everything written to it passes one
 * `commandGuard`; everything else (isTTY, events) is the stream's own.
 */
export function commandSafeStream<T extends NodeJS.WritableStream>(stream: T): T {
  const guard = commandGuard();
  const write = (chunk: unknown, ...rest: unknown[]): boolean => {
    const safe =
      typeof chunk === 'string'
        ? guard(chunk)
        : Buffer.isBuffer(chunk)
          ? Buffer.from(guard(chunk.toString('utf8')), 'utf8')
          : chunk;
    return (stream.write as (...args: unknown[]) => boolean).call(stream, safe, ...rest);
  };
  return new Proxy(stream, {
    get(target, property) {
      if (property === 'write') return write;
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}
