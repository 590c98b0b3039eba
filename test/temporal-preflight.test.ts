// The preflight against real servers: `temporal server start-dev` as it comes (24 h retention, no
// search attributes), one whose Keyword slots are all taken (the server refuses to add ours), one
// with AssaySystem of the wrong type, and an address where nothing listens.
import type { Connection } from '@temporalio/client';
import { freePort } from '@assay/infra';
import { loadTemporalTarget } from '@assay/infra/temporal-connection';
import { connectTemporal, preflightNamespace } from '@assay/infra/temporal-preflight';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBareTemporal, type BareTemporal } from './support/bare-temporal.js';

const KEYWORD = 2; // temporal.api.enums.v1.IndexedValueType.INDEXED_VALUE_TYPE_KEYWORD
const fills = Array.from({ length: 10 }, (_, i) => ['--search-attribute', `Fill${i + 1}=Keyword`]).flat();
let bare: BareTemporal;
let full: BareTemporal;
let typed: BareTemporal;
const open: Connection[] = [];

async function connect(address: string, namespace = 'default') {
  const target = await loadTemporalTarget({ TEMPORAL_ADDRESS: address, TEMPORAL_NAMESPACE: namespace });
  const connection = await connectTemporal(target, 5000);
  open.push(connection);
  return { target, connection };
}

beforeAll(async () => {
  // One after another: concurrent start-dev launches race for the ports they probe.
  bare = await startBareTemporal();
  full = await startBareTemporal(fills);
  typed = await startBareTemporal(['--search-attribute', 'AssaySystem=Int']);
}, 120_000);

afterAll(async () => {
  await Promise.all(open.map((c) => c.close().catch(() => undefined)));
  await Promise.all([bare, full, typed].map((s) => s?.stop()));
});

describe('preflight on connect', () => {
  it('raises retention and registers the search attributes a bare dev server lacks, then changes nothing', async () => {
    const { target, connection } = await connect(bare.address);
    const first = await preflightNamespace(connection, target);
    expect(first.changed).toEqual([
      'retention 24 h -> 720 h',
      'search attributes AssayJob, AssaySystem, AssayTask, AssayHarness, AssayModel, AssayHost registered (Keyword)',
    ]);
    const listed = await connection.operatorService.listSearchAttributes({ namespace: 'default' });
    for (const name of ['AssayJob', 'AssaySystem', 'AssayTask', 'AssayHarness', 'AssayModel', 'AssayHost'])
      expect(listed.customAttributes?.[name]).toBe(KEYWORD);
    const ns = await connection.workflowService.describeNamespace({ namespace: 'default' });
    expect(Number(ns.config?.workflowExecutionRetentionTtl?.seconds)).toBe(720 * 3600);
    expect(await preflightNamespace(connection, target)).toEqual({ retentionHours: 720, changed: [] });
  });

  it('creates a namespace that does not exist', async () => {
    const { target, connection } = await connect(bare.address, 'assay-fresh');
    const report = await preflightNamespace(connection, target);
    expect(report.changed[0]).toBe('created with 720 h retention');
    expect(report.retentionHours).toBe(720);
  }, 60_000);

  it('stops with the missing attributes and the exact commands when the server refuses them', async () => {
    const { target, connection } = await connect(full.address);
    const err = await preflightNamespace(connection, target).catch((e: Error) => e);
    expect(err).toBeInstanceOf(Error);
    const at = `--address ${full.address} --namespace default`;
    const commands = ['AssayJob', 'AssaySystem', 'AssayTask', 'AssayHarness', 'AssayModel', 'AssayHost']
      .map((n) => `temporal operator search-attribute create ${at} --name ${n} --type Keyword`)
      .join(' && ');
    expect((err as Error).message).toBe(
      `Namespace "default" on ${full.address} lacks assay's search attributes AssayJob, AssaySystem, AssayTask, ` +
        'AssayHarness, AssayModel, AssayHost (Keyword) and assay could not create them (Unable to create search attributes: ' +
        `cannot have more than 10 search attribute of type Keyword); create them with \`${commands}\`.`,
    );
  });

  it('stops on an attribute of the wrong type, naming it and how to remove it', async () => {
    const { target, connection } = await connect(typed.address);
    await expect(preflightNamespace(connection, target)).rejects.toThrow(
      `Namespace "default" has the search attribute AssaySystem as INT, but assay needs it as Keyword; remove it with ` +
        `\`temporal operator search-attribute remove --address ${typed.address} --namespace default --name AssaySystem\``,
    );
  });

  it('names the address when nothing listens there', async () => {
    const address = `127.0.0.1:${await freePort()}`;
    await expect(connectTemporal(await loadTemporalTarget({ TEMPORAL_ADDRESS: address }), 1500)).rejects.toThrow(
      new RegExp(`^Cannot reach the Temporal server at ${address} \\(`),
    );
  });
});
