/**
 * Redaction of the API key: the last line of defence. The key is never put into
 * messages on purpose, but error causes from the network stack, a proxy or a faulty
 * service could echo it. The key is compared trimmed, as the client sends it.
 */

/** REDACTED replaces the key wherever it would appear. */
export const REDACTED = '[redacted]';

/** redactSecrets replaces every occurrence of the (trimmed) key in text. */
export function redactSecrets(text: string, secret: string | undefined): string {
  const key = secret?.trim();
  if (key === undefined || key.length < 4) return text;
  return text.split(key).join(REDACTED);
}

/**
 * redactingStream wraps an output stream so that every string or buffer written to
 * it has the key removed; everything else (isTTY, events) is the stream's own.
 */
export function redactingStream<T extends NodeJS.WritableStream>(stream: T, secret: string | undefined): T {
  if (secret === undefined || secret.trim().length < 4) return stream;
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
