// Every user-facing sentence of the compose file reader, in one place.
const shown = (v: unknown): string => (typeof v === 'string' ? `"${v}"` : (JSON.stringify(v) ?? String(v)));

export const composeMessages = {
  yamlSyntax: (detail: string) => `is not valid YAML: ${detail}`,
  notAMapping: 'must be a mapping (key: value)',
  servicesRequired: 'is required: a mapping of services, one of them "main"',
  mainRequired: 'needs a "main" service: it is the agent\'s environment (built from environment/Dockerfile)',
  badServiceName: (name: string) =>
    `service "${name}" must be lowercase letters, digits, "_" or "-": it is the host name main reaches it by`,
  unknownTopKey: (key: string) =>
    `"${key}" is not supported in a Harbor task's compose file: assay honours "services" and "volumes" only (and ignores x- extensions as Compose does)`,
  unknownKey: (key: string) => `"${key}" is not supported by assay's compose subset (remove it to run the task)`,
  mainKey: (key: string) =>
    `"${key}" cannot be set on main: the agent's container is assay's (main takes build, image, environment and depends_on)`,
  mainBuild:
    'must be the task\'s environment folder (".", or ${CONTEXT_DIR} as in Harbor\'s base file): main is environment/Dockerfile',
  mainImage:
    "main's image is the task's (environment/Dockerfile or [environment].docker_image); only Harbor's ${MAIN_IMAGE_NAME} / ${PREBUILT_IMAGE_NAME} may be named here",
  imageOrBuild: 'needs "image" (a local image: nothing is pulled) or "build" (a folder inside environment/)',
  buildOutside: (v: string) => `build context "${v}" is outside the task's environment/ folder`,
  buildDockerfile: (v: unknown) => `must be "Dockerfile" (got ${shown(v)}): assay builds a context's own Dockerfile`,
  buildKey: (key: string) => `"${key}" is not supported in build (context and dockerfile are)`,
  notAString: (v: unknown) => `must be a non-empty string (got ${shown(v)})`,
  interpolation: (v: string) =>
    `${shown(v)}: assay interpolates \${VAR} only in environment values; write $$ for a literal $ (as Compose reads it)`,
  notABoolean: (v: unknown) => `must be true or false (got ${shown(v)})`,
  notACommand: (v: unknown) => `must be a string or a list of strings (got ${shown(v)})`,
  badEnvironment: 'must be a mapping NAME: value or a list of "NAME=value"',
  badEnvEntry: (v: unknown) => `must be "NAME=value" with a valid name (got ${shown(v)})`,
  badDependsOn: 'must be a list of service names or a mapping service: { condition }',
  unknownService: (name: string) => `"${name}" is not a service of this file`,
  dependsOnMain: 'a sidecar cannot depend on main: sidecars start before the agent',
  badCondition: (v: unknown) =>
    `must be "service_started", "service_healthy" or "service_completed_successfully" (got ${shown(v)})`,
  healthyWithoutCheck: (name: string) => `"${name}" has no healthcheck, so it can never be service_healthy`,
  cycle: (names: string[]) => `depends_on forms a cycle: ${names.join(' -> ')}`,
  badDuration: (v: unknown) => `must be a duration like "5s", "1m30s" or "500ms" (got ${shown(v)})`,
  badTest: 'must be ["CMD", ...], ["CMD-SHELL", "..."], ["NONE"] or a shell string',
  positiveInteger: (v: unknown) => `must be a positive whole number (got ${shown(v)})`,
  positiveNumber: (v: unknown) => `must be a positive number (got ${shown(v)})`,
  badMemory: (v: unknown) => `must be a size like "512m" or "1g" (got ${shown(v)})`,
  hostNetwork: (v: unknown) =>
    `${shown(v)} is refused: a sidecar joins the trial's own network only, never the host's or another container's`,
  privileged: 'is refused: a sidecar never runs privileged',
  dockerSocket: "is refused: the Docker engine's socket is never given to a sidecar",
  bindOutside: (v: string) => `"${v}" is refused: a sidecar gets no host folder outside the task folder`,
  bindOutsideEnvironment: (v: string) =>
    `"${v}" is refused: a sidecar gets files of environment/ only (tests/ and solution/ are the verifier's and the oracle's, and the agent reaches the sidecars)`,
  bindMissing: (v: string) => `"${v}" does not exist in environment/`,
  bindNotFileOrFolder: (v: string) => `"${v}" must be a file or a folder`,
  anonymousVolume: (v: string) =>
    `"${v}" is not supported: name the volume ("name:${v}") and declare it under the top-level "volumes"`,
  undeclaredVolume: (name: string) => `volume "${name}" is not declared under the top-level "volumes"`,
  badVolumeEntry: (v: unknown) =>
    `${shown(v)} must be "volume:/path", "volume:/path:ro" or {type: volume, source, target, read_only}`,
  volumeOption: (key: string) =>
    `"${key}" is not supported: each trial gets its own empty local volume, removed with its sidecars`,
  volumeOnMain:
    'volumes cannot be mounted on main: its container is snapshotted for the verifier and each step, and a snapshot holds no volume',
  portsRefused: 'is refused: a sidecar publishes no port on the host (main reaches every port by the service name)',
  capRefused: (key: string) => `"${key}" is refused: a sidecar gets no extra kernel capabilities or devices`,
  stepNetworks:
    "must be the task's agent network_mode on a task with environment/docker-compose.yaml (not supported yet per step): one trial network serves every step and the sidecars",
  phaseNetworks:
    'must be the agent\'s network_mode on a task with environment/docker-compose.yaml: one trial network (internal for "no-network") serves the agent, the verifier and the sidecars',
} as const;
