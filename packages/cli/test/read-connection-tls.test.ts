// status's read connection over TLS with an API key, against a real HTTP/2 TLS server speaking gRPC
// (a self-signed certificate made by openssl for a name other than the address, as a cloud endpoint
// behind a proxy): the handshake trusts the given CA and name override, the key travels as a Bearer
// token with the namespace header, and the answer is decoded.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http2 from 'node:http2';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type protobuf from 'protobufjs';
import { openReadConnection } from '../src/temporal-read/read-connection.js';

const require = createRequire(import.meta.url);
const full = require('@temporalio/proto/protos/json-module.js') as protobuf.Root;
const DESCRIBE = 'temporal.api.workflowservice.v1.DescribeWorkflowExecutionResponse';
const dir = mkdtempSync(path.join(os.tmpdir(), 'assay-tls-'));
const seen: http2.IncomingHttpHeaders[] = [];
let server: http2.Http2SecureServer;
let port = 0;

beforeAll(async () => {
  execFileSync(
    'openssl',
    [
      ...['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1', '-subj', '/CN=temporal.test'],
      ...['-addext', 'subjectAltName=DNS:temporal.test', '-keyout', `${dir}/key.pem`, '-out', `${dir}/cert.pem`],
    ],
    { stdio: 'ignore' },
  );
  server = http2.createSecureServer({ key: readFileSync(`${dir}/key.pem`), cert: readFileSync(`${dir}/cert.pem`) });
  server.on('stream', (stream, headers) => {
    seen.push(headers);
    stream.on('data', () => undefined);
    stream.on('end', () => {
      const body = full
        .lookupType(DESCRIBE)
        .encode({ workflowExecutionInfo: { execution: { workflowId: 'assay-job:t' }, status: 2 } })
        .finish();
      const frame = Buffer.alloc(5 + body.length);
      frame.writeUInt32BE(body.length, 1);
      Buffer.from(body).copy(frame, 5);
      stream.respond({ ':status': 200, 'content-type': 'application/grpc' }, { waitForTrailers: true });
      stream.on('wantTrailers', () => stream.sendTrailers({ 'grpc-status': '0' }));
      stream.end(frame);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  port = (server.address() as AddressInfo).port;
});

afterAll(() => {
  server?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('the read connection', () => {
  it('speaks TLS with the given CA and server name, and sends the API key and namespace', async () => {
    const address = `127.0.0.1:${port}`;
    const tls = { serverRootCACertificate: readFileSync(`${dir}/cert.pem`), serverNameOverride: 'temporal.test' };
    const target = {
      address,
      namespace: 'team-ns',
      external: true,
      connectionOptions: { address, apiKey: 'secret-key-1', tls, metadata: { 'x-extra': 'yes' } },
      summary: address,
    };
    const connection = openReadConnection(target, dir);
    try {
      await connection.ready(10_000);
      const d = await connection.service.describeWorkflowExecution({
        namespace: 'team-ns',
        execution: { workflowId: 'assay-job:t' },
      });
      expect(connection.statusName(d.workflowExecutionInfo?.status)).toBe('COMPLETED');
    } finally {
      connection.close();
    }
    const h = seen.at(-1) ?? {};
    expect(h[':path']).toBe('/temporal.api.workflowservice.v1.WorkflowService/DescribeWorkflowExecution');
    expect(h[':authority']).toBe('temporal.test');
    expect(h.authorization).toBe('Bearer secret-key-1');
    expect(h['temporal-namespace']).toBe('team-ns');
    expect(h['x-extra']).toBe('yes');
    expect(h['client-name']).toBe('temporal-typescript');
  }, 30_000);

  it('refuses a server whose certificate the CA does not vouch for', async () => {
    const address = `127.0.0.1:${port}`;
    const target = {
      address,
      namespace: 'default',
      external: true,
      connectionOptions: { address, tls: true },
      summary: address,
    };
    const connection = openReadConnection(target, dir);
    try {
      await expect(connection.ready(3000)).rejects.toThrow();
    } finally {
      connection.close();
    }
  }, 30_000);
});
