// Every user-facing sentence of the Harbor task loader, in one place.
const shown = (v: unknown): string => (typeof v === 'string' ? `"${v}"` : (JSON.stringify(v) ?? String(v)));

export const harborMessages = {
  tomlSyntax: (detail: string) => `is not valid TOML: ${detail}`,
  notATable: 'must be a TOML table ([section])',
  positiveSeconds: (v: unknown) => `must be a positive number of seconds (got ${shown(v)})`,
  tooManySeconds: (v: number, max: number) => `${v} s is more than assay's largest limit (${max} s)`,
  positiveInteger: (v: unknown) => `must be a positive whole number (got ${shown(v)})`,
  notAString: (v: unknown) => `must be a non-empty string (got ${shown(v)})`,
  notABoolean: (v: unknown) => `must be true or false (got ${shown(v)})`,
  nonNegativeSeconds: (v: unknown) => `must be a number of seconds, 0 or more (got ${shown(v)})`,
  nonNegativeInteger: (v: unknown) => `must be a whole number, 0 or more (got ${shown(v)})`,
  verifierHealthcheckUnused:
    "is not run: Harbor 0.25 runs no verifier environment's healthcheck (only [environment]'s and a step's, in the agent's environment), and assay does as Harbor does; kept as written",
  healthcheckCommand: (v: unknown) =>
    `is required: the shell command run in the agent's environment until it exits 0 (got ${shown(v)})`,
  healthcheckTimeout: (v: number) =>
    `must be 1 s or more (got ${v}): Harbor runs each attempt with int(timeout_sec) as its limit, where 0 means none`,
  envNotATable: 'must be a table of NAME = "value"',
  envNotAString: (v: unknown) => `must be a string (got ${shown(v)})`,
  badEnvName: 'is not a valid environment variable name',
  badNetworkMode: (v: unknown) => `must be "no-network", "public" or "allowlist" (got ${shown(v)})`,
  hostsNotStrings: (v: unknown) => `must be a list of host names, IP addresses or CIDR ranges (got ${shown(v)})`,
  hostsWithoutAllowlist: "is only valid when network_mode='allowlist' (as Harbor's NetworkPolicy says)",
  notSupportedYet: (key: string) => `"${key}" is not supported yet by assay's Harbor tasks (remove it to run the task)`,
  badVerifierMode: (v: unknown) => `must be "shared" or "separate" (got ${shown(v)})`,
  sharedWithEnvironment:
    'cannot be set with environment_mode = "shared": either leave the environment out or make the mode "separate"',
  verifierComposeNotSupported: (file: string) =>
    `${file}: a separate verifier built from a compose file is not supported yet (use tests/Dockerfile or [verifier.environment].docker_image)`,
  artifactsNotAList: 'must be a list of paths or { source, destination, exclude, service } tables',
  artifactNotAnEntry: (v: unknown) => `must be a path or a { source, ... } table (got ${shown(v)})`,
  artifactDotDot: (v: string) => `must not contain ".." components (got "${v}")`,
  sidecarSourceNotAbsolute: (source: string, service: string) =>
    `"${source}" collected from service "${service}" must be an absolute path`,
  destinationBackslash: (v: string) => `must use "/" between folders (got "${v}")`,
  destinationAbsolute: (v: string) => `must be a path relative to the trial's artifacts/ folder (got "${v}")`,
  destinationManifest: '"manifest.json" is reserved for the collection manifest',
  destinationEmpty: (v: string) => `must name a file or folder (got "${v}")`,
  badServiceName: (v: unknown) =>
    `must be a compose service name: a letter or digit, then letters, digits, "-", "_" or "." (got ${shown(v)})`,
  notAStringList: (v: unknown) => `must be a list of strings (got ${shown(v)})`,
  collectNotTables: 'must be [[verifier.collect]] tables with a command',
  collectCommandRequired: 'is required: the shell command run in the service after the agent',
  serviceNotInCompose: (service: string) =>
    `names service "${service}", which environment/docker-compose.yaml does not define (main or one of its sidecars)`,
  serviceWithoutCompose: (service: string) =>
    `names service "${service}", but the task has no environment/docker-compose.yaml: only "main" exists`,
  osNotSupported: (v: unknown) => `${shown(v)} is not supported: assay runs Linux containers only`,
  allowInternetDeprecated: 'is deprecated in Harbor 0.20 (use environment.network_mode); applied as Harbor does',
  badSize: (v: unknown) => `must be a size like "2G", "512M" (got ${shown(v)})`,
  legacySize: (key: string) => `is deprecated in Harbor 0.20 (use ${key}_mb); applied as Harbor does`,
  conflictingSize: (key: string, legacy: unknown, mb: number, given: number) =>
    `${shown(legacy)} (${mb} MB) disagrees with ${key}_mb = ${given}`,
  nameRequired: 'is required in a [task] section ("org/name")',
  badName: (v: string) => `must be "org/name" with letters, digits, "-", "_" and "." (got "${v}")`,
  unknownField: (section: string) =>
    `is not a Harbor 0.20 field${section ? ` of [${section}]` : ''}: kept as written, not used by assay`,
  instructionMissing: 'instruction.md is missing: Harbor tasks need the agent instruction',
  instructionEmpty: 'is empty: the agent would get no instruction',
  testsMissing: 'tests/test.sh is missing: the verifier has nothing to run',
  environmentMissing: 'needs environment/Dockerfile or [environment].docker_image',
  composeYml:
    'Harbor reads environment/docker-compose.yaml only (this file would be ignored there): rename it to docker-compose.yaml',
  badFolderName: (name: string) =>
    `task folder "${name}" must be lowercase letters, digits, ".", "_" or "-" (it is the task id in assay's records)`,
  noTasks: 'has no Harbor task folder (a folder holding task.toml), and is not one itself',
  notATaskFolder: 'has no task.toml: not a Harbor task folder, skipped',
  notADataset: (id: string) => `"${id}" cannot be a benchmark id: use lowercase letters, digits, ".", "_" or "-"`,
  solutionMissing: (dir: string) => `${dir}/solve.sh is missing: the oracle harness cannot run this task`,
  commandNotSupported:
    'harness "command" is not supported on Harbor tasks: it runs its own image (settings.image), but the agent of a Harbor task runs in the task\'s own image, whose snapshot the verifier checks; use oracle, nop or a model CLI',
  harnessNotSupported: (harness: string) =>
    `harness "${harness}" is not supported on Harbor tasks (oracle, nop and the model CLIs claude-code, codex, gemini-cli, qwen-code, kimi-cli, nanobot and hermes are)`,
  noTaskTools: (harness: string, task: string, what: string) =>
    `"${harness}" cannot take the ${what} of ${task} (Harbor has no agent for it that does): use another model CLI, or a task without them`,
  noResume: (harness: string, task: string) =>
    `"${harness}" does not support resume, so it cannot honor harbor.resumeTrajectory (Harbor's agent.resume_trajectory) on the steps of ${task}, as Harbor refuses such a trial: turn it off for this system, or use a model CLI`,
  publicNeedsNetwork: (network: string, mode = 'public') =>
    `"${mode}" needs a network, but the job's resources.network is "${network}": set resources.network to "bridge" or "host" (the job's network is the upper bound), or make the task "no-network"`,
  strategyWithoutSteps: 'only applies to a multi-step task: this task has no [[steps]]',
  badStrategy: (v: unknown) => `must be "mean" or "final" (got ${shown(v)})`,
  stepsNotTables: 'must be one or more [[steps]] tables',
  stepNameRequired: (v: unknown) => `every step needs a name, a non-empty string (got ${shown(v)})`,
  badStepName: (v: string) =>
    `"${v}" cannot name a step folder (steps/<name>/): use letters, digits, ".", "_" or "-", not starting with "."`,
  stepNameRepeated: (v: string) => `"${v}" names two steps: each step has its own folder steps/${v}/`,
  minRewardNotANumber: (v: unknown) => `must be a number (got ${shown(v)})`,
  badMinReward: (v: unknown) => `must be a number, or a table of reward name = number (got ${shown(v)})`,
  stepInstructionMissing: (name: string) => `steps/${name}/instruction.md is missing: every step needs its instruction`,
  stepTestsMissing: (name: string) =>
    `step "${name}" has no test: neither steps/${name}/tests/test.sh nor tests/test.sh exists`,
  stepWorkdirNotFolder: (name: string) =>
    `steps/${name}/workdir must be a folder: its contents are uploaded to the agent's working directory before the step`,
  // dataset.toml (Harbor's DatasetManifest)
  unknownManifestField: "is not a field of Harbor 0.25's dataset.toml: kept as written, not used by assay",
  datasetNameRequired: 'is required: [dataset] name = "org/name"',
  taskRefNameRequired: 'is required: the pinned task\'s "org/name" (its task.toml [task] name)',
  badDigest: (v: unknown) => `must be "sha256:" and 64 lowercase hex digits (got ${shown(v)})`,
  taskRefsRequired: 'must list the tasks to run as [[tasks]] tables with name and digest',
  taskRefRepeated: (name: string) => `"${name}" is listed twice: each task runs once per trial`,
  datasetFilesNotSupported:
    "is not supported yet: a dataset's own files (a metric.py) would change how Harbor aggregates rewards; remove [[files]] to run the tasks",
  taskNotHere: (name: string) =>
    `task "${name}" is not a folder here (no sub-folder's task.toml has [task] name = "${name}"); assay runs local task folders and does not fetch Harbor's registry`,
  digestMismatch: (name: string, folder: string, actual: string, pinned: string) =>
    `task "${name}" (${folder}/) has content ${actual}, not the pinned ${pinned}: its files changed since the manifest was written (\`harbor sync\` pins the new content)`,
  digestUnsupported: (name: string, why: string) => `task "${name}": its digest cannot be checked: ${why}`,
  notInManifest: 'is not listed in dataset.toml: not run',
  manifestAndTask: 'holds both dataset.toml and task.toml: a dataset is a folder of task folders',
  mcpNotAList: 'must be a list of MCP servers ([[environment.mcp_servers]] tables)',
  mcpTransport: (v: unknown) => `must be "stdio", "sse", "streamable-http" or "http" (got ${shown(v)})`,
  mcpNeeds: (transport: string) => `is required for transport "${transport}"`,
  mcpHeaders:
    "is not supported yet by assay's Harbor tasks (headers need credentials from the host; remove it to run the task)",
  mcpDuplicate: (name: string) => `names "${name}" again: the later server replaces the earlier one, as in Harbor`,
} as const;
