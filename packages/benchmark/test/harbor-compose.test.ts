// environment/docker-compose.yaml of a Harbor task: the subset assay runs is read into sidecars, and every
// part it does not honour (or refuses for containment) is an issue `file:field: reason`.
import {
  cpSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { formatIssue, inspectBenchmark, inspectJob, type LoadedTask } from '../src/index.js';

/** The Harbor part of a loaded task (undefined for another kind). */
const harborOf = (t: LoadedTask | undefined) => (t?.kind === 'harbor' ? t.harbor : undefined);

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const DATASET = path.join(ROOT, 'test/fixtures/harbor/compose');
const COMPOSE = 'fetch-token/environment/docker-compose.yaml';
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** A copy of the compose fixture dataset with its compose file replaced (null: as it is); the dataset folder. */
function datasetWith(compose: string | null): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'assay-compose-'));
  dirs.push(dir);
  const root = path.join(dir, 'dataset');
  cpSync(DATASET, root, { recursive: true });
  if (compose !== null) writeFileSync(path.join(root, COMPOSE), compose);
  return root;
}

const issuesOf = (compose: string): string[] => {
  const root = datasetWith(compose);
  return inspectBenchmark(`harbor:${root}`, root).issues.map(formatIssue);
};

const WEB = '  web:\n    image: assay/base:bookworm\n';

