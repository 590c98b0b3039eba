// `--prefer judge|reviews` (status, report): where people's reviews and the machine disagree, whose decision counts.
import type { ReviewPolicy } from '@assay/core';
import { CliError } from './cli-error.js';
import { messages } from './messages.js';

export function preferOf(value: string | undefined): ReviewPolicy {
  if (value === undefined || value === 'judge' || value === 'reviews') return value ?? 'judge';
  throw new CliError(messages.badPrefer(value));
}
