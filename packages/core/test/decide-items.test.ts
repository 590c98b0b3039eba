// decideItems, the one rule by which every item is decided: reuse, then check, then judge,
// else unjudged with the reason. Pure, so every branch is checked on plain maps.
import { describe, expect, it } from 'vitest';
import {
  decideItems,
  decisionMessages,
  itemsNeedingJudge,
  reusedItems,
  type CheckOutcome,
  type ItemToDecide,
  type JudgeAnswer,
  type PriorVerdict,
} from '../src/index.js';

const item = (id: string, more: Partial<ItemToDecide> = {}): ItemToDecide => ({
  id,
  reuseKey: `key-${id}`,
  hasCheck: false,
  ...more,
});
const outcome = (status: CheckOutcome['status'], reason: string, evidence: string[] = []): CheckOutcome => ({
  status,
  reason,
  evidence,
});
const answer = (decision: JudgeAnswer['decision'], reason: string, meta?: Record<string, unknown>): JudgeAnswer => ({
  decision,
  reason,
  evidence: decision === 'unjudged' ? [] : ['memo.md line 3'],
  ...(meta ? { meta } : {}),
});
const prior = (entries: Record<string, PriorVerdict>) => new Map(Object.entries(entries));

describe('decideItems: reuse', () => {
  const reusing = item('final-a', { reuses: 't01/a', reuseKey: 'k1', hasCheck: true });

  it('reuses a decided earlier verdict whose reuse key is unchanged, before any check or judge', () => {
    const [d] = decideItems({
      items: [reusing],
      prior: prior({ 't01/a': { decision: 'not-satisfied', reason: 'B2 = 7', reuseKey: 'k1' } }),
      // Even an outcome and an answer present for the item do not override reuse.
      checks: new Map([['final-a', outcome('satisfied', 'B2 = 8')]]),
      answers: new Map([['final-a', answer('satisfied', 'looks right')]]),
    });
    expect(d).toMatchInlineSnapshot(`
      {
        "decision": "not-satisfied",
        "evidence": [],
        "id": "final-a",
        "reason": "unchanged since t01/a: B2 = 7",
        "reuseKey": "k1",
        "reusedFrom": "t01/a",
        "source": "reused",
      }
    `);
  });

  it('does not reuse an unjudged earlier verdict', () => {
    const [d] = decideItems({
      items: [reusing],
      prior: prior({ 't01/a': { decision: 'unjudged', reason: 'no judge', reuseKey: 'k1' } }),
      checks: new Map([['final-a', outcome('satisfied', 'B2 = 8')]]),
      answers: null,
    });
    expect(d).toMatchObject({ decision: 'satisfied', source: 'check', reason: 'B2 = 8', reusedFrom: null });
  });

  it('re-evaluates when the reuse key changed', () => {
    const [d] = decideItems({
      items: [reusing],
      prior: prior({ 't01/a': { decision: 'satisfied', reason: 'B2 = 8', reuseKey: 'k0' } }),
      checks: new Map([['final-a', outcome('not-satisfied', 'B2 = 9')]]),
      answers: null,
    });
    expect(d).toMatchObject({ decision: 'not-satisfied', source: 'check', reuseKey: 'k1', reusedFrom: null });
  });

  it('reuses only through `reuses`: a prior under the item id itself is not consulted', () => {
    const plain = item('a', { reuseKey: 'k1' });
    const input = { items: [plain], prior: prior({ a: { decision: 'satisfied', reason: 'x', reuseKey: 'k1' } }) };
    expect(decideItems({ ...input, answers: null })[0]).toMatchObject({ decision: 'unjudged', source: 'none' });
    expect(reusedItems(input.items, input.prior)).toEqual(new Set());
  });

  it('a missing prior falls through to the check', () => {
    const [d] = decideItems({
      items: [reusing],
      checks: new Map([['final-a', outcome('satisfied', 'B2 = 8')]]),
      answers: null,
    });
    expect(d).toMatchObject({ source: 'check', reusedFrom: null });
  });
});

