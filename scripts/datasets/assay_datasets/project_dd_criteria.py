"""Evaluator criteria of the due-diligence project (assay.criteria/v1).

Convention for checks on negative and fatal criteria: the check tests the
failure condition named in the text, so `satisfied` means h = 1 (deduction
applies / gate triggers)."""
from __future__ import annotations

from .project_dd_docs import NEW_2026, OLD_2026, figures

MODEL, MEMO, DECK = "dd_model.xlsx", "dd_memo.docx", "mgmt_deck.pptx"
NUM = "([0-9][0-9,]*\\.[0-9])"
MEMO_CAPEX_TOTAL = {"file": MEMO, "pattern": f"Total planned capital expenditure for 2026-2028 is {NUM}"}
DECK_CAPEX_TOTAL = {"file": DECK, "pattern": f"Total 2026-2028: {NUM}"}
MEMO_ADJ = {"file": MEMO, "pattern": f"Adjusted EBITDA FY2025 is {NUM}"}
DECK_ADJ = {"file": DECK, "pattern": f"Adjusted EBITDA FY2025: {NUM}"}
REFERENCE_FILES = {
    "t01-baseline-model": [MODEL], "t02-scoping-memo": [MODEL, MEMO], "t03-apply-correction": [MODEL, MEMO],
    "t04-ebitda-adjustments": [MODEL, MEMO], "t05-management-deck": [MODEL, MEMO, DECK], "t06-final-package": [MODEL, MEMO, DECK],
}


def c(id: str, text: str, weight: int, dimension: str, check: dict | None = None, **extra) -> dict:
    out = {"id": id, "text": text, "weight": weight, "dimension": dimension}
    out.update(extra)
    if check is not None:
        out["check"] = check
    return out


def cell(file: str, ref: str, value: float, tol: float = 0.05) -> dict:
    return {"kind": "cell-value", "file": file, "cell": ref, "equals": value, "tolerance": tol}


def present(path: str, fmt: str) -> dict:
    return {"kind": "deliverable-present", "path": path, "format": fmt}


