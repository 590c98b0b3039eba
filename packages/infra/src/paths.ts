// Where assay keeps its machine-local state: everything lives under <root>/.assay
// (git-ignored), so a checkout can be wiped by deleting one folder.
import path from 'node:path';

export function assayDir(root: string): string {
  return path.join(path.resolve(root), '.assay');
}

export function venvDir(root: string): string {
  return path.join(assayDir(root), 'venv');
}

export function logsDir(root: string): string {
  return path.join(assayDir(root), 'logs');
}

export function locksDir(root: string): string {
  return path.join(assayDir(root), 'locks');
}

export function buildDir(root: string): string {
  return path.join(assayDir(root), 'build');
}

export function defaultTemporalDbFile(root: string): string {
  return path.join(assayDir(root), 'temporal.sqlite');
}

/** Pid, log and state files are keyed by port so several dev servers (e.g. tests) can coexist. */
export function temporalPidFile(root: string, port: number): string {
  return path.join(assayDir(root), `temporal-${port}.pid`);
}

export function temporalLogFile(root: string, port: number): string {
  return path.join(assayDir(root), `temporal-${port}.log`);
}

export function temporalStateFile(root: string, port: number): string {
  return path.join(assayDir(root), `temporal-${port}.json`);
}

export function dockerdLogFile(root: string): string {
  return path.join(assayDir(root), 'dockerd.log');
}

export function dockerdPidFile(root: string): string {
  return path.join(assayDir(root), 'dockerd.pid');
}

/** The Dockerfile folders of assay's own images (images/<name>/Dockerfile). */
export function imagesDir(root: string): string {
  return path.join(path.resolve(root), 'images');
}

/** The scripted agents' Python sources, copied into the scripted-agent image at build time. */
export function scriptedAgentSourceDir(root: string): string {
  return path.join(path.resolve(root), 'packages', 'agents', 'scripted');
}
