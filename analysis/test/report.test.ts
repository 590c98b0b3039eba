// Reports end to end: synthetic job results on disk -> writeReport / writeReproduceReport
// -> every file checked; the HTML opened from file:// in headless Debian Chromium with
// all network refused (every chart must render, no console error, screenshot saved);
// the notebook validated by Python's nbformat.
import { copyFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../src/published-data.js';
import { writeReport } from '../src/report/write-report.js';
import type { ReportResult } from '../src/report/write-report.js';
import { writeReproduceReport } from '../src/report/write-reproduce-report.js';
import type { WrittenReport } from '../src/report/write-document.js';
import { writeSyntheticResults } from './fixtures/synthetic-results.js';
import { ensureScipyVenv, runPythonJson } from './helpers/python-venv.js';
import type { VenvStatus } from './helpers/python-venv.js';

const CHROMIUM = process.env.ASSAY_CHROMIUM ?? '/usr/bin/chromium';
const ARTIFACTS = path.join(REPO_ROOT, '.assay', 'test-artifacts', 'analysis');

let work: string;
let report: ReportResult;
let reproduce: WrittenReport;
let venv: VenvStatus;

beforeAll(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'assay-report-'));
  const job = path.join(work, 'job');
  await writeSyntheticResults(job, {
    systems: [
      { id: 'gpt-nanobot', harness: 'nanobot', model: 'gpt', skill: 0.15 },
      { id: 'gpt-hermes', harness: 'hermes', model: 'gpt', skill: 0.12 },
      { id: 'glm-nanobot', harness: 'nanobot', model: 'glm', skill: 0 },
      { id: 'glm-hermes', harness: 'hermes', model: 'glm', skill: 0.02 },
      { id: 'specialist', harness: 'command', model: 'spec', skill: 0.25 },
    ],
    tasks: 24,
    trials: 3,
    unjudged: 0.03,
    projects: 4,
    checkpoints: 5,
  });
  // Expert labels for a few task items and final criteria (agreement sections).
  const labels = ['system,unit,trial,item,label,scope'];
  for (const item of ['i0', 'i1', 'i2', 'i3'])
    labels.push(`gpt-nanobot,task-001,1,${item},1,`, `glm-hermes,task-002,2,${item},0,`);
  for (const c of ['c0', 'c1', 'c4', 'c8'])
    labels.push(`specialist,p01,1,${c},met,final`, `glm-nanobot,p02,1,${c},not-met,final`);
  await writeFile(path.join(job, 'human-labels.csv'), `${labels.join('\n')}\n`);
  const [r, p, v] = await Promise.all([
    writeReport({
      jobDirs: [job],
      outDir: path.join(work, 'report'),
      specializedSystems: ['specialist'],
      resamples: 2000,
    }),
    writeReproduceReport({ outDir: path.join(work, 'reproduce') }),
    ensureScipyVenv(),
  ]);
  report = r;
  reproduce = p;
  venv = v;
}, 600_000);

afterAll(async () => {
  if (work) await rm(work, { recursive: true, force: true });
});

function pngSize(file: string): { width: number; height: number } {
  const b = readFileSync(file);
  expect(b.subarray(0, 8).toString('hex')).toBe('89504e470d0a1a0a');
  return { width: b.readUInt32BE(16), height: b.readUInt32BE(20) };
}

