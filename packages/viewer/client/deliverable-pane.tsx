// The deliverables as the judge saw them: one tab per file, its page images (rendered by
// @assay/evidence, or the judge's own under <results>/pages/) and its extracted evidence. With `onPick` (the
// labelling page) a click on a cell, paragraph, line, ... or a page image gives its anchor with the file's path.
import { useEffect, useState } from 'preact/hooks';
import { api, type DeliverableFile } from './api.js';
import { parseCellAnchor } from './cell-ref.js';
import { EvidenceView } from './evidence-view.js';

/**
 * An anchor within a file joined to the file's path as the viewer's `findAnchors` reads it back: a cell as
 * `debt_schedule.xlsx!Summary!B4`, anything else as `memo.docx paragraph 12`, `lender_note.md line 3`,
 * `report.pdf page 2`.
 */
function fileAnchor(path: string, anchor: string): string {
  return parseCellAnchor(anchor) ? `${path}!${anchor}` : `${path} ${anchor}`;
}

export interface Focus {
  file: string | null;
  anchor: string | null;
  page: number | null;
}

interface Props {
  source: string;
  files: DeliverableFile[];
  notes: string[];
  focus: Focus | null;
  /** Pick mode (the labelling page): a click in the evidence or on a page image gives that place's anchor. */
  onPick?: (anchor: string) => void;
}

export function DeliverablePane({ source, files, notes, focus, onPick }: Props) {
  const [selected, setSelected] = useState<string | null>(files[0]?.path ?? null);
  useEffect(() => {
    if (focus?.file && files.some((f) => f.path === focus.file)) setSelected(focus.file);
  }, [focus]);
  const file = files.find((f) => f.path === selected) ?? files[0];
  if (!file) return <p class="note">No deliverable was collected.</p>;
  const anchor = focus && focus.file === file.path ? focus.anchor : null;
  const page = focus && focus.file === file.path ? focus.page : null;
  const pick = onPick && ((a: string) => onPick(fileAnchor(file.path, a)));
  return (
    <div class="deliverables" data-testid="deliverables">
      <nav class="tabs">
        {files.map((f) => (
          <button key={f.path} class={f === file ? 'active' : ''} onClick={() => setSelected(f.path)}>
            {f.path} <span class="muted">{f.type}</span>
          </button>
        ))}
      </nav>
      {[...notes, ...file.notes].map((n) => (
        <p key={n} class="note">
          {n}
        </p>
      ))}
      {file.paged && file.sha256 && (
        <PageImages key={file.sha256} source={source} file={file} page={page} onPick={pick} />
      )}
      {file.evidence ? (
        <EvidenceView evidence={file.evidence} anchor={anchor} onPick={pick} />
      ) : (
        <p class="note">No evidence could be extracted from this file.</p>
      )}
    </div>
  );
}

interface PageImagesProps {
  source: string;
  file: DeliverableFile;
  page: number | null;
  onPick: ((anchor: string) => void) | undefined;
}

function PageImages({ source, file, page, onPick }: PageImagesProps) {
  const sha = file.sha256 ?? '';
  const [count, setCount] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [shown, setShown] = useState(1);
  useEffect(() => {
    setCount(null);
    setError(null);
    api
      .pageCount(source, sha, file.path)
      .then((r) => setCount(r.pages))
      .catch((e: Error) => setError(e.message));
  }, [source, sha]);
  useEffect(() => {
    if (page) setShown(page);
  }, [page, sha]);
  if (error) return <p class="note">page images: {error}</p>;
  if (count === null) return <p class="muted">rendering page images…</p>;
  if (count === 0) return <p class="note">No page image could be rendered for this file.</p>;
  const current = Math.min(shown, count);
  // A deck's page is its slide (as findAnchors reads `slide N`); any other file's is `page N`.
  const unit = `${file.format === 'pptx' ? 'slide' : 'page'} ${current}`;
  return (
    <div class="pages">
      <div class="page-strip">
        {Array.from({ length: count }, (_, i) => (
          <button key={i} class={i + 1 === current ? 'active' : ''} onClick={() => setShown(i + 1)}>
            {i + 1}
          </button>
        ))}
      </div>
      <img
        data-testid="page-image"
        data-file={file.path}
        data-page={current}
        alt={`page ${current} of ${file.path}`}
        src={api.pageUrl(source, sha, current, file.path)}
        class={onPick ? 'pickable' : undefined}
        title={onPick ? `click to add ${unit} as evidence` : undefined}
        onClick={onPick && (() => onPick(unit))}
      />
    </div>
  );
}
