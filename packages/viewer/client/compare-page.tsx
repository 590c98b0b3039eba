// Two runs side by side (`#/compare/A/B`), as `assay compare` prints them: what differs in what produced them,
// the paired score difference per system with its CI, the means per task, and every flipped item with both
// reasons, each side linked to its trial at that item.
import { api, type Comparison } from './api.js';
import { ci, decisionClass, num } from './format.js';
import { links } from './route.js';
import { useLoaded } from './use-loaded.js';

export function ComparePage({ a, b, revision }: { a: string; b: string; revision: string }) {
  const state = useLoaded(() => api.compare(a, b), [a, b, revision]);
  if (state.error && !state.data) return <p class="bad">{state.error}</p>;
  if (!state.data) return <p class="muted">loading…</p>;
  const c = state.data;
  return (
    <main>
      <h2>
        A: {c.a} · B: {c.b}
      </h2>
      <section data-testid="provenance">
        <h3>What produced them</h3>
        {c.provenance.length === 0 ? (
          <p class="muted">nothing recorded differs</p>
        ) : (
          <ul>
            {c.provenance.map((d) => (
              <li key={d.what}>
                <b>{d.what}</b>: {d.a} → {d.b}
              </li>
            ))}
          </ul>
        )}
      </section>
      {c.systems.length > 0 && <SystemTable c={c} />}
      {c.agreement.length > 0 && <AgreementTable c={c} />}
      {c.systems.length > 0 && <Flips c={c} />}
      {c.projects.systems.length > 0 && <ProjectSection c={c} />}
    </main>
  );
}

const pairName = (s: { a: string; b: string }) => (s.a === s.b ? s.a : `${s.a} | ${s.b}`);

function SystemTable({ c }: { c: Comparison }) {
  return (
    <section data-testid="compare-systems">
      <h3>Scores, A − B over the tasks both ran</h3>
      <p class="note">
        {c.metric === 'score' ? 'every item decided' : 'decided items only: a run has no trial with every item decided'}
        ; task-cluster bootstrap 95% CI (BCa where defined), McNemar on success
      </p>
      <table>
        <thead>
          <tr>
            <th>system</th>
            <th>task</th>
            <th>trials A</th>
            <th>trials B</th>
            <th>mean A</th>
            <th>mean B</th>
            <th>A − B</th>
            <th>95% CI</th>
            <th>McNemar p</th>
            <th>verdict</th>
          </tr>
        </thead>
        <tbody>
          {c.systems.flatMap((s) => {
            const p = s.paired;
            const interval = p?.bca ?? p?.ci;
            return [
              <tr key={pairName(s)} class="system-row">
                <td>
                  <b>{pairName(s)}</b>
                </td>
                <td class="muted">{p ? `${p.tasks} tasks` : ''}</td>
                <td />
                <td />
                <td class="num">{num(p?.meanA)}</td>
                <td class="num">{num(p?.meanB)}</td>
                <td class="num">{num(p?.difference)}</td>
                <td class="num">{ci(interval?.low, interval?.high)}</td>
                <td class="num">{num(p?.mcnemarP, 3)}</td>
                <td>{p ? p.verdict : s.reason}</td>
              </tr>,
              ...s.tasks.map((t) => (
                <tr key={`${pairName(s)}/${t.task}`}>
                  <td />
                  <td>{t.task}</td>
                  <td class="num">{t.trialsA}</td>
                  <td class="num">{t.trialsB}</td>
                  <td class="num">{num(t.meanA)}</td>
                  <td class="num">{num(t.meanB)}</td>
                  <td class="num">{num(t.difference)}</td>
                  <td colSpan={3} />
                </tr>
              )),
            ];
          })}
        </tbody>
      </table>
    </section>
  );
}

