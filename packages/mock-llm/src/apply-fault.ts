// Injected faults that replace the reply (429, 500, hang, malformed). `slow` and `truncate`
// shape a real reply instead and are applied where it is sent (send-reply.ts).
import type { Exchange } from './exchange.js';
import { messages } from './messages.js';
import type { ApiKind, ResolvedFault } from './types.js';
import { sseFrame } from './wire/chunk-text.js';
import { renderError } from './wire/render-reply.js';

/** Answer with an error fault; false when there is none and the request gets a reply. */
export async function answerErrorFault(ex: Exchange, api: ApiKind, fault: ResolvedFault | null): Promise<boolean> {
  if (fault?.kind === '429') {
    ex.sendJson(429, renderError(api, 429, messages.rateLimited(fault.retryAfter)), {
      'retry-after': String(fault.retryAfter),
    });
    ex.finish(429, 'fault');
    return true;
  }
  if (fault?.kind === '500') {
    ex.sendJson(500, renderError(api, 500, messages.serverError()));
    ex.finish(500, 'fault');
    return true;
  }
  if (fault?.kind === 'hang') {
    // Never answer; the client's timeout (or close()) ends it.
    await new Promise<void>((resolve) => ex.res.on('close', () => resolve()));
    ex.finish(0, ex.clientAborted ? 'client-aborted' : 'fault');
    return true;
  }
  return false;
}

/** A 200 whose body breaks off mid-JSON (an SSE frame when streaming). */
export function sendMalformed(ex: Exchange, stream: boolean): void {
  if (stream) {
    ex.res.writeHead(200, ex.sseHeaders());
    ex.res.write(sseFrame('{"id": "broken", "choices": [ {"delta": '));
    ex.res.end();
  } else {
    ex.res.writeHead(200, ex.jsonHeaders());
    ex.res.end('{"id": "broken", "object": "chat.completion", "choices": [ {"index": 0, "message": ');
  }
  ex.finish(200, 'fault');
}
