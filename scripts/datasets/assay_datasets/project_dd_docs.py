"""Documents of the due-diligence project: released materials and feedback, and
every version of the model, memo and deck (reference and flawed)."""
from __future__ import annotations

import datetime as dt
from pathlib import Path

from openpyxl.styles import Font

from . import build as b
from .office import new_deck, new_document, new_workbook, save_docx, save_pptx, save_xlsx

UNIT = "CNY 10,000"
YEARS = ["FY2023", "FY2024", "FY2025"]
PNL = {  # line: FY2023, FY2024, FY2025 (CNY 10,000, excluding D&A)
    "Revenue": (58_420.0, 63_915.0, 68_240.0),
    "Cost of sales": (43_280.0, 47_150.0, 49_870.0),
    "Selling and admin expenses": (5_310.0, 5_720.0, 6_085.0),
    "R&D expenses": (2_460.0, 2_780.0, 3_140.0),
}
DA = (3_105.0, 3_390.0, 3_655.0)
CAPEX = [(2026, "Line 4 automation, phase 1", 4_841.5), (2027, "Line 4 automation, phase 2", 3_120.0), (2028, "Cleanroom upgrade", 2_655.0)]
OLD_2026, NEW_2026 = 4_841.5, 4_249.2
NORMALISATION = [
    ("N-01", "Add back: one-off litigation settlement with former distributor", 186.0),
    ("N-02", "Deduct: non-recurring government relocation subsidy", -212.0),
    ("N-03", "Deduct: related-party rent below market (Changzhou site)", -74.5),
    ("N-04", "Add back: founder salary above market rate", 38.0),
]


def ebitda(i: int) -> float:
    rev, cos, sga, rnd = (PNL[k][i] for k in PNL)
    return rev - cos - sga - rnd


def figures(corrected: bool) -> dict:
    c2026 = NEW_2026 if corrected else OLD_2026
    reported = ebitda(2)
    adj = sum(a for _, _, a in NORMALISATION)
    return {"capex_2026": c2026, "capex_total": c2026 + CAPEX[1][2] + CAPEX[2][2], "ebitda": [ebitda(i) for i in range(3)],
            "reported": reported, "adjustments": adj, "adjusted": reported + adj}


def f1(x: float) -> str:
    return b.fmt(x, 1)


# ---------------------------------------------------------------- releases

