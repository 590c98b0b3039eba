// Every user-facing error sentence of @assay/infra, in one place.

export const messages = {
  commandFailed: (command: string, code: number | null, tail: string, logFile?: string) =>
    `The command \`${command}\` failed (exit ${code ?? 'signal'}).` +
    (logFile ? ` Full output: ${logFile}.` : '') +
    (tail ? `\nLast output:\n${tail}` : ''),
  commandMissing: (command: string) => `The program \`${command}\` is not installed or not on PATH.`,
  needRootForApt: (packages: string[]) =>
    `Installing ${packages.join(', ')} needs root (apt-get); run \`assay setup\` as root or install them yourself.`,
  pythonMissing: () =>
    'Python 3 with the venv module is needed to install the Temporal CLI (apt-get install python3-venv).',
  temporalCliBroken: (binary: string, output: string) => `The Temporal CLI at ${binary} does not run: ${output}`,
  temporalStartFailed: (logFile: string, tail: string) =>
    `The Temporal dev server exited before it became healthy. Its log is ${logFile}.\n${tail}`,
  temporalServerExited: (logFile: string, tail: string) =>
    `temporal-server exited before it became healthy. Its log is ${logFile}.\n${tail}`,
  temporalPortTaken: (address: string) =>
    `Something else already answers on ${address}; stop it or give another --port for the PostgreSQL-backed server.`,
  temporalNotHealthy: (address: string, seconds: number, logFile?: string) =>
    `The Temporal server at ${address} did not report SERVING within ${seconds} s.` +
    (logFile ? ` Its log is ${logFile}.` : ''),
  temporalRetentionNotApplied: (namespace: string, seconds: number) =>
    `Namespace "${namespace}" still has a retention of ${Math.round(seconds / 3600)} h after the update; ` +
    'raise it by hand with `temporal operator namespace update --retention 720h`.',
  temporalSearchAttributeMissing: (names: string[]) =>
    `The search attributes ${names.join(', ')} are still missing after registration.`,
  temporalTypeConflict: (name: string, type: string) =>
    `The search attribute ${name} already exists with type ${type}, not Keyword; assay cannot use this namespace.`,
  temporalConfigUnreadable: (file: string, profile: string, reason: string) =>
    `Cannot load the Temporal connection settings (config file ${file}, profile "${profile}"): ${reason}.`,
  temporalTlsFileUnreadable: (what: string, file: string, from: string, why: string) =>
    `Cannot read the Temporal ${what} ${file} (from ${from}): ${why}.`,
  temporalTlsPairIncomplete: (has: 'certificate' | 'key') =>
    `A TLS client ${has} is set for Temporal but no client ${has === 'key' ? 'certificate' : 'key'}; set both (TEMPORAL_TLS_CLIENT_CERT_PATH and TEMPORAL_TLS_CLIENT_KEY_PATH) or neither.`,
  temporalCredentialsRefused: (address: string, reason: string) =>
    `The Temporal server at ${address} refused our credentials (API key or TLS client certificate): ${reason}.`,
  temporalUnreachable: (address: string, reason: string) =>
    `Cannot reach the Temporal server at ${address} (${reason}); start it with \`pnpm assay server start\` or point TEMPORAL_ADDRESS at a running one.`,
  temporalPreflightFailed: (namespace: string, address: string, reason: string) =>
    `Cannot check namespace "${namespace}" on the Temporal server at ${address}: ${reason}.`,
  temporalNoNamespace: (namespace: string, address: string, command: string) =>
    `The Temporal server at ${address} has no namespace "${namespace}" (check TEMPORAL_NAMESPACE; \`pnpm assay run\` creates it, or \`${command}\`).`,
  temporalNamespaceMissing: (namespace: string, address: string, reason: string, command: string) =>
    `The Temporal server at ${address} has no namespace "${namespace}" and would not let assay create it (${reason}); create it with \`${command}\`.`,
  temporalRetentionTooShort: (namespace: string, hours: number, reason: string, command: string) =>
    `Namespace "${namespace}" keeps workflow histories for ${hours} h, less than the 720 h assay needs, and would not let assay raise it (${reason}); raise it with \`${command}\`.`,
  temporalSearchAttributesMissing: (
    names: readonly string[],
    namespace: string,
    address: string,
    reason: string,
    command: string,
  ) =>
    `Namespace "${namespace}" on ${address} lacks assay's search attribute${names.length === 1 ? '' : 's'} ${names.join(', ')} (Keyword) and assay could not create ${names.length === 1 ? 'it' : 'them'} (${reason}); create ${names.length === 1 ? 'it' : 'them'} with \`${command}\`.`,
  temporalSearchAttributeWrongType: (name: string, namespace: string, type: string, command: string) =>
    `Namespace "${namespace}" has the search attribute ${name} as ${type}, but assay needs it as Keyword; remove it with \`${command}\` (its values are lost) or use another namespace (TEMPORAL_NAMESPACE).`,
  dockerHostUnreachable: (host: string, why: string) =>
    `DOCKER_HOST is set to ${host} but no Docker engine answers there (${why}). Unset DOCKER_HOST or start that engine.`,
  dockerNeedsRoot: () =>
    'No Docker engine answers on /var/run/docker.sock and starting one needs root; start dockerd yourself or set DOCKER_HOST.',
  dockerdStartFailed: (logFile: string, tail: string) => `dockerd did not start. Its log is ${logFile}.\n${tail}`,
  dockerdNotAnswering: (seconds: number, logFile: string) =>
    `dockerd was started but did not answer within ${seconds} s. Its log is ${logFile}.`,
  aptMirrorUnknown: () =>
    'Could not find a Debian mirror in /etc/apt/sources.list.d/debian.sources or /etc/apt/sources.list; set ASSAY_DEBIAN_MIRROR.',
  imageBuildFailed: (tag: string, detail: string) => `Building the image ${tag} failed: ${detail}`,
  imageImportFailed: (tag: string, detail: string) => `Importing the base image ${tag} failed: ${detail}`,
  dockerfileMissing: (dir: string) => `There is no Dockerfile in ${dir}.`,
  buildSourceMissing: (dir: string, hint: string) => `The build context folder ${dir} does not exist. ${hint}`,
  scriptedAgentMissing: (file: string) =>
    `The scripted agent ${file} is missing; it is written by packages/agents/scripted.`,
  lockTimeout: (lockFile: string, holder: string, seconds: number) =>
    `Waited ${seconds} s for ${lockFile} held by ${holder}; if that process is gone, delete the file.`,
  documentToolMissingAfterInstall: (tool: string) =>
    `\`${tool}\` is still not on PATH after installing the document tools.`,
} as const;
