"""Legal task: review a counterparty's draft NDA against the client's
negotiation playbook and deliver an issues memo as PDF."""
from __future__ import annotations

import tempfile
from pathlib import Path

from openpyxl.styles import Alignment, Font

from . import build as b
from .office import new_document, new_workbook, save_docx, save_xlsx, to_pdf
from .spec import item, output, present, write_task

ID = "legal-nda-review"
CLAUSES = [
    ("1", "Definition of Confidential Information", "Confidential Information means all information disclosed by either party, "
     "in any form, that is marked confidential or would reasonably be understood to be confidential."),
    ("2", "Exclusions", "Information that is public, already known to the recipient, independently developed, or lawfully "
     "received from a third party without restriction is excluded."),
    ("3", "Permitted Purpose", "The recipient shall use Confidential Information solely to evaluate a potential data-licensing "
     "partnership between the parties (the Purpose)."),
    ("4", "Non-Solicitation", "For 24 months after the date of this Agreement neither party shall solicit or hire any employee "
     "or contractor of the other party."),
    ("5", "Return or Destruction", "On request the recipient shall return or destroy Confidential Information within 30 days, "
     "save for copies held in automatic electronic back-ups, which remain subject to this Agreement."),
    ("6", "Residuals", "Nothing in this Agreement restricts either party from using information retained in the unaided memory "
     "of its personnel, including ideas, concepts, know-how and techniques."),
    ("7", "Term", "This Agreement lasts 1 year from its date, and the confidentiality obligations end on its expiry."),
    ("8", "Remedies", "Each party shall pay liquidated damages of GBP 250,000 for each breach, without prejudice to any other "
     "remedy, and liability under this Agreement is unlimited."),
    ("9", "Governing Law and Jurisdiction", "This Agreement is governed by the laws of the State of New York and the courts of "
     "New York County have exclusive jurisdiction."),
]
PLAYBOOK = [  # clause topic, preferred, fallback, walk-away / escalate
    ("Definition of Confidential Information", "Marked or reasonably understood as confidential", "Marked only, oral confirmed in writing within 30 days", "None"),
    ("Exclusions", "Standard four exclusions", "Standard four exclusions", "Any narrowing of the exclusions"),
    ("Non-solicitation", "No non-solicitation in an NDA", "12 months, employees directly involved in the Purpose, general adverts excepted", "Any no-hire clause or > 12 months"),
    ("Return or destruction", "Return or destroy within 30 days; back-up copies allowed", "Same", "No back-up carve-out"),
    ("Residuals", "No residuals clause", "None - delete", "Any residuals clause"),
    ("Term", "3 years confidentiality after disclosure", "2 years", "Less than 2 years: escalate to GC"),
    ("Remedies and liability", "Injunctive relief; no liquidated damages; liability uncapped only for wilful disclosure", "Mutual cap of GBP 1,000,000", "Liquidated damages"),
    ("Governing law", "England and Wales, courts of London", "Ireland or Netherlands", "US state law: escalate to GC"),
]
ISSUES = [  # clause, issue, risk, proposed redline
    ("6 Residuals", "Lets the counterparty use anything its staff remember, defeating the NDA for our data model.", "High",
     "Delete clause 6 in full. Playbook: no residuals clause."),
    ("8 Remedies", "Liquidated damages of GBP 250,000 per breach and unlimited liability.", "High",
     "Replace with: 'Each party may seek injunctive relief. Liability is capped at GBP 1,000,000 save for wilful disclosure.'"),
    ("7 Term", "Confidentiality ends after 1 year, below the 2-year playbook minimum.", "High",
     "Replace with: 'The confidentiality obligations survive for 3 years from the date of each disclosure.'"),
    ("4 Non-Solicitation", "24-month mutual no-hire and no-solicit clause; playbook allows none or 12 months.", "Medium",
     "Limit to 12 months, employees directly involved in the Purpose, and carve out general advertisements."),
    ("9 Governing Law", "New York law and exclusive New York jurisdiction.", "Medium",
     "Replace with: 'This Agreement is governed by the laws of England and Wales; the courts of London have exclusive jurisdiction.'"),
]


def write_inputs(inputs: Path) -> None:
    doc = new_document()
    b.title_block(doc, "Mutual Non-Disclosure Agreement (counterparty draft v1)", [
        "Between Halcyon Data Inc. (Delaware) and Brightwater Analytics Ltd (England and Wales)",
        "Draft circulated by Halcyon Data Inc. on 2026-04-21"])
    for number, title, text in CLAUSES:
        b.heading(doc, f"{number}. {title}", 2)
        b.para(doc, text)
    save_docx(doc, inputs / "draft_nda.docx", "Draft mutual NDA")

    wb, ws = new_workbook("Playbook")
    ws.append(["Clause topic", "Preferred position", "Fallback position", "Walk-away / escalation"])
    for row in PLAYBOOK:
        ws.append(list(row))
    for c in ws[1]:
        c.font = Font(bold=True)
    for col, width in zip("ABCD", (34, 48, 48, 34)):
        ws.column_dimensions[col].width = width
    for row in ws.iter_rows(min_row=2):
        for c in row:
            c.alignment = Alignment(wrap_text=True, vertical="top")
    ws2 = wb.create_sheet("Risk scale")
    ws2.append(["Rating", "Meaning"])
    ws2.append(["High", "Walk-away position triggered or material uncapped exposure: must be fixed before signing"])
    ws2.append(["Medium", "Outside preferred and fallback positions: negotiate"])
    ws2.append(["Low", "Within fallback: accept, optionally comment"])
    ws2.column_dimensions["B"].width = 90
    save_xlsx(wb, inputs / "nda_playbook.xlsx", "NDA negotiation playbook")


