// dataset.toml as Harbor 0.25 reads it (harbor/models/dataset/manifest.py, DatasetManifest): [dataset] name
// ("org/name"), version and description, and [[tasks]] each pinning a task by name and content digest
// ("sha256:<64 hex>"), as Harbor's registry publishes datasets. [[files]] (a dataset's own metric.py) is not
// supported yet; [metadata] is kept as written.
import { parse, TomlError } from 'smol-toml';
import type { Issue } from '../issue.js';
import { harborMessages as m } from './harbor-messages.js';
import { ConfigReader, isTable, type Table } from './read-task-config.js';

export interface DatasetManifest {
  name: string;
  version: string | null;
  description: string;
  tasks: { name: string; digest: string }[];
}

/** Harbor's ORG_NAME_PATTERN (harbor/constants.py), without "..". */
const ORG_NAME = /^[a-zA-Z0-9][a-zA-Z0-9._-]*\/[a-zA-Z0-9][a-zA-Z0-9._-]*$/;
const DIGEST = /^sha256:[a-f0-9]{64}$/;
const KNOWN = ['schema_version', 'dataset', 'metadata', 'tasks', 'files'];
const DATASET_KNOWN = ['name', 'version', 'description', 'authors', 'keywords'];

export const isOrgName = (v: unknown): v is string => typeof v === 'string' && ORG_NAME.test(v) && !v.includes('..');

export function readDatasetManifest(
  text: string,
  file: string,
): { manifest: DatasetManifest | null; issues: Issue[]; warnings: Issue[] } {
  const r = new ConfigReader(file, [], []);
  let root: Table;
  try {
    root = parse(text);
  } catch (err) {
    r.error('', m.tomlSyntax(err instanceof TomlError ? err.message.split('\n')[0]! : String(err)));
    return { manifest: null, issues: r.issues, warnings: r.warnings };
  }
  warnUnknown(r, root, '', KNOWN);
  const dataset = r.table(root, 'dataset');
  warnUnknown(r, dataset, 'dataset', DATASET_KNOWN);
  const name = dataset.name;
  if (name === undefined) r.error('dataset.name', m.datasetNameRequired);
  else if (!isOrgName(name)) r.error('dataset.name', m.badName(String(name)));
  const version = r.text(dataset, 'dataset', 'version');
  const description = r.text(dataset, 'dataset', 'description') ?? '';
  if (root.files !== undefined && !(Array.isArray(root.files) && root.files.length === 0))
    r.error('files', m.datasetFilesNotSupported);
  const tasks = readTaskRefs(r, root.tasks);
  const manifest = r.issues.length === 0 && typeof name === 'string' ? { name, version, description, tasks } : null;
  return { manifest, issues: r.issues, warnings: r.warnings };
}

function readTaskRefs(r: ConfigReader, raw: unknown): DatasetManifest['tasks'] {
  if (!Array.isArray(raw) || raw.length === 0 || !raw.every(isTable)) {
    r.error('tasks', m.taskRefsRequired);
    return [];
  }
  const seen = new Set<string>();
  return raw.flatMap((t, i) => {
    const at = `tasks[${i}]`;
    warnUnknown(r, t, at, ['name', 'digest']);
    const { name, digest } = t;
    const nameOk = isOrgName(name);
    if (!nameOk) r.error(`${at}.name`, name === undefined ? m.taskRefNameRequired : m.badName(String(name)));
    else if (seen.has(name)) r.error(`${at}.name`, m.taskRefRepeated(name));
    const digestOk = typeof digest === 'string' && DIGEST.test(digest);
    if (!digestOk) r.error(`${at}.digest`, m.badDigest(digest));
    if (!nameOk || !digestOk || seen.has(name)) return [];
    seen.add(name);
    return [{ name, digest }];
  });
}

function warnUnknown(r: ConfigReader, t: Table, section: string, known: readonly string[]): void {
  for (const k of Object.keys(t))
    if (!known.includes(k)) r.warn(section ? `${section}.${k}` : k, m.unknownManifestField);
}
