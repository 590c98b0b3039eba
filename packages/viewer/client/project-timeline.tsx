// The stage/subtask timeline: one mark per checkpoint with its score (Vega-Lite), and one
// button per checkpoint to open it.
import type { VisualizationSpec } from 'vega-embed';
import type { ProjectDetail } from './api.js';
import { num } from './format.js';
import { VegaChart } from './vega-chart.js';

export function ProjectTimeline({
  data,
  current,
  href,
}: {
  data: ProjectDetail;
  current: number;
  href: (i: number) => string;
}) {
  const values = data.checkpoints.map((c, i) => ({
    order: i + 1,
    subtask: c.subtaskId,
    stage: c.stageId,
    score: c.score,
    state: c.score === null ? 'unjudged' : c.gateTriggered ? 'gate triggered' : 'scored',
  }));
  const spec: VisualizationSpec = {
    $schema: 'https://vega.github.io/schema/vega-lite/v5.json',
    width: 560,
    height: 160,
    data: { values: values.map((v) => ({ ...v, y: v.score ?? 0 })) },
    mark: { type: 'point', filled: true, size: 90 },
    encoding: {
      x: { field: 'subtask', type: 'ordinal', sort: { field: 'order' }, title: null, axis: { labelAngle: -20 } },
      y: { field: 'y', type: 'quantitative', scale: { domain: [0, 100] }, title: 'checkpoint score' },
      color: { field: 'stage', type: 'nominal' },
      shape: { field: 'state', type: 'nominal', scale: { domain: ['scored', 'unjudged', 'gate triggered'] } },
      tooltip: [{ field: 'subtask' }, { field: 'stage' }, { field: 'score' }, { field: 'state' }],
    },
  };
  return (
    <section data-testid="timeline">
      <h2>Timeline</h2>
      <VegaChart spec={spec} label="checkpoint scores along the timeline (unjudged checkpoints at 0, marked)" />
      <ol class="timeline">
        {data.checkpoints.map((c, i) => {
          const reused = c.verdicts.filter((v) => v.source === 'reused').length;
          return (
            <li key={c.subtaskId} data-checkpoint={c.subtaskId} class={i === current ? 'current' : ''}>
              <a href={href(i)}>
                <span class="muted">{c.stageId}</span> <b>{c.subtaskId}</b>
              </a>{' '}
              score {num(c.score)}
              {c.gateTriggered ? <span class="bad"> gate</span> : ''} · {c.verdicts.length} criteria
              {c.unjudged.length ? `, ${c.unjudged.length} unjudged` : ''}
              {reused ? `, ${reused} reused` : ''} · {c.agent.status}, {num(c.agent.durationSeconds, 2)} s · +
              {c.diff.added.length} ~{c.diff.changed.length} −{c.diff.removed.length} files
            </li>
          );
        })}
      </ol>
    </section>
  );
}
