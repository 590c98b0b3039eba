// `assay compare A B`: two runs side by side (results folders, job files, or a job and its judges/<name>):
// what differs in what produced them, the paired score difference per system and task, and the items whose
// verdict flipped with both reasons. The comparison itself is @assay/analysis's compareRuns.
import { compareRuns, loadJobs, type ItemFlip, type RunComparison } from '@assay/analysis';
import { CliError } from '../cli-error.js';
import { messages } from '../messages.js';
import { renderTable } from '../render-table.js';
import { repoRoot } from '../repo-root.js';
import { resultsDirOf } from '../results-dir-of.js';

export async function compareCommand(
  a: string,
  b: string,
  opts: { seed?: string; resamples?: string; flips?: string; json?: boolean },
): Promise<void> {
  const root = repoRoot();
  const dirs = [resultsDirOf(a, root), resultsDirOf(b, root)];
  const options = {
    ...(opts.seed ? { seed: Number(opts.seed) } : {}),
    ...(opts.resamples ? { resamples: Number(opts.resamples) } : {}),
  };
  let comparison: RunComparison;
  try {
    const [ja, jb] = await loadJobs(dirs);
    comparison = compareRuns(ja!, jb!, options);
  } catch (err) {
    throw new CliError((err as Error).message.split('\n')[0] ?? String(err));
  }
  if (opts.json) {
    console.log(JSON.stringify(comparison, null, 2));
    return;
  }
  console.log(renderComparison(comparison, dirs, Number(opts.flips ?? 20)));
}

const fmt = (x: number | null, digits = 1): string => (x === null ? '—' : x.toFixed(digits));
const signed = (x: number | null): string => (x === null ? '—' : `${x > 0 ? '+' : ''}${x.toFixed(1)}`);

function renderComparison(c: RunComparison, dirs: string[], maxFlips: number): string {
  const out: string[] = [`A: ${c.a} (${dirs[0]})`, `B: ${c.b} (${dirs[1]})`, ''];
  out.push('What produced them');
  if (c.provenance.length === 0) out.push('  nothing recorded differs');
  for (const d of c.provenance) out.push(`  ${d.what}: ${d.a} → ${d.b}`);
  if (c.systems.length > 0) out.push('', ...renderTasks(c, maxFlips));
  if (c.projects.systems.length > 0) out.push('', ...renderProjects(c.projects, maxFlips));
  return out.join('\n');
}

function renderTasks(c: RunComparison, maxFlips: number): string[] {
  const out = [messages.compareScores(c.metric)];
  const body = c.systems.map((s) => {
    const p = s.paired;
    const ci = p?.bca ?? p?.ci;
    return [
      s.a === s.b ? s.a : `${s.a} | ${s.b}`,
      String(p?.tasks ?? 0),
      fmt(p?.meanA ?? null),
      fmt(p?.meanB ?? null),
      signed(p?.difference ?? null),
      ci ? `[${signed(ci.low)}, ${signed(ci.high)}]` : '—',
      p ? fmt(p.mcnemarP, 3) : '—',
      p ? p.verdict : (s.reason ?? '—'),
    ];
  });
  out.push(renderTable(['system', 'tasks', 'mean A', 'mean B', 'A − B', '95% CI', 'McNemar p', 'verdict'], body));
  const tasks = c.systems.flatMap((s) =>
    s.tasks.map((t) => [
      `${s.a === s.b ? s.a : `${s.a} | ${s.b}`}  ${t.task}`,
      String(t.trialsA),
      String(t.trialsB),
      fmt(t.meanA),
      fmt(t.meanB),
      signed(t.difference),
    ]),
  );
  out.push('', 'Per task', renderTable(['system  task', 'trials A', 'trials B', 'mean A', 'mean B', 'A − B'], tasks));
  out.push('', messages.compareAgreement);
  const agreement = c.agreement.map((g) => [
    g.system,
    String(g.n),
    fmt(g.agreement),
    fmt(g.kappa, 2),
    `${g.table.both1}/${g.table.aOnly}/${g.table.bOnly}/${g.table.both0}`,
    String(g.decidedAOnly),
    String(g.decidedBOnly),
  ]);
  out.push(renderTable(['system', 'items', 'agree %', 'kappa', 'both/A/B/neither', 'A only', 'B only'], agreement));
  out.push('', messages.compareFlips(c.flips.length));
  for (const f of c.flips.slice(0, maxFlips)) out.push(...renderFlip(f));
  if (c.flips.length > maxFlips) out.push(messages.compareMoreFlips(c.flips.length - maxFlips));
  return out;
}

function renderProjects(p: RunComparison['projects'], maxFlips: number): string[] {
  const body = p.systems.flatMap((s) =>
    s.scores.map((d) => {
      const ci = d.paired?.bca ?? d.paired?.ci;
      return [
        `${s.a === s.b ? s.a : `${s.a} | ${s.b}`}  ${d.score}`,
        String(d.paired?.tasks ?? 0),
        fmt(d.paired?.meanA ?? null),
        fmt(d.paired?.meanB ?? null),
        signed(d.paired?.difference ?? null),
        ci ? `[${signed(ci.low)}, ${signed(ci.high)}]` : '—',
        d.paired ? fmt(d.paired.mcnemarP, 3) : '—',
        d.paired ? d.paired.verdict : (d.reason ?? '—'),
      ];
    }),
  );
  const out = [
    messages.compareProjects(p.metric),
    renderTable(['system  score', 'projects', 'mean A', 'mean B', 'A − B', '95% CI', 'McNemar p', 'verdict'], body),
  ];
  out.push('', messages.compareCriterionFlips(p.flips.length));
  for (const f of p.flips.slice(0, maxFlips))
    out.push(
      `  ${f.system} ${f.project} #${f.trial} ${f.at}/${f.criterionId}: ${f.a.decision} → ${f.b.decision}`,
      `    A (${f.a.source}): ${f.a.reason}`,
      `    B (${f.b.source}): ${f.b.reason}`,
    );
  if (p.flips.length > maxFlips) out.push(messages.compareMoreFlips(p.flips.length - maxFlips));
  return out;
}

function renderFlip(f: ItemFlip): string[] {
  const side = (name: string, s: ItemFlip['a']): string =>
    `    ${name} (${s.source}): ${s.reason}${s.evidence.length > 0 ? ` [evidence: ${s.evidence.slice(0, 2).join(' | ')}]` : ''}`;
  return [
    `  ${f.system} ${f.task} #${f.trial} ${f.itemId}: ${f.a.decision} → ${f.b.decision}`,
    side('A', f.a),
    side('B', f.b),
  ];
}
