// Containers and networks created while one side runs, counted from a live `docker events`
// stream (the engine keeps only its last 256 events, and other engineers share it, so reading
// the past with --since loses events), keeping only those of that side.
import { spawn } from 'node:child_process';

export interface Created {
  containers: number;
  networks: number;
}

interface Event {
  type: string;
  project: string;
  job: string;
  name: string;
}

const FORMAT =
  '{{.Type}}\t{{index .Actor.Attributes "com.docker.compose.project"}}\t{{index .Actor.Attributes "assay.job"}}\t{{.Actor.Attributes.name}}';

/** Starts watching create events; `stop()` ends the stream and returns what was seen. */
export function watchCreated(): { stop: () => Promise<Event[]> } {
  const child = spawn(
    'docker',
    [
      'events',
      '--filter',
      'event=create',
      '--filter',
      'type=container',
      '--filter',
      'type=network',
      '--format',
      FORMAT,
    ],
    { stdio: ['ignore', 'pipe', 'ignore'] },
  );
  let text = '';
  child.stdout.on('data', (d: Buffer) => (text += d.toString('utf8')));
  return {
    stop: async () => {
      // Let the engine deliver the last events before the stream ends.
      await new Promise((r) => setTimeout(r, 1000));
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
      return text
        .split('\n')
        .filter((l) => l.trim() !== '')
        .map((l) => {
          const [type = '', project = '', job = '', name = ''] = l.split('\t');
          return { type, project, job, name };
        });
    },
  };
}

/** Harbor: compose projects named after the trial (`<task>__<id>__env`), and their networks. */
export function harborCreated(events: Event[], taskPrefix: string): Created {
  return {
    containers: events.filter((e) => e.type === 'container' && e.project.startsWith(`${taskPrefix}__`)).length,
    networks: events.filter((e) => e.type === 'network' && e.name.startsWith(`${taskPrefix}__`)).length,
  };
}

/** assay: containers labelled with the job; assay creates no networks (network none), counted anyway. */
export function assayCreated(events: Event[], jobId: string): Created {
  return {
    containers: events.filter((e) => e.type === 'container' && e.job === jobId).length,
    networks: events.filter((e) => e.type === 'network' && e.name.includes(jobId)).length,
  };
}
