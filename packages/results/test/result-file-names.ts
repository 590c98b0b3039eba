// Every file name results-layout.ts exports: its string constants that end in an extension (`agent-result.json`,
// `.ext4`), read from the module itself so a name added there is covered by the tests that use this list.
import * as layout from '../src/results-layout.js';

export const RESULT_FILE_NAMES: readonly string[] = Object.values(layout as Record<string, unknown>).filter(
  (v): v is string => typeof v === 'string' && /\.[a-z0-9]+$/.test(v),
);
