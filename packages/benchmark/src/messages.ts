// Every user-facing sentence of the benchmark loader, in one place.
const quoted = (ids: readonly string[]) => ids.map((i) => `"${i}"`).join(', ');
const subtasks = (ids: readonly string[]) => (ids.length === 1 ? `subtask ${ids[0]}` : `subtasks ${ids.join(', ')}`);

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
  symlinkEscapes: (p: string) => `"${p}" is a symbolic link pointing outside the benchmark folder`,
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