def criteria() -> dict:
    old, new = figures(False), figures(True)
    o, n = f"{OLD_2026:,.1f}", f"{NEW_2026:,.1f}"
    checkpoints = {
        "t01-baseline-model": [
            c("model-present", "outputs/dd_model.xlsx is submitted as an Excel workbook.", 3, "completeness", present(MODEL, "xlsx")),
            c("fy2025-ebitda", f"Baseline!D7 holds FY2025 EBITDA excluding D&A, {new['reported']:,.1f}.", 5, "correctness",
              cell(MODEL, "Baseline!D7", new["reported"])),
            c("capex-total", f"Capex!B5 totals the released plan: {old['capex_total']:,.1f}.", 4, "correctness",
              cell(MODEL, "Capex!B5", old["capex_total"])),
            c("capex-total-cached", "The capex total is a formula saved with its calculated value.", 2, "usability",
              {"kind": "formula-cached", "file": MODEL, "range": "Capex!B5"}),
            c("units-sources", "Both sheets state the unit (CNY 10,000) and the source file of their figures.", 1, "professionalism"),
        ],
        "t02-scoping-memo": [
            c("memo-present", "outputs/dd_memo.docx is submitted as a Word document.", 3, "completeness", present(MEMO, "docx")),
            c("memo-capex-section", "The memo has a 'Capital Expenditure' section.", 2, "completeness",
              {"kind": "section-present", "file": MEMO, "heading": "Capital Expenditure"}),
            c("memo-decision-register", "The memo has a 'Decision Register' section listing D-01 and D-02 with their status.", 2, "completeness",
              {"kind": "section-present", "file": MEMO, "heading": "Decision Register"}),
            c("memo-agrees-model", "The capex total in the memo equals Capex!B5 of the databook.", 4, "consistency",
              {"kind": "files-agree", "a": {"file": MODEL, "cell": "Capex!B5"}, "b": MEMO_CAPEX_TOTAL, "tolerance": 0.05}),
            c("open-issues", "Open issues name what management still has to confirm (contract amounts, normalisation support).", 2, "usability"),
            c("premature-valuation", "Deduction (failure condition): the scoping memo states a valuation or price conclusion, outside the stage-1 scope.",
              -3, "professionalism"),
        ],
        "t03-apply-correction": [
            c("capex-2026-corrected", f"The operative Capex!B2 carries management's corrected 2026 payment {n}.", 8, "correctness",
              cell(MODEL, "Capex!B2", NEW_2026)),
            c("capex-total-corrected", f"Capex!B5 recalculates to {new['capex_total']:,.1f}.", 5, "correctness",
              cell(MODEL, "Capex!B5", new["capex_total"]), dependsOn=["capex-2026-corrected"]),
            c("change-log", "A 'Change Log' sheet records the MR-07 correction with date, previous and revised value, and source.", 2, "consistency",
              {"kind": "section-present", "file": MODEL, "sheet": "Change Log"}),
            c("memo-corrected", f"The memo states the corrected 2026 payment {n}.", 4, "consistency",
              {"kind": "text-contains", "file": MEMO, "text": n}),
            c("memo-stale-figure", f"Deduction (failure condition): the memo still quotes the superseded 2026 payment {o}.", -4, "consistency",
              {"kind": "text-contains", "file": MEMO, "text": o}),
        ],
        "t04-ebitda-adjustments": [
            c("adjustments-sheet", "The databook has an 'Adjustments' sheet.", 3, "completeness",
              {"kind": "section-present", "file": MODEL, "sheet": "Adjustments"}),
            c("adjusted-ebitda", f"Adjustments!B8 holds adjusted EBITDA FY2025 = {new['adjusted']:,.1f} (reported {new['reported']:,.1f}, "
              f"net adjustments {new['adjustments']:,.1f}).", 6, "correctness", cell(MODEL, "Adjustments!B8", new["adjusted"])),
            c("adjustments-cached", "The adjustments are live formulas saved with calculated values.", 2, "usability",
              {"kind": "formula-cached", "file": MODEL, "range": "Adjustments!B7:B8"}),
            c("correction-carried", f"The MR-07 correction is still in place (Capex!B2 = {n}).", 3, "consistency",
              cell(MODEL, "Capex!B2", NEW_2026)),
            c("adjustments-referenced", "Each adjustment carries its item id (N-01 to N-04) and the correct sign.", 2, "professionalism"),
        ],
        "t05-management-deck": [
            c("deck-present", "outputs/mgmt_deck.pptx is submitted as a PowerPoint deck.", 3, "completeness", present(DECK, "pptx")),
            c("deck-capex-total", f"The deck shows the corrected capex total {new['capex_total']:,.1f}.", 4, "consistency",
              {"kind": "text-contains", "file": DECK, "text": f"{new['capex_total']:,.1f}"}),
            c("deck-funding-current", "The deck presents the current funding decision D-03 (revolving credit facility).", 4, "correctness",
              {"kind": "text-contains", "file": DECK, "text": "revolving credit facility"}),
            c("deck-no-leaseback", "The deck does not present the superseded sale-and-leaseback (D-02) as a plan or next step.", 3, "consistency",
              {"kind": "text-absent", "file": DECK, "text": "leaseback"}),
            c("deck-six-slides", "The deck has the six requested slides.", 1, "completeness", {"kind": "section-present", "file": DECK, "slide": 6}),
            c("deck-readable", "Slides have clear titles and state units (CNY 10,000).", 1, "usability"),
        ],
        "t06-final-package": [
            c("final-model", "dd_model.xlsx is in the final package.", 2, "completeness", present(MODEL, "xlsx")),
            c("final-memo", "dd_memo.docx is in the final package.", 2, "completeness", present(MEMO, "docx")),
            c("final-deck", "mgmt_deck.pptx is in the final package.", 2, "completeness", present(DECK, "pptx")),
            c("register-superseded", "The decision register marks D-02 'Superseded by D-03'.", 5, "consistency",
              {"kind": "text-contains", "file": MEMO, "text": "Changzhou warehouse (Superseded by D-03)"}),
            c("register-stale", "Deduction (failure condition): the decision register still lists the sale-and-leaseback D-02 as Active.",
              -5, "consistency", {"kind": "text-contains", "file": MEMO, "text": "Changzhou warehouse (Active)"}),
            c("handover-notes", "The memo ends with a 'Handover Notes' section.", 3, "completeness",
              {"kind": "section-present", "file": MEMO, "heading": "Handover Notes"}),
            c("memo-adjusted-ebitda", "Adjusted EBITDA in the memo equals Adjustments!B8.", 3, "consistency",
              {"kind": "files-agree", "a": {"file": MODEL, "cell": "Adjustments!B8"}, "b": MEMO_ADJ, "tolerance": 0.05}),
            c("handover-owners", "Handover notes give an owner and a date for every open item.", 2, "usability"),
        ],
    }
    final = [
        c("fa-capex-corrected", f"Final databook: Capex!B2 carries the corrected 2026 payment {n}.", 8, "correctness",
          cell(MODEL, "Capex!B2", NEW_2026), target="artifact-quality", reuses="t03-apply-correction/capex-2026-corrected"),
        c("fa-adjusted-ebitda", f"Final databook: adjusted EBITDA FY2025 = {new['adjusted']:,.1f} in Adjustments!B8.", 6, "correctness",
          cell(MODEL, "Adjustments!B8", new["adjusted"]), target="artifact-quality", reuses="t04-ebitda-adjustments/adjusted-ebitda"),
        c("fa-deck-funding", "Final deck presents D-03 (revolving credit facility) as the funding route.", 4, "correctness",
          {"kind": "text-contains", "file": DECK, "text": "revolving credit facility"}, target="artifact-quality",
          reuses="t05-management-deck/deck-funding-current"),
        c("fa-memo-capex-section", "Final memo keeps its 'Capital Expenditure' section.", 2, "completeness",
          {"kind": "section-present", "file": MEMO, "heading": "Capital Expenditure"}, target="artifact-quality",
          reuses="t02-scoping-memo/memo-capex-section"),
        c("fa-model-cached", "Final databook formulas carry calculated values (Capex!B5).", 2, "usability",
          {"kind": "formula-cached", "file": MODEL, "range": "Capex!B5"}, target="artifact-quality",
          reuses="t01-baseline-model/capex-total-cached"),
        c("fatal-stale-capex", f"Fatal gate (triggered when): the operative databook still carries the superseded 2026 payment {o} "
          "in Capex!B2, so every figure built on it is wrong.", 0, "correctness", cell(MODEL, "Capex!B2", OLD_2026),
          target="artifact-quality", fatal=True),
        c("cf-memo-capex-total", "Memo and databook agree on the corrected 2026-2028 capex total.", 5, "consistency",
          {"kind": "files-agree", "a": {"file": MODEL, "cell": "Capex!B5"}, "b": MEMO_CAPEX_TOTAL, "tolerance": 0.05},
          target="cross-file-consistency", dependsOn=["fa-capex-corrected"]),
        c("cf-deck-capex-total", "Deck and databook agree on the corrected 2026-2028 capex total.", 4, "consistency",
          {"kind": "files-agree", "a": {"file": MODEL, "cell": "Capex!B5"}, "b": DECK_CAPEX_TOTAL, "tolerance": 0.05},
          target="cross-file-consistency", dependsOn=["fa-capex-corrected"]),
        c("cf-deck-adjusted-ebitda", "Deck and databook agree on adjusted EBITDA FY2025.", 3, "consistency",
          {"kind": "files-agree", "a": {"file": MODEL, "cell": "Adjustments!B8"}, "b": DECK_ADJ, "tolerance": 0.05},
          target="cross-file-consistency"),
        c("cf-memo-no-stale-capex", f"The memo no longer quotes the superseded 2026 payment {o}.", 4, "consistency",
          {"kind": "text-absent", "file": MEMO, "text": o}, target="cross-file-consistency"),
        c("cf-deck-no-stale-capex", f"The deck no longer quotes the superseded 2026 payment {o}.", 3, "consistency",
          {"kind": "text-absent", "file": DECK, "text": o}, target="cross-file-consistency"),
        c("cf-deck-no-leaseback", "The deck does not carry the superseded sale-and-leaseback decision.", 4, "consistency",
          {"kind": "text-absent", "file": DECK, "text": "leaseback"}, target="cross-file-consistency"),
        c("pa-model", "The package includes the databook as .xlsx.", 3, "completeness", present(MODEL, "xlsx"), target="package-acceptance"),
        c("pa-memo", "The package includes the memorandum as .docx.", 3, "completeness", present(MEMO, "docx"), target="package-acceptance"),
        c("pa-deck", "The package includes the presentation as .pptx.", 3, "completeness", present(DECK, "pptx"), target="package-acceptance"),
        c("pa-handover", "The memo closes with 'Handover Notes'.", 2, "usability",
          {"kind": "section-present", "file": MEMO, "heading": "Handover Notes"}, target="package-acceptance"),
        c("pa-handover-quality", "Handover notes list open items with owners and dates and point the recipient at D-03, not D-02.", 3,
          "professionalism", target="package-acceptance"),
        c("pa-stale-decision", "Deduction (failure condition): the package still presents the sale-and-leaseback (D-02) as an Active decision.",
          -5, "consistency", {"kind": "text-contains", "file": MEMO, "text": "Changzhou warehouse (Active)"}, target="package-acceptance"),
    ]
    reference = [f"{sub}/{f}" for sub, files in REFERENCE_FILES.items() for f in files]
    return {"schema": "assay.criteria/v1", "checkpoints": checkpoints, "final": final, "reference": reference}
