// A Harbor task folder's content digest as Harbor 0.25 computes it for a dataset.toml (harbor/publisher/
// packager.py, Packager.compute_content_hash): task.toml, instruction.md, README.md and trajectory.json, and every
// file under environment/, tests/, solution/ and steps/ (a linked folder is not entered), less `.harborignore`
// files and the default ignores (__pycache__/, *.pyc, .DS_Store, *.swp, *.swo, *~); then sha256 over one
// `<path>\0<file sha256>\n` line per file in path order. A task whose own .gitignore or .harborignore has patterns
// selects its files by gitignore rules assay does not implement: that is said, never guessed.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

const SINGLE_FILES = ['task.toml', 'instruction.md', 'README.md', 'trajectory.json'];
const TREES = ['environment', 'tests', 'solution', 'steps'];
const IGNORE_FILE = '.harborignore';
/** Harbor's DEFAULT_IGNORES, as gitignore matches them: on any path component (`__pycache__/` on folders only). */
const IGNORED_NAME = (name: string): boolean =>
  name === '.DS_Store' || ['.pyc', '.swp', '.swo', '~'].some((end) => name.endsWith(end));

export type TaskDigest = { digest: string } | { unsupported: string };

export function harborTaskDigest(dir: string): TaskDigest {
  const rules = unsupportedIgnoreRules(dir);
  if (rules) return { unsupported: rules };
  // A .gitignore (with no patterns, as checked above) replaces the default ignores.
  const defaults = !existsSync(path.join(dir, '.gitignore'));
  const files = [
    ...SINGLE_FILES.filter((f) => isFile(path.join(dir, f))),
    ...TREES.flatMap((t) => (isFolder(path.join(dir, t)) ? filesUnder(dir, t) : [])),
  ].filter((rel) => !(defaults && isDefaultIgnored(rel)));
  files.sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
  const outer = createHash('sha256');
  for (const rel of files) outer.update(`${rel}\0${sha256(readFileSync(path.join(dir, rel)))}\n`);
  return { digest: `sha256:${outer.digest('hex')}` };
}

/** Regular files (a link to one too) under `rel`, by path relative to the task; linked folders are not entered. */
function filesUnder(dir: string, rel: string): string[] {
  return readdirSync(path.join(dir, rel), { withFileTypes: true }).flatMap((entry) => {
    if (entry.name === IGNORE_FILE) return [];
    const child = `${rel}/${entry.name}`;
    if (entry.isDirectory()) return filesUnder(dir, child);
    return isFile(path.join(dir, child)) ? [child] : [];
  });
}

function isDefaultIgnored(rel: string): boolean {
  const parts = rel.split('/');
  const name = parts.pop() ?? '';
  return IGNORED_NAME(name) || parts.some((p) => p === '__pycache__' || IGNORED_NAME(p));
}

/** Why the task's ignore files cannot be honoured here, or null when they hold no pattern. */
function unsupportedIgnoreRules(dir: string): string | null {
  const holders = [path.join(dir, '.gitignore'), ...ignoreFilesUnder(dir)];
  const withPatterns = holders.filter((f) => isFile(f) && patternsOf(readFileSync(f, 'utf8')).length > 0);
  if (withPatterns.length === 0) return null;
  const named = withPatterns.map((f) => path.relative(dir, f)).join(', ');
  return `${named} ha${withPatterns.length === 1 ? 's' : 've'} ignore patterns, which assay does not apply to a task's digest yet`;
}

function ignoreFilesUnder(dir: string): string[] {
  return TREES.flatMap((t) => (isFolder(path.join(dir, t)) ? walkIgnoreFiles(path.join(dir, t)) : []));
}

function walkIgnoreFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const abs = path.join(folder, entry.name);
    if (entry.isDirectory()) return walkIgnoreFiles(abs);
    return entry.name === IGNORE_FILE ? [abs] : [];
  });
}

const patternsOf = (text: string): string[] =>
  text.split('\n').filter((line) => line.trim() !== '' && !line.trimStart().startsWith('#'));

const sha256 = (bytes: Buffer): string => createHash('sha256').update(bytes).digest('hex');

function isFile(p: string): boolean {
  try {
    return statSync(p).isFile();
  } catch {
    return false;
  }
}

function isFolder(p: string): boolean {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
}
