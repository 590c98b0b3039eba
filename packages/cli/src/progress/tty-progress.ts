// The terminal view: a bar for the job and one per system (cli-progress redraws them in place), a
// line of tokens and cost, job control when present; failures and other lines are printed above.
import cliProgress from 'cli-progress';
import type { ProgressView } from './progress-model.js';
import { renderControl, renderCounts, renderEndpoints, renderRate, renderUsage } from './render-progress.js';

export interface TtyProgress {
  update(view: ProgressView): void;
  /** A line above the bars (a failure, a worker message). */
  log(line: string): void;
  stop(): void;
}

export function createTtyProgress(stream: NodeJS.WriteStream): TtyProgress {
  const multibar = new cliProgress.MultiBar(
    {
      stream,
      format: '{label} {bar} {info}',
      barsize: 24,
      hideCursor: true,
      clearOnComplete: false,
      stopOnComplete: false,
      // Redraw on our updates and on a timer (elapsed time moves while nothing finishes).
      fps: 2,
      linewrap: false,
      emptyOnZero: true,
    },
    cliProgress.Presets.shades_classic,
  );
  const textFormat = { format: '{info}' };
  let bars: { job: cliProgress.SingleBar; systems: cliProgress.SingleBar[]; usage: cliProgress.SingleBar } | null =
    null;
  let control: cliProgress.SingleBar | null = null;

  const create = (view: ProgressView) => {
    const width = Math.max(3, ...view.systems.map((s) => s.id.length));
    const label = (s: string) => s.padEnd(width);
    return {
      job: multibar.create(view.total, 0, { label: label('job'), info: '' }),
      systems: view.systems.map((s) => multibar.create(s.total, 0, { label: label(s.id), info: '' })),
      usage: multibar.create(1, 0, { info: '' }, textFormat),
    };
  };

  return {
    update(view) {
      bars ??= create(view);
      bars.job.update(view.done, { info: `${renderCounts(view)} | ${renderRate(view)}` });
      view.systems.forEach((s, i) => bars?.systems[i]?.update(s.done, { info: renderCounts(s) }));
      bars.usage.update(0, { info: renderUsage(view.usage) });
      const c = [renderControl(view.control), ...renderEndpoints(view.endpoints)].filter(Boolean).join(' | ');
      if (c) {
        control ??= multibar.create(1, 0, { info: '' }, textFormat);
        control.update(0, { info: c });
      } else control?.update(0, { info: '' });
    },
    log(line) {
      // Before the first bar there is nothing to draw above; cli-progress would hold the line.
      if (!bars) stream.write(`${line}\n`);
      else multibar.log(`${line}\n`);
    },
    stop() {
      // A last redraw: stop() alone would drop lines logged since the previous frame.
      if (bars) multibar.update();
      multibar.stop();
    },
  };
}
