import { Option } from 'commander';
import { UsageError } from '../errors.js';

/**
 * detailsUrlOption is `--details-url URL`, taken wherever a plan is rendered as
 * markdown: the page where the full plan can be read (the action passes its run's
 * page, which holds the plan file). The markdown links it, and above all when it left
 * something out to fit one pull-request comment.
 */
export function detailsUrlOption(): Option {
  return new Option(
    '--details-url <url>',
    'link the full plan from the markdown (e.g. the CI run that keeps plan.json)',
  ).argParser(parseDetailsUrl);
}

/** parseDetailsUrl accepts an absolute http(s) URL without credentials, as a comment may link it. */
export function parseDetailsUrl(value: string): string {
  const text = value.trim();
  let url: URL | undefined;
  try {
    url = new URL(text);
  } catch {
    url = undefined;
  }
  if (
    url === undefined ||
    (url.protocol !== 'https:' && url.protocol !== 'http:') ||
    url.username !== '' ||
    url.password !== ''
  ) {
    // The credentials are refused so that no comment shows them: the error, in a CI log, does not either.
    const shown = url === undefined || (url.username === '' && url.password === '') ? value : withoutCredentials(url);
    throw new UsageError(
      'usage.details-url',
      `--details-url must be an absolute http(s) URL without credentials, got "${shown}"`,
      'pass the page that holds the full plan, e.g. --details-url "$GITHUB_SERVER_URL/$GITHUB_REPOSITORY/actions/runs/$GITHUB_RUN_ID"',
    );
  }
  return url.href;
}

/** withoutCredentials is `url` with its user name and password replaced by `***`. */
function withoutCredentials(url: URL): string {
  const copy = new URL(url.href);
  copy.username = '***';
  copy.password = '';
  return copy.href;
}
