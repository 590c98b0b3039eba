// One file of an image, read without running anything in it: a container is created (never started) and the
// file taken out through the engine's archive endpoint, then the container goes. Works on any image, one with
// no shell or libc too (a harness bundled onto `scratch`).
import type Docker from 'dockerode';
import { dockerClient } from './docker-engine.js';

const BLOCK = 512;

/** The file's bytes; null when the image has no such file (a symlink is followed, within the image, once). */
export async function readImageFile(
  image: string,
  file: string,
  docker: Docker = dockerClient(),
): Promise<Buffer | null> {
  const container = await docker.createContainer({
    Image: image,
    // Never started: the command only has to be given (an image may name none).
    Cmd: ['true'],
    Entrypoint: [],
    NetworkDisabled: true,
    Labels: { 'assay.role': 'read-image-file' },
  });
  try {
    const first = await archiveEntry(container, file);
    if (first?.type === 'file') return first.data;
    if (first?.type !== 'symlink') return null;
    const target = first.link.startsWith('/') ? first.link : `${file.replace(/[^/]*$/, '')}${first.link}`;
    const linked = await archiveEntry(container, target);
    return linked?.type === 'file' ? linked.data : null;
  } finally {
    await container.remove({ force: true }).catch(() => undefined);
  }
}

type Entry = { type: 'file'; data: Buffer } | { type: 'symlink'; link: string } | { type: 'other' };

async function archiveEntry(container: Docker.Container, file: string): Promise<Entry | null> {
  let stream: NodeJS.ReadableStream;
  try {
    stream = await container.getArchive({ path: file });
  } catch (err) {
    if ((err as { statusCode?: number }).statusCode === 404) return null;
    throw err;
  }
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string));
  return firstEntry(Buffer.concat(chunks));
}

/** The first entry of a tar archive (ustar, GNU or PAX headers, which are skipped): what getArchive answers. */
function firstEntry(tar: Buffer): Entry | null {
  let offset = 0;
  while (offset + BLOCK <= tar.length) {
    const header = tar.subarray(offset, offset + BLOCK);
    if (header.every((b) => b === 0)) return null;
    const size = parseOctal(header.subarray(124, 136));
    const type = String.fromCharCode(header[156] ?? 0);
    const dataStart = offset + BLOCK;
    const next = dataStart + Math.ceil(size / BLOCK) * BLOCK;
    // PAX extended headers and GNU long names describe the next entry: a plain path needs neither.
    if (type === 'x' || type === 'g' || type === 'L' || type === 'K') {
      offset = next;
      continue;
    }
    if (type === '0' || type === '\0' || type === '7')
      return { type: 'file', data: Buffer.from(tar.subarray(dataStart, dataStart + size)) };
    if (type === '2') return { type: 'symlink', link: cString(header.subarray(157, 257)) };
    return { type: 'other' };
  }
  return null;
}

function parseOctal(field: Buffer): number {
  const text = cString(field).trim();
  return text === '' ? 0 : parseInt(text, 8);
}

function cString(field: Buffer): string {
  const end = field.indexOf(0);
  return field.subarray(0, end === -1 ? field.length : end).toString('utf8');
}
