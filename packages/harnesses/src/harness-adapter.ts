// The shape every harness adapter fills in: pure data plus pure functions, so the
// command line, config files and usage parser of each CLI can be unit-tested
// without Docker, and the container plan is assembled in one place.
import type { ModelApi, ModelHarness, Usage } from '@assay/core';

/** Wire protocol a CLI speaks to its model (decides the proxy's key header and usage parser); listed in core. */
export type { ModelApi };

/** Where the CLI comes from; the version is exact and recorded in the image tag's context. */
export interface HarnessInstall {
  registry: 'npm' | 'pypi';
  package: string;
  version: string;
  /** Image the CLI is layered on: the node22 image (npm CLIs) or the base image (Python CLIs). */
  on: 'node22' | 'base';
  /** npm CLIs: the command they install (checked with `--version` at build time). */
  bin?: string;
}

/** The session folder's fixed path in the container (the contract every adapter relies on). */
export const SESSION_DIR = '/session';

export interface AdapterContext {
  /** Model name as the provider knows it. */
  model: string;
  /** Base URL the CLI must use (the worker's key-injecting proxy, seen from the container). */
  baseUrl: string;
  /** A dummy key: the real one is added by the proxy and never enters the container. */
  apiKey: string;
  /** Free-form system settings from the job file. */
  settings: Record<string, unknown>;
  maxSteps: number;
  timeLimitSeconds: number;
  /** The session to continue, where the CLI resumes one by its id (hermes, on a Harbor step that resumes). */
  resumeSessionId?: string;
}

/** A file the adapter seeds into the session folder (relative to it) before the CLI runs. */
export interface SessionFile {
  path: string;
  content: string;
  /** Write only when absent (state the CLI may update itself), else always overwrite. */
  keepExisting?: boolean;
}

export interface UsageInput {
  /** This run's stdout + stderr, as Docker returned it. */
  logs: string;
  /** Host path of the session folder (after the run). */
  sessionDir: string;
  /** Session-folder files present before this run started, with their sizes (to read only what this run appended). */
  before?: Record<string, number>;
}

export interface HarnessAdapter {
  name: ModelHarness;
  api: ModelApi;
  install: HarnessInstall;
  /** Folder under packages/harnesses/images/. */
  imageDir: string;
  /** CLI executable name inside the image. */
  bin: string;
  /** Env for the CLI: model, base URL, dummy key, telemetry and auto-update off. */
  env(ctx: AdapterContext): Record<string, string>;
  /** Config files seeded into the session folder (mounted at /session, which is also HOME). */
  sessionFiles(ctx: AdapterContext): SessionFile[];
  /** argv for a fresh session; `{prompt}` stands for the instruction text. */
  freshArgs(ctx: AdapterContext): string[];
  /** argv continuing the previous session in the same session folder. */
  resumeArgs(ctx: AdapterContext): string[];
  /** A POSIX shell test that is true when the session folder holds a session to continue. */
  resumeTest: string;
  /**
   * Set when a resume that must happen (a Harbor step that resumes) needs the previous run's session id: the
   * error it ends with when there is none, as Harbor's agent for the CLI raises it.
   */
  resumeNeedsSessionId?: string;
  /** Set when such a resume must find a session in the folder (`resumeTest`): the error it ends with otherwise. */
  resumeNeedsSession?: string;
  /** Shell run before / after the CLI (e.g. to print usage totals kept in a database); the CLI's exit code is kept. */
  prologue?: string;
  epilogue?: string;
  parseUsage(input: UsageInput): Usage | null;
  /** The CLI's own session id, when its output or files name one (to verify resumption). */
  sessionId(input: UsageInput): string | null;
}
