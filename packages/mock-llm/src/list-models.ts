// GET …/models: one body with the OpenAI, Anthropic and Gemini fields, naming every model asked for so far.
import type { RecordedRequest } from './recorder.js';

export function listModels(requests: readonly RecordedRequest[]): unknown {
  const ids = [...new Set(['mock-model', ...requests.map((r) => r.model).filter((m) => m.length > 0)])];
  const data = ids.map((id) => ({
    id,
    object: 'model',
    type: 'model',
    created: 0,
    created_at: '1970-01-01T00:00:00Z',
    owned_by: 'mock-llm',
    display_name: id,
  }));
  return {
    object: 'list',
    data,
    has_more: false,
    first_id: ids[0],
    last_id: ids.at(-1),
    models: ids.map((id) => ({ name: `models/${id}`, displayName: id })),
  };
}
