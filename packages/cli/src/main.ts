#!/usr/bin/env node
// The assay CLI. Every command has --help; errors are one sentence (plus a list
// of problems where there are several) and a non-zero exit code.
import { Command } from 'commander';
import { CONCURRENCY_BOUNDS } from '@assay/core/bounds';
import { CliError } from './cli-error.js';
import { lazyAction } from './lazy-action.js';

// Each command's module (and what it pulls in) is imported by its action only.
const infra = () => import('./commands/infra-commands.js');
const reports = () => import('./commands/report-commands.js');

const program = new Command('assay')
  .description('Run agent benchmarks of professional deliverables durably on Temporal and Docker.')
  .showHelpAfterError();

program
  .command('setup')
  .description(
    'install what is missing (pnpm deps, Temporal CLI venv, Docker engine, base and agent images, LibreOffice)',
  )
  .option('--no-document-tools', 'skip LibreOffice and poppler')
  .option('--chromium', 'also install Chromium (for report tests)')
  .option('--temporal-server', 'also build temporal-server and temporal-sql-tool (Go) and install PostgreSQL')
  .option('--s3-server', 'also build versitygw, the local S3 server the S3 results store is tested against (Go)')
  .action(lazyAction(infra, 'setupCommand'));

const server = program
  .command('server')
  .description('the local Temporal server: the dev server on SQLite, or --postgres for a production server');
server
  .command('start')
  .description('start it (no-op when running)')
  .option('--postgres', 'the multi-service temporal-server on PostgreSQL (built from the Go module proxy once)')
  .option('--port <n>', 'frontend gRPC port (--postgres; default 7233)')
  .option('--postgres-port <n>', 'PostgreSQL port (--postgres; default 5432)')
  .option('--listen <ip>', "this machine's IPv4 address to serve other machines on (--postgres; default 127.0.0.1)")
  .action(lazyAction(infra, 'serverStartCommand'));
server
  .command('stop')
  .description('stop it')
  .option('--postgres', 'the PostgreSQL-backed server (and its PostgreSQL)')
  .option('--port <n>', 'frontend gRPC port (--postgres; default 7233)')
  .option('--postgres-port <n>', 'PostgreSQL port (--postgres; default 5432)')
  .action(lazyAction(infra, 'serverStopCommand'));
server
  .command('status')
  .description('is it running, and where')
  .option('--json', 'machine-readable output')
  .action(lazyAction(infra, 'serverStatusCommand'));

program
  .command('worker')
  .description('run a worker until interrupted')
  .option('--concurrency <n>', 'activities at once on this worker')
  .option('--host-id <id>', "this machine's host id (default ASSAY_HOST_ID, else the host name)")
  .option('--work-root <dir>', 'work folders of trials under DIR (default ASSAY_WORK_ROOT, else the results folder)')
  .action(lazyAction(() => import('./commands/worker-command.js'), 'workerCommand'));

program
  .command('run')
  .description('run (or resume) a job: systems x tasks x trials')
  .argument('<job>', 'job YAML file')
  .option('--no-worker', 'do not run an embedded worker (use "assay worker" elsewhere)')
  .option('--detach', 'submit and return without waiting')
  .option('--heartbeat-seconds <n>', 'agent heartbeat timeout (default 30)')
  .option(
    '--retry <kinds>',
    'run these again as new attempts, the old records kept under attempts/: infra-failed (always), agent-failed',
  )
  .option(
    '--accept-changes',
    'go on although tasks or projects changed since the job ran: their new version is recorded, and trials of the two versions are shown apart',
  )
  .option('--json', 'machine-readable output')
  .action(lazyAction(() => import('./commands/run-command.js'), 'runCommand'));

program
  .command('status')
  .description('progress and summary of a job')
  .argument('<job>', 'job YAML file')
  .option('--wait', 'wait for the job to finish first')
  .option('--json', 'machine-readable output')
  .option('--prefer <policy>', "where people's reviews and the machine disagree: judge (default) or reviews")
  .action(lazyAction(() => import('./commands/status-command.js'), 'statusCommand'));

program
  .command('validate')
  .description('check a benchmark folder or a job file; prints every problem as file:field: reason')
  .argument('<path>', 'benchmark folder or job YAML')
  .option('--json', 'machine-readable output')
  .action(lazyAction(() => import('./commands/validate-command.js'), 'validateCommand'));

