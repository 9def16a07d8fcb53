/**
 * evaluateExpression evaluates one GitHub Actions expression (the inside of `${{ }}`,
 * or a step's `if:` with or without it) against a context, with the operators the
 * workflows use: literals, property paths, `!`, `==`, `!=`, `&&`, `||`, parentheses,
 * and the functions `format`, `cancelled`, `success`, `failure` and `hashFiles` (the
 * latter from `functions`). As on GitHub, `&&` and `||` answer an operand, not a
 * boolean, and `==` compares strings case-insensitively.
 */
export function evaluateExpression(
  source: string,
  context: Record<string, unknown>,
  functions: Record<string, (...args: unknown[]) => unknown> = {},
): unknown {
  const text = source.trim().replace(/^\$\{\{([\s\S]*)\}\}$/, '$1');
  const tokens = text.match(/'(?:[^']|'')*'|==|!=|&&|\|\||[!(),]|[A-Za-z_][\w-]*(?:\.[\w-]+)*|\d+(?:\.\d+)?/g) ?? [];
  let at = 0;
  const peek = (): string | undefined => tokens[at];
  const take = (expected?: string): string => {
    const token = tokens[at];
    if (token === undefined || (expected !== undefined && token !== expected))
      throw new Error(`expected ${expected ?? 'a token'} at ${at} in: ${text}`);
    at += 1;
    return token;
  };
  const truthy = (value: unknown): boolean =>
    value !== undefined && value !== null && value !== '' && value !== false && value !== 0;
  const builtIns: Record<string, (...args: unknown[]) => unknown> = {
    format: (pattern, ...args) =>
      String(pattern).replace(/\{(\d+)\}/g, (_, index: string) => String(args[Number(index)] ?? '')),
    cancelled: () => false,
    success: () => true,
    failure: () => false,
    ...functions,
  };
  const primary = (): unknown => {
    const token = take();
    if (token === '!') return !truthy(primary());
    if (token === '(') {
      const value = or();
      take(')');
      return value;
    }
    if (token.startsWith("'")) return token.slice(1, -1).replace(/''/g, "'");
    if (/^\d/.test(token)) return Number(token);
    if (token === 'true' || token === 'false') return token === 'true';
    if (token === 'null') return null;
    if (peek() === '(') {
      take('(');
      const args: unknown[] = [];
      while (peek() !== ')') {
        args.push(or());
        if (peek() === ',') take(',');
      }
      take(')');
      const fn = builtIns[token];
      if (fn === undefined) throw new Error(`no function ${token}`);
      return fn(...args);
    }
    return token
      .split('.')
      .reduce<unknown>(
        (value, key) =>
          value !== null && typeof value === 'object' ? (value as Record<string, unknown>)[key] : undefined,
        context,
      );
  };
  const equality = (): unknown => {
    let value = primary();
    while (peek() === '==' || peek() === '!=') {
      const operator = take();
      const right = primary();
      const same =
        typeof value === 'string' && typeof right === 'string'
          ? value.toLowerCase() === right.toLowerCase()
          : value === right;
      value = operator === '==' ? same : !same;
    }
    return value;
  };
  const and = (): unknown => {
    let value = equality();
    while (peek() === '&&') {
      take();
      const right = equality();
      value = truthy(value) ? right : value;
    }
    return value;
  };
  function or(): unknown {
    let value = and();
    while (peek() === '||') {
      take();
      const right = and();
      value = truthy(value) ? value : right;
    }
    return value;
  }
  const value = or();
  if (at !== tokens.length) throw new Error(`unexpected ${tokens[at]} in: ${text}`);
  return value;
}
