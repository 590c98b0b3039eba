// Rubric items / criteria with decision, source, reason and evidence anchors; j/k moves between
// them and the URL names the current one.
import { decisionClass } from './format.js';
import type { AnchorRef } from './api.js';
import type { ComponentChildren } from 'preact';

export interface VerdictRow {
  id: string;
  decision: string;
  source: string;
  reason: string;
  text: string | null;
  evidence: string[];
  anchors: AnchorRef[];
  cost: { model: unknown; usage: unknown; latencyMs: unknown } | null;
  extra?: ComponentChildren;
}

interface Props {
  rows: VerdictRow[];
  current: string | null;
  href: (id: string) => string;
  onAnchor: (a: AnchorRef) => void;
}

export function VerdictList({ rows, current, href, onAnchor }: Props) {
  return (
    <ol class="items" data-testid="items">
      {rows.map((r) => (
        <li key={r.id} id={`item-${r.id}`} data-item={r.id} class={r.id === current ? 'current' : ''}>
          <div class="item-head">
            <a href={href(r.id)} class="item-id">
              {r.id}
            </a>
            <span class={`decision ${decisionClass(r.decision)}`}>{r.decision}</span>
            <span class="source">{r.source}</span>
            {r.extra}
          </div>
          {r.text && <div class="criterion">{r.text}</div>}
          <div class="reason">{r.reason}</div>
          {r.evidence.length > 0 && (
            <ul class="evidence-list">
              {r.evidence.map((e) => (
                <li key={e}>{e}</li>
              ))}
            </ul>
          )}
          {r.anchors.length > 0 && (
            <div class="anchors">
              {r.anchors.map((a) => (
                <button
                  key={`${a.file}/${a.anchor}`}
                  class="anchor"
                  data-anchor={a.anchor}
                  data-file={a.file ?? ''}
                  onClick={() => onAnchor(a)}
                >
                  {a.file ? `${a.file} · ` : ''}
                  {a.anchor}
                </button>
              ))}
            </div>
          )}
          {r.cost && (
            <div class="muted">
              judge {String(r.cost.model ?? '')} · {JSON.stringify(r.cost.usage)} · {String(r.cost.latencyMs ?? '—')} ms
            </div>
          )}
        </li>
      ))}
    </ol>
  );
}
