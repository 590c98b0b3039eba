// A project run: the timeline, the selected checkpoint (what changed, its criteria with reused
// verdicts marked, its outputs as the judge saw them) and the final package's criteria.
import { useCallback, useState } from 'preact/hooks';
import { api, type AnchorRef, type ProjectDetail } from './api.js';
import { DeliverablePane, type Focus } from './deliverable-pane.js';
import { FinalPackageView } from './final-package-view.js';
import { ProjectHistory } from './project-history.js';
import { ProjectTimeline } from './project-timeline.js';
import { links, replaceHash, type Route } from './route.js';
import { SnapshotDiffView } from './snapshot-diff-view.js';
import { useKeyNav } from './use-key-nav.js';
import { useLoaded } from './use-loaded.js';
import { VerdictList } from './verdict-list.js';
import { TranscriptView } from './transcript-view.js';

type ProjectRoute = Extract<Route, { page: 'project' }>;

export function ProjectPage({ route, revision }: { route: ProjectRoute; revision: string }) {
  const state = useLoaded(
    () => api.project(route.source, route.system, route.project, route.trial),
    [route.source, route.system, route.project, route.trial, revision],
  );
  if (state.error) return <p class="bad">{state.error}</p>;
  if (!state.data) return <p class="muted">loading…</p>;
  return <ProjectView data={state.data} route={route} />;
}

function ProjectView({ data, route }: { data: ProjectDetail; route: ProjectRoute }) {
  const r = data.record;
  const link = (cp: number | null, criterion?: string | null) =>
    links.project(data.source, r.system.id, r.project.id, r.trial, cp, criterion);
  const count = data.checkpoints.length;
  const current = route.checkpoint ?? -1;
  const select = useCallback((i: number) => replaceHash(link(i)), [count]);
  useKeyNav(count, current, select);
  const cp = data.checkpoints[current];
  return (
    <main class="project">
      <nav class="crumbs">
        <a href="#/">overview</a> / {r.system.id} / {r.project.id} / trial {r.trial}
      </nav>
      <h1>{data.context.title ?? r.project.id}</h1>
      {data.context.objective && <p>{data.context.objective}</p>}
      {data.context.note && <p class="note">{data.context.note}</p>}
      <dl class="facts">
        <dt>final</dt>
        <dd>{r.final.score ?? '—'}</dd>
        <dt>process</dt>
        <dd>{r.process.score ?? '—'}</dd>
        <dt>subtask pass rate</dt>
        <dd>{r.process.passRate ?? '—'}</dd>
        <dt>checkpoints</dt>
        <dd>
          {count} of {r.project.subtasks} subtasks
        </dd>
        <dt>agent</dt>
        <dd>
          {r.resources.agentSeconds.toFixed(2)} s, {r.resources.totalTokens ?? '—'} tokens
        </dd>
        <dt>feedback injected</dt>
        <dd>{r.injectedFeedback.map((f) => `${f.name} (before ${f.beforeSubtask ?? 'end'})`).join(', ') || 'none'}</dd>
      </dl>
      <ProjectHistory record={r} />
      <ProjectTimeline data={data} current={current} href={(i) => link(i)} />
      <p class="muted">j/k or ↑/↓ between checkpoints</p>
      {cp ? (
        <CheckpointView key={cp.subtaskId} data={data} index={current} criterion={route.criterion} link={link} />
      ) : (
        <p class="muted">Open a checkpoint above to see what changed and how it was judged.</p>
      )}
      <FinalPackageView data={data} criterion={route.criterion} href={(id) => link(null, id)} />
    </main>
  );
}

interface CheckpointProps {
  data: ProjectDetail;
  index: number;
  criterion: string | null;
  link: (cp: number | null, criterion?: string | null) => string;
}

function CheckpointView({ data, index, criterion, link }: CheckpointProps) {
  const r = data.record;
  const cp = data.checkpoints[index];
  const view = useLoaded(
    () => api.checkpointView(data.source, r.system.id, r.project.id, r.trial, String(index)),
    [index],
  );
  const [focus, setFocus] = useState<Focus | null>(null);
  if (!cp) return null;
  const stage = data.context.stages.find((s) => s.id === cp.stageId);
  const subtask = stage?.subtasks.find((s) => s.id === cp.subtaskId);
  const openAnchor = (a: AnchorRef) => setFocus({ file: a.file, anchor: a.anchor, page: a.page });
  return (
    <section class="checkpoint" data-testid="checkpoint">
      <h2>
        {cp.stageId} / {cp.subtaskId}: {subtask?.title ?? ''}
      </h2>
      {subtask && (
        <details>
          <summary>instructions</summary>
          <pre>{subtask.instructions}</pre>
        </details>
      )}
      <TranscriptView transcript={cp.transcript} />
      <SnapshotDiffView
        source={data.source}
        system={r.system.id}
        project={r.project.id}
        trial={r.trial}
        index={index}
        checkpoint={cp}
      />
      <div class="split">
        <section>
          <h3>Checkpoint criteria</h3>
          <VerdictList
            rows={cp.verdicts.map((v) => ({
              ...v,
              id: v.criterionId,
              source: v.reusedFrom ? `reused from ${v.reusedFrom}` : v.source,
              extra: (
                <span class="muted">
                  w{v.weight} · {v.dimension}
                </span>
              ),
            }))}
            current={criterion}
            href={(id) => link(index, id)}
            onAnchor={openAnchor}
          />
        </section>
        <section>
          <h3>Outputs at this checkpoint</h3>
          {view.data ? (
            <DeliverablePane source={data.source} files={view.data.files} notes={view.data.notes} focus={focus} />
          ) : (
            <p class="muted">{view.error ?? 'reading the snapshot…'}</p>
          )}
        </section>
      </div>
    </section>
  );
}
