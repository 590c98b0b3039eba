// Pure helpers: paths, the mirror lookup, context hashing and the cross-process lock.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  assayDir,
  baseImageTag,
  contextHash,
  debianMirror,
  splitAddress,
  temporalPidFile,
  withLock,
} from '../src/index.js';

describe('infra helpers', () => {
  it('keeps state under <root>/.assay, keyed by port for Temporal', () => {
    expect(assayDir('/x/repo')).toBe('/x/repo/.assay');
    expect(temporalPidFile('/x/repo', 7233)).toBe('/x/repo/.assay/temporal-7233.pid');
    expect(splitAddress('127.0.0.1:7233')).toEqual({ host: '127.0.0.1', port: 7233 });
    expect(splitAddress('[::1]:7000')).toEqual({ host: '::1', port: 7000 });
  });

  it('reads the Debian mirror from apt config, with ASSAY_DEBIAN_MIRROR overriding', () => {
    expect(debianMirror()).toMatch(/^https?:\/\//);
    process.env.ASSAY_DEBIAN_MIRROR = 'http://mirror.example/debian';
    try {
      expect(debianMirror()).toBe('http://mirror.example/debian');
    } finally {
      delete process.env.ASSAY_DEBIAN_MIRROR;
    }
  });

  it('tags the base image by its package list', () => {
    expect(baseImageTag(['python3'])).not.toBe(baseImageTag(['python3', 'git']));
    expect(baseImageTag(['git', 'python3'])).toBe(baseImageTag(['python3', 'git']));
  });

  it('hashes a context by paths, contents, exec bits and build args', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'assay-hash-'));
    try {
      fs.writeFileSync(path.join(dir, 'a.txt'), 'a');
      const h1 = contextHash(dir, { BASE_IMAGE: 'x' });
      expect(contextHash(dir, { BASE_IMAGE: 'x' })).toBe(h1);
      expect(contextHash(dir, { BASE_IMAGE: 'y' })).not.toBe(h1);
      fs.chmodSync(path.join(dir, 'a.txt'), 0o755);
      expect(contextHash(dir, { BASE_IMAGE: 'x' })).not.toBe(h1);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("serialises holders of the same lock and takes over a dead holder's lock", async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'assay-lock-'));
    try {
      const order: string[] = [];
      const job = (name: string) =>
        withLock(root, 'x', async () => {
          order.push(`${name}+`);
          await new Promise((r) => setTimeout(r, 30));
          order.push(`${name}-`);
        });
      await Promise.all([job('a'), job('b')]);
      expect(order).toEqual(['a+', 'a-', 'b+', 'b-']);

      // A lock file left by a process that no longer exists.
      fs.writeFileSync(path.join(assayDir(root), 'locks', 'y.lock'), '999999999');
      expect(await withLock(root, 'y', async () => 'got it')).toBe('got it');
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });
});
