// Every user-facing sentence of the benchmark loader, in one place.
export const messages = {
  fileMissing: 'file does not exist',
  notAFolder: 'is not a folder',
  yamlSyntax: (detail: string) => `is not valid YAML: ${detail}`,
  notAnObject: 'must be a YAML mapping (key: value pairs)',
  duplicateId: (kind: string, id: string) => `duplicate ${kind} id "${id}"`,
  idMismatch: (id: string, folder: string) => `id "${id}" does not match its folder name "${folder}"`,
  escapes: (p: string) => `path "${p}" escapes the benchmark folder`,
  symlinkEscapes: (p: string) => `"${p}" is a symbolic link pointing outside the benchmark folder`,
  missingFile: (p: string) => `refers to "${p}", which does not exist`,
  undeclaredDeliverable: (p: string) => `check refers to "${p}", which is not a declared output`,
  unknownCriterion: (id: string) => `depends on unknown criterion "${id}"`,
  dependencyCycle: (ids: string[]) => `criteria depend on each other in a cycle: ${ids.join(' -> ')}`,
  unknownReuse: (ref: string) => `reuses "${ref}", which is not a checkpoint criterion of this project`,
  unknownSubtask: (id: string) => `has criteria for unknown subtask "${id}"`,
  subtaskWithoutCriteria: (id: string) => `subtask "${id}" has no checkpoint criteria`,
  noPositiveWeight: 'has no criterion with a positive weight, so the score would be undefined',
  emptyBenchmark: 'lists no tasks and no projects',
  evaluatorInInputs: (p: string) =>
    `"${p}" looks like evaluator material (rubric/reference) inside the agent-visible inputs`,
  duplicateRelease: (to: string) => `two releases write the same workspace path "${to}"`,
} as const;