program
  .command('feedback')
  .description('inject scripted client feedback into a running project (acknowledged Temporal update)')
  .argument('<job>', 'job YAML file')
  .requiredOption('--system <id>', 'system id')
  .requiredOption('--project <id>', 'project id')
  .option('--trial <n>', 'trial number', '1')
  .requiredOption('--file <file>', 'feedback text file; released under /workspace/inputs/feedback/')
  .option('--name <name>', 'file name in the workspace (default: the file name)')
  .option('--json', 'machine-readable output')
  .action(lazyAction(() => import('./commands/feedback-command.js'), 'feedbackCommand'));

const collect = (value: string, previous: string[] = []): string[] => [...previous, value];

program
  .command('judge')
  .description("re-evaluate a job's stored submissions under another judge setup, without re-running agents")
  .argument('<job>', 'job YAML file')
  .requiredOption(
    '--judge <file>',
    'judge setup YAML (a bare setup or a document with a judge: key); repeatable: the setups share one evidence build',
    collect,
  )
  .option('--name <name>', 'folder name under <results>/judges/ (default: the setup file name; one setup only)')
  .option('--concurrency <n>', 'trials and projects judged at once (default 4)')
  .option('--accept-changes', 'judge although tasks or projects changed since their records were made')
  .option(
    '--batch',
    "send the judge's turns through the provider's batch API (about half price, results within 24 h), durably on Temporal; run again to attach",
  )
  .option('--poll-seconds <s>', 'with --batch: seconds between polls of an open batch (default 30)')
  .option('--no-worker', 'with --batch: do not run an embedded worker (workers elsewhere serve the queue)')
  .option('--json', 'machine-readable output')
  .action(lazyAction(() => import('./commands/judge-command.js'), 'judgeCommand'));

const control = () => import('./commands/control-commands.js');
program
  .command('pause')
  .description('stop starting trials and subtasks (running agents finish); an acknowledged Temporal update')
  .argument('<job>', 'job YAML file')
  .option(
    '--now',
    'also stop running agents; on resume task trials run again from a clean workspace, project subtasks from their last checkpoint',
  )
  .option('--reason <text>', 'why (shown by status and in the Temporal UI memo)')
  .option('--json', 'machine-readable output')
  .action(lazyAction(control, 'pauseCommand'));
program
  .command('resume')
  .description('start trials and subtasks again after pause')
  .argument('<job>', 'job YAML file')
  .option('--json', 'machine-readable output')
  .action(lazyAction(control, 'resumeCommand'));
program
  .command('cancel')
  .description(
    'stop the job: running units get a grace period, then are stopped; unfinished ones recorded as cancelled',
  )
  .argument('<job>', 'job YAML file')
  .option('--grace <seconds>', 'seconds running units may still finish (default 60)')
  .option('--json', 'machine-readable output')
  .action(lazyAction(control, 'cancelCommand'));
program
  .command('set-concurrency')
  .description("change a running job's units at once (lanes grow or shrink live)")
  .argument('<job>', 'job YAML file')
  .argument('<n>', `units at once, ${CONCURRENCY_BOUNDS.min}-${CONCURRENCY_BOUNDS.max}`)
  .option('--json', 'machine-readable output')
  .action(lazyAction(control, 'setConcurrencyCommand'));

program
  .command('report')
  .description("the papers' tables and figures from job results: HTML, Jupyter notebook, SVG/PNG, CSV/Markdown/LaTeX")
  .argument('<jobs...>', 'results folders or job YAML files')
  .requiredOption('--out <dir>', 'output folder')
  .option('--seed <n>', 'bootstrap seed (reports are reproducible)')
  .option('--resamples <n>', 'bootstrap resamples (default 10000)')
  .option('--specialized <system>', 'a specialized system for the general-vs-specialized table (repeatable)', collect)
  .option('--labels <file>', 'expert labels CSV/JSONL for judge agreement (repeatable)', collect)
  .option('--prefer <policy>', 'scores with reviews, where people and the machine disagree: judge (default) or reviews')
  .option('--json', 'print the analysis as JSON')
  .action(lazyAction(reports, 'reportCommand'));

