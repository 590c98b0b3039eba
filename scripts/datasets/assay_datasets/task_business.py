"""Business task: a quarterly business review deck (pptx). Leadership notes
supersede an earlier decision (Berlin showroom -> Rotterdam automation);
flaw `superseded-decision` keeps the Berlin opening as an active next step."""
from __future__ import annotations

from pathlib import Path

from openpyxl.styles import Font

from . import build as b
from .office import new_deck, new_document, new_workbook, save_docx, save_pptx, save_xlsx
from .spec import item, output, present, write_task

ID = "biz-quarterly-review-deck"
MONTHS = ["2026-04", "2026-05", "2026-06"]
# region: (revenue by month, orders by month, returns by month)
Q2 = {
    "DACH": ((412_300, 398_750, 441_900), (2_950, 2_861, 3_140), (171, 160, 179)),
    "Benelux": ((318_400, 335_200, 352_600), (2_274, 2_390, 2_512), (118, 122, 136)),
    "Nordics": ((186_500, 179_300, 201_450), (1_341, 1_288, 1_430), (109, 101, 118)),
    "UK": ((274_800, 262_150, 259_300), (1_972, 1_880, 1_861), (126, 118, 121)),
}
Q1 = {"DACH": 1_180_400, "Benelux": 902_300, "Nordics": 588_900, "UK": 801_700}
OKRS = [  # key result, target, kind
    ("Q2 net revenue (EUR)", 3_600_000, "revenue_total"),
    ("Group return rate (%)", 6.0, "return_rate_max"),
    ("Benelux revenue growth vs Q1 (%)", 10.0, "benelux_growth"),
    ("Nordics Q2 revenue (EUR)", 600_000, "nordics_revenue"),
]


def figures() -> dict:
    rev = {r: sum(v[0]) for r, v in Q2.items()}
    orders = {r: sum(v[1]) for r, v in Q2.items()}
    returns = {r: sum(v[2]) for r, v in Q2.items()}
    total = sum(rev.values())
    q1_total = sum(Q1.values())
    rate = {r: 100 * returns[r] / orders[r] for r in Q2}
    group_rate = 100 * sum(returns.values()) / sum(orders.values())
    growth = {r: 100 * (rev[r] / Q1[r] - 1) for r in Q2}
    actual = {"revenue_total": total, "return_rate_max": group_rate, "benelux_growth": growth["Benelux"], "nordics_revenue": rev["Nordics"]}
    met = {k: (actual[k] <= t if k == "return_rate_max" else actual[k] >= t) for _, t, k in OKRS}
    return {"rev": rev, "orders": orders, "returns": returns, "total": total, "q1_total": q1_total, "rate": rate,
            "group_rate": group_rate, "growth": growth, "total_growth": 100 * (total / q1_total - 1), "actual": actual, "met": met}


def write_inputs(inputs: Path) -> None:
    wb, ws = new_workbook("Monthly")
    ws.append(["Month", "Region", "Net revenue (EUR)", "Orders", "Returned orders"])
    for i, month in enumerate(MONTHS):
        for region, (rev, orders, returns) in Q2.items():
            ws.append([month, region, rev[i], orders[i], returns[i]])
    ws2 = wb.create_sheet("Q1 2026")
    ws2.append(["Region", "Net revenue (EUR)"])
    for region, value in Q1.items():
        ws2.append([region, value])
    for sheet in (ws, ws2):
        for c in sheet[1]:
            c.font = Font(bold=True)
        for row in sheet.iter_rows(min_row=2):
            for c in row:
                if isinstance(c.value, int) and c.value > 10_000:
                    c.number_format = "#,##0"
        sheet.column_dimensions["A"].width = 12
        for col in "BCDE":
            sheet.column_dimensions[col].width = 18
    save_xlsx(wb, inputs / "q2_sales.xlsx", "Q2 2026 sales by region")

    b.write_csv(inputs / "okr_targets.csv", ["key_result", "target", "direction", "owner"], [
        ("Q2 net revenue (EUR)", 3_600_000, "at least", "CCO"),
        ("Group return rate (%)", 6.0, "at most", "COO"),
        ("Benelux revenue growth vs Q1 (%)", 10.0, "at least", "GM Benelux"),
        ("Nordics Q2 revenue (EUR)", 600_000, "at least", "GM Nordics"),
    ])

    doc = new_document()
    b.title_block(doc, "Leadership meeting notes", ["Lumen Home B.V. - prepared by the Chief of Staff office"])
    b.heading(doc, "Meeting of 2026-06-03", 1)
    b.bullets(doc, [
        "Decision: open a Berlin showroom in Q4 2026 with a budget of EUR 1.2M (owner: GM DACH).",
        "Decision: extend the Nordics free-returns trial to the end of Q3.",
    ])
    b.heading(doc, "Meeting of 2026-07-08", 1)
    b.bullets(doc, [
        "Decision (supersedes 2026-06-03): the Berlin showroom opening is paused until the 2027 planning review.",
        "Decision: the EUR 1.2M is reallocated to automating the Rotterdam fulfilment centre, go-live Q1 2027 (owner: COO).",
        "Decision: the Nordics free-returns trial ends on 2026-07-31 because of the return rate.",
        "Action: the Q2 review deck goes to the supervisory board on 2026-07-15.",
    ])
    save_docx(doc, inputs / "leadership_notes.docx", "Leadership meeting notes")


