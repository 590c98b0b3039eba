// Shared fixtures: a real-text submission, a 24-criterion rubric whose truth follows from that
// text, and a scripted judge that decides the way an agent judge would (search, then submit).
import type { MockReply, MockRequest, MockScript } from '@assay/mock-llm';
import { createMemoryEvidence, type JudgeContext, type JudgeItem, type MemoryFile } from '../src/index.js';

export const MEMO = `# Northwind Clinics: Q3 Financial Review

## Summary
Revenue grew 12.4% year over year to $4.82M, driven by the two new urgent-care sites.
EBITDA margin improved to 18.1% as locum staffing costs fell.

## Revenue by site
| Site | Q3 revenue | YoY |
| Riverside | $1.91M | +6.2% |
| Harbor | $1.37M | +4.9% |
| Elm Street (new) | $0.86M | n/a |
| Westgate (new) | $0.68M | n/a |

## Costs
Payroll was 54% of revenue. Locum spend dropped to $0.21M from $0.47M.
Supplies rose 9% due to the vaccine campaign.

## Cash and liquidity
Operating cash flow was $0.74M; the cash balance closed at $2.3M.
The revolving credit facility remains undrawn.

## Risks
Payer mix is shifting toward Medicaid, which reimburses at lower rates.
A cyberattack on the scheduling vendor caused two days of downtime in August.

## Recommendations
1. Renegotiate the commercial payer contracts before January.
2. Hire two permanent physicians to replace remaining locum shifts.
3. Defer the Eastside expansion until Westgate breaks even.
`;

export const MODEL_CELLS: Record<string, number | string> = {
  'Summary!A1': 'Metric',
  'Summary!B1': 'Q3',
  'Summary!A2': 'Revenue',
  'Summary!B2': 4820000,
  'Summary!A3': 'EBITDA',
  'Summary!B3': 872420,
  'Summary!A4': 'EBITDA margin',
  'Summary!B4': 0.181,
};

export function submissionFiles(memo = MEMO): MemoryFile[] {
  return [
    { path: 'q3-review.md', text: memo, format: 'md' },
    {
      path: 'model.xlsx',
      text: Object.entries(MODEL_CELLS)
        .map(([k, v]) => `${k}\t${v}`)
        .join('\n'),
      format: 'xlsx',
      cells: MODEL_CELLS,
    },
  ];
}

export const evidence = (memo = MEMO) => createMemoryEvidence(submissionFiles(memo));

/** Phrases the criteria ask for; 16 appear in the memo, 8 do not. */
const PHRASES = [
  'Revenue grew 12.4%',
  'EBITDA margin',
  'Riverside',
  'Harbor',
  'Elm Street',
  'Westgate',
  'Payroll was 54%',
  'Locum spend',
  'vaccine campaign',
  'Operating cash flow',
  'revolving credit facility',
  'Medicaid',
  'cyberattack',
  'Renegotiate',
  'permanent physicians',
  'Eastside expansion',
  'debt covenant',
  'patient satisfaction score',
  'net promoter',
  'capital expenditure plan',
  'sensitivity analysis',
  'board approval',
  'headcount table',
  'tax provision',
];

export const ITEMS: JudgeItem[] = PHRASES.map((p, i) => ({
  id: `c-${String(i + 1).padStart(2, '0')}`,
  text: `The deliverable mentions "${p}".`,
  group: i % 2 === 0 ? 'completeness' : 'correctness',
}));

export function truth(memo = MEMO): Map<string, 'satisfied' | 'not-satisfied'> {
  return new Map(
    ITEMS.map((it) => {
      const phrase = /"(.+)"/.exec(it.text)?.[1] ?? '';
      return [it.id, memo.toLowerCase().includes(phrase.toLowerCase()) ? 'satisfied' : 'not-satisfied'];
    }),
  );
}

export const CONTEXT: JudgeContext = {
  taskId: 'fin-q3-review',
  title: 'Quarterly financial review',
  request:
    'Write a Q3 financial review memo for Northwind Clinics (markdown) with a summary, revenue by site, costs, cash, risks and recommendations, plus a small model workbook.',
};

/** Items of a request, from the `ITEM id: text` lines of its first user message. */
export function promptItems(req: MockRequest): { id: string; phrase: string }[] {
  const first = req.messages.find((m) => m.role === 'user')?.text ?? '';
  return [...first.matchAll(/^ITEM (\S+): .*"(.+)"/gm)].map((m) => ({ id: m[1] ?? '', phrase: m[2] ?? '' }));
}

/**
 * The scripted agent judge: turn 1 searches for each criterion's phrase; the next turn submits
 * one verdict per item from the search results. Usage is fixed per turn so totals are exact.
 */
export function scriptedJudge(req: MockRequest): MockReply {
  const items = promptItems(req);
  const submitMany = req.tools.includes('submit_verdicts');
  if (req.turn === 1) {
    return {
      text: 'Searching the submission.',
      toolCalls: items.map((i) => ({ name: 'search_text', arguments: { query: i.phrase } })),
      usage: { input: 1000 + 10 * items.length, output: 20 * items.length, cachedInput: 200 },
    };
  }
  const lastAssistant = req.messages.map((m) => m.role).lastIndexOf('assistant');
  const results = req.messages
    .slice(lastAssistant + 1)
    .filter((m) => m.role === 'tool')
    .map((m) => m.text);
  const verdicts = items.map((i, k) => {
    const hit = results[k] !== undefined && results[k] !== '(no matches)';
    return {
      itemId: i.id,
      decision: hit ? 'satisfied' : 'not-satisfied',
      justification: hit ? `Found "${i.phrase}".` : `No mention of "${i.phrase}".`,
      evidence: hit ? [(results[k] ?? '').split(':')[0] ?? ''] : [],
    };
  });
  const usage = { input: 1500 + 10 * items.length, output: 40 * items.length, cachedInput: 0 };
  if (!submitMany) {
    const { itemId: _id, ...one } = verdicts[0] ?? {
      itemId: '',
      decision: 'not-satisfied',
      justification: 'none',
      evidence: [],
    };
    return { toolCalls: [{ name: 'submit_verdict', arguments: one }], usage };
  }
  return { toolCalls: [{ name: 'submit_verdicts', arguments: { verdicts } }], usage };
}

export const judgeScript = (extra: MockScript['rules'] = [], faults?: MockScript['faults']): MockScript => ({
  rules: [...extra, { name: 'judge', match: { any: /ITEM c-/ }, reply: scriptedJudge }],
  ...(faults ? { faults } : {}),
});

export const KEY_ENV = 'ASSAY_TEST_JUDGE_KEY';
export const KEY = 'sk-judge-test-3c1f0b9a7e5d2468';
export const env = { [KEY_ENV]: KEY };
