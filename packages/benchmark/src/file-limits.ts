// Documented maxima of benchmark and job files (docs/jobs-and-judging.md, "Jobs"): what validation refuses, so that a
// trial never meets a file it cannot copy, parse or fit in its work volume.

export const FILE_LIMITS = {
  /** One YAML file: benchmark.yaml, task.yaml, rubric.yaml, project.yaml, criteria.yaml, a job. */
  yamlBytes: 1024 ** 2,
  /** One file of a task's inputs or a project's releases. */
  fileBytes: 256 * 1024 ** 2,
  /** Files in one task's inputs or one project's releases. */
  files: 10_000,
  /** Folder depth below inputs/ or releases/. */
  depth: 32,
  /** YAML aliases expanded per file (the yaml library's guard against alias bombs). */
  aliases: 100,
} as const;