describe('Harbor compose files', () => {
  it('reads main and the sidecar of the fixture: build inside environment/, healthcheck, depends_on', () => {
    const root = datasetWith(null);
    const r = inspectBenchmark(`harbor:${root}`, root);
    expect(r.issues).toEqual([]);
    const compose = harborOf(r.benchmark?.tasks[0])?.compose;
    expect(compose?.main).toEqual({
      environment: { WEB_URL: 'http://web:8000/token.txt' },
      dependsOn: [{ service: 'web', condition: 'service_healthy' }],
    });
    expect(compose?.sidecars).toHaveLength(1);
    expect(compose?.sidecars[0]).toMatchObject({
      name: 'web',
      buildContext: path.join(root, 'fetch-token/environment/web'),
      image: null,
      workingDir: '/srv',
      environment: { TOKEN: 'token-from-the-sidecar' },
      // `$$` is Compose's literal `$`.
      command: ['sh', '-c', expect.stringContaining('echo "$TOKEN" > token.txt')],
      healthcheck: { intervalSec: 1, timeoutSec: 5, retries: 30, startPeriodSec: 0 },
    });
  });

  it('orders sidecars by depends_on and reads the short forms (string command, list environment, limits)', () => {
    const root = datasetWith(
      'services:\n  main: {}\n  api:\n    image: assay/base:bookworm\n    depends_on: [db]\n    command: python3 -m http.server "8000"\n' +
        '    environment: ["A=1", "B=x=y"]\n    deploy: { resources: { limits: { cpus: "0.5", memory: 256m } } }\n' +
        '  db:\n    image: assay/base:bookworm\n    mem_limit: 1g\n',
    );
    const r = inspectBenchmark(`harbor:${root}`, root);
    expect(r.issues).toEqual([]);
    const sidecars = harborOf(r.benchmark?.tasks[0])?.compose?.sidecars ?? [];
    expect(sidecars.map((s) => s.name)).toEqual(['db', 'api']);
    expect(sidecars[1]).toMatchObject({
      command: ['python3', '-m', 'http.server', '8000'],
      environment: { A: '1', B: 'x=y' },
      cpus: 0.5,
      memoryMb: 256,
    });
    expect(sidecars[0]).toMatchObject({ memoryMb: 1024 });
  });

  it('refuses an unknown key, the host network, privileged, the Docker socket and host folders', () => {
    const file = COMPOSE;
    const issues = issuesOf(
      'services:\n  main: {}\n  web:\n    image: assay/base:bookworm\n    network_mode: host\n    privileged: true\n' +
        '    shm_size: 1g\n    ports: ["8000:8000"]\n' +
        '  sock:\n    image: assay/base:bookworm\n    volumes: ["/var/run/docker.sock:/var/run/docker.sock"]\n' +
        '  etc:\n    image: assay/base:bookworm\n    volumes: ["/etc:/host-etc:ro"]\n' +
        'networks:\n  default: {}\n',
    );
    expect(issues).toEqual(
      expect.arrayContaining([
        `${file}:networks: "networks" is not supported in a Harbor task's compose file: assay honours "services" and "volumes" only (and ignores x- extensions as Compose does)`,
        `${file}:services.web.network_mode: "host" is refused: a sidecar joins the trial's own network only, never the host's or another container's`,
        `${file}:services.web.privileged: is refused: a sidecar never runs privileged`,
        `${file}:services.web.shm_size: "shm_size" is not supported by assay's compose subset (remove it to run the task)`,
        `${file}:services.web.ports: is refused: a sidecar publishes no port on the host (main reaches every port by the service name)`,
        `${file}:services.sock.volumes: is refused: the Docker engine's socket is never given to a sidecar`,
        `${file}:services.etc.volumes: "/etc" is refused: a sidecar gets no host folder outside the task folder`,
      ]),
    );
    expect(issues).toHaveLength(7);
  });

  it('reads named volumes: declared at the top, mounted by sidecars (short and long form, read-only)', () => {
    const root = datasetWith(
      'services:\n  main: {}\n' +
        '  web:\n    image: assay/base:bookworm\n    volumes: ["data:/data", "cache:/cache:ro"]\n' +
        '  db:\n    image: assay/base:bookworm\n    volumes:\n      - {type: volume, source: data, target: /var/lib/db, read_only: true}\n' +
        'volumes:\n  data: {}\n  cache:\n  unused: {}\n',
    );
    const r = inspectBenchmark(`harbor:${root}`, root);
    expect(r.issues.map(formatIssue)).toEqual([]);
    const compose = harborOf(r.benchmark?.tasks[0])?.compose;
    expect(compose?.volumes).toEqual(['data', 'cache']);
    expect(compose?.sidecars.map((s) => [s.name, s.mounts])).toEqual([
      [
        'web',
        [
          { volume: 'data', target: '/data', readOnly: false, source: null, file: false },
          { volume: 'cache', target: '/cache', readOnly: true, source: null, file: false },
        ],
      ],
      ['db', [{ volume: 'data', target: '/var/lib/db', readOnly: true, source: null, file: false }]],
    ]);
  });

  it('refuses volumes it cannot give a trial of its own: undeclared, anonymous, options, task folders, on main', () => {
    const file = COMPOSE;
    const issues = issuesOf(
      'services:\n  main:\n    volumes: ["data:/data"]\n' +
        '  web:\n    image: assay/base:bookworm\n    volumes: ["other:/x", "/anon", "data:/y:z", "../tests:/t", "./nope:/n"]\n' +
        'volumes:\n  data:\n    external: true\n',
    );
    expect(issues).toEqual([
      `${file}:volumes.data.external: "external" is not supported: each trial gets its own empty local volume, removed with its sidecars`,
      `${file}:services.main.volumes: volumes cannot be mounted on main: its container is snapshotted for the verifier and each step, and a snapshot holds no volume`,
      `${file}:services.web.volumes: volume "other" is not declared under the top-level "volumes"`,
      `${file}:services.web.volumes: "/anon" is not supported: name the volume ("name:/anon") and declare it under the top-level "volumes"`,
      `${file}:services.web.volumes: "data:/y:z" must be "volume:/path", "volume:/path:ro" or {type: volume, source, target, read_only}`,
      `${file}:services.web.volumes: "../tests" is refused: a sidecar gets files of environment/ only (tests/ and solution/ are the verifier's and the oracle's, and the agent reaches the sidecars)`,
      `${file}:services.web.volumes: "./nope" does not exist in environment/`,
    ]);
  });

  it('reads binds of environment/ (a folder or a file, by their real path), refuses a symlink out of it', () => {
    const root = datasetWith(
      'services:\n  main: {}\n' +
        '  web:\n    image: assay/base:bookworm\n    volumes: ["./web:/srv:ro", "./Dockerfile:/etc/df", "./out:/o"]\n',
    );
    const env = path.join(root, 'fetch-token/environment');
    symlinkSync('../tests', path.join(env, 'out'));
    const r = inspectBenchmark(`harbor:${root}`, root);
    expect(r.issues.map(formatIssue)).toEqual([
      `${COMPOSE}:services.web.volumes: "./out" is refused: a sidecar gets files of environment/ only (tests/ and solution/ are the verifier's and the oracle's, and the agent reaches the sidecars)`,
    ]);
    rmSync(path.join(env, 'out'));
    writeFileSync(
      path.join(env, 'docker-compose.yaml'),
      'services:\n  main: {}\n  web:\n    image: assay/base:bookworm\n    volumes: ["./web:/srv:ro", {type: bind, source: ./Dockerfile, target: /etc/df}]\n',
    );
    const ok = inspectBenchmark(`harbor:${root}`, root);
    expect(ok.issues).toEqual([]);
    const real = realpathSync(env);
    expect(harborOf(ok.benchmark?.tasks[0])?.compose?.sidecars[0]?.mounts).toEqual([
      {
        volume: expect.stringMatching(/^bind-[0-9a-f]{12}$/),
        target: '/srv',
        readOnly: true,
        source: path.join(real, 'web'),
        file: false,
      },
      {
        volume: expect.stringMatching(/^bind-[0-9a-f]{12}$/),
        target: '/etc/df',
        readOnly: false,
        source: path.join(real, 'Dockerfile'),
        file: true,
      },
    ]);
    expect(harborOf(ok.benchmark?.tasks[0])?.compose?.volumes).toEqual([]);
  });

  it('needs a main service, a sidecar image or build inside environment/, known services and a healthcheck to wait for', () => {
    expect(issuesOf(`services:\n${WEB}`).join('\n')).toContain(
      `${COMPOSE}:services: needs a "main" service: it is the agent's environment`,
    );
    const issues = issuesOf(
      'services:\n  main:\n    command: ["sleep", "1"]\n    depends_on: { web: { condition: service_healthy } }\n' +
        `${WEB}  bare: {}\n  out:\n    build: ../../elsewhere\n  loop:\n    image: x\n    depends_on: [loop]\n  ghost:\n    image: x\n    depends_on: [nowhere]\n`,
    ).join('\n');
    expect(issues).toContain(`${COMPOSE}:services.main.command: "command" cannot be set on main`);
    expect(issues).toContain(`${COMPOSE}:services.bare: needs "image" (a local image: nothing is pulled) or "build"`);
    expect(issues).toContain(`${COMPOSE}:services.out.build: build context "../../elsewhere" is outside`);
    expect(issues).toContain(`${COMPOSE}:services.loop.depends_on: depends_on forms a cycle: loop -> loop`);
    expect(issues).toContain(`${COMPOSE}:services.ghost.depends_on.nowhere: "nowhere" is not a service of this file`);
    expect(issues).toContain(
      `${COMPOSE}:services.main.depends_on.web.condition: "web" has no healthcheck, so it can never be service_healthy`,
    );
  });

  it('refuses YAML that does not parse, $VAR outside environment, and a .yml name Harbor would not read', () => {
    expect(issuesOf('services: [\n').join('\n')).toContain(`${COMPOSE}:(file): is not valid YAML`);
    expect(issuesOf(`services:\n  main: {}\n${WEB}    command: echo $HOME\n`).join('\n')).toContain(
      `${COMPOSE}:services.web.command: "echo $HOME": assay interpolates \${VAR} only in environment values`,
    );
    const root = datasetWith(null);
    cpSync(path.join(root, COMPOSE), path.join(root, COMPOSE.replace('.yaml', '.yml')));
    expect(inspectBenchmark(`harbor:${root}`, root).issues.map(formatIssue).join('\n')).toContain(
      'docker-compose.yml:(file): Harbor reads environment/docker-compose.yaml only',
    );
  });

  it("refuses a verifier network_mode other than the agent's: one trial network serves both", () => {
    const root = datasetWith(null);
    const toml = path.join(root, 'fetch-token/task.toml');
    writeFileSync(toml, readFileSync(toml, 'utf8').replace('[verifier]\n', '[verifier]\nnetwork_mode = "public"\n'));
    expect(inspectBenchmark(`harbor:${root}`, root).issues.map(formatIssue)).toEqual([
      'fetch-token/task.toml:verifier.network_mode: must be the agent\'s network_mode on a task with environment/docker-compose.yaml: one trial network (internal for "no-network") serves the agent, the verifier and the sidecars',
    ]);
  });

  it('accepts a compose task with [[steps]]: one set of sidecars serves all its steps', () => {
    const root = datasetWith(null);
    const task = path.join(root, 'fetch-token');
    const toml = path.join(task, 'task.toml');
    writeFileSync(toml, `${readFileSync(toml, 'utf8')}\n[[steps]]\nname = "one"\n`);
    mkdirSync(path.join(task, 'steps/one'), { recursive: true });
    writeFileSync(path.join(task, 'steps/one/instruction.md'), 'Fetch the token.\n');
    expect(inspectBenchmark(`harbor:${root}`, root).issues.map(formatIssue)).toEqual([]);
    // A step's own network policy is taken where it comes to the task's; another mode is not (yet): the one
    // trial network was made for step 1.
    writeFileSync(toml, `${readFileSync(toml, 'utf8')}[steps.agent]\nnetwork_mode = "no-network"\n`);
    expect(inspectBenchmark(`harbor:${root}`, root).issues.map(formatIssue)).toEqual([]);
    writeFileSync(
      toml,
      readFileSync(toml, 'utf8').replace(
        /\[steps\.agent\]\nnetwork_mode = "no-network"/,
        '[steps.agent]\nnetwork_mode = "public"',
      ),
    );
    expect(inspectBenchmark(`harbor:${root}`, root).issues.map(formatIssue)).toEqual([
      "fetch-token/task.toml:steps[0].agent.network_mode: must be the task's agent network_mode on a task with environment/docker-compose.yaml (not supported yet per step): one trial network serves every step and the sidecars",
    ]);
  });

  it('accepts a model CLI on a compose task (it reaches the proxy through its relay, on the trial network)', () => {
    const root = datasetWith(null);
    const jobFile = path.join(path.dirname(root), 'job.yaml');
    writeFileSync(
      jobFile,
      `schema: assay.job/v1\nid: c\nbenchmark: harbor:./dataset\nresults: ./results\nsystems:\n  - { id: o, harness: oracle }\n  - { id: n, harness: nop }\n` +
        `  - { id: x, harness: codex, model: gpt-5, settings: { apiKeyEnv: PATH } }\n`,
    );
    const { issues } = inspectJob(jobFile, { repoRoot: ROOT, cwd: path.dirname(root), machine: false });
    expect(issues.map(formatIssue)).toEqual([]);
  });
});