describe('decideItems: checks and the judge', () => {
  it('a decided check decides, with its evidence, and the judge answer is ignored', () => {
    const [d] = decideItems({
      items: [item('cell', { hasCheck: true })],
      checks: new Map([['cell', outcome('satisfied', 'Summary!B4 = 0.181', ['model.xlsx Summary!B4'])]]),
      answers: new Map([['cell', answer('not-satisfied', 'judge disagrees')]]),
    });
    expect(d).toMatchInlineSnapshot(`
      {
        "decision": "satisfied",
        "evidence": [
          "model.xlsx Summary!B4",
        ],
        "id": "cell",
        "reason": "Summary!B4 = 0.181",
        "reuseKey": "key-cell",
        "reusedFrom": null,
        "source": "check",
      }
    `);
  });

  it('a check that cannot evaluate falls through to the judge; its outcome is kept beside the judge meta', () => {
    const [d] = decideItems({
      items: [item('fx', { hasCheck: true })],
      checks: new Map([['fx', outcome('cannot-evaluate', 'no cached values')]]),
      answers: new Map([['fx', answer('satisfied', 'formulas are live', { model: 'judge-model', attempts: 1 })]]),
    });
    expect(d).toMatchInlineSnapshot(`
      {
        "decision": "satisfied",
        "evidence": [
          "memo.md line 3",
        ],
        "id": "fx",
        "judge": {
          "attempts": 1,
          "check": {
            "reason": "no cached values",
            "status": "cannot-evaluate",
          },
          "model": "judge-model",
        },
        "reason": "formulas are live",
        "reuseKey": "key-fx",
        "reusedFrom": null,
        "source": "judge",
      }
    `);
  });

  it('a check that cannot evaluate, with no judge configured, stays unjudged saying why', () => {
    const [d] = decideItems({
      items: [item('fx', { hasCheck: true })],
      checks: new Map([['fx', outcome('cannot-evaluate', 'no cached values')]]),
      answers: null,
    });
    expect(d).toMatchObject({
      decision: 'unjudged',
      reason: decisionMessages.checkCannotEvaluate('no cached values'),
      judge: undefined,
    });
    expect(d?.reason).toBe('check could not evaluate: no cached values');
  });

  it('takes the judge answer for an item without a check', () => {
    const [d] = decideItems({
      items: [item('tone')],
      answers: new Map([['tone', answer('not-satisfied', 'too informal', { phase: 'batch' })]]),
    });
    expect(d).toMatchObject({
      decision: 'not-satisfied',
      source: 'judge',
      reason: 'too informal',
      evidence: ['memo.md line 3'],
      judge: { phase: 'batch' },
    });
    // No check ran, so no check note in the judge metadata.
    expect(d?.judge).not.toHaveProperty('check');
  });

  it('a judge answering unjudged leaves the item unjudged with the judge reason and meta', () => {
    const [plain, checked] = decideItems({
      items: [item('tone'), item('fx', { hasCheck: true })],
      checks: new Map([['fx', outcome('cannot-evaluate', 'no cached values')]]),
      answers: new Map([
        ['tone', answer('unjudged', 'malformed replies (3)', { unjudgedReason: 'malformed' })],
        ['fx', answer('unjudged', 'model error: 500', { unjudgedReason: 'model-error' })],
      ]),
    });
    expect(plain).toMatchObject({
      decision: 'unjudged',
      source: 'none',
      reason: 'malformed replies (3)',
      judge: { unjudgedReason: 'malformed' },
    });
    expect(checked).toMatchObject({
      decision: 'unjudged',
      reason: 'model error: 500',
      judge: { unjudgedReason: 'model-error', check: { status: 'cannot-evaluate', reason: 'no cached values' } },
    });
  });

  it('an item the judge is silent on stays unjudged (a judge was configured)', () => {
    const [d] = decideItems({ items: [item('tone')], answers: new Map() });
    expect(d).toMatchObject({ decision: 'unjudged', source: 'none', reason: decisionMessages.judgeSilent });
  });

  it('checks-only (answers null): an item without a check is unjudged for that reason', () => {
    const [d] = decideItems({ items: [item('tone')], answers: null });
    expect(d).toMatchInlineSnapshot(`
      {
        "decision": "unjudged",
        "evidence": [],
        "id": "tone",
        "judge": undefined,
        "reason": "no judge configured (judge.mode is checks-only)",
        "reuseKey": "key-tone",
        "reusedFrom": null,
        "source": "none",
      }
    `);
  });

  it('an item with a check but no outcome (not run) goes to the judge like one without', () => {
    const input = { items: [item('fx', { hasCheck: true })], checks: new Map<string, CheckOutcome>() };
    expect(itemsNeedingJudge(input).map((i) => i.id)).toEqual(['fx']);
    expect(decideItems({ ...input, answers: new Map([['fx', answer('satisfied', 'ok')]]) })[0]).toMatchObject({
      source: 'judge',
      decision: 'satisfied',
    });
  });

  it('an outcome for an item without a check is not a check: the item still goes to the judge', () => {
    // The two halves of the rule must agree: what decideItems would not take from a check,
    // itemsNeedingJudge must send to the judge.
    const input = {
      items: [item('tone', { hasCheck: false })],
      checks: new Map([['tone', outcome('satisfied', 'stray outcome')]]),
    };
    expect(itemsNeedingJudge(input).map((i) => i.id)).toEqual(['tone']);
    expect(decideItems({ ...input, answers: new Map([['tone', answer('not-satisfied', 'judged')]]) })[0]).toMatchObject(
      { source: 'judge', decision: 'not-satisfied' },
    );
  });
});

