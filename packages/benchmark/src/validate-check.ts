// What a rubric check needs beyond its schema, so that at run time "nothing found" can only be the
// agent's doing: the files it reads are declared deliverables of a format it can read, its patterns
// compile, and it states a condition to test.
import { messages } from './messages.js';
import { num, rec, str, type Path, type Raw } from './loose.js';
import type { YamlFile } from './yaml-file.js';

/** Declared deliverable paths and the formats they are declared with (one path may be declared by several subtasks). */
export type Declared = ReadonlyMap<string, ReadonlySet<string>>;

type Need = 'any' | 'text' | 'spreadsheet' | 'workbook' | 'deck';

const NEEDS: Record<Exclude<Need, 'any'>, { formats: readonly string[]; why: string }> = {
  text: {
    formats: ['docx', 'xlsx', 'pptx', 'pdf', 'md', 'txt', 'csv', 'json', 'html', 'code'],
    why: messages.needsText,
  },
  spreadsheet: { formats: ['xlsx', 'csv'], why: messages.needsSpreadsheet },
  workbook: { formats: ['xlsx'], why: messages.needsWorkbook },
  deck: { formats: ['pptx'], why: messages.needsDeck },
};

interface FileRef {
  at: Path;
  file: string;
  need: Need;
}

/** The same pattern rule as the evidence checks: a leading `(?i)` is the case-insensitive flag. */
function patternError(pattern: string): string | null {
  const ci = pattern.startsWith('(?i)');
  try {
    new RegExp(ci ? pattern.slice(4) : pattern, ci ? 'mui' : 'mu');
    return null;
  } catch (err) {
    return err instanceof Error ? err.message : String(err);
  }
}

function refOf(check: Raw, key: string, at: Path, need: Need): FileRef[] {
  const file = str(check[key]);
  return file === undefined ? [] : [{ at: [...at, key], file, need }];
}

/** The files a check reads, each with what it needs of the file. */
function fileRefs(check: Raw, at: Path): FileRef[] {
  const file = (need: Need) => refOf(check, 'file', at, need);
  switch (str(check.kind)) {
    case 'deliverable-present':
      return refOf(check, 'path', at, 'any');
    case 'cell-value':
    case 'row-count':
      return file('spreadsheet');
    case 'formula-cached':
      return file('workbook');
    case 'text-contains':
    case 'text-absent':
    case 'text-matches':
      return file('text');
    case 'section-present':
      if (check.sheet !== undefined) return file('workbook');
      return check.slide !== undefined ? file('deck') : file('text');
    case 'files-agree':
      return ['a', 'b'].flatMap((side) => {
        const loc = rec(check[side]);
        if (!loc) return [];
        return refOf(loc, 'file', [...at, side], loc.cell !== undefined ? 'spreadsheet' : 'text');
      });
    default:
      return [];
  }
}

/** The conditions a kind tests; a check stating none of them would never decide. */
const CONDITIONS: Record<string, readonly string[]> = {
  'cell-value': ['equals', 'min', 'max', 'matches'],
  'row-count': ['min', 'max'],
  'section-present': ['sheet', 'slide', 'heading'],
};

function checkCondition(file: YamlFile, check: Raw, at: Path): void {
  const kind = str(check.kind) ?? '';
  const wanted = CONDITIONS[kind];
  if (wanted && !wanted.some((k) => check[k] !== undefined)) file.report(at, messages.noCondition(kind, wanted));
  const min = num(check.min);
  const max = num(check.max);
  if (min !== undefined && max !== undefined && min > max) file.report([...at, 'min'], messages.minAboveMax(min, max));
}

function checkPatterns(file: YamlFile, check: Raw, at: Path): void {
  const patterns: [Path, unknown][] = [
    [[...at, 'pattern'], check.pattern],
    [[...at, 'matches'], check.matches],
    [[...at, 'a', 'pattern'], rec(check.a)?.pattern],
    [[...at, 'b', 'pattern'], rec(check.b)?.pattern],
  ];
  for (const [where, p] of patterns) {
    const pattern = str(p);
    const err = pattern === undefined ? null : patternError(pattern);
    if (pattern !== undefined && err !== null) file.report(where, messages.badPattern(pattern, err));
  }
}

/** Report what would keep `check` (at `at` in `file`) from deciding; `declared` null when the outputs are unknown. */
export function validateCheck(file: YamlFile, at: Path, raw: unknown, declared: Declared | null): void {
  const check = rec(raw);
  if (!check) return;
  checkCondition(file, check, at);
  checkPatterns(file, check, at);
  if (!declared) return;
  for (const ref of fileRefs(check, at)) {
    const formats = declared.get(ref.file);
    if (!formats) {
      file.report(ref.at, messages.undeclaredDeliverable(ref.file));
      continue;
    }
    if (ref.need === 'any') continue;
    const need = NEEDS[ref.need];
    if (![...formats].some((f) => need.formats.includes(f)))
      file.report(ref.at, messages.unreadableFormat(ref.file, [...formats], need.why));
  }
}
