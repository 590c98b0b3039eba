#!/usr/bin/python3
"""Builds the office documents of the guide's examples (docs/writing-a-benchmark.md) with the
producers an agent container has: Debian's python3-openpyxl and python3-docx, and LibreOffice
to recalculate workbooks so their formulas carry cached values. The YAML, csv and md files next
to them are written by hand.

    /usr/bin/python3 docs/examples/generate.py      # from the repository root
"""
from __future__ import annotations

import datetime
import shutil
import subprocess
import tempfile
from pathlib import Path

import docx
import openpyxl

HERE = Path(__file__).resolve().parent
WHEN = datetime.datetime(2026, 3, 20, 9, 0, 0)
TASK = HERE / "tasks" / "fin-expense-variance" / "evaluator"
PROJECT = HERE / "projects" / "office-move" / "evaluator"


def recalculated(path: Path) -> None:
    """Round-trip through LibreOffice Calc, which computes formulas and stores their results."""
    with tempfile.TemporaryDirectory() as tmp:
        profile = Path(tmp) / "profile"
        out = Path(tmp) / "out"
        out.mkdir()
        subprocess.run(
            ["soffice", f"-env:UserInstallation=file://{profile}", "--headless", "--norestore",
             "--convert-to", "xlsx:Calc Office Open XML", str(path), "--outdir", str(out)],
            check=True, capture_output=True, timeout=180,
        )
        shutil.move(str(out / path.name), path)
    values = openpyxl.load_workbook(path, data_only=True)
    formulas = openpyxl.load_workbook(path)
    for ws in formulas.worksheets:
        for row in ws.iter_rows():
            for cell in row:
                if isinstance(cell.value, str) and cell.value.startswith("="):
                    assert values[ws.title][cell.coordinate].value is not None, f"{path} {cell.coordinate}"


def save(wb: openpyxl.Workbook, path: Path) -> None:
    wb.properties.created = WHEN
    wb.properties.modified = WHEN
    path.parent.mkdir(parents=True, exist_ok=True)
    wb.save(path)


def variance_workbook(path: Path) -> None:
    budget = {"Rent": 12000, "Salaries": 48000, "Travel": 3000, "Software": 2500}
    actual = {"Rent": 12000, "Salaries": 49200, "Travel": 4100, "Software": 2300}
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "Variance"
    ws.append(["line", "budget", "actual", "variance"])
    for r, line in enumerate(budget, start=2):
        ws.append([line, budget[line], actual[line], f"=C{r}-B{r}"])
    ws.append(["Total", "=SUM(B2:B5)", "=SUM(C2:C5)", "=SUM(D2:D5)"])
    save(wb, path)


def budget_workbook(path: Path, movers: int) -> None:
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "Budget"
    ws.append(["Item", "Amount (EUR)"])
    for row in (["Movers (Swift Removals)", movers], ["IT cabling (NetWorks)", 6200], ["Cleaning (Sparkle)", 1300]):
        ws.append(row)
    ws.append(["Total", "=SUM(B2:B4)"])
    save(wb, path)


def memo(path: Path, total: str, lines: list[str]) -> None:
    d = docx.Document()
    d.core_properties.created = WHEN
    d.core_properties.modified = WHEN
    d.add_heading("Office move: budget memo", level=0)
    d.add_heading("Budget", level=1)
    d.add_paragraph(f"Total budget: {total}")
    for line in lines:
        d.add_paragraph(line)
    d.add_heading("Next steps", level=1)
    d.add_paragraph("The budget awaits the office manager's sign-off; the movers are booked once it is given.")
    path.parent.mkdir(parents=True, exist_ok=True)
    d.save(path)


def main() -> None:
    # Task: the reference workbook is recalculated; the producers/ copy is openpyxl's own output.
    variance_workbook(HERE / "producers" / "variance-openpyxl.xlsx")
    variance_workbook(TASK / "reference" / "variance.xlsx")
    recalculated(TASK / "reference" / "variance.xlsx")

    quotes = ["The three vendor quotes: movers 4,800, IT cabling 6,200, cleaning 1,300 (EUR)."]
    ref = PROJECT / "reference"
    for sub in ("t1-budget", "t2-memo"):
        budget_workbook(ref / sub / "budget.xlsx", 4800)
        recalculated(ref / sub / "budget.xlsx")
    memo(ref / "t2-memo" / "memo.docx", "12,300", quotes)
    budget_workbook(ref / "t3-apply-correction" / "budget.xlsx", 5200)
    recalculated(ref / "t3-apply-correction" / "budget.xlsx")
    memo(ref / "t3-apply-correction" / "memo.docx", "12,700",
         ["Vendor quotes: movers 5,200 (corrected by Swift Removals on 20 March), IT cabling 6,200, cleaning 1,300 (EUR)."])

    # The papers' "correction recorded in a note but not applied": workbook and memo as after t2.
    flaw = PROJECT / "flaws" / "correction-not-applied" / "t3-apply-correction"
    flaw.mkdir(parents=True, exist_ok=True)
    shutil.copy(ref / "t2-memo" / "budget.xlsx", flaw / "budget.xlsx")
    shutil.copy(ref / "t2-memo" / "memo.docx", flaw / "memo.docx")


if __name__ == "__main__":
    main()
