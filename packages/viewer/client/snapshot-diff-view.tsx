// What the agent changed between a checkpoint and the one before it: files added / changed /
// removed, and for a file opened, what changed inside it (cells, paragraphs, slides, lines).
import { useState } from 'preact/hooks';
import { api, type Checkpoint, type FileDiff } from './api.js';

interface Props {
  source: string;
  system: string;
  project: string;
  trial: number;
  index: number;
  checkpoint: Checkpoint;
}

export function SnapshotDiffView({ source, system, project, trial, index, checkpoint }: Props) {
  const [open, setOpen] = useState<{ path: string; diff: FileDiff | null; error: string | null } | null>(null);
  const show = (path: string) => {
    setOpen({ path, diff: null, error: null });
    api
      .diff(source, system, project, trial, index, path)
      .then((diff) => setOpen({ path, diff, error: null }))
      .catch((e: Error) => setOpen({ path, diff: null, error: e.message }));
  };
  const { added, changed, removed } = checkpoint.diff;
  const list = (kind: string, paths: string[]) =>
    paths.map((p) => (
      <li key={`${kind}${p}`} class={kind} data-diff={kind}>
        <span class="diff-kind">{kind}</span>{' '}
        {kind === 'removed' ? (
          p
        ) : (
          <button class="linklike" onClick={() => show(p)}>
            {p}
          </button>
        )}
      </li>
    ));
  return (
    <div class="snapshot-diff" data-testid="snapshot-diff">
      <h3>{index === 0 ? 'Workspace at the first checkpoint' : 'Changed since the previous checkpoint'}</h3>
      {added.length + changed.length + removed.length === 0 ? (
        <p class="muted">no file changed</p>
      ) : (
        <ul>
          {list('added', added)}
          {list('changed', changed)}
          {list('removed', removed)}
        </ul>
      )}
      {open && <FileDiffView path={open.path} diff={open.diff} error={open.error} />}
    </div>
  );
}

function FileDiffView({ path, diff, error }: { path: string; diff: FileDiff | null; error: string | null }) {
  if (error) return <p class="bad">{error}</p>;
  if (!diff) return <p class="muted">reading both versions of {path}…</p>;
  const rows = [
    ...diff.changed.map((c) => ({ kind: 'changed', ...c })),
    ...diff.added.map((c) => ({ kind: 'added', ...c })),
    ...diff.removed.map((c) => ({ kind: 'removed', ...c })),
  ];
  return (
    <div class="file-diff" data-testid="file-diff">
      <h4>
        inside {path} <span class="muted">{diff.format ?? ''}</span>: {diff.counts.changed} changed, {diff.counts.added}{' '}
        added, {diff.counts.removed} removed
      </h4>
      {diff.notes.map((n) => (
        <p key={n} class="note">
          {n}
        </p>
      ))}
      <table>
        <thead>
          <tr>
            <th />
            <th>anchor</th>
            <th>before</th>
            <th>after</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={`${r.kind}${r.anchor}`} class={r.kind}>
              <td>{r.kind}</td>
              <td>{r.anchor}</td>
              <td>
                <pre>{r.before ?? ''}</pre>
              </td>
              <td>
                <pre>{r.after ?? ''}</pre>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
