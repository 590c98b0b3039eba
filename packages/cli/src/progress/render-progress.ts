// Progress as text (plain periodic lines, and the parts of the terminal view) and as JSON events.
// Pure: a view in, strings or plain objects out.
import { describeEndpoint, type EndpointView } from '@assay/core';
import type { ControlView, ProgressView, SystemProgress, UnitResult, UsageTotals } from './progress-model.js';

/** 95 s -> "1m35s"; null -> "?". */
export function formatDuration(seconds: number | null): string {
  if (seconds === null || !Number.isFinite(seconds)) return '?';
  const s = Math.round(seconds);
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`;
  return `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m`;
}

/** 1234 -> "1.2k", 2_500_000 -> "2.5M". */
function formatTokens(n: number): string {
  if (n < 1000) return String(Math.round(n));
  if (n < 1e6) return `${(n / 1e3).toFixed(1)}k`;
  return `${(n / 1e6).toFixed(1)}M`;
}

const usd = (x: number | null): string => (x === null ? '' : ` $${x.toFixed(2)}`);

export function renderUsage(u: UsageTotals): string {
  return `tokens: agent ${formatTokens(u.agentTokens)}${usd(u.agentUsd)}, judge ${formatTokens(u.judgeTokens)}${usd(u.judgeUsd)}`;
}

export function renderRate(v: Pick<ProgressView, 'perMinute' | 'etaSeconds'>): string {
  const rate = v.perMinute === null ? '? trials/min' : `${v.perMinute.toFixed(1)} trials/min`;
  return `${rate}, ETA ${formatDuration(v.etaSeconds)}`;
}

export function renderControl(c: ControlView | null): string | null {
  if (!c) return null;
  const parts = [c.state];
  if (c.reason) parts.push(c.reason);
  if (c.concurrency !== undefined) parts.push(`concurrency ${c.concurrency}`);
  if (c.spend)
    parts.push(
      `spent $${c.spend.usd.toFixed(2)}, ${formatTokens(c.spend.tokens)} tokens, ${c.spend.agentHours.toFixed(2)} agent-h`,
    );
  return `control: ${parts.join(', ')}`;
}

/** One line per endpoint the job limits for back-pressure: "back-pressure: api.x 2/8 lanes, 37 throttled in the last 5 min". */
export function renderEndpoints(endpoints: readonly EndpointView[]): string[] {
  return endpoints.map((e) => `back-pressure: ${describeEndpoint(e)}`);
}

export function renderCounts(c: Omit<SystemProgress, 'id'>): string {
  return `${c.done}/${c.total} done, ${c.running} running, ${c.failed} failed, ${c.unjudged} unjudged`;
}

/** A failed unit in one line, with its Temporal Web UI link when there is one. */
export function renderFailure(f: UnitResult, link: string | null): string {
  const reason = f.reason ? `: ${oneLine(f.reason)}` : '';
  return `  ${f.status} ${f.key}${reason}${link ? ` (${link})` : ''}`;
}

/** The periodic plain summary: one line for the job, one per system, the usage, control if any. */
export function renderPlainProgress(v: ProgressView): string[] {
  const width = Math.max(...v.systems.map((s) => s.id.length), 0);
  const lines = [`progress ${formatDuration(v.elapsedSeconds)}: ${renderCounts(v)}; ${renderRate(v)}`];
  for (const s of v.systems) lines.push(`  ${s.id.padEnd(width)}  ${renderCounts(s)}`);
  lines.push(`  ${renderUsage(v.usage)}`);
  const control = renderControl(v.control);
  if (control) lines.push(`  ${control}`);
  for (const e of renderEndpoints(v.endpoints)) lines.push(`  ${e}`);
  return lines;
}

/** The `--json` progress event: one object per line (see docs/cli.md, "Live progress"). */
export function progressEvent(v: ProgressView, at: string): Record<string, unknown> {
  return {
    event: 'progress',
    at,
    total: v.total,
    done: v.done,
    running: v.running,
    failed: v.failed,
    unjudged: v.unjudged,
    elapsedSeconds: round(v.elapsedSeconds),
    perMinute: v.perMinute === null ? null : round(v.perMinute),
    etaSeconds: v.etaSeconds === null ? null : Math.round(v.etaSeconds),
    systems: v.systems,
    usage: v.usage,
    ...(v.control ? { control: v.control } : {}),
    ...(v.endpoints.length > 0 ? { endpoints: v.endpoints } : {}),
  };
}

export function failureEvent(f: UnitResult, link: string | null, at: string): Record<string, unknown> {
  return { event: 'failure', at, key: f.key, kind: f.kind, status: f.status, reason: f.reason, ui: link };
}

const round = (x: number): number => Math.round(x * 10) / 10;

/** First line, at most 200 characters: a reason must not break the layout. */
export function oneLine(text: string): string {
  const first = text.split('\n')[0] ?? '';
  return first.length > 200 ? `${first.slice(0, 199)}…` : first;
}