def write_releases(rel: Path) -> None:
    s1, s2, s3 = rel / "s1-kickoff", rel / "s2-management-responses", rel / "s3-steering"
    doc = new_document()
    b.title_block(doc, "Engagement Brief - Project Hengtai", [
        "Client: Aurelia Capital Partners (buyer)", "Target: Jiangsu Hengtai Precision Components Co., Ltd.",
        "Adviser: Meridian Advisory, financial due diligence team", "Date: 2026-04-01"])
    b.heading(doc, "Scope", 1)
    b.para(doc, "Buy-side financial due diligence: historical financial baseline FY2023-FY2025, quality of earnings "
                f"(normalised EBITDA), capital expenditure commitments 2026-2028 and their funding. All amounts in {UNIT}.")
    b.heading(doc, "Deliverables", 1)
    b.bullets(doc, ["Due diligence databook (dd_model.xlsx)", "Due diligence memorandum (dd_memo.docx)",
                    "Management meeting presentation (mgmt_deck.pptx)"])
    b.heading(doc, "Decisions to date", 1)
    b.bullets(doc, ["D-01: the valuation basis is FY2025 adjusted (normalised) EBITDA.",
                    "D-02: the target intends to fund the 2026 capex through a sale-and-leaseback of its Changzhou warehouse."])
    b.heading(doc, "Working rules", 1)
    b.para(doc, "Keep the databook as the single source of figures; memo and presentation quote it. Record every change "
                "to a released figure with its source. Decisions carry an id and a status (Active or Superseded by ...).")
    save_docx(doc, s1 / "engagement_brief.docx", "Engagement brief")

    wb, ws = new_workbook("P&L")
    ws.append([f"Income statement excerpt ({UNIT}, excluding D&A)", *YEARS])
    for line, values in PNL.items():
        ws.append([line, *values])
    ws.append(["Depreciation and amortisation (memo line)", *DA])
    ws.append([])
    ws.append(["Source: audited financial statements FY2023-FY2024; management accounts FY2025 (unaudited)."])
    ws.column_dimensions["A"].width = 48
    for c in ws[1]:
        c.font = Font(bold=True)
    for row in ws.iter_rows(min_row=2, max_row=6, min_col=2):
        for c in row:
            c.number_format = "#,##0.0"
    save_xlsx(wb, s1 / "financials_fy2023_2025.xlsx", "Hengtai financials")

    b.write_csv(s1 / "capex_plan_2026_2028.csv", ["year", "project", f"payment_cny_10k", "contract_status"],
                [(y, p, f"{a:.1f}", "signed" if y == 2026 else "budget") for y, p, a in CAPEX])

    doc = new_document()
    b.title_block(doc, "Management Response MR-07", ["From: CFO, Jiangsu Hengtai Precision Components", "Date: 2026-04-15",
                                                      "Re: Capital expenditure plan 2026-2028"])
    b.para(doc, f"Following the signed supplier amendment of 2026-04-10, the 2026 payment under the Line 4 automation "
                f"contract is corrected from {f1(OLD_2026)} to {f1(NEW_2026)} ({UNIT}). The 2027 and 2028 amounts are unchanged. "
                "Please update the databook and every document that uses the capex plan.")
    save_docx(doc, s2 / "mgmt_response_capex.docx", "Management response MR-07")

    wb, ws = new_workbook("FY2025 items")
    ws.append(["Id", "Item", f"EBITDA effect ({UNIT})", "Evidence"])
    evidence = ["Settlement agreement 2025-08-19", "Subsidy notice, Changzhou municipal government", "Lease with founder's company; market rent study",
                "Payroll register; remuneration benchmark"]
    for (nid, text, amount), ev in zip(NORMALISATION, evidence):
        ws.append([nid, text, amount, ev])
    ws.column_dimensions["B"].width = 62
    ws.column_dimensions["C"].width = 22
    ws.column_dimensions["D"].width = 48
    for c in ws[1]:
        c.font = Font(bold=True)
    save_xlsx(wb, s2 / "normalization_items.xlsx", "Normalisation items")

    doc = new_document()
    b.title_block(doc, "Steering Committee Minutes", ["Project Hengtai - meeting of 2026-05-06",
                                                      "Present: Aurelia Capital Partners deal team, Meridian Advisory, Hengtai CFO"])
    b.bullets(doc, [
        "D-03 (supersedes D-02): the 2026 capex will be funded from the target's revolving credit facility (RCF); "
        "the Changzhou warehouse sale-and-leaseback is dropped because of its tax cost.",
        "The management presentation is needed for the meeting with Hengtai management on 2026-05-12.",
        "The final package (databook, memorandum, presentation) is handed over to the Aurelia investment committee; "
        "the memorandum must end with handover notes (open items, owners, dates).",
    ])
    save_docx(doc, s3 / "steering_committee_minutes.docx", "Steering committee minutes")


# ---------------------------------------------------------------- model

