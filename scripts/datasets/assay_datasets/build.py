"""Small document-building helpers shared by the task and project generators,
plus the YAML writer for task/rubric/project/criteria files."""
from __future__ import annotations

import csv
import io
from pathlib import Path
from typing import Iterable, Sequence

import yaml
from docx.enum.text import WD_ALIGN_PARAGRAPH
from docx.shared import Pt
from pptx.util import Inches, Pt as PPt

# ---------------------------------------------------------------- docx

def heading(doc, text: str, level: int = 1) -> None:
    doc.add_heading(text, level=level)


def para(doc, text: str, bold: bool = False, italic: bool = False) -> None:
    p = doc.add_paragraph()
    run = p.add_run(text)
    run.bold = bold
    run.italic = italic


def bullets(doc, items: Iterable[str], numbered: bool = False) -> None:
    style = "List Number" if numbered else "List Bullet"
    for item in items:
        doc.add_paragraph(item, style=style)


def table(doc, header: Sequence[str], rows: Iterable[Sequence[object]], widths: Sequence[float] | None = None) -> None:
    rows = list(rows)
    t = doc.add_table(rows=1 + len(rows), cols=len(header))
    t.style = "Table Grid"
    for i, h in enumerate(header):
        cell = t.rows[0].cells[i]
        cell.text = ""
        run = cell.paragraphs[0].add_run(str(h))
        run.bold = True
    for r, row in enumerate(rows, start=1):
        for c, value in enumerate(row):
            t.rows[r].cells[c].text = str(value)
    for row in t.rows:
        for cell in row.cells:
            for p in cell.paragraphs:
                for run in p.runs:
                    run.font.size = Pt(9.5)
    doc.add_paragraph()


def title_block(doc, title: str, lines: Sequence[str]) -> None:
    doc.add_heading(title, level=0)
    for line in lines:
        p = doc.add_paragraph(line)
        p.alignment = WD_ALIGN_PARAGRAPH.LEFT


# ---------------------------------------------------------------- pptx

def slide_title(prs, title: str, subtitle: str) -> None:
    s = prs.slides.add_slide(prs.slide_layouts[0])
    s.shapes.title.text = title
    s.placeholders[1].text = subtitle


def slide_bullets(prs, title: str, items: Sequence[str]) -> None:
    s = prs.slides.add_slide(prs.slide_layouts[1])
    s.shapes.title.text = title
    body = s.placeholders[1]
    body.left, body.top, body.width, body.height = Inches(0.7), Inches(1.5), Inches(11.9), Inches(5.4)
    tf = body.text_frame
    tf.clear()
    for i, item in enumerate(items):
        p = tf.paragraphs[0] if i == 0 else tf.add_paragraph()
        p.text = item
        p.font.size = PPt(20)


def slide_table(prs, title: str, header: Sequence[str], rows: Sequence[Sequence[object]], note: str | None = None) -> None:
    s = prs.slides.add_slide(prs.slide_layouts[5])
    s.shapes.title.text = title
    height = Inches(0.4) * (len(rows) + 1)
    shape = s.shapes.add_table(len(rows) + 1, len(header), Inches(0.7), Inches(1.6), Inches(11.9), height)
    tbl = shape.table
    for c, h in enumerate(header):
        tbl.cell(0, c).text = str(h)
    for r, row in enumerate(rows, start=1):
        for c, value in enumerate(row):
            tbl.cell(r, c).text = str(value)
    for r in range(len(rows) + 1):
        for c in range(len(header)):
            for p in tbl.cell(r, c).text_frame.paragraphs:
                p.font.size = PPt(14)
    if note:
        box = s.shapes.add_textbox(Inches(0.7), Inches(1.8) + height, Inches(11.9), Inches(0.8))
        box.text_frame.text = note
        box.text_frame.paragraphs[0].font.size = PPt(14)


# ---------------------------------------------------------------- text files

def write_text(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text if text.endswith("\n") else text + "\n", encoding="utf-8")
    return path


def write_csv(path: Path, header: Sequence[str], rows: Iterable[Sequence[object]]) -> Path:
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(header)
    for row in rows:
        w.writerow(row)
    return write_text(path, buf.getvalue())


# ---------------------------------------------------------------- YAML

class _Dumper(yaml.SafeDumper):
    def ignore_aliases(self, data) -> bool:  # repeated deliverables are written out, not as &anchors
        return True


def _str(dumper: yaml.SafeDumper, value: str):
    if "\n" in value:
        return dumper.represent_scalar("tag:yaml.org,2002:str", value, style="|")
    return dumper.represent_scalar("tag:yaml.org,2002:str", value)


_Dumper.add_representer(str, _str)


def write_yaml(path: Path, data: object, header: str | None = None) -> Path:
    body = yaml.dump(data, Dumper=_Dumper, sort_keys=False, allow_unicode=True, width=110, default_flow_style=False)
    text = (f"# {header}\n" if header else "") + body
    return write_text(path, text)


def fmt(value: float, decimals: int = 2) -> str:
    """Thousands separators with fixed decimals: 1234567.891 -> '1,234,567.89'."""
    return f"{value:,.{decimals}f}"
