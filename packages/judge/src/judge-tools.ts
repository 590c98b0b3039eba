// The judge's tools: read-only views of the submission, and the submit tools whose
// arguments are validated by zod (a reply that fails validation is malformed, never guessed).
import { z } from 'zod';
import type { EvidenceSource } from './evidence-source.js';
import type { ToolCall, ToolResult, ToolSpec } from './judge-model.js';
import { messages } from './messages.js';
import { SUBMIT_MANY, SUBMIT_ONE } from './prompts.js';

const READ_DEFAULT = 12_000;
const READ_MAX = 40_000;
const SEARCH_MAX_HITS = 30;

const decision = z.enum(['satisfied', 'not-satisfied']);
const oneVerdictSchema = z
  .object({ decision, justification: z.string().trim().min(1), evidence: z.array(z.string()).default([]) })
  .strict();
const manyVerdictsSchema = z
  .object({ verdicts: z.array(oneVerdictSchema.extend({ itemId: z.string().min(1) }).strict()).min(1) })
  .strict();
export type SubmittedVerdict = z.infer<typeof oneVerdictSchema> & { itemId: string };

const verdictProps = {
  decision: { type: 'string', enum: ['satisfied', 'not-satisfied'] },
  justification: { type: 'string', description: 'Why, in one to three sentences, citing what you saw.' },
  evidence: { type: 'array', items: { type: 'string' }, description: 'Anchors relied on, e.g. "report.docx p12".' },
};

export function toolSpecs(many: boolean): ToolSpec[] {
  const evidence: ToolSpec[] = [
    {
      name: 'list_files',
      description: 'List the files of the submission with format and size.',
      parameters: { type: 'object', properties: {}, additionalProperties: false },
    },
    {
      name: 'read_file',
      description:
        'Read the evidence text of a file (extracted text with anchors). Long files come in pages: pass offset to continue.',
      parameters: {
        type: 'object',
        properties: {
          path: { type: 'string' },
          offset: { type: 'integer', minimum: 0 },
          max_chars: { type: 'integer', minimum: 1, maximum: READ_MAX },
        },
        required: ['path'],
        additionalProperties: false,
      },
    },
    {
      name: 'read_cells',
      description: 'Read a spreadsheet range such as Sheet1!A1:D20 (values, formulas, cached results).',
      parameters: {
        type: 'object',
        properties: { file: { type: 'string' }, range: { type: 'string' } },
        required: ['file', 'range'],
        additionalProperties: false,
      },
    },
    {
      name: 'search_text',
      description: 'Search all files for text (case-insensitive); returns file, anchor and snippet per hit.',
      parameters: {
        type: 'object',
        properties: { query: { type: 'string', minLength: 1 } },
        required: ['query'],
        additionalProperties: false,
      },
    },
    {
      name: 'view_page',
      description: 'Look at a rendered page (or slide) image of a file; pages start at 1.',
      parameters: {
        type: 'object',
        properties: { file: { type: 'string' }, page: { type: 'integer', minimum: 1 } },
        required: ['file', 'page'],
        additionalProperties: false,
      },
    },
  ];
  const submit: ToolSpec = many
    ? {
        name: SUBMIT_MANY,
        description: 'Submit the decisions for all listed criteria. Call once, at the end.',
        parameters: {
          type: 'object',
          properties: {
            verdicts: {
              type: 'array',
              items: {
                type: 'object',
                properties: { itemId: { type: 'string' }, ...verdictProps },
                required: ['itemId', 'decision', 'justification', 'evidence'],
                additionalProperties: false,
              },
            },
          },
          required: ['verdicts'],
          additionalProperties: false,
        },
      }
    : {
        name: SUBMIT_ONE,
        description: 'Submit the decision for the criterion. Call once, at the end.',
        parameters: {
          type: 'object',
          properties: verdictProps,
          required: ['decision', 'justification', 'evidence'],
          additionalProperties: false,
        },
      };
  return [...evidence, submit];
}

const argSchemas = {
  list_files: z.object({}).passthrough(),
  read_file: z.object({
    path: z.string(),
    offset: z.number().int().min(0).optional(),
    max_chars: z.number().int().min(1).max(READ_MAX).optional(),
  }),
  read_cells: z.object({ file: z.string(), range: z.string() }),
  search_text: z.object({ query: z.string().min(1) }),
  view_page: z.object({ file: z.string(), page: z.number().int().min(1) }),
};

function parseArgs(raw: string): unknown {
  try {
    return raw.trim().length === 0 ? {} : JSON.parse(raw);
  } catch (err) {
    return new Error((err as Error).message);
  }
}

