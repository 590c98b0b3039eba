"""DeliverBench-style project: buy-side financial due diligence over three
stages and six subtasks. A management response in stage 2 corrects the 2026
capex payment (4,841.5 -> 4,249.2, as in the paper's P07 case) and the stage-3
steering committee supersedes decision D-02 (as in P04).

Per subtask, evaluator/reference/<subtask>/ is the full content of
/workspace/outputs/ after that subtask; flaws/<agent>/<subtask>/ likewise."""
from __future__ import annotations

import shutil
from pathlib import Path

from . import project_dd_docs as d
from .build import write_yaml
from .project_dd_criteria import criteria

ID = "fdd-hengtai"
SUBTASKS = ["t01-baseline-model", "t02-scoping-memo", "t03-apply-correction", "t04-ebitda-adjustments",
            "t05-management-deck", "t06-final-package"]
MODEL, MEMO, DECK = "dd_model.xlsx", "dd_memo.docx", "mgmt_deck.pptx"


def deliverable(path: str, fmt: str, description: str) -> dict:
    return {"path": path, "format": fmt, "required": True, "description": description}


def spec() -> dict:
    model_d = deliverable(MODEL, "xlsx", "Due diligence databook")
    memo_d = deliverable(MEMO, "docx", "Due diligence memorandum")
    deck_d = deliverable(DECK, "pptx", "Management meeting presentation")
    return {
        "schema": "assay.project/v1",
        "id": ID,
        "title": "Project Hengtai: buy-side financial due diligence",
        "role": "Senior associate in the financial due diligence team of Meridian Advisory, working for the buyer "
                "Aurelia Capital Partners.",
        "objective": "Deliver a consistent due diligence package on Jiangsu Hengtai Precision Components - databook "
                     "(outputs/dd_model.xlsx), memorandum (outputs/dd_memo.docx) and management presentation "
                     "(outputs/mgmt_deck.pptx) - that reflects every management response and steering decision released "
                     "during the engagement.",
        "stages": [
            {"id": "s1-kickoff", "title": "Kick-off and financial baseline",
             "releases": [
                 {"id": "engagement-brief", "kind": "material", "path": "s1-kickoff/engagement_brief.docx",
                  "note": "Scope, deliverables, decisions D-01 and D-02, working rules."},
                 {"id": "financials", "kind": "material", "path": "s1-kickoff/financials_fy2023_2025.xlsx"},
                 {"id": "capex-plan", "kind": "material", "path": "s1-kickoff/capex_plan_2026_2028.csv"}],
             "subtasks": [
                 {"id": SUBTASKS[0], "title": "Baseline databook",
                  "instructions": "Create outputs/dd_model.xlsx, the databook, from inputs/financials_fy2023_2025.xlsx and "
                                  "inputs/capex_plan_2026_2028.csv. Sheet \"Baseline\": years FY2023-FY2025 in columns B-D, rows 2-5 "
                                  "revenue, cost of sales, selling and admin, R&D; row 6 gross profit, row 7 EBITDA (excluding D&A), "
                                  "row 8 EBITDA margin, all as formulas. Sheet \"Capex\": one row per year 2026-2028 in rows 2-4 "
                                  "(year, payment, project, source) and the total in B5 as a formula. Amounts in CNY 10,000.",
                  "deliverables": [model_d]},
                 {"id": SUBTASKS[1], "title": "Scoping memorandum",
                  "instructions": "Draft outputs/dd_memo.docx from your databook and inputs/engagement_brief.docx, with the "
                                  "headings Scope, Financial Baseline, Capital Expenditure, Decision Register and Open Issues. State "
                                  "the capex total as \"Total planned capital expenditure for 2026-2028 is X\". Record each decision "
                                  "with its id and status in parentheses, e.g. \"D-01 ... (Active)\". No valuation conclusions yet.",
                  "deliverables": [memo_d]},
             ]},
            {"id": "s2-management-responses", "title": "Management responses and normalisation",
             "releases": [
                 {"id": "mr-07", "kind": "feedback", "path": "s2-management-responses/mgmt_response_capex.docx",
                  "note": "Management corrects the 2026 capex payment."},
                 {"id": "normalisation-items", "kind": "material", "path": "s2-management-responses/normalization_items.xlsx"}],
             "subtasks": [
                 {"id": SUBTASKS[2], "title": "Apply management response MR-07",
                  "instructions": "Apply inputs/mgmt_response_capex.docx to outputs/dd_model.xlsx (the operative Capex schedule and "
                                  "its total) and record the change in a \"Change Log\" sheet (date, item, previous, revised, source). "
                                  "Then bring outputs/dd_memo.docx up to date with the databook.",
                  "deliverables": [model_d, memo_d]},
                 {"id": SUBTASKS[3], "title": "Normalised EBITDA",
                  "instructions": "Add an \"Adjustments\" sheet to outputs/dd_model.xlsx from inputs/normalization_items.xlsx: "
                                  "reported FY2025 EBITDA linked to the Baseline sheet in B2, items N-01 to N-04 in rows 3-6, total "
                                  "adjustments in B7 and adjusted EBITDA FY2025 in B8, as formulas. Keep every earlier update.",
                  "deliverables": [model_d]},
             ]},
            {"id": "s3-steering", "title": "Steering committee and handover",
             "releases": [
                 {"id": "steering-minutes", "kind": "feedback", "path": "s3-steering/steering_committee_minutes.docx",
                  "note": "Decision D-03 supersedes D-02; the final package goes to the investment committee."}],
             "subtasks": [
                 {"id": SUBTASKS[4], "title": "Management meeting presentation",
                  "instructions": "Prepare outputs/mgmt_deck.pptx for the 2026-05-12 management meeting: title, Financial Baseline, "
                                  "Quality of Earnings (state \"Adjusted EBITDA FY2025: X\"), Capital Expenditure 2026-2028 (state "
                                  "\"Total 2026-2028: X\"), Funding of the 2026 Capex, Next Steps. Quote the databook and the "
                                  "current decisions.",
                  "deliverables": [deck_d]},
                 {"id": SUBTASKS[5], "title": "Final package",
                  "instructions": "Finalise the package for the investment committee: update outputs/dd_memo.docx with a Quality of "
                                  "Earnings section (\"Adjusted EBITDA FY2025 is X\"), the current decision register and a closing "
                                  "\"Handover Notes\" section (open items, owners, dates); make sure outputs/dd_model.xlsx, "
                                  "outputs/dd_memo.docx and outputs/mgmt_deck.pptx agree with each other.",
                  "deliverables": [memo_d, model_d, deck_d]},
             ]},
        ],
        "finalPackage": [model_d, memo_d, deck_d],
    }


