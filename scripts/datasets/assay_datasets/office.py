"""Real-producer helpers: save Office files with fixed metadata, and drive
LibreOffice headless for PDFs and for recalculating workbooks (cached values).

Every file is normalised after saving (fixed zip timestamps, fixed core
properties dates, fixed PDF dates and ids) so regeneration is byte-stable.
"""
from __future__ import annotations

import datetime as dt
import os
import re
import shutil
import subprocess
import tempfile
import time
import zipfile
from pathlib import Path

import openpyxl
from docx import Document
from openpyxl.worksheet.worksheet import Worksheet
from pptx import Presentation
from pptx.util import Inches, Pt

FIXED = dt.datetime(2026, 1, 15, 9, 0, 0)
FIXED_ZIP = (2026, 1, 15, 9, 0, 0)
FIXED_W3C = "2026-01-15T09:00:00Z"
AUTHOR = "assay sample benchmark"
_LO_PROFILE = Path(tempfile.gettempdir()) / f"assay-datasets-lo-{os.getuid()}"


# ---------------------------------------------------------------- normalising

def normalize_ooxml(path: Path) -> None:
    """Rewrite a docx/xlsx/pptx zip with fixed entry times and fixed core dates."""
    with zipfile.ZipFile(path) as src:
        entries = [(info, src.read(info.filename)) for info in src.infolist()]
    tmp = path.with_suffix(path.suffix + ".tmp")
    with zipfile.ZipFile(tmp, "w", zipfile.ZIP_DEFLATED) as out:
        for info, data in entries:
            if info.filename == "docProps/core.xml":
                text = data.decode("utf-8")
                text = re.sub(r"(<dcterms:(created|modified)[^>]*>)[^<]*(</dcterms:\2>)", rf"\g<1>{FIXED_W3C}\g<3>", text)
                text = re.sub(r"<cp:revision>[^<]*</cp:revision>", "<cp:revision>1</cp:revision>", text)
                data = text.encode("utf-8")
            fixed = zipfile.ZipInfo(info.filename, date_time=FIXED_ZIP)
            fixed.compress_type = zipfile.ZIP_DEFLATED
            fixed.external_attr = 0o644 << 16
            out.writestr(fixed, data)
    tmp.replace(path)


def normalize_pdf(path: Path) -> None:
    """Replace LibreOffice's creation dates and document id with same-length constants
    (same length keeps the xref offsets valid)."""
    data = path.read_bytes()

    def fixed_date(m: re.Match[bytes]) -> bytes:
        body = m.group(2)
        stamp = b"20260115090000"
        return m.group(1) + (stamp + body[len(stamp):] if len(body) >= len(stamp) else body) + b")"

    data = re.sub(rb"(/(?:CreationDate|ModDate)\s*\(D:)([^)]*)\)", fixed_date, data)
    data = re.sub(rb"<[0-9A-Fa-f]{32}>", b"<" + b"0" * 32 + b">", data)
    data = re.sub(rb"/DocChecksum\s*/[0-9A-Fa-f]{32}", lambda m: m.group(0)[:-32] + b"0" * 32, data)
    path.write_bytes(data)


# ---------------------------------------------------------------- producers

def _save_office(doc, path: Path, title: str) -> Path:
    """Save a python-docx document or python-pptx presentation (the same core-properties API)
    with fixed metadata, then normalise it."""
    cp = doc.core_properties
    cp.author = AUTHOR
    cp.last_modified_by = AUTHOR
    cp.title = title
    cp.created = FIXED
    cp.modified = FIXED
    cp.revision = 1
    path.parent.mkdir(parents=True, exist_ok=True)
    doc.save(str(path))
    normalize_ooxml(path)
    return path


def save_docx(doc, path: Path, title: str) -> Path:
    return _save_office(doc, path, title)


def save_pptx(prs, path: Path, title: str) -> Path:
    return _save_office(prs, path, title)


def save_xlsx(wb: openpyxl.Workbook, path: Path, title: str, recalc: bool = False) -> Path:
    """Save a workbook; with recalc=True, LibreOffice recomputes it so every
    formula carries a cached value (verified afterwards)."""
    wb.properties.creator = AUTHOR
    wb.properties.title = title
    wb.properties.created = FIXED
    path.parent.mkdir(parents=True, exist_ok=True)
    wb.save(str(path))
    if recalc:
        recalc_xlsx(path)
    normalize_ooxml(path)
    return path


def new_workbook(sheet: str) -> tuple[openpyxl.Workbook, Worksheet]:
    """A new workbook and its first (active) sheet, named `sheet`."""
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = sheet
    return wb, ws


def new_document() -> Document:
    doc = Document()
    style = doc.styles["Normal"]
    style.font.name = "Liberation Sans"
    style.font.size = Pt(10.5)
    return doc


def new_deck() -> Presentation:
    prs = Presentation()
    prs.slide_width = Inches(13.333)
    prs.slide_height = Inches(7.5)
    return prs


# ---------------------------------------------------------------- LibreOffice

def _soffice(args: list[str], outdir: Path) -> None:
    exe = shutil.which("soffice")
    if exe is None:
        raise RuntimeError("soffice not found: apt-get install -y libreoffice-writer-nogui libreoffice-calc-nogui libreoffice-impress-nogui")
    cmd = [exe, f"-env:UserInstallation=file://{_LO_PROFILE}", "--headless", "--norestore", *args, "--outdir", str(outdir)]
    last = ""
    for attempt in range(3):
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=180)
        last = proc.stdout + proc.stderr
        if proc.returncode == 0 and any(outdir.iterdir()):
            return
        time.sleep(1 + attempt)
    raise RuntimeError(f"soffice failed: {' '.join(cmd)}\n{last}")


def to_pdf(src: Path, dest: Path) -> Path:
    """Convert a docx/pptx to PDF with LibreOffice and normalise it."""
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp)
        _soffice(["--convert-to", "pdf", str(src)], out)
        produced = out / (src.stem + ".pdf")
        dest.parent.mkdir(parents=True, exist_ok=True)
        shutil.move(str(produced), dest)
    normalize_pdf(dest)
    return dest


def recalc_xlsx(path: Path) -> None:
    """Round-trip through LibreOffice Calc, which computes and stores formula results."""
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp)
        _soffice(["--convert-to", "xlsx:Calc Office Open XML", str(path)], out)
        shutil.move(str(out / path.name), path)
    assert_cached(path)


def assert_cached(path: Path) -> int:
    """Every formula cell must have a cached value; returns the number of formulas."""
    formulas = openpyxl.load_workbook(path)
    values = openpyxl.load_workbook(path, data_only=True)
    count = 0
    for ws in formulas.worksheets:
        for row in ws.iter_rows():
            for cell in row:
                if isinstance(cell.value, str) and cell.value.startswith("="):
                    count += 1
                    if values[ws.title][cell.coordinate].value is None:
                        raise RuntimeError(f"{path}: {ws.title}!{cell.coordinate} has no cached value")
    return count
