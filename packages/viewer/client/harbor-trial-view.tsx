// A trial of a Harbor job folder: the trial as Harbor named it, the exception it raised (type, message and the
// traceback from result.json), each phase's timing as Harbor recorded it, a multi-step trial's steps (exception,
// timings, ATIF trajectory each) and the trial's trial.log and exception.txt.
import type { TrialDetail } from './api.js';
import { TranscriptView } from './transcript-view.js';

type HarborTrial = NonNullable<TrialDetail['harborTrial']>;
type HarborStep = NonNullable<HarborTrial['steps']>[number];
type HarborException = NonNullable<HarborTrial['exception']>;

const PHASES = ['environment_setup', 'agent_setup', 'agent_execution', 'verifier'] as const;

function seconds(t: { started_at?: string | null; finished_at?: string | null } | null): string {
  if (!t?.started_at || !t.finished_at) return '—';
  return `${((Date.parse(t.finished_at) - Date.parse(t.started_at)) / 1000).toFixed(1)} s`;
}

export function HarborTrialView({ trial }: { trial: HarborTrial }) {
  const e = trial.exception;
  return (
    <section class="harbor-trial" data-testid="harbor-trial">
      <h2>Harbor trial {trial.trialName}</h2>
      <p class="muted">
        agent version {trial.agentVersion} · task checksum {trial.taskChecksum.slice(0, 12)}
      </p>
      {e && <ExceptionView e={e} testId="harbor-exception" />}
      <table class="harbor-timings">
        <thead>
          <tr>
            <th>phase</th>
            <th>started</th>
            <th>finished</th>
            <th>took</th>
          </tr>
        </thead>
        <tbody>
          {PHASES.map((p) => {
            const t = trial.timings[p];
            return (
              <tr key={p}>
                <td>{p.replace('_', ' ')}</td>
                <td>{t?.started_at ?? '—'}</td>
                <td>{t?.finished_at ?? '—'}</td>
                <td>{seconds(t)}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
      {trial.steps?.map((step) => (
        <StepView key={step.name} step={step} />
      ))}
      <LogsView logs={trial.logs} />
    </section>
  );
}

function ExceptionView({ e, testId }: { e: HarborException; testId: string }) {
  return (
    <div class="bad" data-testid={testId}>
      <p>
        raised {e.exception_type}: {e.exception_message} <span class="muted">at {e.occurred_at}</span>
      </p>
      <details>
        <summary>traceback</summary>
        <pre>{e.exception_traceback}</pre>
      </details>
    </div>
  );
}

/** One step as Harbor recorded it: its exception, how long its agent and verifier took, its trajectory. */
function StepView({ step }: { step: HarborStep }) {
  return (
    <section class="harbor-step" data-testid="harbor-step">
      <h3>step {step.name}</h3>
      <p class="muted">
        agent {seconds(step.timings.agent_execution)} · verifier {seconds(step.timings.verifier)}
      </p>
      {step.exception && <ExceptionView e={step.exception} testId="harbor-step-exception" />}
      <TranscriptView transcript={step.transcript} />
    </section>
  );
}

/** trial.log and exception.txt as the server read them: whole, or head and tail of a large file. */
function LogsView({ logs }: { logs: HarborTrial['logs'] }) {
  return (
    <section class="harbor-logs">
      <h3>Logs</h3>
      {logs.map((log) =>
        log.present ? (
          <details key={log.name} data-testid="harbor-log">
            <summary>
              {log.name} ({log.size} bytes{log.omittedBytes ? `, ${log.omittedBytes} not shown` : ''})
            </summary>
            <pre>{log.text}</pre>
          </details>
        ) : (
          <p key={log.name} class="muted">
            {log.note ?? `no ${log.name}`}
          </p>
        ),
      )}
    </section>
  );
}
