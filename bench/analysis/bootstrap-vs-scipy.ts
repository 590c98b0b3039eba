// Bench: our cluster bootstrap vs SciPy's scipy.stats.bootstrap on a StartupBench-sized
// set (9 systems x 97 tasks x 3 trials, 10,000 resamples, percentile + BCa), both
// measured in this one run on identical data. Run: npx tsx bench/analysis/bootstrap-vs-scipy.ts
import { spawn } from 'node:child_process';
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { cpus, loadavg } from 'node:os';
import { clusterBootstrap } from '../../analysis/src/cluster-bootstrap.js';
import { createRng, deriveSeed } from '../../analysis/src/seeded-rng.js';
import { ensureScipyVenv, PINNED } from '../../analysis/test/helpers/python-venv.js';

const SYSTEMS = 9;
const TASKS = 97;
const TRIALS = 3;
const RESAMPLES = 10_000;
const REPEATS = Number(process.env.BENCH_REPEATS ?? 9);

function dataset(): { sums: number[]; counts: number[] }[] {
  const rng = createRng(2026);
  return Array.from({ length: SYSTEMS }, (_, s) => {
    const sums: number[] = [];
    const counts: number[] = [];
    for (let t = 0; t < TASKS; t++) {
      const base = 100 * Math.pow(rng.nextFloat(), 0.3 + 0.05 * s);
      let sum = 0;
      for (let k = 0; k < TRIALS; k++) sum += Math.min(100, Math.max(0, base + (rng.nextFloat() - 0.5) * 30));
      sums.push(sum);
      counts.push(TRIALS);
    }
    return { sums, counts };
  });
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;

// A persistent SciPy worker: one JSON request per stdin line, one JSON reply per stdout line,
// so that rounds of ours and SciPy's can be interleaved (fair on a busy machine).
const SCIPY = `
import json, sys, time
import numpy as np
from scipy import stats
req = json.loads(sys.stdin.readline())
systems = [np.array(s['sums']) / np.array(s['counts']) for s in req['systems']]
def run():
    out = []
    for i, x in enumerate(systems):
        # One resampling per system, like ours: BCa from the call, percentile from its distribution.
        r = stats.bootstrap((x,), np.mean, n_resamples=req['resamples'], method='BCa', rng=np.random.default_rng(i), vectorized=True)
        lo, hi = np.percentile(r.bootstrap_distribution, [2.5, 97.5])
        out.append({'bca': [float(r.confidence_interval.low), float(r.confidence_interval.high)], 'percentile': [float(lo), float(hi)], 'se': float(r.standard_error)})
    return out
run()  # warm-up
print(json.dumps({'ready': True, 'numpy': np.__version__}), flush=True)
for line in sys.stdin:
    t0 = time.perf_counter(); res = run(); dt = time.perf_counter() - t0
    print(json.dumps({'time': dt, 'results': res}), flush=True)
`;

class Worker {
  private buf = '';
  private waiters: ((line: string) => void)[] = [];
  readonly proc: ChildProcessWithoutNullStreams;
  constructor(python: string, env: NodeJS.ProcessEnv) {
    this.proc = spawn(python, ['-c', SCIPY], { env });
    this.proc.stdout.setEncoding('utf8');
    this.proc.stdout.on('data', (chunk: string) => {
      this.buf += chunk;
      let i: number;
      while ((i = this.buf.indexOf('\n')) >= 0) {
        const line = this.buf.slice(0, i);
        this.buf = this.buf.slice(i + 1);
        this.waiters.shift()?.(line);
      }
    });
    this.proc.stderr.on('data', (d) => process.stderr.write(d));
  }
  request(line: string): Promise<string> {
    return new Promise((resolve) => {
      this.waiters.push(resolve);
      this.proc.stdin.write(`${line}\n`);
    });
  }
  next(): Promise<string> {
    return new Promise((resolve) => this.waiters.push(resolve));
  }
}

async function main(): Promise<void> {
  const venv = await ensureScipyVenv();
  if (!venv.ok) {
    console.error(`SciPy venv unavailable: ${venv.reason}`);
    process.exit(1);
  }
  const systems = dataset();
  const ours = (): ReturnType<typeof clusterBootstrap>[] =>
    systems.map((d, i) => clusterBootstrap(d, { resamples: RESAMPLES, seed: deriveSeed(1, `s${i}`) }));
  // As env/README advises for benchmarking numpy: unset both OpenBLAS overrides for this process only.
  const env = { ...process.env };
  delete env.OPENBLAS_CORETYPE;
  delete env.OPENBLAS_L2_SIZE;
  const worker = new Worker(venv.python, env);
  const ready = worker.next();
  worker.proc.stdin.write(`${JSON.stringify({ systems, resamples: RESAMPLES })}\n`);
  const { numpy } = JSON.parse(await ready) as { numpy: string };
  ours(); // warm-up (JIT)
  const oursTimes: number[] = [];
  const scipyTimes: number[] = [];
  let last: ReturnType<typeof clusterBootstrap>[] = [];
  let sp: { time: number; results: { bca: number[]; percentile: number[]; se: number }[] } = { time: 0, results: [] };
  for (let r = 0; r < REPEATS; r++) {
    const t0 = process.hrtime.bigint();
    last = ours();
    oursTimes.push(Number(process.hrtime.bigint() - t0) / 1e9);
    sp = JSON.parse(await worker.request('run'));
    scipyTimes.push(sp.time);
  }
  worker.proc.stdin.end();
  let worst = 0;
  last.forEach((o, i) => {
    const ref = sp.results[i]!;
    const se = o.standardError!;
    worst = Math.max(
      worst,
      Math.abs(o.percentile!.low - ref.percentile[0]!) / se,
      Math.abs(o.percentile!.high - ref.percentile[1]!) / se,
      Math.abs(o.bca!.low - ref.bca[0]!) / se,
      Math.abs(o.bca!.high - ref.bca[1]!) / se,
    );
  });
  const a = median(oursTimes);
  const b = median(scipyTimes);
  const ms = (x: number): string => `${(x * 1000).toFixed(1)} ms`;
  console.log(
    `Cluster bootstrap, ${SYSTEMS} systems x ${TASKS} tasks x ${TRIALS} trials, ${RESAMPLES} resamples, percentile + BCa; ${REPEATS} interleaved rounds after warm-up`,
  );
  console.log(`  @assay/analysis (Node ${process.version}): median ${ms(a)}, min ${ms(Math.min(...oursTimes))}`);
  console.log(
    `  scipy ${PINNED.scipy} / numpy ${numpy} (in-process timing): median ${ms(b)}, min ${ms(Math.min(...scipyTimes))}`,
  );
  console.log(
    `  ratio scipy / ours: median ${(b / a).toFixed(2)}x, min ${(Math.min(...scipyTimes) / Math.min(...oursTimes)).toFixed(2)}x`,
  );
  console.log(
    `  largest endpoint difference vs SciPy: ${worst.toFixed(3)} bootstrap SE (Monte Carlo error, different RNGs)`,
  );
  console.log(
    `  load average at end: ${loadavg()
      .map((x) => x.toFixed(2))
      .join(' ')} (${cpus().length} cores)`,
  );
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