def model(path: Path, *, corrected: bool, change_log: bool, adjustments: bool) -> None:
    fig = figures(corrected)
    wb, ws = new_workbook("Baseline")
    ws.append([UNIT, *YEARS])
    for line, values in PNL.items():
        ws.append([line, *values])
    rows = {"Gross profit": "={c}2-{c}3", "EBITDA": "={c}2-{c}3-{c}4-{c}5", "EBITDA margin": "={c}7/{c}2"}
    for label, formula in rows.items():
        ws.append([label, *[formula.format(c=c) for c in "BCD"]])
    # Rows: 2 revenue, 3 cost of sales, 4 S&A, 5 R&D, 6 gross profit, 7 EBITDA, 8 margin.
    for row in ws.iter_rows(min_row=2, max_row=7, min_col=2):
        for c in row:
            c.number_format = "#,##0.0"
    for c in ws[8][1:]:
        c.number_format = "0.0%"
    ws["A10"] = "Source: financials_fy2023_2025.xlsx (EBITDA excludes D&A)."
    ws.column_dimensions["A"].width = 30

    cx = wb.create_sheet("Capex")
    cx.append(["Year", f"Payment ({UNIT})", "Project", "Source"])
    for year, project, amount in CAPEX:
        value = fig["capex_2026"] if year == 2026 else amount
        src = "capex_plan_2026_2028.csv" + ("; corrected by MR-07 (2026-04-15)" if year == 2026 and corrected else "")
        cx.append([year, value, project, src])
    cx.append(["Total", "=SUM(B2:B4)", "2026-2028", ""])
    for r in range(2, 6):
        cx[f"B{r}"].number_format = "#,##0.0"
    cx.column_dimensions["B"].width = 22
    cx.column_dimensions["C"].width = 30
    cx.column_dimensions["D"].width = 52

    if change_log:
        cl = wb.create_sheet("Change Log")
        cl.append(["Date", "Item", "Previous", "Revised", "Source"])
        cl.append([dt.date(2026, 4, 15), "Capex 2026 payment (Capex!B2)", OLD_2026, NEW_2026, "Management response MR-07"])
        cl["A2"].number_format = "yyyy-mm-dd"
        cl.column_dimensions["B"].width = 32
        cl.column_dimensions["E"].width = 30

    if adjustments:
        aj = wb.create_sheet("Adjustments")
        aj.append([f"FY2025 normalisation ({UNIT})", "Amount", "Ref"])
        aj.append(["Reported EBITDA FY2025", "=Baseline!D7", "Baseline"])
        for nid, text, amount in NORMALISATION:
            aj.append([text, amount, nid])
        aj.append(["Total adjustments", "=SUM(B3:B6)", ""])
        aj.append(["Adjusted EBITDA FY2025", "=B2+B7", "Valuation basis (D-01)"])
        for r in range(2, 9):
            aj[f"B{r}"].number_format = "#,##0.0"
        aj.column_dimensions["A"].width = 62
        aj.column_dimensions["B"].width = 14
    for sheet in wb.worksheets:
        for c in sheet[1]:
            c.font = Font(bold=True)
    save_xlsx(wb, path, "Project Hengtai databook", recalc=True)


# ---------------------------------------------------------------- memo

def memo(path: Path, *, stage: int, corrected: bool, d02_active: bool) -> None:
    """stage 1: scoping memo; 2: after MR-07; 3: final with quality of earnings and handover."""
    fig = figures(corrected)
    doc = new_document()
    b.title_block(doc, "Financial Due Diligence Memorandum - Project Hengtai", [
        "To: Aurelia Capital Partners deal team", "From: Meridian Advisory",
        {1: "Draft 1 (scoping), 2026-04-08", 2: "Draft 2, 2026-04-17", 3: "Final, 2026-05-14"}[stage], f"Amounts in {UNIT}."])
    b.heading(doc, "Scope", 1)
    b.para(doc, "Historical baseline FY2023-FY2025, quality of earnings, capital expenditure 2026-2028 and its funding.")
    b.heading(doc, "Financial Baseline", 1)
    e = fig["ebitda"]
    b.para(doc, f"Revenue grew from {f1(PNL['Revenue'][0])} in FY2023 to {f1(PNL['Revenue'][2])} in FY2025. Reported EBITDA "
                f"was {f1(e[0])}, {f1(e[1])} and {f1(e[2])} for FY2023-FY2025 (FY2025 margin {100 * e[2] / PNL['Revenue'][2]:.1f}%).")
    if stage == 3:
        b.heading(doc, "Quality of Earnings", 1)
        b.para(doc, f"Adjusted EBITDA FY2025 is {f1(fig['adjusted'])} after net normalisation adjustments of "
                    f"{f1(fig['adjustments'])} (items N-01 to N-04, databook sheet Adjustments). It is the valuation basis (D-01).")
    b.heading(doc, "Capital Expenditure", 1)
    if corrected and stage >= 2:
        b.para(doc, f"The 2026 payment for the Line 4 automation contract is {f1(NEW_2026)}, as corrected by management "
                    "response MR-07 of 2026-04-15 (signed supplier amendment).")
    else:
        b.para(doc, f"The 2026 payment for the Line 4 automation contract is {f1(OLD_2026)}.")
    b.para(doc, f"Total planned capital expenditure for 2026-2028 is {f1(fig['capex_total'])} ({UNIT}).")
    if stage >= 2 and not corrected:
        b.para(doc, f"Change note: management response MR-07 of 2026-04-15 corrects the 2026 payment to {f1(NEW_2026)}.")
    b.heading(doc, "Decision Register", 1)
    register = ["D-01 Valuation basis: FY2025 adjusted EBITDA (Active)"]
    if stage < 3:
        register.append("D-02 Fund the 2026 capex through a sale-and-leaseback of the Changzhou warehouse (Active)")
    else:
        status = "Active" if d02_active else "Superseded by D-03"
        register.append(f"D-02 Fund the 2026 capex through a sale-and-leaseback of the Changzhou warehouse ({status})")
        register.append("D-03 Fund the 2026 capex from the revolving credit facility (Active)")
    b.bullets(doc, register)
    b.heading(doc, "Open Issues", 1)
    issues = {1: ["OI-1 Confirm the Line 4 automation contract amounts with the supplier contract.",
                  "OI-2 Obtain support for FY2025 non-recurring items (normalisation).",
                  "OI-3 Confirm FY2025 management accounts against the audited FY2025 statements when issued."],
              2: ["OI-1 Closed: 2026 Line 4 payment confirmed by MR-07.",
                  "OI-2 Obtain support for FY2025 non-recurring items (normalisation).",
                  "OI-3 Confirm FY2025 management accounts against the audited FY2025 statements when issued."],
              3: ["OI-3 Confirm FY2025 management accounts against the audited FY2025 statements when issued.",
                  "OI-4 Confirm RCF headroom for the 2026 capex with the lending bank."]}[stage]
    b.bullets(doc, issues)
    if stage == 3:
        b.heading(doc, "Handover Notes", 1)
        notes = [
            "Databook dd_model.xlsx is the single source of figures; sheet Change Log records MR-07.",
            "OI-3: Meridian Advisory (N. Wei) to reconcile audited FY2025 statements by 2026-06-15.",
            "OI-4: Aurelia deal team (K. Lindqvist) to confirm RCF headroom with the lending bank by 2026-05-30.",
        ]
        if d02_active:
            notes.append("Instruct the property agent on the Changzhou warehouse sale-and-leaseback (target completion Q3 2026).")
        b.bullets(doc, notes)
    save_docx(doc, path, "Project Hengtai due diligence memorandum")


