// Docker's event stream, as the crash tests count containers by it.
import type Docker from 'dockerode';

/** A created container's labels and name (Docker's event Actor attributes). */
export type CreatedAttributes = Record<string, string>;

const roleAndName = (a: CreatedAttributes) => `${a['assay.role'] ?? '?'} ${a.name ?? '?'}`;

/** Docker's container `create` events of the job from now on, each as `describe` puts it (default `role name`). */
export async function watchCreates(
  docker: Docker,
  jobId: string,
  describe: (a: CreatedAttributes) => string = roleAndName,
): Promise<{ seen: () => string[]; stop: () => void }> {
  const stream = (await docker.getEvents({
    filters: { label: [`assay.job=${jobId}`], type: ['container'], event: ['create'] },
  })) as NodeJS.ReadableStream & { destroy?: () => void };
  const seen: string[] = [];
  let buf = '';
  stream.on('data', (d: Buffer) => {
    buf += d.toString();
    const lines = buf.split('\n');
    buf = lines.pop() ?? '';
    for (const l of lines.filter((x) => x.trim()))
      seen.push(describe((JSON.parse(l) as { Actor: { Attributes: CreatedAttributes } }).Actor.Attributes));
  });
  return { seen: () => [...seen], stop: () => stream.destroy?.() };
}