describe('report files', () => {
  it('writes every figure as SVG with embedded fonts, PNG and Vega-Lite JSON', () => {
    const ids = report.figures.map((f) => f.id);
    for (const id of [
      'leaderboard',
      'domains',
      'dimensions',
      'importance',
      'format-compliance',
      'oracle',
      'harness-swap',
      'final-scores',
      'process-final-gap',
      'process-vs-final',
      'resources-vs-score',
      'quality-profile',
      'target-profile',
      'trajectories',
    ]) {
      expect(ids).toContain(id);
    }
    for (const f of [...report.figures, ...reproduce.figures]) {
      const svg = readFileSync(f.svg, 'utf8');
      expect(svg.startsWith('<svg')).toBe(true);
      expect(svg).toMatch(
        /@font-face\{font-family:'DejaVu Sans';font-weight:normal;src:url\(data:font\/woff2;base64,[A-Za-z0-9+/=]{1000,}\)/,
      );
      expect(svg).toContain('font-family="DejaVu Sans"');
      const { width, height } = pngSize(f.png);
      expect(width).toBeGreaterThan(200);
      expect(height).toBeGreaterThan(100);
      expect(JSON.parse(readFileSync(f.spec, 'utf8')).$schema).toMatch(/vega-lite\/v5/);
    }
  });

  it('writes every table as CSV, Markdown and LaTeX booktabs', () => {
    const lb = report.tables.find((t) => t.id === 'leaderboard')!;
    const csv = readFileSync(lb.csv, 'utf8').trim().split('\n');
    expect(csv[0]).toMatch(
      /^system,model,harness,tasks,trials,scored,unjudged,mean,ci_low,ci_high,bca_low,bca_high,success_rate/,
    );
    expect(csv).toHaveLength(6);
    expect(readFileSync(lb.markdown, 'utf8')).toMatch(/\| system \| tasks \| trials \|[\s\S]*\| ---: \|/);
    const tex = readFileSync(lb.latex, 'utf8');
    for (const s of [
      '\\begin{tabular}',
      '\\toprule',
      '\\midrule',
      '\\bottomrule',
      '\\label{tab:leaderboard}',
      'success \\%',
    ])
      expect(tex).toContain(s);
    const swap = report.tables.find((t) => t.id === 'harness-swap')!;
    expect(readFileSync(swap.csv, 'utf8').split('\n')[0]).toBe('model,hermes,nanobot,max_min');
    const profile = readFileSync(report.tables.find((t) => t.id === 'target-profile')!.csv, 'utf8');
    expect(profile).toContain('ok');
    expect(report.analysis.tasks!.generalVsSpecialized).not.toBeNull();
    for (const id of [
      'agreement-tasks',
      'agreement-projects',
      'below-line-by-project',
      'pairwise',
      'general-vs-specialized',
    ])
      expect(report.tables.map((t) => t.id)).toContain(id);
    const agreement = readFileSync(report.tables.find((t) => t.id === 'agreement-tasks')!.csv, 'utf8').split('\n');
    expect(agreement[1]).toMatch(/^synthetic-job,task,all,all,8,5,62.5,0.25,/);
    const manifest = JSON.parse(readFileSync(report.manifest, 'utf8'));
    expect(manifest.figures).toHaveLength(report.figures.length);
  });

  it('the reproduce report carries the check table with every value matched', () => {
    const csv = readFileSync(reproduce.tables.find((t) => t.id === 'reproduce')!.csv, 'utf8')
      .trim()
      .split('\n');
    expect(csv.length).toBeGreaterThan(60);
    expect(csv.slice(1).every((l) => /,true,/.test(l))).toBe(true);
  });
});

describe('the reproduce report', () => {
  it('holds its sections, captions and figures in a fixed order', () => {
    const notebook = JSON.parse(readFileSync(reproduce.notebook, 'utf8')) as {
      cells: { cell_type: string; source: string | string[] }[];
    };
    // Markdown cells whole; a code cell by its first line (title and caption), the rest is data.
    const outline = notebook.cells.map((c) => {
      const text = (Array.isArray(c.source) ? c.source.join('') : c.source).replaceAll(REPO_ROOT, '<repo>');
      return c.cell_type === 'markdown' ? text : `[code] ${text.split('\n')[0]}`;
    });
    expect(outline).toMatchInlineSnapshot(`
      [
        "# assay reproduce: published StartupBench and DeliverBench figures

      - **published data:** <repo>/analysis/published
      - **matched:** 68 of 68",
        "## Reproducing the published figures

      Every value below is printed in one of the two papers and is implied by the published per-cell data in \`<repo>/analysis/published\`.
      It is recomputed here with the same functions that analyse a user's own runs, then rounded to the printed precision.
      **68 of 68** values match.

      Bootstrap CIs, oracle best-of-k, checkpoint trajectories, resources and the DeliverBench profiles need per-trial
      records, which the papers do not publish; they appear in reports on your own runs (\`assay report\`).",
        "[code] # Published vs recomputed: Recomputed from the published CSVs; match = equal at the printed precision.",
        "## StartupBench",
        "[code] # Leaderboard (Fig. 3): Average score and success rate from Table 3 Overall. The published data has no per-trial scores, so no CI bars are drawn here.",
        "[code] # Average score by domain (Table 3): Importance-weighted mean task score per domain.",
        "[code] # Success rate by domain (Table 3): Share of runs scoring at least 90, pooled over three runs (%).",
        "[code] # Rubric dimensions (Fig. 4): Importance-weighted pass rate per rubric dimension (%).",
        "[code] # Importance levels (Table 4): Satisfaction rate per importance level.",
        "[code] # Output-format compliance (Table 5): On the 56 tasks with explicit output-file requirements.",
        "[code] # Harness swap (Table 6): Recomputed Average row and Max–Min from the published cells.",
        "[code] # Harness swap (Table 6): Kendall tau between harness rankings: Hermes/Claude Code 1.00, Hermes/Nanobot 1.00, Claude Code/Nanobot 1.00.",
        "[code] # General vs specialized (Table 7): All-runs average, oracle best-of-three and the specialized agents.",
        "## DeliverBench

      69 of 77 system–project outcomes lie below the equal-score line (final < process).",
        "[code] # Final-delivery and process means (Table 5 Mean rows): Projects weighted equally; gap = process − final.",
        "[code] # Final-delivery scores (Fig. 5a): Mean over 11 projects.",
        "[code] # Process–final gap (Fig. 5b): Process mean minus final-delivery mean.",
        "[code] # Process vs final (Fig. 5c): One point per system–project outcome; the dashed line is final = process.",
      ]
    `);
  });

  it('lists every file in its manifest, relative to the report folder', () => {
    const manifest = JSON.parse(readFileSync(reproduce.manifest, 'utf8').replaceAll(REPO_ROOT, '<repo>')) as {
      figures: Record<string, string>[];
      tables: Record<string, string>[];
    };
    const files = (entries: Record<string, string>[]): string[] => entries.map((e) => Object.values(e).join(' | '));
    expect({ ...manifest, figures: files(manifest.figures), tables: files(manifest.tables) }).toMatchInlineSnapshot(`
      {
        "figures": [
          "startup-leaderboard | Leaderboard (Fig. 3) | figures/startup-leaderboard.svg | figures/startup-leaderboard.png | figures/startup-leaderboard.vl.json",
          "startup-domains | Average score by domain (Table 3) | figures/startup-domains.svg | figures/startup-domains.png | figures/startup-domains.vl.json",
          "startup-domain-success | Success rate by domain (Table 3) | figures/startup-domain-success.svg | figures/startup-domain-success.png | figures/startup-domain-success.vl.json",
          "startup-dimensions | Rubric dimensions (Fig. 4) | figures/startup-dimensions.svg | figures/startup-dimensions.png | figures/startup-dimensions.vl.json",
          "startup-importance | Importance levels (Table 4) | figures/startup-importance.svg | figures/startup-importance.png | figures/startup-importance.vl.json",
          "startup-format | Output-format compliance (Table 5) | figures/startup-format.svg | figures/startup-format.png | figures/startup-format.vl.json",
          "startup-harness-swap | Harness swap (Table 6) | figures/startup-harness-swap.svg | figures/startup-harness-swap.png | figures/startup-harness-swap.vl.json",
          "startup-general-vs-specialized | General vs specialized (Table 7) | figures/startup-general-vs-specialized.svg | figures/startup-general-vs-specialized.png | figures/startup-general-vs-specialized.vl.json",
          "deliver-final | Final-delivery scores (Fig. 5a) | figures/deliver-final.svg | figures/deliver-final.png | figures/deliver-final.vl.json",
          "deliver-gap | Process–final gap (Fig. 5b) | figures/deliver-gap.svg | figures/deliver-gap.png | figures/deliver-gap.vl.json",
          "deliver-scatter | Process vs final (Fig. 5c) | figures/deliver-scatter.svg | figures/deliver-scatter.png | figures/deliver-scatter.vl.json",
        ],
        "html": "report.html",
        "meta": {
          "matched": "68 of 68",
          "published data": "<repo>/analysis/published",
        },
        "notebook": "report.ipynb",
        "schema": "assay.report-manifest/v1",
        "tables": [
          "reproduce | Published vs recomputed | tables/reproduce.csv | tables/reproduce.md | tables/reproduce.tex",
          "startup-harness-swap | Harness swap (Table 6) | tables/startup-harness-swap.csv | tables/startup-harness-swap.md | tables/startup-harness-swap.tex",
          "deliver-means | Final-delivery and process means (Table 5 Mean rows) | tables/deliver-means.csv | tables/deliver-means.md | tables/deliver-means.tex",
        ],
        "title": "assay reproduce: published StartupBench and DeliverBench figures",
      }
    `);
  });
});

describe('report in headless Chromium', () => {
  it('renders every chart from file:// with no network and no console error', async () => {
    expect(
      existsSync(CHROMIUM),
      `Chromium not found at ${CHROMIUM}: apt-get install -y chromium (or set ASSAY_CHROMIUM)`,
    ).toBe(true);
    const profile = await mkdtemp(path.join(tmpdir(), 'assay-chromium-'));
    const context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      viewport: { width: 1280, height: 900 },
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    });
    try {
      const offline: string[] = [];
      await context.route('**/*', (route) => {
        const url = route.request().url();
        if (url.startsWith('file:') || url.startsWith('data:')) return route.continue();
        offline.push(url);
        return route.abort();
      });
      mkdirSync(ARTIFACTS, { recursive: true });
      for (const [name, written] of [
        ['report', report],
        ['reproduce', reproduce],
      ] as const) {
        const page = await context.newPage();
        const errors: string[] = [];
        page.on('console', (m) => {
          if (m.type() === 'error') errors.push(m.text());
        });
        page.on('pageerror', (e) => errors.push(String(e)));
        await page.goto(pathToFileURL(written.html).href);
        await page.waitForFunction(
          () => (globalThis as unknown as { __assayCharts?: { done: boolean } }).__assayCharts?.done === true,
          undefined,
          { timeout: 60_000 },
        );
        const state = await page.evaluate(
          () =>
            (globalThis as unknown as { __assayCharts: { total: number; rendered: number; failed: string[] } })
              .__assayCharts,
        );
        expect(state.failed, name).toEqual([]);
        expect(state.total, name).toBe(written.figures.length);
        expect(state.rendered, name).toBe(written.figures.length);
        // Each chart container holds a drawn SVG with marks and a real size.
        const charts = await page.$$eval('.chart', (els) =>
          els.map((el) => {
            const svg = el.querySelector('svg.marks');
            const box = svg?.getBoundingClientRect();
            return {
              id: el.getAttribute('data-figure'),
              width: box?.width ?? 0,
              height: box?.height ?? 0,
              marks: svg ? svg.querySelectorAll('path, text, line').length : 0,
            };
          }),
        );
        expect(charts).toHaveLength(written.figures.length);
        for (const c of charts) {
          expect(c.width, c.id ?? '').toBeGreaterThan(100);
          expect(c.height, c.id ?? '').toBeGreaterThan(50);
          expect(c.marks, c.id ?? '').toBeGreaterThan(5);
        }
        expect(errors, name).toEqual([]);
        const shot = path.join(path.dirname(written.html), 'screenshot.png');
        await page.screenshot({ path: shot, fullPage: true });
        expect(pngSize(shot).height).toBeGreaterThan(2000);
        copyFileSync(shot, path.join(ARTIFACTS, `${name}-screenshot.png`));
        await page.close();
      }
      expect(offline).toEqual([]);
    } finally {
      await context.close();
      await rm(profile, { recursive: true, force: true });
    }
  }, 120_000);
});

