// Deliver a resolved reply, whole or streamed frame by frame, applying the `slow` and
// `truncate` faults and recording the reply and its usage only when delivered in full.
import { setTimeout as sleep } from 'node:timers/promises';
import type { Exchange } from './exchange.js';
import type { ApiKind, FinalReply, ResolvedFault } from './types.js';
import type { WireContext } from './wire/chunk-text.js';
import { renderReplyJson, renderReplyStream } from './wire/render-reply.js';

export interface ReplyDelivery {
  api: ApiKind;
  reply: FinalReply;
  ctx: WireContext;
  body: Record<string, unknown>;
  fault: ResolvedFault | null;
}

const tick = () => new Promise<void>((r) => setImmediate(r));

const slowMsOf = (fault: ResolvedFault | null) => (fault?.kind === 'slow' ? fault.ms : 0);

function recordReply(ex: Exchange, reply: FinalReply): void {
  ex.rec.reply = { text: reply.text, toolCalls: reply.toolCalls, stopReason: reply.stopReason };
}

export async function sendWholeReply(ex: Exchange, d: ReplyDelivery): Promise<void> {
  const payload = JSON.stringify(renderReplyJson(d.api, d.reply, d.ctx, d.body));
  const slowMs = slowMsOf(d.fault);
  if (slowMs > 0) await sleep(slowMs);
  if (d.fault?.kind === 'truncate') {
    const bytes = Buffer.from(payload);
    ex.res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(bytes.length) });
    ex.res.write(bytes.subarray(0, Math.floor(bytes.length / 2)));
    await tick();
    ex.res.destroy();
    return ex.finish(200, 'fault');
  }
  recordReply(ex, d.reply);
  if (ex.clientAborted) return ex.finish(0, 'client-aborted');
  ex.sendJson(200, JSON.parse(payload));
  ex.rec.usage = d.reply.usage;
  ex.finish(200, d.fault ? 'fault' : 'ok');
}

/** `sse`: Gemini without alt=sse streams one JSON array instead of server-sent events. */
export async function sendStreamedReply(ex: Exchange, d: ReplyDelivery, sse: boolean): Promise<void> {
  const frames = renderReplyStream(d.api, d.reply, d.ctx, d.body, sse);
  ex.res.writeHead(200, d.api === 'gemini' && !sse ? { 'content-type': 'application/json' } : ex.sseHeaders());
  const slowMs = slowMsOf(d.fault);
  const gap = slowMs > 0 ? Math.ceil(slowMs / Math.max(1, frames.length)) : 0;
  for (const [i, frame] of frames.entries()) {
    if (d.fault?.kind === 'truncate' && i >= d.fault.afterChunks) {
      ex.res.destroy();
      return ex.finish(200, 'fault');
    }
    if (ex.clientAborted) return ex.finish(200, 'client-aborted');
    ex.res.write(frame);
    if (gap > 0) await sleep(gap);
    else await tick();
  }
  ex.res.end();
  recordReply(ex, d.reply);
  ex.rec.usage = d.reply.usage;
  ex.finish(200, d.fault ? 'fault' : 'ok');
}
