/**
 * Redaction of the API key: the last line of defence. The key is never put into
 * messages on purpose, but error causes from the network stack, a proxy or a faulty
 * service could echo it. The key is compared trimmed, as the client sends it, and in
 * the forms it takes once written into JSON or a URL, so an echoed key stays hidden
 * whatever output format carries it. Keys shorter than MIN_KEY_LENGTH are refused by
 * the client (a shorter string would be redacted out of ordinary words).
 */

/** REDACTED replaces the key wherever it would appear. */
export const REDACTED = '[redacted]';

/** MIN_KEY_LENGTH is the shortest key viewctl sends; shorter ones are refused as typos. */
export const MIN_KEY_LENGTH = 4;

/**
 * secretForms are the spellings of the key that output can carry: as it is,
 * JSON-escaped (a key with `"` or `\`), and URL-encoded. Longest first, so a longer
 * form is replaced before a shorter one inside it.
 */
function secretForms(secret: string | undefined): string[] {
  const key = secret?.trim();
  if (key === undefined || key.length < MIN_KEY_LENGTH) return [];
  const forms = new Set([
    key,
    JSON.stringify(key).slice(1, -1),
    encodeURIComponent(key),
    JSON.stringify(JSON.stringify(key).slice(1, -1)).slice(1, -1),
  ]);
  return [...forms].sort((a, b) => b.length - a.length);
}

/** redactSecrets replaces every occurrence of the (trimmed) key, in any of its forms, in text. */
export function redactSecrets(text: string, secret: string | undefined): string {
  let clean = text;
  for (const form of secretForms(secret)) clean = clean.split(form).join(REDACTED);
  return clean;
}

/**
 * redactValue returns `value` (parsed JSON) with the key redacted from every string
 * in it, object keys included: what the service sends is cleaned where it is read,
 * before anything can cut, copy or escape it.
 */
export function redactValue(value: unknown, secret: string | undefined): unknown {
  if (secretForms(secret).length === 0) return value;
  const walk = (node: unknown): unknown => {
    if (typeof node === 'string') return redactSecrets(node, secret);
    if (Array.isArray(node)) return node.map(walk);
    if (typeof node === 'object' && node !== null) {
      return Object.fromEntries(Object.entries(node).map(([key, inner]) => [redactSecrets(key, secret), walk(inner)]));
    }
    return node;
  };
  return walk(value);
}

/**
 * redactingStream wraps an output stream so that every string or buffer written to
 * it has the key removed; everything else (isTTY, events) is the stream's own.
 */
export function redactingStream<T extends NodeJS.WritableStream>(stream: T, secret: string | undefined): T {
  if (secretForms(secret).length === 0) return stream;
  const write = (chunk: unknown, ...rest: unknown[]): boolean => {
    const clean =
      typeof chunk === 'string'
        ? redactSecrets(chunk, secret)
        : Buffer.isBuffer(chunk)
          ? Buffer.from(redactSecrets(chunk.toString('utf8'), secret), 'utf8')
          : chunk;
    return (stream.write as (...args: unknown[]) => boolean).call(stream, clean, ...rest);
  };
  return new Proxy(stream, {
    get(target, property) {
      if (property === 'write') return write;
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}