def deck(path: Path, f: dict, superseded: bool) -> None:
    prs = new_deck()
    b.slide_title(prs, "Lumen Home - Q2 2026 Business Review", "Supervisory board, 2026-07-15 | Prepared by the Chief of Staff")
    b.slide_bullets(prs, "Executive Summary", [
        f"Q2 net revenue EUR {b.fmt(f['total'], 0)}, up {f['total_growth']:.1f}% on Q1 (EUR {b.fmt(f['q1_total'], 0)}).",
        f"Benelux grew {f['growth']['Benelux']:.1f}%, the fastest region; Nordics fell {-f['growth']['Nordics']:.1f}%.",
        f"Group return rate {f['group_rate']:.1f}% against a 6.0% ceiling; Nordics is highest at {f['rate']['Nordics']:.1f}%.",
        f"{sum(f['met'].values())} of {len(OKRS)} OKRs met.",
        "EUR 1.2M reallocated to Rotterdam fulfilment automation (leadership, 2026-07-08).",
    ])
    b.slide_table(prs, "Revenue by Region", ["Region", "Q1 2026 (EUR)", "Q2 2026 (EUR)", "Change vs Q1"],
                  [(r, b.fmt(Q1[r], 0), b.fmt(f["rev"][r], 0), f"{f['growth'][r]:+.1f}%") for r in Q2]
                  + [("Total", b.fmt(f["q1_total"], 0), b.fmt(f["total"], 0), f"{f['total_growth']:+.1f}%")],
                  note="Source: inputs/q2_sales.xlsx (sheets Monthly and Q1 2026).")
    rows = []
    for name, target, kind in OKRS:
        actual = f["actual"][kind]
        shown = f"{actual:.1f}" if kind in ("return_rate_max", "benelux_growth") else b.fmt(actual, 0)
        tgt = f"{target:.1f}" if isinstance(target, float) else b.fmt(target, 0)
        rows.append((name, tgt, shown, "Met" if f["met"][kind] else "Missed"))
    b.slide_table(prs, "OKR Scorecard", ["Key result", "Target", "Q2 actual", "Status"], rows)
    b.slide_table(prs, "Returns Analysis", ["Region", "Orders", "Returned", "Return rate"],
                  [(r, b.fmt(f["orders"][r], 0), b.fmt(f["returns"][r], 0), f"{f['rate'][r]:.1f}%") for r in Q2],
                  note="Nordics exceeds the 6.0% ceiling; the free-returns trial ends on 2026-07-31.")
    steps = [
        "Reallocate EUR 1.2M to Rotterdam fulfilment centre automation; go-live Q1 2027 (COO).",
        "Berlin showroom paused until the 2027 planning review (decision of 2026-07-08).",
        "End the Nordics free-returns trial on 2026-07-31 and report the Q3 return rate (GM Nordics).",
        "Benelux: keep the current acquisition budget; growth target met.",
    ]
    if superseded:
        steps[1] = "Open the Berlin showroom in Q4 2026 (EUR 1.2M budget approved 2026-06-03); sign the lease in August (GM DACH)."
    b.slide_bullets(prs, "Decisions and Next Steps", steps)
    b.slide_bullets(prs, "Appendix: Data Sources", [
        "q2_sales.xlsx - monthly net revenue, orders and returns by region; Q1 2026 revenue.",
        "okr_targets.csv - Q2 key results and targets.",
        "leadership_notes.docx - decisions of 2026-06-03 and 2026-07-08.",
        "Return rate = returned orders / orders; growth = Q2 / Q1 - 1.",
    ])
    save_pptx(prs, path, "Q2 2026 Business Review")


