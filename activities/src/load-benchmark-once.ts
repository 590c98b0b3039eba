// Benchmarks are loaded once per worker and root; activities look tasks and projects up by id.
import { loadBenchmark, type LoadedBenchmark, type LoadedProject, type LoadedTask } from '@assay/benchmark';

export function createBenchmarkLookup() {
  const loaded = new Map<string, LoadedBenchmark>();
  const benchmarkAt = (root: string): LoadedBenchmark => {
    let b = loaded.get(root);
    if (!b) {
      b = loadBenchmark(root);
      loaded.set(root, b);
    }
    return b;
  };
  return {
    task(root: string, id: string): LoadedTask {
      const task = benchmarkAt(root).tasks.find((t) => t.spec.id === id);
      if (!task) throw new Error(`task "${id}" is not in the benchmark at ${root}`);
      return task;
    },
    project(root: string, id: string): LoadedProject {
      const project = benchmarkAt(root).projects.find((p) => p.spec.id === id);
      if (!project) throw new Error(`project "${id}" is not in the benchmark at ${root}`);
      return project;
    },
  };
}
