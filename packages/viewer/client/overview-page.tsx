// The job overview: leaderboards, status per system, and every trial and project run, filtered
// by system / task / domain / status (the filters are in the URL, so a filtered view is a link).
import { useCallback, useMemo, useState } from 'preact/hooks';
import type { Overview } from './api.js';
import { ControlBanner } from './control-banner.js';
import { num } from './format.js';
import { DeliveryView, LeaderboardView } from './leaderboard-view.js';
import { links, replaceHash } from './route.js';
import { useKeyNav } from './use-key-nav.js';

const FILTERS = ['source', 'system', 'task', 'domain', 'status'] as const;
type Filter = (typeof FILTERS)[number];

export function OverviewPage({ data, query }: { data: Overview; query: URLSearchParams }) {
  const { filters, setFilter, trials, projects, options } = useOverviewFilters(data, query);
  const current = useRowNav(trials, projects);
  const sourceLabel = (id: string) => data.sources.find((s) => s.id === id)?.label ?? id;

  return (
    <main>
      <SourcesHeader sources={data.sources} />
      <LeaderboardView rows={data.leaderboard} decided={false} />
      <LeaderboardView rows={data.decidedLeaderboard} decided />
      {data.reviewedLeaderboard && (
        <LeaderboardView rows={data.reviewedLeaderboard} decided={false} reviews={data.reviewBasis} />
      )}
      <DeliveryView rows={data.delivery} />
      <StatusView data={data} sourceLabel={sourceLabel} />
      <FilterBar filters={filters} options={options} setFilter={setFilter} sourceLabel={sourceLabel} />
      <TrialTable trials={trials} current={current} sourceLabel={sourceLabel} />
      <ProjectTable projects={projects} current={current - trials.length} sourceLabel={sourceLabel} />
    </main>
  );
}

/** The filters as the URL has them, setting one rewrites the URL; the trials and project runs they keep. */
function useOverviewFilters(data: Overview, query: URLSearchParams) {
  const filters = Object.fromEntries(FILTERS.map((f) => [f, query.get(f) ?? ''])) as Record<Filter, string>;
  const setFilter = (f: Filter, v: string) => {
    const q = new URLSearchParams(query);
    if (v) q.set(f, v);
    else q.delete(f);
    replaceHash(`#/?${q.toString()}`);
  };
  const keep = (r: Record<Filter, unknown>) => FILTERS.every((f) => !filters[f] || String(r[f]) === filters[f]);
  const trials = data.trials.filter((t) => keep({ ...t }));
  const projects = data.projects.filter((p) => keep({ ...p, task: p.project, domain: '' }));
  const options = useMemo(() => optionsOf(data), [data]);
  return { filters, setFilter, trials, projects, options };
}

/** j/k over the trials then the project runs as one list, Enter opens the current row; gives its index. */
function useRowNav(trials: Overview['trials'], projects: Overview['projects']) {
  const rows = [
    ...trials.map((t) => ({ href: links.trial(t.source, t.system, t.task, t.trial) })),
    ...projects.map((p) => ({ href: links.project(p.source, p.system, p.project, p.trial) })),
  ];
  const [current, setCurrent] = useState(-1);
  const open = useCallback((i: number) => void (location.hash = rows[i]?.href ?? location.hash), [rows]);
  useKeyNav(rows.length, current, setCurrent, open);
  return current;
}

/** Each source with its problems and links (review, agreement, control), then a compare link per later source. */
function SourcesHeader({ sources }: { sources: Overview['sources'] }) {
  return (
    <header class="sources">
      {sources.map((s) => (
        <div key={s.id}>
          <b>{s.label}</b> <span class="muted">{s.dir}</span>
          {s.problems.length > 0 && <span class="bad"> · {s.problems.length} invalid record(s) skipped</span>}
          {s.versions.map((v) => (
            <div key={v} class="bad" data-testid="versions">
              versions: {v}; scores of different versions are never pooled
            </div>
          ))}
          {' · '}
          <a href={links.review(s.id)} data-testid="review-link">
            review items
          </a>
          {' · '}
          <a href={links.agreement(s.id)} data-testid="agreement-link">
            agreement
          </a>
          {s.control && <ControlBanner control={s.control} />}
        </div>
      ))}
      {sources.slice(1).map((s) => (
        <div key={`compare-${s.id}`}>
          <a href={links.compare(sources[0]!.id, s.id)} data-testid="compare-link">
            compare {sources[0]!.label} with {s.label}
          </a>
        </div>
      ))}
    </header>
  );
}