# ---------------------------------------------------------------- deck

def deck(path: Path, *, corrected: bool, d02_active: bool) -> None:
    fig = figures(corrected)
    prs = new_deck()
    b.slide_title(prs, "Project Hengtai - Financial Due Diligence", "Management meeting, 2026-05-12 | Meridian Advisory for Aurelia Capital Partners")
    e = fig["ebitda"]
    b.slide_table(prs, "Financial Baseline", [UNIT, *YEARS],
                  [("Revenue", *[f1(v) for v in PNL["Revenue"]]), ("Reported EBITDA", *[f1(v) for v in e]),
                   ("EBITDA margin", *[f"{100 * v / r:.1f}%" for v, r in zip(e, PNL["Revenue"])])])
    b.slide_bullets(prs, "Quality of Earnings", [
        f"Reported EBITDA FY2025: {f1(fig['reported'])}",
        f"Net normalisation adjustments: {f1(fig['adjustments'])} (N-01 to N-04)",
        f"Adjusted EBITDA FY2025: {f1(fig['adjusted'])} - valuation basis (D-01)",
    ])
    b.slide_table(prs, "Capital Expenditure 2026-2028", ["Year", f"Payment ({UNIT})", "Project"],
                  [(y, f1(fig["capex_2026"] if y == 2026 else a), p) for y, p, a in CAPEX],
                  note=f"Total 2026-2028: {f1(fig['capex_total'])}" + (" (2026 payment per MR-07)" if corrected else ""))
    b.slide_bullets(prs, "Funding of the 2026 Capex", [
        "D-03 (steering committee, 2026-05-06): funded from the revolving credit facility.",
        f"2026 requirement: {f1(fig['capex_2026'])}; RCF headroom to be confirmed with the lending bank (OI-4).",
    ])
    steps = ["Confirm RCF headroom with the lending bank by 2026-05-30.",
             "Reconcile audited FY2025 statements by 2026-06-15.",
             "Hand the final package to the Aurelia investment committee."]
    if d02_active:
        steps.insert(0, "Complete the Changzhou warehouse sale-and-leaseback by Q3 2026 to fund the 2026 capex.")
    b.slide_bullets(prs, "Next Steps", steps)
    save_pptx(prs, path, "Project Hengtai management meeting")