def generate(root: Path) -> dict:
    task = root / "tasks" / ID
    write_inputs(task / "inputs")
    f = figures()
    deck(task / "evaluator" / "reference" / "q2_business_review.pptx", f, superseded=False)
    deck(task / "evaluator" / "flaws" / "superseded-decision" / "q2_business_review.pptx", f, superseded=True)
    p = "q2_business_review.pptx"
    request = """
I'm chief of staff at Lumen Home. The supervisory board gets our Q2 2026 review on 15 July. Using the sales export
(inputs/q2_sales.xlsx), the OKR targets (inputs/okr_targets.csv) and the leadership meeting notes
(inputs/leadership_notes.docx), build outputs/q2_business_review.pptx with seven slides in this order: title;
Executive Summary; Revenue by Region (Q2 vs Q1 with growth); OKR Scorecard (target, actual, met/missed); Returns
Analysis (return rate = returned orders / orders, by region); Decisions and Next Steps (reflecting the latest
leadership decisions); Appendix: Data Sources. Show euro amounts with thousands separators, e.g. EUR 1,234,567.
"""
    items = [
        item("deck-present", "outputs/q2_business_review.pptx is delivered as a PowerPoint deck.", "core", "structure-completeness", present(p, "pptx")),
        item("q2-total", f"The deck states Q2 net revenue of EUR {b.fmt(f['total'], 0)} (sum of the three months over four regions).",
             "core", "calculation-precision", {"kind": "text-contains", "file": p, "text": b.fmt(f["total"], 0)}),
        item("rotterdam-decision", "Next steps reflect the 2026-07-08 decision to reallocate EUR 1.2M to Rotterdam fulfilment automation.",
             "core", "information-integration", {"kind": "text-contains", "file": p, "text": "Rotterdam"}),
        item("berlin-not-active", "The superseded Berlin showroom opening is not presented as an active plan or next step.",
             "core", "domain-compliance", {"kind": "text-absent", "file": p, "text": "Open the Berlin showroom"}),
        item("growth-by-region", f"Growth vs Q1 is correct per region (e.g. Benelux {f['growth']['Benelux']:+.1f}%, Nordics {f['growth']['Nordics']:+.1f}%).",
             "core", "calculation-precision"),
        item("seven-slides", "The deck has the seven requested slides.", "important", "structure-completeness",
             {"kind": "section-present", "file": p, "slide": 7}),
        item("decisions-slide", "A 'Decisions and Next Steps' slide exists.", "important", "structure-completeness",
             {"kind": "section-present", "file": p, "heading": "Decisions and Next Steps"}),
        item("okr-status", "The OKR scorecard shows target, actual and met/missed for all four key results (group return rate "
             f"{f['group_rate']:.1f}% {'meets' if f['met']['return_rate_max'] else 'misses'} the 6.0% ceiling; "
             f"{sum(f['met'].values())} of {len(OKRS)} met).", "important", "information-integration"),
        item("returns-rate", f"Return rates are computed as returned orders / orders; Nordics is highest at {f['rate']['Nordics']:.1f}%.",
             "important", "calculation-precision"),
        item("board-ready", "Recommendations are framed for a supervisory board (owners and dates on next steps).", "important", "domain-compliance"),
        item("sources-cited", "An appendix slide names the input files and the definitions used.", "auxiliary", "engineering-format"),
        item("exec-summary", "The executive summary fits on one slide with at most five bullets.", "auxiliary", "output-presentation"),
    ]
    write_task(task, id=ID, title="Q2 business review deck for the supervisory board", domain="business", request=request,
               outputs=[output(p, "pptx", "Seven-slide quarterly business review")], items=items, reference=[p])
    return {"id": ID, "figures": f}
