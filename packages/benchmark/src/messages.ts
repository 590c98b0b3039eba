// Every user-facing sentence of the benchmark loader, in one place.
const quoted = (ids: readonly string[]) => ids.map((i) => `"${i}"`).join(', ');
const subtasks = (ids: readonly string[]) => (ids.length === 1 ? `subtask ${ids[0]}` : `subtasks ${ids.join(', ')}`);
const REGULAR = 'benchmark files must be regular files';
const JUDGE_FIELDS = {
  provider: 'a provider (openai or anthropic)',
  model: "the judge model's name",
  apiKeyEnv: "the NAME of the worker's environment variable holding the key",
} as const;
/** 1.5 GiB, 256 MiB, 12 KiB, 800 bytes. */
export const bytes = (n: number): string => {
  const units: [number, string][] = [
    [1024 ** 3, 'GiB'],
    [1024 ** 2, 'MiB'],
    [1024, 'KiB'],
  ];
  for (const [size, unit] of units)
    if (n >= size) return `${Number((n / size).toFixed(n % size === 0 ? 0 : 1))} ${unit}`;
  return `${n} bytes`;
};

export const messages = {
  fileMissing: 'file does not exist',
  notAFolder: 'is not a folder',
  yamlSyntax: (detail: string) => `is not valid YAML: ${detail}`,
  notAnObject: 'must be a YAML mapping (key: value pairs)',
  position: (line: number, column?: number) =>
    column === undefined ? `line ${line}` : `line ${line}, column ${column}`,
  unknownField: 'is not a known field',
  missingField: (detail: string) =>
    `is missing (${detail.replace(/^Invalid input: /, '').replace(/, received undefined$/, '')})`,
  duplicateId: (kind: string, id: string, first: string) => `duplicate ${kind} "${id}" (first at ${first})`,
  idMismatch: (id: string, folder: string) => `id "${id}" does not match its folder name "${folder}"`,
  escapes: (p: string) => `path "${p}" escapes the benchmark folder`,
  symlink: (target: string) => `is a symbolic link to ${target}; ${REGULAR} (copy what it points to in instead)`,
  hardLink: (names: number) =>
    `is a hard link (the file has ${names} names); ${REGULAR} (copy the file in instead of linking it)`,
  specialFile: (kind: string) => `is a ${kind}; ${REGULAR}`,
  kindFifo: 'FIFO (named pipe)',
  kindSocket: 'socket',
  kindBlockDevice: 'block device',
  kindCharDevice: 'character device',
  outsideBenchmark: 'is outside the benchmark folder',
  releaseIsFolder: 'is a folder; a release is one file (list each file of the folder as a release of its own)',
  tooDeep: (max: number) => `is more than ${max} folders deep; agent-visible folders are at most ${max} deep`,
  fileTooBig: (size: number, max: number) => `is ${bytes(size)}; a benchmark file is at most ${bytes(max)}`,
  tooManyFiles: (max: number) =>
    `has more than ${max} files; a task's inputs or a project's releases are at most ${max}`,
  cannotRead: (detail: string) => `cannot be read: ${detail}`,
  folderNotYaml: 'is a folder, not a YAML file',
  notABenchmark: 'is a folder without a benchmark.yaml: give a benchmark folder (it has one) or a job file',
  notARegularFile: 'is not a regular file (a FIFO, socket or device), so it cannot be a YAML file',
  yamlTooBig: (size: number, max: number) =>
    `is ${bytes(size)}; a YAML file of a benchmark or job is at most ${bytes(max)}`,
  otherEncoding: (encoding: string) =>
    `is ${encoding} text; YAML files must be UTF-8 (save it as UTF-8, without a byte-order mark)`,
  nulBytes: (offset: number) =>
    `has a NUL byte at offset ${offset}, so it is binary (or UTF-16 without a byte-order mark); YAML files must be UTF-8 text`,
  notUtf8: 'is not valid UTF-8 (Latin-1 or another legacy encoding?); save it as UTF-8',
  aliasBomb: (max: number) =>
    `expands YAML aliases more than ${max} times (an alias bomb?); write the values out instead of aliasing them`,
  masked: '***',
  secretValue:
    'looks like a secret (an API key or token), and a job is stored as written (job.json, the workflow history): ' +
    'export the key on the worker (export OPENAI_API_KEY=...) and name that variable in apiKeyEnv instead',
  notEnvName:
    'must be the NAME of an environment variable (capital letters, digits and _, like OPENAI_API_KEY), not a key: ' +
    'export the key on the worker (export OPENAI_API_KEY=...) and write only that name here',
  envNameType: 'must be the name of an environment variable (a string like OPENAI_API_KEY)',
  keyEnvUnset: (env: string, where: 'here' | 'elsewhere') =>
    where === 'here'
      ? `names ${env}, which is not set in this environment, where the worker runs: export ${env}=... before running (the key is read from there only)`
      : `names ${env}, which is not set on this machine; this is checked here only: with --no-worker the key must be exported as ${env} where "assay worker" runs`,
  judgeNeeds: (mode: string, field: 'provider' | 'model' | 'apiKeyEnv') =>
    `is missing: judge mode ${mode} calls a model, so it needs ${JUDGE_FIELDS[field]} (or use mode checks-only)`,
  notHttpUrl: 'must be an http:// or https:// URL',
  unknownScriptedAgent: (agents: readonly string[]) =>
    `must name the scripted agent to play, one of ${agents.join(', ')}`,
  modelMissing: (harness: string) => `is missing: harness ${harness} runs a model and needs its name`,
  commandSettingMissing: (key: string) =>
    key === 'image'
      ? 'is missing: the command harness runs your agent in this image (a tag you built; assay pulls nothing)'
      : 'is missing: the command harness needs a command template, e.g. "my-agent --task {instruction_file}"',
  unknownPlaceholder: (name: string, known: readonly string[]) =>
    `has an unknown placeholder {${name}} (known: ${known.map((k) => `{${k}}`).join(' ')})`,
  unknownApi: (apis: readonly string[]) => `must be one of ${apis.join(', ')}`,
  cpusAboveMachine: (cpus: number, machine: number) =>
    `asks for ${cpus} CPUs, but this machine has ${machine}; a container cannot have more CPUs than its host`,
  materialAboveStorage: (largest: { kind: string; id: string; bytes: number }, storageGiB: number, count: number) =>
    `is ${storageGiB} GiB, but the files of ${largest.kind} ${largest.id} alone take ${bytes(largest.bytes)}` +
    `${count > 1 ? ` (${count - 1} more exceed it too)` : ''}; the work volume holds them and the agent's output`,
  resultsOnKernelFs: (dir: string, fs: string) =>
    `results folder ${dir} is on ${fs}, a kernel filesystem; give a real folder (the default is .assay/results/<id>)`,
  resultsUrlNotSupported: (url: string) =>
    `${url}: a job's results are a local folder or an s3://bucket/prefix location; this scheme is not supported`,
  resultsNotAFolder: (dir: string) => `results folder ${dir} exists and is not a folder`,
  resultsUnderFile: (dir: string, file: string) => `results folder ${dir} cannot be made: ${file} is a file`,
  resultsNotWritable: (dir: string, detail: string) => `results folder ${dir} cannot be written: ${detail}`,
  missingFile: (p: string) => `refers to "${p}", which does not exist`,
  undeclaredDeliverable: (p: string) => `check refers to "${p}", which is not a declared output`,
  unreadableFormat: (p: string, formats: readonly string[], why: string) =>
    `"${p}" is declared as ${formats.join(' or ')}; ${why}`,
  needsText:
    'text checks read extracted text, and png, jpg and svg deliverables have none (leave the item to the judge)',
  needsSpreadsheet: 'cell and row checks read a spreadsheet (xlsx or csv)',
  needsWorkbook: 'formula and sheet checks read an xlsx workbook',
  needsDeck: 'slide checks read a pptx deck',
  noCondition: (kind: string, fields: readonly string[]) =>
    `a ${kind} check must state what to test: at least one of ${fields.join(', ')}`,
  minAboveMax: (min: number, max: number) => `min ${min} is above max ${max}, so nothing can satisfy the check`,
  badPattern: (pattern: string, err: string) => `pattern /${pattern}/ is not a valid regular expression: ${err}`,
  unknownCriterion: (id: string, known: readonly string[]) =>
    `depends on unknown criterion "${id}"${known.length > 0 ? ` (known here: ${quoted(known)})` : ''}`,
  checkpointDepOutside: (id: string, owners: readonly string[], own: string) =>
    `"${id}" is a checkpoint criterion of ${subtasks(owners)}; a checkpoint criterion can depend only on criteria of its own subtask (${own})`,
  checkpointDepOnFinal: (id: string, own: string) =>
    `"${id}" is a final criterion; a checkpoint criterion can depend only on criteria of its own subtask (${own})`,
  finalDepOnCheckpoint: (id: string, owners: readonly string[], reuse: { ref: string; by: string } | undefined) =>
    `"${id}" is a checkpoint criterion of ${subtasks(owners)}; a final criterion can depend only on final criteria` +
    (reuse
      ? ` (final criterion "${reuse.by}" reuses ${reuse.ref}: depend on "${reuse.by}")`
      : ` (to re-apply it to the final files, add a final criterion with reuses: ${owners[0]}/${id})`),
  dependencyCycle: (ids: string[]) => `criteria depend on each other in a cycle: ${ids.join(' -> ')}`,
  unknownReuse: (ref: string) => `reuses "${ref}", which is not a checkpoint criterion of this project`,
  reuseNoSubtask: (sub: string) => `there is no subtask "${sub}" with checkpoint criteria`,
  reuseNoCriterion: (sub: string, known: readonly string[]) => `subtask ${sub} has the criteria ${quoted(known)}`,
  unknownSubtask: (id: string, isStage: boolean) =>
    `has criteria for unknown subtask "${id}"${isStage ? ` ("${id}" is a stage; checkpoints are keyed by subtask id)` : ''}`,
  subtaskWithoutCriteria: (id: string) => `subtask "${id}" has no checkpoint criteria`,
  noPositiveWeight: 'has no criterion with a positive weight, so the score would be undefined',
  emptyBenchmark: 'lists no tasks and no projects',
  duplicateRelease: (to: string, first: string) =>
    `two releases write the same workspace path "${to}" (the other is ${first})`,
  unknownJobTask: (id: string, benchmark: string) => `unknown task "${id}" (not in ${benchmark})`,
  unknownJobProject: (id: string, benchmark: string) => `unknown project "${id}" (not in ${benchmark})`,
} as const;