function FilterBar(props: {
  filters: Record<Filter, string>;
  options: Record<Filter, string[]>;
  setFilter: (f: Filter, v: string) => void;
  sourceLabel: (id: string) => string;
}) {
  return (
    <section class="filters">
      {FILTERS.map((f) => (
        <label key={f}>
          {f}{' '}
          <select
            name={f}
            value={props.filters[f]}
            onChange={(e) => props.setFilter(f, (e.target as HTMLSelectElement).value)}
          >
            <option value="">all</option>
            {props.options[f].map((o) => (
              <option key={o} value={o}>
                {f === 'source' ? props.sourceLabel(o) : o}
              </option>
            ))}
          </select>
        </label>
      ))}
      <span class="muted">j/k or ↑/↓ to move, Enter to open</span>
    </section>
  );
}

function optionsOf(data: Overview): Record<Filter, string[]> {
  const uniq = (xs: (string | number)[]) => [...new Set(xs.map(String))].sort();
  return {
    source: data.sources.map((s) => s.id),
    system: uniq([...data.trials.map((t) => t.system), ...data.projects.map((p) => p.system)]),
    task: uniq([...data.trials.map((t) => t.task), ...data.projects.map((p) => p.project)]),
    domain: uniq(data.trials.map((t) => t.domain)),
    status: uniq([...data.trials.map((t) => t.status), ...data.projects.map((p) => p.status)]),
  };
}

function StatusView({ data, sourceLabel }: { data: Overview; sourceLabel: (id: string) => string }) {
  const statuses = [...new Set(data.statusCounts.flatMap((c) => Object.keys(c.byStatus)))].sort();
  return (
    <section data-testid="status">
      <h2>Status per system</h2>
      <table>
        <thead>
          <tr>
            <th>source</th>
            <th>system</th>
            <th>kind</th>
            {statuses.map((s) => (
              <th key={s}>{s}</th>
            ))}
          </tr>
        </thead>
        <tbody>
          {data.statusCounts.map((c) => (
            <tr key={`${c.source}/${c.system}/${c.kind}`}>
              <td>{sourceLabel(c.source)}</td>
              <td>{c.system}</td>
              <td>{c.kind}</td>
              {statuses.map((s) => (
                <td key={s} class={s === 'completed' ? 'num' : 'num bad'}>
                  {c.byStatus[s] ?? ''}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

function TrialTable(props: { trials: Overview['trials']; current: number; sourceLabel: (id: string) => string }) {
  if (props.trials.length === 0) return null;
  return (
    <section>
      <h2>Trials ({props.trials.length})</h2>
      <table data-testid="trials">
        <thead>
          <tr>
            <th>source</th>
            <th>system</th>
            <th>task</th>
            <th>domain</th>
            <th>trial</th>
            <th>status</th>
            <th>score</th>
            <th>decided</th>
            <th>coverage</th>
            <th>not satisfied</th>
            <th>unjudged</th>
            <th>agent s</th>
            <th>tokens</th>
          </tr>
        </thead>
        <tbody>
          {props.trials.map((t, i) => (
            <tr key={`${t.source}/${t.system}/${t.task}/${t.trial}`} class={i === props.current ? 'current' : ''}>
              <td>{props.sourceLabel(t.source)}</td>
              <td>{t.system}</td>
              <td>
                <a href={links.trial(t.source, t.system, t.task, t.trial)}>{t.task}</a>
              </td>
              <td>{t.domain}</td>
              <td>{t.trial}</td>
              <td class={t.status === 'completed' ? '' : 'bad'}>{t.status}</td>
              <td class="num">{num(t.score)}</td>
              <td class="num">{num(t.decided)}</td>
              <td class="num">{num(t.coverage * 100, 0)}%</td>
              <td class="num">{t.failedItems}</td>
              <td class="num">{t.unjudged}</td>
              <td class="num">{num(t.durationSeconds)}</td>
              <td class="num">{t.tokens ?? '—'}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

function ProjectTable(props: { projects: Overview['projects']; current: number; sourceLabel: (id: string) => string }) {
  if (props.projects.length === 0) return null;
  return (
    <section>
      <h2>Project runs ({props.projects.length})</h2>
      <table data-testid="projects">
        <thead>
          <tr>
            <th>source</th>
            <th>system</th>
            <th>project</th>
            <th>trial</th>
            <th>status</th>
            <th>final</th>
            <th>process</th>
            <th>gate</th>
            <th>checkpoints</th>
          </tr>
        </thead>
        <tbody>
          {props.projects.map((p, i) => (
            <tr key={`${p.source}/${p.system}/${p.project}/${p.trial}`} class={i === props.current ? 'current' : ''}>
              <td>{props.sourceLabel(p.source)}</td>
              <td>{p.system}</td>
              <td>
                <a href={links.project(p.source, p.system, p.project, p.trial)}>{p.project}</a>
              </td>
              <td>{p.trial}</td>
              <td class={p.status === 'completed' ? '' : 'bad'}>{p.status}</td>
              <td class="num">{num(p.final)}</td>
              <td class="num">{num(p.process)}</td>
              <td class={p.gateTriggered ? 'bad' : ''}>{p.gateTriggered ? 'triggered' : ''}</td>
              <td class="num">
                {p.checkpoints} / {p.subtasks}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
