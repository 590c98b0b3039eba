// Where the agent activity's Docker time goes for a trivial agent: create, start, wait, inspect,
// logs, remove, each timed, with the same host config assay's agent container has (bind-mounted
// workspace, network none, tini, CPU/memory/pids limits), N runs at concurrency C.
//
//   npx tsx bench/overhead/container-phases.ts [--runs 12] [--concurrency 4] [--image assay/scripted-agent:TAG]
//       [--network none|disabled|bridge] [--runtime crun]
import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import Docker from 'dockerode';

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '12' },
    concurrency: { type: 'string', default: '4' },
    image: { type: 'string' },
    // none: NetworkMode none (a network namespace with only loopback); disabled: NetworkDisabled.
    network: { type: 'string', default: 'none' },
    // An OCI runtime the engine has registered (e.g. crun); default: the engine's default.
    runtime: { type: 'string' },
  },
});
const image =
  values.image ??
  execFileSync('docker', ['images', 'assay/scripted-agent', '--format', '{{.Repository}}:{{.Tag}}'], {
    encoding: 'utf8',
  }).split('\n')[0]!;
const docker = new Docker();
const phases = ['create', 'start', 'wait', 'inspect', 'logs', 'remove'] as const;
type Phase = (typeof phases)[number];

async function oneRun(i: number): Promise<Record<Phase, number>> {
  const ws = mkdtempSync(path.join(tmpdir(), 'assay-cphase-'));
  const t: Partial<Record<Phase, number>> = {};
  const time = async <T>(p: Phase, f: () => Promise<T>): Promise<T> => {
    const s = performance.now();
    const r = await f();
    t[p] = (performance.now() - s) / 1000;
    return r;
  };
  const c = await time('create', () =>
    docker.createContainer({
      name: `assay-cphase-${process.pid}-${i}`,
      Image: image,
      Cmd: ['sh', '-c', 'echo hello > /workspace/hello.txt'],
      WorkingDir: '/workspace',
      ...(values.network === 'disabled' ? { NetworkDisabled: true } : {}),
      HostConfig: {
        ...(values.runtime ? { Runtime: values.runtime } : {}),
        Binds: [`${ws}:/workspace`],
        ...(values.network === 'disabled' ? {} : { NetworkMode: values.network }),
        NanoCpus: 2e9,
        Memory: 8 * 1024 ** 3,
        PidsLimit: 1024,
        SecurityOpt: ['no-new-privileges'],
        Init: true,
      },
    }),
  );
  await time('start', () => c.start());
  await time('wait', () => c.wait());
  await time('inspect', () => c.inspect());
  await time('logs', () => c.logs({ stdout: true, stderr: true, follow: false }));
  await time('remove', () => c.remove({ force: true }));
  return t as Record<Phase, number>;
}

async function main(): Promise<void> {
  const runs = Number(values.runs);
  const conc = Number(values.concurrency);
  console.log(
    `image ${image}, network ${values.network}; ${runs} runs at concurrency ${conc}; load average ${loadavg()[0]!.toFixed(1)}`,
  );
  const results: Array<Record<Phase, number>> = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: conc }, async () => {
      while (next < runs) results.push(await oneRun(next++));
    }),
  );
  const mean = (p: Phase) => results.reduce((a, r) => a + r[p], 0) / results.length;
  console.log('| phase | mean s |\n| --- | --- |');
  for (const p of phases) console.log(`| ${p} | ${mean(p).toFixed(3)} |`);
  console.log(`| all | ${phases.reduce((a, p) => a + mean(p), 0).toFixed(3)} |`);
  console.log(`load average ${loadavg()[0]!.toFixed(1)} at the end`);
}

await main();
