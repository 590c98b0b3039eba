// One file's evidence as the judge read it (@assay/evidence's FileEvidence), with the anchored
// unit highlighted and scrolled into view: a cell, a paragraph, a slide, a line. With `onPick` (the labelling
// page), a click on a unit gives its anchor within the file (`Summary!B4`, `paragraph 12`, `line 3`).
import { useEffect, useRef } from 'preact/hooks';
import type {
  CsvEvidence,
  DocxEvidence,
  FileEvidence,
  PdfEvidence,
  PptxEvidence,
  SheetEvidence,
  TextEvidence,
  XlsxEvidence,
} from '@assay/evidence';
import { cellAnchor, colLetters, inRange, parseCellAnchor, type CellRange } from './cell-ref.js';

const numberIn = (anchor: string | null, word: string): number | null => {
  const m = anchor ? new RegExp(`\\b${word} (\\d+)`).exec(anchor) : null;
  return m ? Number(m[1]) : null;
};

interface Props {
  evidence: FileEvidence;
  anchor: string | null;
  /** Pick mode: a click on a cell, paragraph, table, slide, page, row or line gives its anchor. */
  onPick?: (anchor: string) => void;
}

export function EvidenceView({ evidence, anchor, onPick }: Props) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    ref.current?.querySelector('.focus')?.scrollIntoView({ block: 'center' });
  }, [anchor, evidence]);
  const pick = (e: MouseEvent) => {
    // Selecting text to read or copy it is not picking.
    if (!onPick || getSelection()?.isCollapsed === false) return;
    // The innermost unit: a cell rather than its row, a table's row rather than the table.
    const unit = (e.target as Element).closest<HTMLElement>('[data-pick], [data-anchor]');
    const picked = unit?.dataset.pick ?? unit?.dataset.anchor;
    if (picked) onPick(picked);
  };
  return (
    <div class={onPick ? 'evidence pickable' : 'evidence'} ref={ref} onClick={onPick && pick}>
      <EvidenceBody evidence={evidence} anchor={anchor} picking={!!onPick} />
    </div>
  );
}

/** Each format drawn its own way; the unit the anchor names carries `focus`. */
function EvidenceBody({
  evidence: ev,
  anchor,
  picking,
}: {
  evidence: FileEvidence;
  anchor: string | null;
  picking: boolean;
}) {
  switch (ev.format) {
    case 'xlsx':
      return <WorkbookBody evidence={ev} anchor={anchor} picking={picking} />;
    case 'docx':
      return <DocBody evidence={ev} anchor={anchor} picking={picking} />;
    case 'pptx':
      return <SlidesBody evidence={ev} anchor={anchor} />;
    case 'pdf':
      return <PdfBody evidence={ev} anchor={anchor} />;
    case 'csv':
      return <CsvBody evidence={ev} anchor={anchor} />;
    case 'png':
    case 'jpg':
    case 'svg':
      return (
        <p>
          {ev.format} image, {ev.width ?? '?'} × {ev.height ?? '?'} px
        </p>
      );
    default:
      return <TextBody evidence={ev} anchor={anchor} />;
  }
}

interface BodyProps<E> {
  evidence: E;
  anchor: string | null;
}

function WorkbookBody({ evidence: ev, anchor, picking }: BodyProps<XlsxEvidence> & { picking: boolean }) {
  const range = anchor ? parseCellAnchor(anchor) : null;
  return (
    <>
      {ev.sheets.map((s) => (
        <SheetGrid key={s.name} sheet={s} range={range} picking={picking} />
      ))}
      {ev.charts.length > 0 && (
        <p class="muted">
          {ev.charts.length} chart(s): {ev.charts.map((c) => c.title ?? c.part).join(', ')}
        </p>
      )}
    </>
  );
}

