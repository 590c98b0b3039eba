"""A small Python evaluator of the deterministic checks (check-schema.ts), used
to prove that every check holds on the reference and fails on its flaw. It is
the dataset's statement of intended semantics; packages/evidence is the real
implementation:

- text checks: extracted text, whitespace runs collapsed to one space,
  case-insensitive unless caseSensitive; a missing file fails (not-satisfied);
- cell-value / files-agree cells read cached values (a formula without one fails);
- files-agree patterns: first match, capture group 1 (else the whole match),
  parsed as a number after removing thousands separators;
- formula-cached: every cell of the range holds a formula with a cached value;
- row-count: non-empty rows of the sheet, header included;
- section-present: sheet name (xlsx), slide number exists (pptx), heading text
  equals a heading / slide title / markdown heading (case-insensitive)."""
from __future__ import annotations

import re
import subprocess
import zipfile
from pathlib import Path

import openpyxl
from docx import Document
from openpyxl.utils import range_boundaries
from pptx import Presentation

SAT, UNSAT = "satisfied", "not-satisfied"


def detect(path: Path) -> str | None:
    head = path.read_bytes()[:8]
    if head.startswith(b"%PDF"):
        return "pdf"
    if head.startswith(b"PK"):
        names = zipfile.ZipFile(path).namelist()
        for prefix, fmt in (("word/", "docx"), ("xl/", "xlsx"), ("ppt/", "pptx")):
            if any(n.startswith(prefix) for n in names):
                return fmt
        return None
    return path.suffix.lstrip(".").lower() or "txt"


def headings(path: Path) -> list[str]:
    fmt = detect(path)
    if fmt == "docx":
        return [p.text.strip() for p in Document(str(path)).paragraphs
                if p.style is not None and (p.style.name.startswith("Heading") or p.style.name == "Title")]
    if fmt == "pptx":
        return [s.shapes.title.text.strip() for s in Presentation(str(path)).slides if s.shapes.title is not None]
    if fmt == "md":
        return [m.group(1).strip() for m in re.finditer(r"^#+\s+(.*)$", path.read_text(encoding="utf-8"), re.M)]
    return [line.strip() for line in text_of(path).splitlines()]


def text_of(path: Path) -> str:
    fmt = detect(path)
    if fmt == "docx":
        doc = Document(str(path))
        parts = [p.text for p in doc.paragraphs]
        for t in doc.tables:
            parts += ["\t".join(c.text for c in row.cells) for row in t.rows]
        return "\n".join(parts)
    if fmt == "pptx":
        parts = []
        for slide in Presentation(str(path)).slides:
            for shape in slide.shapes:
                if shape.has_text_frame:
                    parts.append(shape.text_frame.text)
                if shape.has_table:
                    parts += ["\t".join(c.text for c in row.cells) for row in shape.table.rows]
        return "\n".join(parts)
    if fmt == "xlsx":
        wb = openpyxl.load_workbook(path, data_only=True)
        return "\n".join("\t".join("" if v is None else str(v) for v in row) for ws in wb.worksheets for row in ws.iter_rows(values_only=True))
    if fmt == "pdf":
        return subprocess.run(["pdftotext", str(path), "-"], capture_output=True, check=True, text=True).stdout
    return path.read_text(encoding="utf-8", errors="replace")


def norm(text: str, case: bool) -> str:
    text = re.sub(r"\s+", " ", text)
    return text if case else text.lower()


def cached(path: Path, ref: str):
    sheet, coord = ref.split("!")
    wb = openpyxl.load_workbook(path, data_only=True)
    return wb[sheet][coord].value if sheet in wb.sheetnames else None


def locate(root: Path, loc: dict):
    path = root / loc["file"]
    if not path.is_file():
        return None
    if "cell" in loc:
        return cached(path, loc["cell"]) if detect(path) == "xlsx" else None
    m = re.search(loc["pattern"], text_of(path))
    if not m:
        return None
    raw = m.group(1) if m.groups() else m.group(0)
    try:
        return float(raw.replace(",", ""))
    except ValueError:
        return raw.strip()


def evaluate(check: dict, root: Path) -> str:
    """satisfied / not-satisfied; a file that cannot be read satisfies nothing."""
    try:
        return _evaluate(check, root)
    except (KeyError, ValueError, OSError, zipfile.BadZipFile, subprocess.CalledProcessError) as err:
        if isinstance(err, ValueError) and str(err).startswith("unknown check kind"):
            raise
        return UNSAT


def _evaluate(check: dict, root: Path) -> str:
    kind = check["kind"]
    if kind == "deliverable-present":
        p = root / check["path"]
        return SAT if p.is_file() and ("format" not in check or detect(p) == check["format"]) else UNSAT
    if kind == "files-agree":
        a, b = locate(root, check["a"]), locate(root, check["b"])
        if a is None or b is None:
            return UNSAT
        if isinstance(a, (int, float)) and isinstance(b, (int, float)):
            return SAT if abs(a - b) <= check.get("tolerance", 0) else UNSAT
        return SAT if str(a).strip() == str(b).strip() else UNSAT
    path = root / check["file"]
    if not path.is_file():
        return UNSAT
    if kind in ("text-contains", "text-absent"):
        case = check.get("caseSensitive", False)
        found = norm(check["text"], case) in norm(text_of(path), case)
        return SAT if found == (kind == "text-contains") else UNSAT
    if kind == "text-matches":
        return SAT if re.search(check["pattern"], text_of(path)) else UNSAT
    if detect(path) not in ("xlsx", "docx", "pptx", "md", "pdf"):
        return UNSAT
    if kind == "cell-value":
        v = cached(path, check["cell"])
        if v is None:
            return UNSAT
        if "equals" in check:
            e = check["equals"]
            if isinstance(e, (int, float)) and isinstance(v, (int, float)):
                return SAT if abs(v - e) <= check.get("tolerance", 0) else UNSAT
            return SAT if v == e else UNSAT
        ok = ("min" not in check or v >= check["min"]) and ("max" not in check or v <= check["max"])
        return SAT if ok else UNSAT
    if kind == "formula-cached":
        sheet, rng = check["range"].split("!")
        wf, wv = openpyxl.load_workbook(path), openpyxl.load_workbook(path, data_only=True)
        if sheet not in wf.sheetnames:
            return UNSAT
        c1, r1, c2, r2 = range_boundaries(rng)
        cells = [c for row in wf[sheet].iter_rows(min_row=r1, max_row=r2, min_col=c1, max_col=c2) for c in row]
        formulas = all(isinstance(c.value, str) and c.value.startswith("=") for c in cells)
        return SAT if cells and formulas and all(wv[sheet][c.coordinate].value is not None for c in cells) else UNSAT
    if kind == "row-count":
        wb = openpyxl.load_workbook(path, data_only=True)
        if check["sheet"] not in wb.sheetnames:
            return UNSAT
        n = sum(1 for row in wb[check["sheet"]].iter_rows(values_only=True) if any(v is not None for v in row))
        return SAT if check.get("min", 0) <= n <= check.get("max", 10**9) else UNSAT
    if kind == "section-present":
        if "sheet" in check:
            return SAT if detect(path) == "xlsx" and check["sheet"] in openpyxl.load_workbook(path).sheetnames else UNSAT
        if "slide" in check:
            return SAT if detect(path) == "pptx" and len(Presentation(str(path)).slides) >= check["slide"] else UNSAT
        wanted = check["heading"].strip().lower()
        return SAT if any(h.lower() == wanted for h in headings(path)) else UNSAT
    raise ValueError(f"unknown check kind {kind}")