function issues(e: z.ZodError): string {
  return e.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ');
}

/** Run one evidence tool call. Errors become tool results the model can read; nothing throws for bad input. */
export async function runEvidenceTool(call: ToolCall, evidence: EvidenceSource): Promise<ToolResult> {
  const result = (text: string, image?: Uint8Array): ToolResult => ({
    callId: call.id,
    name: call.name,
    text,
    ...(image ? { image } : {}),
  });
  if (!(call.name in argSchemas)) return result(messages.toolUnknown(call.name));
  const raw = parseArgs(call.arguments);
  if (raw instanceof Error) return result(messages.toolArgs(call.name, raw.message));
  const name = call.name as keyof typeof argSchemas;
  const parsed = argSchemas[name].safeParse(raw);
  if (!parsed.success) return result(messages.toolArgs(call.name, issues(parsed.error)));
  const a = parsed.data as Record<string, unknown>;
  switch (name) {
    case 'list_files': {
      const files = await evidence.listFiles();
      if (files.length === 0) return result('(no files)');
      return result(
        files
          .map((f) => `${f.path}\t${f.format ?? 'unknown'}\t${f.size} bytes${f.pages ? `\t${f.pages} pages` : ''}`)
          .join('\n'),
      );
    }
    case 'read_file': {
      const text = await evidence.readFileEvidence(String(a.path));
      if (text === null) return result(messages.fileMissing(String(a.path)));
      const offset = Math.min(Number(a.offset ?? 0), text.length);
      const end = Math.min(text.length, offset + Number(a.max_chars ?? READ_DEFAULT));
      const more =
        end < text.length
          ? `\n[showing characters ${offset}-${end} of ${text.length}; call read_file with offset=${end} for more]`
          : '';
      return result(text.slice(offset, end) + more);
    }
    case 'read_cells': {
      const text = await evidence.readCellRange(String(a.file), String(a.range));
      return result(text ?? messages.rangeMissing(String(a.file), String(a.range)));
    }
    case 'search_text': {
      const hits = await evidence.searchText(String(a.query));
      if (hits.length === 0) return result('(no matches)');
      const shown = hits.slice(0, SEARCH_MAX_HITS).map((h) => `${h.file} ${h.anchor}: ${h.snippet}`);
      return result(
        shown.join('\n') +
          (hits.length > SEARCH_MAX_HITS ? `\n[${hits.length - SEARCH_MAX_HITS} more hits not shown]` : ''),
      );
    }
    case 'view_page': {
      const png = await evidence.viewPageImage(String(a.file), Number(a.page));
      if (!png) return result(messages.pageMissing(String(a.file), Number(a.page)));
      return result(`page ${String(a.page)} of ${String(a.file)} attached`, png);
    }
  }
}

export type SubmitParse = { ok: true; verdicts: SubmittedVerdict[]; rejected: string[] } | { ok: false; error: string };

/** Validate a submit call against the schema and the item ids of this session. */
export function parseSubmission(call: ToolCall, itemIds: readonly string[]): SubmitParse {
  const raw = parseArgs(call.arguments);
  if (raw instanceof Error) return { ok: false, error: `arguments are not valid JSON (${raw.message})` };
  if (call.name === SUBMIT_ONE) {
    const p = oneVerdictSchema.safeParse(raw);
    if (!p.success) return { ok: false, error: issues(p.error) };
    const only = itemIds[0];
    if (itemIds.length !== 1 || only === undefined)
      return { ok: false, error: `use ${SUBMIT_MANY} for several criteria` };
    return { ok: true, verdicts: [{ ...p.data, itemId: only }], rejected: [] };
  }
  const p = manyVerdictsSchema.safeParse(raw);
  if (!p.success) return { ok: false, error: issues(p.error) };
  const wanted = new Set(itemIds);
  const byId = new Map<string, SubmittedVerdict[]>();
  const rejected: string[] = [];
  for (const v of p.data.verdicts) {
    if (!wanted.has(v.itemId)) rejected.push(v.itemId);
    else byId.set(v.itemId, [...(byId.get(v.itemId) ?? []), v]);
  }
  const verdicts: SubmittedVerdict[] = [];
  for (const [id, vs] of byId) {
    // Contradictory repeats are dropped, never resolved by picking one.
    if (new Set(vs.map((v) => v.decision)).size > 1) rejected.push(id);
    else if (vs[0]) verdicts.push(vs[0]);
  }
  if (verdicts.length === 0) return { ok: false, error: messages.unknownItems(rejected) };
  return { ok: true, verdicts, rejected };
}
