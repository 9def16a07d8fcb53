import { createInterface } from 'node:readline';
import { UsageError } from '../errors.js';

/**
 * Apply's approval on the command line (README, "apply"): whether to ask, and the
 * question asked on a terminal. The flows never ask; the command does, before it runs
 * the flow that writes.
 */

/**
 * decideApproval: `--auto-approve` and a saved plan (reviewed already, as with
 * `terraform apply PLANFILE`) need no prompt; otherwise a terminal is asked, and
 * anything else is an error naming both ways out.
 */
export function decideApproval(options: {
  autoApprove: boolean;
  fromPlanFile: boolean;
  stdinIsTTY: boolean;
}): 'given' | 'ask' {
  if (options.autoApprove || options.fromPlanFile) return 'given';
  if (options.stdinIsTTY) return 'ask';
  throw new UsageError(
    'apply.needs-approval',
    'apply needs approval, but stdin is not a terminal to ask on; nothing was written',
    'pass --auto-approve to apply without asking, or --plan FILE to apply a plan saved by viewctl plan --out',
  );
}

/** APPROVAL_QUESTION is the prompt; only the exact answer "yes" goes ahead, as in Terraform. */
export const APPROVAL_QUESTION = 'Apply these changes? Only "yes" is accepted: ';

/**
 * askApproval asks on a terminal and resolves true only for "yes"; an abort (Ctrl-C)
 * or the end of input is a no.
 */
export async function askApproval(
  input: NodeJS.ReadableStream,
  output: NodeJS.WritableStream,
  signal?: AbortSignal,
): Promise<boolean> {
  if (signal?.aborted === true) return false;
  output.write(APPROVAL_QUESTION);
  const lines = createInterface({ input, terminal: false });
  try {
    const answer = await new Promise<string | undefined>((resolve) => {
      lines.once('line', (line) => resolve(line));
      lines.once('close', () => resolve(undefined));
      signal?.addEventListener('abort', () => resolve(undefined), { once: true });
    });
    if (answer === undefined) output.write('\n');
    return answer?.trim() === 'yes';
  } finally {
    lines.close();
  }
}