function DocBody({ evidence: ev, anchor, picking }: BodyProps<DocxEvidence> & { picking: boolean }) {
  const para = numberIn(anchor, 'paragraph');
  const table = numberIn(anchor, 'table');
  return (
    <div class="doc">
      {ev.blocks.map((b) =>
        b.type === 'paragraph' ? (
          <p
            key={`p${b.index}`}
            data-anchor={`paragraph ${b.index}`}
            class={`${b.headingLevel ? `h h${b.headingLevel}` : ''} ${para === b.index ? 'focus' : ''}`}
          >
            <span class="anchor-label">¶{b.index}</span> {b.text}
          </p>
        ) : (
          <table key={`t${b.index}`} data-anchor={`table ${b.index}`} class={table === b.index ? 'focus' : ''}>
            <tbody>
              {b.rows.map((r, i) => (
                <tr key={i} data-pick={picking ? `table ${b.index} row ${i + 1}` : undefined}>
                  {r.map((c, j) => (
                    <td key={j}>{c}</td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        ),
      )}
    </div>
  );
}

function SlidesBody({ evidence: ev, anchor }: BodyProps<PptxEvidence>) {
  const slide = numberIn(anchor, 'slide');
  return (
    <div>
      {ev.slides.map((s) => (
        <div key={s.index} data-anchor={`slide ${s.index}`} class={`slide ${slide === s.index ? 'focus' : ''}`}>
          <h4>
            slide {s.index}
            {s.hidden ? ' (hidden)' : ''}: {s.title ?? ''}
          </h4>
          {s.texts.map((t, i) => (
            <pre key={i}>{t}</pre>
          ))}
          {s.notes && <p class="muted">notes: {s.notes}</p>}
        </div>
      ))}
    </div>
  );
}

function PdfBody({ evidence: ev, anchor }: BodyProps<PdfEvidence>) {
  const page = numberIn(anchor, 'page');
  return (
    <div>
      {ev.pages.map((p) => (
        <div key={p.page} data-anchor={`page ${p.page}`} class={page === p.page ? 'focus' : ''}>
          <h4>page {p.page}</h4>
          <pre>{p.text}</pre>
        </div>
      ))}
    </div>
  );
}

function CsvBody({ evidence: ev, anchor }: BodyProps<CsvEvidence>) {
  const row = numberIn(anchor, 'row');
  return (
    <table>
      <tbody>
        {ev.rows.map((r, i) => (
          <tr key={i} data-anchor={`row ${i + 1}`} class={row === i + 1 ? 'focus' : ''}>
            {r.map((c, j) => (
              <td key={j}>{c}</td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function TextBody({ evidence: ev, anchor }: BodyProps<TextEvidence>) {
  const line = numberIn(anchor, 'line');
  return (
    <pre class="lines">
      {ev.text.split('\n').map((l, i) => (
        <div key={i} data-anchor={`line ${i + 1}`} class={line === i + 1 ? 'focus' : ''}>
          <span class="anchor-label">{i + 1}</span> {l}
        </div>
      ))}
    </pre>
  );
}

/** A sheet as a grid: each cell's displayed text, and for a formula the formula beside its cached value. */
function SheetGrid({ sheet, range, picking }: { sheet: SheetEvidence; range: CellRange | null; picking: boolean }) {
  const rows = Math.max(0, ...sheet.cells.map((c) => c.row));
  const cols = Math.max(0, ...sheet.cells.map((c) => c.col));
  const at = new Map(sheet.cells.map((c) => [`${c.row}:${c.col}`, c]));
  return (
    <div class="sheet">
      <h4>
        sheet {sheet.name}
        {sheet.state !== 'visible' ? ` (${sheet.state})` : ''} <span class="muted">{sheet.dimension ?? ''}</span>
      </h4>
      <table class="grid">
        <thead>
          <tr>
            <th />
            {Array.from({ length: cols }, (_, j) => (
              <th key={j}>{colLetters(j + 1)}</th>
            ))}
          </tr>
        </thead>
        <tbody>
          {Array.from({ length: rows }, (_, i) => (
            <tr key={i}>
              <th>{i + 1}</th>
              {Array.from({ length: cols }, (_, j) => {
                const c = at.get(`${i + 1}:${j + 1}`);
                const focus = inRange(range, sheet.name, i + 1, j + 1);
                const noCache = c?.formula !== undefined && c.cached === false;
                return (
                  <td
                    key={j}
                    data-anchor={`${sheet.name}!${colLetters(j + 1)}${i + 1}`}
                    data-pick={picking ? cellAnchor(sheet.name, i + 1, j + 1) : undefined}
                    class={`${focus ? 'focus' : ''} ${c?.formula ? 'formula' : ''} ${noCache ? 'bad' : ''}`}
                    title={
                      c?.formula ? `=${c.formula} → ${c.cached === false ? 'no cached value' : String(c.value)}` : ''
                    }
                  >
                    {c ? (noCache ? '(no cached value)' : c.text) : ''}
                    {c?.formula && <div class="f">={c.formula}</div>}
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
