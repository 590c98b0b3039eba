// Containers and networks created in a time window, counted from `docker events`, keeping only
// those of one side (other engineers share this Docker engine).
import { execFileSync } from 'node:child_process';

export interface Created {
  containers: number;
  networks: number;
}

function events(sinceMs: number, untilMs: number, type: string, format: string): string[] {
  const out = execFileSync(
    'docker',
    [
      'events',
      '--since',
      (sinceMs / 1000).toFixed(3),
      '--until',
      (untilMs / 1000 + 1).toFixed(3),
      '--filter',
      `type=${type}`,
      '--filter',
      'event=create',
      '--format',
      format,
    ],
    { encoding: 'utf8' },
  );
  return out.split('\n').filter((l) => l.trim() !== '');
}

/** Harbor: compose projects named after the trial (`<task>__<id>__env`), and their networks. */
export function harborCreated(sinceMs: number, untilMs: number, taskPrefix: string): Created {
  const containers = events(sinceMs, untilMs, 'container', '{{index .Actor.Attributes "com.docker.compose.project"}}');
  const networks = events(sinceMs, untilMs, 'network', '{{.Actor.Attributes.name}}');
  return {
    containers: containers.filter((p) => p.startsWith(`${taskPrefix}__`)).length,
    networks: networks.filter((n) => n.startsWith(`${taskPrefix}__`)).length,
  };
}

/** assay: containers labelled with the job; assay creates no networks (network none), counted anyway. */
export function assayCreated(sinceMs: number, untilMs: number, jobId: string): Created {
  const containers = events(sinceMs, untilMs, 'container', '{{index .Actor.Attributes "assay.job"}}');
  const networks = events(sinceMs, untilMs, 'network', '{{.Actor.Attributes.name}}');
  return {
    containers: containers.filter((j) => j === jobId).length,
    networks: networks.filter((n) => n.includes(jobId)).length,
  };
}