function AgreementTable({ c }: { c: Comparison }) {
  return (
    <section data-testid="compare-agreement">
      <h3>Item verdicts, A vs B</h3>
      <p class="note">
        items decided on both sides: raw agreement and Cohen’s kappa; items one side left unjudged are counted apart
      </p>
      <table>
        <thead>
          <tr>
            <th>system</th>
            <th>items</th>
            <th>agree %</th>
            <th>kappa</th>
            <th>satisfied both / A only / B only / neither</th>
            <th>decided by A only</th>
            <th>decided by B only</th>
          </tr>
        </thead>
        <tbody>
          {c.agreement.map((g) => (
            <tr key={g.system}>
              <td>{g.system}</td>
              <td class="num">{g.n}</td>
              <td class="num">{num(g.agreement)}</td>
              <td class="num">{num(g.kappa, 2)}</td>
              <td class="num">
                {g.table.both1} / {g.table.aOnly} / {g.table.bOnly} / {g.table.both0}
              </td>
              <td class="num">{g.decidedAOnly}</td>
              <td class="num">{g.decidedBOnly}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

function Flips({ c }: { c: Comparison }) {
  const side = (name: 'A' | 'B', source: string, system: string, f: Comparison['flips'][number]) => {
    const v = name === 'A' ? f.a : f.b;
    return (
      <div>
        <a href={links.trial(source, system, f.task, f.trial, f.itemId)}>{name}</a>{' '}
        <span class={decisionClass(v.decision)}>{v.decision}</span> <span class="muted">({v.source})</span> {v.reason}
        {v.evidence.length > 0 && <span class="muted"> · evidence: {v.evidence.slice(0, 2).join(' | ')}</span>}
      </div>
    );
  };
  return (
    <section data-testid="flips">
      <h3>Items whose verdict differs ({c.flips.length})</h3>
      <ul>
        {c.flips.map((f) => {
          const pair = c.systems.find((s) => pairName(s) === f.system) ?? { a: f.system, b: f.system };
          return (
            <li key={`${f.system}/${f.task}/${f.trial}/${f.itemId}`} data-item={f.itemId}>
              <b>
                {f.system} {f.task} #{f.trial} {f.itemId}
              </b>
              {side('A', c.sources.a, pair.a, f)}
              {side('B', c.sources.b, pair.b, f)}
            </li>
          );
        })}
      </ul>
    </section>
  );
}

function ProjectSection({ c }: { c: Comparison }) {
  const p = c.projects;
  return (
    <section data-testid="compare-projects">
      <h3>Multi-stage projects, A − B over the projects both ran</h3>
      <p class="note">
        {p.metric === 'score'
          ? 'every criterion decided'
          : 'decided criteria only: a run has no final score with every criterion decided'}
        ; final and process scores apart; paired bootstrap 95% CI, McNemar on success
      </p>
      <table>
        <thead>
          <tr>
            <th>system</th>
            <th>score</th>
            <th>projects</th>
            <th>mean A</th>
            <th>mean B</th>
            <th>A − B</th>
            <th>95% CI</th>
            <th>verdict</th>
          </tr>
        </thead>
        <tbody>
          {p.systems.flatMap((s) =>
            s.scores.map((d) => {
              const interval = d.paired?.bca ?? d.paired?.ci;
              return (
                <tr key={`${pairName(s)}/${d.score}`}>
                  <td>{pairName(s)}</td>
                  <td>{d.score}</td>
                  <td class="num">{d.paired?.tasks ?? 0}</td>
                  <td class="num">{num(d.paired?.meanA)}</td>
                  <td class="num">{num(d.paired?.meanB)}</td>
                  <td class="num">{num(d.paired?.difference)}</td>
                  <td class="num">{ci(interval?.low, interval?.high)}</td>
                  <td>{d.paired ? d.paired.verdict : d.reason}</td>
                </tr>
              );
            }),
          )}
        </tbody>
      </table>
      <h3>Project criteria whose verdict differs ({p.flips.length})</h3>
      <ul data-testid="criterion-flips">
        {p.flips.map((f) => {
          const pair = p.systems.find((s) => pairName(s) === f.system) ?? { a: f.system, b: f.system };
          return (
            <li key={`${f.system}/${f.project}/${f.trial}/${f.at}/${f.criterionId}`} data-criterion={f.criterionId}>
              <b>
                {f.system} {f.project} #{f.trial} {f.at}/{f.criterionId}
              </b>
              {(['A', 'B'] as const).map((name) => {
                const v = name === 'A' ? f.a : f.b;
                const [source, system] = name === 'A' ? [c.sources.a, pair.a] : [c.sources.b, pair.b];
                return (
                  <div key={name}>
                    <a href={links.project(source, system, f.project, f.trial)}>{name}</a>{' '}
                    <span class={decisionClass(v.decision)}>{v.decision}</span> <span class="muted">({v.source})</span>{' '}
                    {v.reason}
                  </div>
                );
              })}
            </li>
          );
        })}
      </ul>
    </section>
  );
}