describe('decideItems over a mixed list', () => {
  const items = [
    item('z-judged'),
    item('a-check', { hasCheck: true }),
    item('m-reused', { reuses: 't02/m', reuseKey: 'km' }),
    item('b-fallthrough', { hasCheck: true }),
    item('y-silent'),
    item('c-stale', { reuses: 't02/c', reuseKey: 'new', hasCheck: true }),
  ];
  const input = {
    items,
    prior: prior({
      't02/m': { decision: 'satisfied', reason: 'stated', reuseKey: 'km' },
      't02/c': { decision: 'satisfied', reason: 'old cell', reuseKey: 'old' },
    }),
    checks: new Map([
      ['a-check', outcome('not-satisfied', 'missing')],
      ['b-fallthrough', outcome('cannot-evaluate', 'cut at the cap')],
      ['c-stale', outcome('satisfied', 'new cell')],
    ]),
  };

  it('keeps the input order and says who decided each', () => {
    const out = decideItems({
      ...input,
      answers: new Map([
        ['z-judged', answer('satisfied', 'fine')],
        ['b-fallthrough', answer('not-satisfied', 'wrong total')],
      ]),
    });
    expect(out.map((d) => `${d.id}: ${d.decision} by ${d.source} (${d.reason})`)).toMatchInlineSnapshot(`
      [
        "z-judged: satisfied by judge (fine)",
        "a-check: not-satisfied by check (missing)",
        "m-reused: satisfied by reused (unchanged since t02/m: stated)",
        "b-fallthrough: not-satisfied by judge (wrong total)",
        "y-silent: unjudged by none (the judge returned no decision for this item)",
        "c-stale: satisfied by check (new cell)",
      ]
    `);
  });

  it('itemsNeedingJudge sends only what reuse and decided checks left open, in order', () => {
    expect(itemsNeedingJudge(input).map((i) => i.id)).toEqual(['z-judged', 'b-fallthrough', 'y-silent']);
  });

  it('reusedItems names the items whose checks need not run', () => {
    expect(reusedItems(items, input.prior)).toEqual(new Set(['m-reused']));
    expect(reusedItems(items)).toEqual(new Set());
  });

  it('an empty list decides nothing', () => {
    expect(decideItems({ items: [], answers: null })).toEqual([]);
    expect(itemsNeedingJudge({ items: [] })).toEqual([]);
  });
});
