// Every user-facing message of the viewer, in one place.
export const messages = {
  notResults: (arg: string) => `${arg}: neither a results folder nor a job file`,
  noRecords: (arg: string) => `${arg}: no job.json, trials/ or projects/ here (not a results folder)`,
  noSources: () => 'no results folder given and .assay/results/ holds none',
  unknownSource: (id: string) => `no results source "${id}"`,
  unknownTrial: (key: string) => `no trial record at ${key}`,
  unknownProject: (key: string) => `no project record at ${key}`,
  unknownCheckpoint: (which: string) => `no checkpoint ${which} in this project record`,
  notInSubmission: (sha: string) => `no deliverable or snapshot file with sha256 ${sha} in this record`,
  noPage: (sha: string, page: number) => `page ${page} of ${sha.slice(0, 12)}… could not be rendered`,
  benchmarkUnreadable: (root: string, reason: string) =>
    `the benchmark at ${root} could not be read (${reason}): instructions and criterion texts are not shown`,
  badJobControl: (key: string, reason: string) => `${key}: not a job control state (${reason}); not shown`,
  clientBuildFailed: (reason: string) => `could not build the viewer's front end: ${reason}`,
  cannotListen: (port: number, reason: string, host = '127.0.0.1') =>
    `cannot listen on ${host.includes(':') ? `[${host}]` : host}:${port} (${reason})`,
  shortToken: (from: string, length: number, min: number) =>
    `${from}: a token of ${length} characters is too short to keep others out: give at least ${min} (off 127.0.0.1, leaving it out generates one)`,
  tokenRequired: () =>
    "this viewer asks for its token: open the URL 'assay view' printed (…/?token=…) or send Authorization: Bearer <token>",
  listening: (url: string) => `assay view: ${url} (Ctrl-C to stop)`,
  badReviewer: (name: string) =>
    `--reviewer ${name}: a reviewer name is letters, digits, dot, dash and underscore (up to 64, not starting with . - _)`,
  badField: (field: string, why: string) => `${field}: ${why}`,
  itemContentUnknown: (id: string) =>
    `the content of item ${id} is not known (no job lock and the benchmark is not readable): it cannot be reviewed`,
} as const;
