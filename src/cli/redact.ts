/**
 * redactSecrets replaces every occurrence of the API key in text. It is the last line
 * of defence: the key is never put into messages on purpose, but error causes from
 * the network stack or the service could echo it.
 */
export function redactSecrets(text: string, secret: string | undefined): string {
  if (secret === undefined || secret.length < 4) return text;
  return text.split(secret).join('[redacted]');
}
