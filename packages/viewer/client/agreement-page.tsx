// How far the judge agrees with the labels people made (GET /api/agreement): per judge setup, pooled and by
// system, importance or target, and dimension, with kappa's bootstrap interval and the confusion table; the
// items where judge and label differ, each opening the item; and reviewers against each other. The same
// numbers `assay report` prints for the same job and labels.
import { api, type AgreementView } from './api.js';
import { num } from './format.js';
import { links } from './route.js';
import { useLoaded } from './use-loaded.js';

type Row = AgreementView['rows'][number];
type Disagreement = AgreementView['disagreements'][number];

const KINDS = [
  { kind: 'task', title: 'Single tasks: rubric items' },
  { kind: 'project', title: 'Projects: criteria' },
] as const;

const decision = (v: 0 | 1) => (v === 1 ? 'satisfied' : 'not satisfied');

export function AgreementPage({ source, revision }: { source: string; revision: string }) {
  const state = useLoaded(() => api.agreement(source), [source, revision]);
  if (state.error && !state.data) return <p class="bad">{state.error}</p>;
  if (!state.data) return <p class="muted">loading…</p>;
  const d = state.data;
  return (
    <main data-testid="agreement-page">
      <h1>Judge agreement with people's labels: {d.label}</h1>
      <p class="muted" data-testid="agreement-summary">
        {d.reviews.labelled} item{d.reviews.labelled === 1 ? '' : 's'} labelled by reviews ({d.reviews.items} reviewed,{' '}
        {d.reviews.stale} stale review{d.reviews.stale === 1 ? '' : 's'} left out)
        {d.labelFile ? ` and ${d.labelFile}` : ''} · setups: {d.setups.map((s) => s.name).join(', ')} ·{' '}
        <a href={links.review(d.source)}>review items</a>
      </p>
      {d.problems.map((p) => (
        <p key={p} class="bad">
          {p}
        </p>
      ))}
      {d.rows.length === 0 && <p class="note">No label matches a decision yet: review some items first.</p>}
      {KINDS.map(({ kind, title }) => {
        const rows = d.rows.filter((r) => r.kind === kind);
        if (rows.length === 0) return null;
        return (
          <section key={kind}>
            <h2>{title}</h2>
            {[...new Set(rows.map((r) => r.setup))].map((setup) => (
              <SetupAgreement key={setup} setup={setup} rows={rows.filter((r) => r.setup === setup)} />
            ))}
            <Disagreements list={d.disagreements.filter((x) => x.kind === kind)} />
          </section>
        );
      })}
      {d.reviewers.length > 0 && (
        <section>
          <h2>Reviewers against each other</h2>
          <table data-testid="reviewer-agreement">
            <thead>
              <tr>
                <th>a</th>
                <th>b</th>
                <th>shared</th>
                <th>n</th>
                <th>agree</th>
                <th>agreement %</th>
                <th>kappa</th>
                <th>95% CI</th>
                <th>can't tell</th>
              </tr>
            </thead>
            <tbody>
              {d.reviewers.map((r) => (
                <tr key={`${r.a}-${r.b}`}>
                  <td>{r.a}</td>
                  <td>{r.b}</td>
                  <td>{r.shared}</td>
                  <td>{r.n}</td>
                  <td>{r.agree}</td>
                  <td>{num(r.agreement, 2)}</td>
                  <td>{num(r.kappa, 3)}</td>
                  <td>{interval(r.kappa_low, r.kappa_high)}</td>
                  <td>{r.cant_tell}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      )}
    </main>
  );
}

const interval = (low: number | null, high: number | null) =>
  low === null || high === null ? '—' : `[${num(low, 3)}, ${num(high, 3)}]`;

function SetupAgreement({ setup, rows }: { setup: string; rows: Row[] }) {
  const all = rows.find((r) => r.by === 'all');
  return (
    <div class="agreement-setup" data-setup={setup}>
      <h3>{setup}</h3>
      {all && (
        <table class="confusion" data-testid="confusion">
          <thead>
            <tr>
              <th />
              <th>label: satisfied</th>
              <th>label: not satisfied</th>
            </tr>
          </thead>
          <tbody>
            <tr>
              <th>judge: satisfied</th>
              <td>{all.both_satisfied}</td>
              <td>{all.judge_only}</td>
            </tr>
            <tr>
              <th>judge: not satisfied</th>
              <td>{all.human_only}</td>
              <td>{all.both_not}</td>
            </tr>
          </tbody>
        </table>
      )}
      <table data-testid="agreement-table">
        <thead>
          <tr>
            <th>by</th>
            <th>group</th>
            <th>n</th>
            <th>agree</th>
            <th>agreement %</th>
            <th>kappa</th>
            <th>95% CI</th>
            <th>unjudged</th>
            <th>unmatched</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={`${r.by}-${r.group}`} data-testid="agreement-row" data-by={r.by} data-group={r.group}>
              <td>{r.by}</td>
              <td>{r.group}</td>
              <td data-col="n">{r.n}</td>
              <td data-col="agree">{r.agree}</td>
              <td data-col="agreement">{num(r.agreement, 2)}</td>
              <td data-col="kappa">{num(r.kappa, 3)}</td>
              <td data-col="kappa-ci">{interval(r.kappa_low, r.kappa_high)}</td>
              <td>{r.unjudged}</td>
              <td>{r.unmatched}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function Disagreements({ list }: { list: Disagreement[] }) {
  if (list.length === 0) return <p class="muted">No disagreement between judge and labels.</p>;
  return (
    <>
      <h3>Where judge and label differ ({list.length})</h3>
      <ul data-testid="disagreements">
        {list.map((x) => {
          const href =
            x.kind === 'task'
              ? links.trial(x.source, x.system, x.unit, x.trial, x.item)
              : links.project(x.source, x.system, x.unit, x.trial, null, x.item);
          return (
            <li key={`${x.setup}-${x.system}-${x.unit}-${x.trial}-${x.scope ?? ''}-${x.item}`}>
              <a href={href} data-testid="disagreement">
                {x.setup} · {x.system} · {x.unit} · trial {x.trial} · {x.scope ? `${x.scope}/` : ''}
                {x.item}
              </a>{' '}
              judge {decision(x.judge)}, label {decision(x.human)}
            </li>
          );
        })}
      </ul>
    </>
  );
}
