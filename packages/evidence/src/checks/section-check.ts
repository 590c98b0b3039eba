// section-present: a sheet (by name), a slide (by number) and/or a heading (by text). Headings are
// read from structure where the format has it (docx heading styles, markdown/html headings, slide
// titles); where it has none (pdf, txt) a line that reads as the heading counts.
// Nothing found decides (not-satisfied): a file of another format has no sheets or slides, and a heading
// absent from the whole text is absent — unless the text was cut at a cap or a PDF has no text layer.
import type { Check, CheckOutcome } from '@assay/core';
import { normalize } from '../match-text.js';
import { sheetsOf, textUnits } from '../view-access.js';
import { reason } from '../messages.js';
import type { FileView, SubmissionView } from '../types.js';
import { absence, cannotEvaluate, combine, notSatisfied, readableFile, satisfied } from './check-support.js';

type SectionCheck = Extract<Check, { kind: 'section-present' }>;

/** Heading text without numbering ("2.1", "A.", "IV)"), markdown emphasis or a trailing colon. */
function bare(s: string): string {
  return normalize(s, false)
    .replace(/^[#*_\s]+|[*_\s]+$/g, '')
    .replace(/^(\d+(\.\d+)*|[a-z]|[ivxlc]+)[.)]\s+/, '')
    .replace(/[:：]$/, '')
    .trim();
}

function headingHit(candidate: string, want: string): boolean {
  const c = bare(candidate);
  return c === want || c.includes(want);
}

function lineHit(line: string, want: string): boolean {
  return bare(line) === want;
}

function sheetOutcome(file: FileView, name: string): CheckOutcome {
  const sheets = sheetsOf(file);
  if (!sheets || file.evidence?.format !== 'xlsx')
    return notSatisfied(reason.sheetCheckNeedsBook(file.path, file.format));
  const hit = sheets.find((s) => s.name.toLowerCase() === name.toLowerCase());
  const what = `sheet ${JSON.stringify(name)} in ${file.path}`;
  return hit
    ? satisfied(reason.sectionFound(what))
    : absence(file, notSatisfied(reason.sectionMissing(what), [`sheets: ${sheets.map((s) => s.name).join(', ')}`]));
}

function slideOutcome(file: FileView, n: number): CheckOutcome {
  const ev = file.evidence;
  if (ev?.format !== 'pptx') return notSatisfied(reason.slideCheckNeedsDeck(file.path, file.format));
  const slide = ev.slides[n - 1];
  const what = `slide ${n} in ${file.path}`;
  return slide
    ? satisfied(reason.sectionFound(what), [`slide ${n}: ${slide.title ?? '(untitled)'}`])
    : absence(file, notSatisfied(reason.sectionMissing(what), [`${ev.slides.length} slides`]));
}

function headingOutcome(file: FileView, heading: string): CheckOutcome {
  const want = bare(heading);
  const what = `heading ${JSON.stringify(heading)} in ${file.path}`;
  const ev = file.evidence!;
  const found = (anchor: string, text: string, styled: boolean) =>
    satisfied(reason.sectionFound(what), [`${anchor}: ${text}${styled ? '' : ' (not heading-styled)'}`]);
  const missing = () => absence(file, notSatisfied(reason.sectionMissing(what)));
  switch (ev.format) {
    case 'docx': {
      const paras = ev.blocks.filter((b) => b.type === 'paragraph');
      const styled = paras.find((p) => p.headingLevel !== undefined && headingHit(p.text, want));
      if (styled) return found(`paragraph ${styled.index}`, styled.text, true);
      const plain = paras.find((p) => lineHit(p.text, want));
      return plain ? found(`paragraph ${plain.index}`, plain.text, false) : missing();
    }
    case 'md':
    case 'html': {
      const h = ev.headings.find((x) => headingHit(x.text, want));
      if (h) return found(`line ${h.line}`, h.text, true);
      const line = textUnits(file).find((u) => lineHit(u.text, want));
      return line ? found(line.anchor, line.text, false) : missing();
    }
    case 'pptx': {
      const titled = ev.slides.find((s) => s.title !== null && headingHit(s.title, want));
      if (titled) return found(`slide ${titled.index}`, titled.title!, true);
      const line = ev.slides
        .flatMap((s) => s.texts.flatMap((t) => t.split('\n').map((l) => ({ s, l }))))
        .find((x) => lineHit(x.l, want));
      return line ? found(`slide ${line.s.index}`, line.l, false) : missing();
    }
    case 'xlsx': {
      const sheet = ev.sheets.find((s) => headingHit(s.name, want));
      if (sheet) return found(`sheet ${sheet.name}`, sheet.name, true);
      const cell = textUnits(file).find((u) => lineHit(u.text, want));
      return cell ? found(cell.anchor, cell.text, false) : missing();
    }
    case 'png':
    case 'jpg':
    case 'svg':
      return cannotEvaluate(reason.noText(file.path, ev.format));
    default: {
      // No heading structure: look for a line that reads as the heading.
      const units = textUnits(file);
      for (const u of units) {
        const line = u.text.split('\n').find((l) => lineHit(l, want));
        if (line) return found(u.anchor, line, false);
      }
      const anywhere = units.some((u) => normalize(u.text, false).includes(want));
      return anywhere ? cannotEvaluate(reason.headingNoStructure(file.path, heading)) : missing();
    }
  }
}

export function evaluateSectionPresent(check: SectionCheck, view: SubmissionView): CheckOutcome {
  const found = readableFile(view, check.file);
  if (found.outcome) return found.outcome;
  const parts: CheckOutcome[] = [];
  if (check.sheet !== undefined) parts.push(sheetOutcome(found.file, check.sheet));
  if (check.slide !== undefined) parts.push(slideOutcome(found.file, check.slide));
  if (check.heading !== undefined) parts.push(headingOutcome(found.file, check.heading));
  if (parts.length === 0) return cannotEvaluate(reason.noCondition);
  return combine(parts);
}