def write_state(folder: Path, *, upto: int, corrected: bool, d02_active: bool) -> None:
    """Write the outputs folder as it stands after subtask index `upto` (0-based)."""
    folder.mkdir(parents=True, exist_ok=True)
    after_correction = upto >= 2
    d.model(folder / MODEL, corrected=after_correction and corrected, change_log=after_correction, adjustments=upto >= 3)
    if upto >= 1:
        stage = 1 if upto == 1 else (3 if upto >= 5 else 2)
        d.memo(folder / MEMO, stage=stage, corrected=after_correction and corrected, d02_active=d02_active)
    if upto >= 4:
        d.deck(folder / DECK, corrected=corrected, d02_active=d02_active)


def generate(root: Path) -> dict:
    proj = root / "projects" / ID
    d.write_releases(proj / "releases")
    write_yaml(proj / "project.yaml", spec(), header="Generated by scripts/datasets/generate.py - edit the generator, not this file.")
    ev = proj / "evaluator"
    write_yaml(ev / "criteria.yaml", criteria(), header="Evaluator-only. Generated by scripts/datasets/generate.py. "
               "For negative and fatal criteria a check tests the failure condition (satisfied = condition met).")

    cache: dict[tuple, Path] = {}

    def state(dest: Path, upto: int, corrected: bool, d02_active: bool) -> None:
        # Identical states are built once and copied, so LibreOffice runs only for distinct versions.
        key = (upto, corrected, d02_active)
        if key in cache:
            shutil.copytree(cache[key], dest)
        else:
            write_state(dest, upto=upto, corrected=corrected, d02_active=d02_active)
            cache[key] = dest

    for i, sub in enumerate(SUBTASKS):
        state(ev / "reference" / sub, i, True, False)
    for i in range(2, 6):
        state(ev / "flaws" / "correction-not-applied" / SUBTASKS[i], i, False, False)
    for i in range(4, 6):
        state(ev / "flaws" / "superseded-decision" / SUBTASKS[i], i, True, True)
    return {"id": ID, "subtasks": SUBTASKS}
