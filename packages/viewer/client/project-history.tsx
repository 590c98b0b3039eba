// What happened to a project run besides its subtasks: subtasks stopped by `pause --now` and run
// again from the last checkpoint (`restarts`), and hosts it left because they were gone (`moves`).
import type { ProjectDetail } from './api.js';

type ProjectRecordView = ProjectDetail['record'];

const restoredText = (from: string | null): string =>
  from ? `restored from checkpoint ${from}` : 'started again from an empty workspace';

export function ProjectHistory({ record }: { record: ProjectRecordView }) {
  const restarts = record.restarts ?? [];
  const moves = record.moves ?? [];
  if (restarts.length === 0 && moves.length === 0) return null;
  return (
    <section data-testid="project-history">
      {restarts.length > 0 && (
        <>
          <h3>Restarts ({restarts.length})</h3>
          <ol data-testid="restarts">
            {restarts.map((r) => (
              <li key={`${r.subtaskId}/${r.at}`} data-subtask={r.subtaskId}>
                <b>{r.subtaskId}</b>: {r.reason} · {restoredText(r.restoredFrom)}
                {r.host && ` on ${r.host}`} · harness session {r.session}{' '}
                <span class="muted">{new Date(r.at).toLocaleString()}</span>
              </li>
            ))}
          </ol>
        </>
      )}
      {moves.length > 0 && (
        <>
          <h3>Host moves ({moves.length})</h3>
          <ol data-testid="moves">
            {moves.map((m) => (
              <li key={`${m.from}/${m.at}`}>
                <b>
                  {m.from} → {m.to ?? 'no host yet'}
                </b>
                : {m.reason} · {restoredText(m.restoredFrom)} · harness session {m.session}{' '}
                <span class="muted">{new Date(m.at).toLocaleString()}</span>
              </li>
            ))}
          </ol>
        </>
      )}
    </section>
  );
}
