// A worker's host: the flag over the variable over the machine's name, refused unless a plain name.
import { hostname } from 'node:os';
import { describe, expect, it } from 'vitest';
import { hostIdFromName, hostIdProblem, hostQueue } from '@assay/core';
import { resolveWorkerHost } from '../src/worker/worker-host.js';

describe('worker host', () => {
  it('takes --host-id over ASSAY_HOST_ID, and the machine name made a plain id without either', () => {
    expect(resolveWorkerHost({ hostId: 'flag-1' }, { ASSAY_HOST_ID: 'env-1' })).toEqual({ id: 'flag-1' });
    expect(resolveWorkerHost({}, { ASSAY_HOST_ID: 'env-1' })).toEqual({ id: 'env-1' });
    const byName = resolveWorkerHost({}, {});
    expect(byName.id).toBe(hostIdFromName(hostname()));
    expect(hostIdProblem(byName.id)).toBeNull();
    expect(hostQueue('gpu-7')).toBe('assay-host:gpu-7');
  });

  it('resolves the work root to an absolute path, from the flag or ASSAY_WORK_ROOT', () => {
    expect(resolveWorkerHost({ hostId: 'a', workRoot: 'rel/work' }, {}).workRoot).toBe(`${process.cwd()}/rel/work`);
    expect(resolveWorkerHost({ hostId: 'a' }, { ASSAY_WORK_ROOT: '/srv/w' })).toEqual({ id: 'a', workRoot: '/srv/w' });
  });

  it('refuses an id that is not a plain name, naming where it came from', () => {
    expect(() => resolveWorkerHost({ hostId: 'a/b' }, {})).toThrow(
      '--host-id: "a/b" is not a plain name (1-63 letters, digits, ".", "-" or "_", starting with a letter or digit)',
    );
    expect(() => resolveWorkerHost({}, { ASSAY_HOST_ID: 'has space' })).toThrow(/^ASSAY_HOST_ID: "has space"/);
    expect(() => resolveWorkerHost({}, { ASSAY_HOST_ID: '' })).toThrow(/^ASSAY_HOST_ID: ""/);
  });

  it('makes any machine name a valid id', () => {
    expect(hostIdFromName('node 7.example.org')).toBe('node-7.example.org');
    expect(hostIdFromName('-_x')).toBe('x');
    expect(hostIdFromName('///')).toBe('host');
    expect(hostIdFromName('a'.repeat(80))).toHaveLength(63);
  });
});
