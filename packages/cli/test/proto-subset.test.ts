// The protobuf subset status reads through (packages/cli/src/temporal-read/proto-subset.ts): it keeps
// the wanted methods only, reads what the full @temporalio/proto root writes, and is cut once per
// cache folder.
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type protobuf from 'protobufjs';
import { READ_METHODS } from '../src/temporal-read/read-connection.js';
import { loadProtoSubset } from '../src/temporal-read/proto-subset.js';

const require = createRequire(import.meta.url);
const full = require('@temporalio/proto/protos/json-module.js') as protobuf.Root;
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
const cacheDir = () => {
  const d = mkdtempSync(path.join(os.tmpdir(), 'assay-proto-'));
  dirs.push(d);
  return d;
};

const SERVICE = 'temporal.api.workflowservice.v1.WorkflowService';
const DESCRIBE = 'temporal.api.workflowservice.v1.DescribeWorkflowExecutionResponse';
const HISTORY = 'temporal.api.workflowservice.v1.GetWorkflowExecutionHistoryResponse';

describe('the protobuf subset', () => {
  it('holds the wanted methods and not the rest of the API', () => {
    const subset = loadProtoSubset(READ_METHODS, cacheDir());
    const methods = Object.keys(subset.lookupService(SERVICE).methods).sort();
    expect(methods).toEqual([...(READ_METHODS[0]?.methods ?? [])].sort());
    expect(subset.lookup('temporal.api.workflowservice.v1.StartWorkflowExecutionRequest')).toBeNull();
    expect(subset.lookup('temporal.api.operatorservice.v1.OperatorService')).toBeNull();
    expect(subset.lookup('coresdk')).toBeNull();
    expect(full.lookup('temporal.api.workflowservice.v1.StartWorkflowExecutionRequest')).not.toBeNull();
  });

  it('decodes what the full root encodes, nested messages, enums, int64 and bytes included', () => {
    const subset = loadProtoSubset(READ_METHODS, cacheDir());
    const describe = {
      workflowExecutionInfo: {
        execution: { workflowId: 'assay-job:x', runId: 'r1' },
        status: 1,
        historyLength: 9_000_000_000,
        startTime: { seconds: 1_700_000_000, nanos: 5 },
        memo: { fields: { note: { metadata: { encoding: Buffer.from('json/plain') }, data: Buffer.from('"hi"') } } },
      },
      pendingWorkflowTask: { attempt: 7, state: 1 },
      pendingChildren: [{ workflowId: 'assay-trial:x:a:t:1', runId: 'r2', workflowTypeName: 'trialWorkflow' }],
    };
    const history = {
      history: {
        events: [
          {
            eventId: 12,
            eventType: 2,
            workflowExecutionCompletedEventAttributes: {
              result: {
                payloads: [{ metadata: { encoding: Buffer.from('json/plain') }, data: Buffer.from('{"a":1}') }],
              },
            },
          },
        ],
      },
      nextPageToken: Buffer.from([1, 2, 3]),
    };
    for (const [name, value] of [
      [DESCRIBE, describe],
      [HISTORY, history],
    ] as const) {
      const bytes = full.lookupType(name).encode(value).finish();
      const options = { longs: String, bytes: String, enums: String, defaults: false };
      const want = full.lookupType(name).toObject(full.lookupType(name).decode(bytes), options);
      const got = subset.lookupType(name).toObject(subset.lookupType(name).decode(bytes), options);
      expect(got).toEqual(want);
      expect(JSON.stringify(got)).toContain(name === DESCRIBE ? '9000000000' : 'AQID');
    }
  });

  it('is cut once per cache folder and read back from there', () => {
    const dir = cacheDir();
    loadProtoSubset(READ_METHODS, dir);
    const files = readdirSync(dir);
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(/^temporal-proto-1\.\d+\.\d+-[0-9a-f]{16}\.json$/);
    const again = loadProtoSubset(READ_METHODS, dir);
    expect(readdirSync(dir)).toEqual(files);
    expect(Object.keys(again.lookupService(SERVICE).methods)).toHaveLength(4);
  });
});