def write_reference(pdf: Path) -> None:
    doc = new_document()
    b.title_block(doc, "NDA Review Memo", [
        "To: General Counsel, Brightwater Analytics Ltd", "From: Commercial Legal", "Date: 2026-04-23",
        "Re: Halcyon Data Inc. draft mutual NDA (v1 of 2026-04-21)"])
    b.heading(doc, "Summary", 1)
    b.para(doc, "The draft departs from our playbook on five clauses, three of them High risk (residuals, liquidated "
                "damages and unlimited liability, and a 1-year term). Clauses 1, 2, 3 and 5 are within the playbook.")
    b.heading(doc, "Issues", 1)
    b.table(doc, ["Clause", "Issue", "Risk", "Proposed redline"], ISSUES)
    b.heading(doc, "Clauses Accepted", 1)
    b.para(doc, "Clause 1 (definition), clause 2 (exclusions), clause 3 (purpose) and clause 5 (return or destruction "
                "within 30 days with a back-up carve-out) match our preferred positions and need no change.")
    b.heading(doc, "Recommendation", 1)
    b.para(doc, "Do not sign the draft as it stands. Return our redline on clauses 4, 6, 7, 8 and 9; the residuals, "
                "liquidated damages and term points are conditions for signature. The New York governing-law point "
                "is escalated to you under the playbook.")
    with tempfile.TemporaryDirectory() as tmp:
        src = save_docx(doc, Path(tmp) / "nda_review_memo.docx", "NDA review memo")
        to_pdf(src, pdf)


def generate(root: Path) -> dict:
    task = root / "tasks" / ID
    write_inputs(task / "inputs")
    write_reference(task / "evaluator" / "reference" / "nda_review_memo.pdf")
    f = "nda_review_memo.pdf"
    request = """
Halcyon Data sent us their draft mutual NDA (inputs/draft_nda.docx) ahead of a data-licensing discussion. Please
review it against our NDA negotiation playbook (inputs/nda_playbook.xlsx, including its risk scale) and send me
outputs/nda_review_memo.pdf: a memo to the General Counsel listing every clause that departs from the playbook,
with a High/Medium/Low risk rating, the issue, and proposed redline wording; the clauses we can accept; and a clear
recommendation on whether to sign. PDF please, it goes straight into the board pack.
"""
    items = [
        item("memo-present", "outputs/nda_review_memo.pdf is delivered as a PDF.", "core", "structure-completeness", present(f, "pdf")),
        item("residuals-flagged", "The residuals clause (6) is identified as High risk with deletion proposed.", "core", "domain-compliance",
             {"kind": "text-contains", "file": f, "text": "residuals"}),
        item("liquidated-damages-flagged", "Liquidated damages and unlimited liability (clause 8) are flagged High with a capped alternative.",
             "core", "domain-compliance", {"kind": "text-contains", "file": f, "text": "liquidated damages"}),
        item("term-below-minimum", "The 1-year term is flagged as below the playbook's 2-year minimum (escalation) and 3 years is proposed.",
             "core", "information-integration"),
        item("sign-recommendation", "The memo recommends not signing the draft as it stands, consistent with the High-risk issues.",
             "core", "domain-compliance"),
        item("non-solicit", "The 24-month non-solicitation clause is flagged and limited to the 12-month fallback.", "important", "domain-compliance"),
        item("governing-law", "New York governing law is flagged and England and Wales proposed, with escalation to the GC.", "important", "information-integration"),
        item("no-false-positives", "Compliant clauses (1, 2, 3, 5) are not reported as deviations.", "important", "calculation-precision"),
        item("redlines", "Every issue carries concrete proposed redline wording.", "important", "structure-completeness"),
        item("no-placeholders", "No placeholder text (such as TBD) remains in the memo.", "auxiliary", "engineering-format",
             {"kind": "text-absent", "file": f, "text": "TBD"}),
        item("risk-scale", "Risk ratings use only the playbook scale High / Medium / Low.", "auxiliary", "engineering-format"),
        item("memo-layout", "The memo is addressed, dated and uses an issues table that a GC can scan quickly.", "auxiliary", "output-presentation"),
    ]
    write_task(task, id=ID, title="NDA review against the negotiation playbook", domain="legal", request=request,
               outputs=[output(f, "pdf", "Issues memo to the General Counsel")], items=items, reference=[f])
    return {"id": ID}
