"""Finance task: a term-loan amortisation schedule where the lender's errata
changes the rate (6.25% -> 5.75%). Flaw `correction-not-applied` records the
errata in a note but keeps 6.25% in the operative Inputs cell."""
from __future__ import annotations

import datetime as dt
from pathlib import Path

from openpyxl.styles import Font

from . import build as b
from .office import new_document, new_workbook, save_docx, save_xlsx
from .spec import item, output, present, write_task

ID = "fin-term-loan-schedule"
PRINCIPAL = 2_400_000.0
OLD_RATE = 0.0625
RATE = 0.0575
QUARTERS = 20
COVENANT = 1.25
CFADS = {2027: 742_000.0, 2028: 781_500.0, 2029: 815_000.0, 2030: 866_000.0}
FORECAST = {  # year: (EBITDA, maintenance capex, cash taxes) -> CFADS
    2027: (1_061_000.0, 214_000.0, 105_000.0),
    2028: (1_104_500.0, 208_000.0, 115_000.0),
    2029: (1_151_000.0, 212_000.0, 124_000.0),
    2030: (1_219_000.0, 219_000.0, 134_000.0),
}


def quarter_end(i: int) -> dt.date:
    """Quarter i (1-based) after a 2026-07-01 drawdown: 2026-09-30, 2026-12-31, ..."""
    month = 9 + 3 * (i - 1)
    year = 2026 + (month - 1) // 12
    month = (month - 1) % 12 + 1
    nxt = dt.date(year + (month // 12), month % 12 + 1, 1)
    return nxt - dt.timedelta(days=1)


def schedule(rate: float) -> dict:
    r = rate / 4
    pmt = PRINCIPAL * r / (1 - (1 + r) ** -QUARTERS)
    bal = PRINCIPAL
    rows = []
    for q in range(1, QUARTERS + 1):
        interest = bal * r
        principal = pmt - interest
        rows.append((q, quarter_end(q), bal, interest, principal, pmt, bal - principal))
        bal -= principal
    service = {y: sum(row[5] for row in rows if row[1].year == y) for y in CFADS}
    dscr = {y: CFADS[y] / service[y] for y in CFADS}
    return {"pmt": pmt, "rows": rows, "interest": sum(r_[3] for r_ in rows), "payments": pmt * QUARTERS,
            "service": service, "dscr": dscr, "min_dscr": min(dscr.values()), "closing": bal}


def write_inputs(inputs: Path) -> None:
    doc = new_document()
    b.title_block(doc, "Indicative Term Sheet - Senior Term Loan A", [
        "Borrower: Northwind Foods B.V. (Rotterdam)", "Lender: Rijnland Commercial Bank N.V.",
        "Date: 2026-05-28 (subject to credit approval)"])
    b.table(doc, ["Section", "Term", "Provision"], [
        ("1", "Facility", "Senior secured amortising term loan (Term Loan A)"),
        ("2", "Amount", "EUR 2,400,000, drawn in full on 2026-07-01"),
        ("3", "Tenor", "5 years from drawdown"),
        ("4", "Interest", "Fixed 6.25% per annum; interest for each quarter = opening balance x annual rate / 4"),
        ("5", "Repayment", "20 equal quarterly instalments of principal and interest (annuity), payable on the last day "
                           "of each calendar quarter, the first on 2026-09-30 and the last on 2031-06-30"),
        ("6", "Financial covenant", "Debt service coverage ratio (CFADS / scheduled debt service) of at least 1.25x, "
                                    "tested for each full calendar year 2027-2030"),
        ("7", "Fees", "Arrangement fee 1.00% payable at drawdown (outside the repayment schedule)"),
        ("8", "Security", "First-ranking pledge over Rotterdam production equipment"),
    ])
    b.para(doc, "This term sheet is indicative and does not constitute a commitment to lend.", italic=True)
    save_docx(doc, inputs / "term_sheet.docx", "Term sheet")

    b.write_text(inputs / "errata_2026-06-12.md", """# Errata - Term Sheet of 2026-05-28 (Northwind Foods B.V., Term Loan A)

Issued by: Rijnland Commercial Bank N.V., Leveraged Finance desk
Date: 2026-06-12

Section 4 (Interest) is corrected as follows: the fixed rate is **5.75% per annum** (not 6.25%).
Interest for each quarter remains opening balance x annual rate / 4.

All other terms of the term sheet are unchanged.
""")

    wb, ws = new_workbook("Forecast")
    ws.append(["Year", "EBITDA (EUR)", "Maintenance capex (EUR)", "Cash taxes (EUR)", "CFADS (EUR)"])
    for year, (ebitda, capex, tax) in FORECAST.items():
        assert ebitda - capex - tax == CFADS[year]
        ws.append([year, ebitda, capex, tax, CFADS[year]])
    for row in ws.iter_rows(min_row=2, min_col=2):
        for c in row:
            c.number_format = "#,##0"
    for c in ws[1]:
        c.font = Font(bold=True)
    ws.column_dimensions["A"].width = 8
    for col in "BCDE":
        ws.column_dimensions[col].width = 24
    ws["A7"] = "Source: Northwind Foods management case, approved by the CFO on 2026-06-05."
    save_xlsx(wb, inputs / "cfads_forecast.xlsx", "CFADS forecast")


def workbook(path: Path, rate: float, note: str | None) -> None:
    wb, ws = new_workbook("Inputs")
    ws["A1"], ws["B1"] = "Input", "Value"
    ws["A2"], ws["B2"] = "Principal (EUR)", PRINCIPAL
    ws["A3"], ws["B3"] = "Annual fixed rate", rate
    ws["A4"], ws["B4"] = "Number of quarterly instalments", QUARTERS
    ws["A5"], ws["B5"] = "Quarterly instalment (EUR)", "=PMT(B3/4,B4,-B2)"
    ws["A6"], ws["B6"] = "Drawdown date", dt.date(2026, 7, 1)
    ws["B2"].number_format = ws["B5"].number_format = "#,##0.00"
    ws["B3"].number_format = "0.00%"
    ws["B6"].number_format = "yyyy-mm-dd"
    ws["A8"] = note or "Rate per lender errata of 2026-06-12 (5.75% p.a.)."
    ws.column_dimensions["A"].width = 34
    ws.column_dimensions["B"].width = 16

    sch = wb.create_sheet("Schedule")
    sch.append(["Quarter", "Payment date", "Opening balance", "Interest", "Principal", "Payment", "Closing balance"])
    for q in range(1, QUARTERS + 1):
        r = q + 1
        opening = "=Inputs!B2" if q == 1 else f"=G{r - 1}"
        sch.append([q, quarter_end(q), opening, f"=C{r}*Inputs!$B$3/4", f"=F{r}-D{r}", "=Inputs!$B$5", f"=C{r}-E{r}"])
        sch[f"B{r}"].number_format = "yyyy-mm-dd"
        for col in "CDEFG":
            sch[f"{col}{r}"].number_format = "#,##0.00"
    for col, width in zip("ABCDEFG", (9, 14, 17, 14, 14, 14, 17)):
        sch.column_dimensions[col].width = width

    sm = wb.create_sheet("Summary")
    sm["A1"], sm["B1"] = "Measure", "Value"
    sm["A2"], sm["B2"] = "Total interest (EUR)", "=SUM(Schedule!D2:D21)"
    sm["A3"], sm["B3"] = "Total payments (EUR)", "=SUM(Schedule!F2:F21)"
    sm["A4"], sm["B4"] = "Closing balance after final instalment (EUR)", "=Schedule!G21"
    sm.append([])
    sm["A6"], sm["B6"], sm["C6"], sm["D6"], sm["E6"] = "Year", "CFADS (EUR)", "Debt service (EUR)", "DSCR (x)", "Headroom over 1.25x (EUR)"
    for i, (year, cfads) in enumerate(CFADS.items()):
        r = 7 + i
        sm[f"A{r}"], sm[f"B{r}"] = year, cfads
        sm[f"C{r}"] = f"=SUMPRODUCT((YEAR(Schedule!$B$2:$B$21)=A{r})*Schedule!$F$2:$F$21)"
        sm[f"D{r}"] = f"=B{r}/C{r}"
        sm[f"E{r}"] = f"=B{r}-1.25*C{r}"
        for col in "BCE":
            sm[f"{col}{r}"].number_format = "#,##0.00"
        sm[f"D{r}"].number_format = "0.00"
    sm["A12"], sm["B12"] = "Minimum DSCR 2027-2030 (x)", "=MIN(D7:D10)"
    sm["A13"], sm["B13"] = "Covenant minimum (x)", COVENANT
    sm["B2"].number_format = sm["B3"].number_format = sm["B4"].number_format = "#,##0.00"
    sm["B12"].number_format = "0.00"
    sm.column_dimensions["A"].width = 44
    for col in "BCDE":
        sm.column_dimensions[col].width = 20
    for ws_ in (ws, sch, sm):
        for c in ws_[1]:
            c.font = Font(bold=True)
    for c in sm[6]:
        c.font = Font(bold=True)
    save_xlsx(wb, path, "Term Loan A debt schedule", recalc=True)


def note(s: dict, rate_line: str, extra: str = "") -> str:
    lines = [f"| {y} | {b.fmt(CFADS[y])} | {b.fmt(s['service'][y])} | {s['dscr'][y]:.2f}x | {b.fmt(CFADS[y] - COVENANT * s['service'][y])} |" for y in CFADS]
    worst = min(CFADS, key=lambda y: s["dscr"][y])
    return f"""# Credit Note - Northwind Foods B.V., Senior Term Loan A

Prepared for: Rijnland Commercial Bank N.V., credit committee
Prepared on: 2026-06-15

## Terms used

- Facility: EUR 2,400,000 senior term loan, drawn in full on 2026-07-01, tenor 5 years
{rate_line}
- Repayment: 20 equal quarterly instalments of EUR {b.fmt(s['pmt'])} (annuity), 2026-09-30 to 2031-06-30
{extra}
## Results

- Total interest: EUR {b.fmt(s['interest'])}
- Total payments: EUR {b.fmt(s['payments'])}
- The balance is fully repaid with the final instalment on 2031-06-30.

## Covenant headroom

| Year | CFADS (EUR) | Debt service (EUR) | DSCR | Headroom over 1.25x (EUR) |
|---|---:|---:|---:|---:|
{chr(10).join(lines)}

Minimum DSCR: {s['min_dscr']:.2f}x in {worst}, above the 1.25x covenant in every test year.

## Observations

- The tightest year is {worst}, when CFADS is lowest relative to a constant debt service.
- CFADS would have to fall by {100 * (1 - COVENANT / s['min_dscr']):.1f}% in {worst} before the covenant is breached.
- The 1.00% arrangement fee (EUR 24,000) is paid at drawdown and is excluded from the schedule.
"""


def generate(root: Path) -> dict:
    task = root / "tasks" / ID
    write_inputs(task / "inputs")
    ref = task / "evaluator" / "reference"
    good = schedule(RATE)
    bad = schedule(OLD_RATE)
    workbook(ref / "debt_schedule.xlsx", RATE, None)
    b.write_text(ref / "lender_note.md", note(good, "- Fixed rate: 5.75% per annum per the lender errata of 2026-06-12; 1.4375% per quarter"))
    flaw = task / "evaluator" / "flaws" / "correction-not-applied"
    workbook(flaw / "debt_schedule.xlsx", OLD_RATE, "Change note: lender errata of 2026-06-12 corrects the rate to 5.75% p.a.")
    b.write_text(flaw / "lender_note.md", note(bad, "- Fixed rate: 6.25% per annum; 1.5625% per quarter",
                                                 "- Change note: the lender errata of 2026-06-12 corrects the rate to 5.75% per annum.\n"))

    request = f"""
I'm the credit analyst covering Northwind Foods. They draw their new EUR 2.4m Term Loan A on 1 July 2026 and I need
the repayment schedule and a credit note for Thursday's committee. Everything is in inputs/: the term sheet
(inputs/term_sheet.docx), the lender's errata issued after it (inputs/errata_2026-06-12.md) and management's CFADS
forecast (inputs/cfads_forecast.xlsx).

Please deliver two files:

1. outputs/debt_schedule.xlsx, built with live Excel formulas (no pasted values for calculated cells):
   - sheet "Inputs": principal in B2, annual fixed rate in B3, number of quarterly instalments in B4 and the
     quarterly instalment in B5 (PMT formula);
   - sheet "Schedule": header in row 1 (Quarter, Payment date, Opening balance, Interest, Principal, Payment,
     Closing balance) and one row per quarter in rows 2-21, columns A-G in that order;
   - sheet "Summary": total interest in B2, total payments in B3, and a DSCR table for 2027-2030 (year, CFADS,
     debt service, DSCR, EUR headroom over the 1.25x covenant) in rows 7-10 with the minimum DSCR in B12.
2. outputs/lender_note.md: a one-page credit note stating the terms used, total interest ("Total interest: EUR
   x,xxx.xx"), total payments and the covenant headroom by year.

Use the rate that actually applies. Amounts in EUR with two decimals.
"""
    items = [
        item("schedule-present", "outputs/debt_schedule.xlsx is delivered as an Excel workbook.", "core", "structure-completeness",
             present("debt_schedule.xlsx", "xlsx")),
        item("note-present", "outputs/lender_note.md is delivered as a Markdown credit note.", "core", "structure-completeness",
             present("lender_note.md", "md")),
        item("errata-rate-applied", "The operative rate in Inputs!B3 is the errata-corrected 5.75% (0.0575), not the superseded 6.25%.",
             "core", "information-integration", {"kind": "cell-value", "file": "debt_schedule.xlsx", "cell": "Inputs!B3", "equals": RATE, "tolerance": 1e-9}),
        item("total-interest", f"Total interest in Summary!B2 equals EUR {b.fmt(good['interest'])} (annuity at 5.75%/4 per quarter over 20 quarters).",
             "core", "calculation-precision", {"kind": "cell-value", "file": "debt_schedule.xlsx", "cell": "Summary!B2", "equals": round(good["interest"], 2), "tolerance": 0.05}),
        item("fully-amortising", "The schedule is a level-payment annuity whose closing balance after quarter 20 (Schedule!G21) is zero.",
             "core", "domain-compliance", {"kind": "cell-value", "file": "debt_schedule.xlsx", "cell": "Schedule!G21", "equals": 0, "tolerance": 0.01}),
        item("min-dscr", f"The minimum DSCR for 2027-2030 in Summary!B12 is {good['min_dscr']:.4f}x.", "important", "calculation-precision",
             {"kind": "cell-value", "file": "debt_schedule.xlsx", "cell": "Summary!B12", "equals": round(good["min_dscr"], 4), "tolerance": 0.0005}),
        item("live-formulas", "Schedule columns C-G are live formulas and the workbook carries their calculated values (opens with numbers, not blanks).",
             "important", "engineering-format", {"kind": "formula-cached", "file": "debt_schedule.xlsx", "range": "Schedule!C2:G21"}),
        item("twenty-quarters", "The Schedule sheet has exactly one row per quarterly instalment (20 rows plus a header).", "important", "structure-completeness",
             {"kind": "row-count", "file": "debt_schedule.xlsx", "sheet": "Schedule", "min": 20, "max": 21}),
        item("note-matches-model", "Total interest stated in the credit note agrees with Summary!B2 of the workbook.", "important", "information-integration",
             {"kind": "files-agree", "a": {"file": "debt_schedule.xlsx", "cell": "Summary!B2"},
              "b": {"file": "lender_note.md", "pattern": "Total interest: EUR ([0-9][0-9,]*\\.[0-9]{2})"}, "tolerance": 0.05}),
        item("note-states-rate", "The credit note states the 5.75% rate that applies after the errata.", "important", "domain-compliance",
             {"kind": "text-contains", "file": "lender_note.md", "text": "5.75%"}),
        item("covenant-headroom", "The credit note reports DSCR and headroom against the 1.25x covenant for each test year 2027-2030 and names the tightest year.",
             "important", "domain-compliance"),
        item("inputs-referenced", "Formulas reference the Inputs sheet (rate, instalment) instead of hard-coding numbers.", "auxiliary", "engineering-format"),
        item("number-formats", "Amounts are formatted with thousands separators and two decimals, dates as dates, the rate as a percentage.",
             "auxiliary", "output-presentation"),
    ]
    write_task(task, id=ID, title="Term loan amortisation schedule and credit note", domain="finance", request=request,
               outputs=[output("debt_schedule.xlsx", "xlsx", "Amortisation schedule with formulas and covenant test"),
                        output("lender_note.md", "md", "One-page credit note")],
               items=items, reference=["debt_schedule.xlsx", "lender_note.md"])
    return {"id": ID, "good": good, "bad": bad}