const reviews = program.command('reviews').description("people's reviews of items: label files in and out");
reviews
  .command('import')
  .description('store the labels of a label file (CSV: system,unit,trial,item[,scope],label) as reviews')
  .argument('<job>', 'job YAML file')
  .argument('<file>', 'label file')
  .requiredOption('--reviewer <name>', 'whose labels they are')
  .action(lazyAction(() => import('./commands/reviews-command.js'), 'reviewsImportCommand'));
reviews
  .command('export')
  .description('the labels the reviews give (as assay report uses them), as a label file')
  .argument('<job>', 'job YAML file')
  .option('--out <file>', 'write to FILE (default: standard output)')
  .action(lazyAction(() => import('./commands/reviews-command.js'), 'reviewsExportCommand'));

program
  .command('compare')
  .description(
    'two runs side by side: what differs in what produced them, the paired score difference per system and task, flipped items',
  )
  .argument('<a>', 'results folder or job YAML (or a judges/<name> folder)')
  .argument('<b>', 'results folder or job YAML (or a judges/<name> folder)')
  .option('--seed <n>', 'bootstrap seed')
  .option('--resamples <n>', 'bootstrap resamples (default 10000)')
  .option('--flips <n>', 'flipped items to print (default 20)')
  .option('--json', 'the whole comparison as JSON')
  .action(lazyAction(() => import('./commands/compare-command.js'), 'compareCommand'));

program
  .command('view')
  .description('browse results in a local web app on 127.0.0.1: leaderboard, trials with evidence, project timelines')
  .argument('[results...]', 'results folders or job YAML files (default: every folder under .assay/results/)')
  .option('--port <n>', 'port (default: any free port)')
  .option(
    '--host <addr>',
    'address to listen on (default 127.0.0.1); any other than 127.0.0.1, ::1, localhost needs a token',
  )
  .option(
    '--token <token>',
    'every request must carry it, 16+ characters (default: ASSAY_VIEW_TOKEN; off loopback, generated)',
  )
  .option('--reviewer <name>', 'the reviewer name the labelling page (#/review/<source>) starts with')
  .option('--json', 'print the URL as JSON')
  .action(lazyAction(() => import('./commands/view-command.js'), 'viewCommand'));

program
  .command('reproduce')
  .description("recompute what the papers' published tables imply and print it beside the published values")
  .option('--out <dir>', 'also write the figures of the published data as a report')
  .option('--published <dir>', 'published CSVs (default analysis/published in the repository, or ASSAY_PUBLISHED_DIR)')
  .option('--json', 'machine-readable output')
  .action(lazyAction(reports, 'reproduceCommand'));

program
  .command('mock-llm')
  .description('the scripted model server (OpenAI Chat/Responses, Anthropic Messages, Gemini) on 127.0.0.1')
  .option('--port <n>', 'port (default: any free port)')
  .option('--script <file>', 'YAML/JSON script of rules (see packages/mock-llm/README.md)')
  .option('--json', 'print the URL as JSON')
  .action(lazyAction(() => import('./commands/mock-llm-command.js'), 'mockLlmCommand'));

// A script that asked for --json gets JSON on stdout for a failure too (the human lines stay on
// stderr), unless the command already printed its JSON: stdout then holds one document, not two.
const wantsJson = process.argv.slice(2).includes('--json');
let printed = false;
const write = process.stdout.write.bind(process.stdout);
process.stdout.write = ((...args: Parameters<typeof write>) => {
  printed = true;
  return write(...args);
}) as typeof process.stdout.write;
const printJsonError = (error: string, issues: string[] = []): void => {
  if (wantsJson && !printed) write(`${JSON.stringify({ error, issues }, null, 2)}\n`);
};

try {
  await program.parseAsync(process.argv);
} catch (err) {
  if (err instanceof CliError) {
    for (const line of err.details) console.error(line);
    console.error(`assay: ${err.message}`);
    printJsonError(err.message, err.details);
    process.exit(err.exitCode);
  }
  const message = err instanceof Error ? err.message : String(err);
  const first = message.split('\n')[0] ?? '';
  console.error(`assay: ${first}`);
  printJsonError(first);
  if (process.env.ASSAY_DEBUG) console.error(err);
  process.exit(1);
}