describe('report as a Jupyter notebook', () => {
  it('validates with nbformat 4.5 and carries Vega-Lite 5 outputs with PNG fallbacks', (ctx) => {
    if (!venv.ok) {
      console.warn(`SKIPPING nbformat validation: ${venv.reason}`);
      return ctx.skip();
    }
    for (const written of [report, reproduce]) {
      const r = runPythonJson<{
        nbformat: number;
        minor: number;
        cells: number;
        vegalite: number;
        png: number;
        ids: boolean;
      }>(
        venv.python,
        `
import json, sys, nbformat
path = json.load(sys.stdin)
nb = nbformat.read(path, as_version=4)
nbformat.validate(nb)
outs = [o for c in nb.cells if c.cell_type == 'code' for o in c.outputs]
print(json.dumps({'nbformat': nb.nbformat, 'minor': nb.nbformat_minor, 'cells': len(nb.cells),
  'vegalite': sum('application/vnd.vegalite.v5+json' in o.get('data', {}) for o in outs),
  'png': sum('image/png' in o.get('data', {}) for o in outs),
  'ids': all('id' in c for c in nb.cells)}))`,
        written.notebook,
      );
      expect(r).toMatchObject({
        nbformat: 4,
        minor: 5,
        ids: true,
        vegalite: written.figures.length,
        png: written.figures.length,
      });
    }
  }, 60_000);
});
