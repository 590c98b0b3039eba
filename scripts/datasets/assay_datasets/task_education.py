"""Education task: a Year 5 fractions lesson targeting the weakest objective in
a class diagnostic (deliverables: docx lesson plan + md exit ticket)."""
from __future__ import annotations

from pathlib import Path

from openpyxl.styles import Font

from . import build as b
from .office import new_document, new_workbook, save_docx, save_xlsx
from .spec import item, output, present, write_task

ID = "edu-fractions-lesson"
OBJECTIVES = {
    "Y5-F1": "Compare and order fractions whose denominators are all multiples of the same number",
    "Y5-F2": "Identify, name and write equivalent fractions of a given fraction",
    "Y5-F3": "Add and subtract fractions with the same denominator and denominators that are multiples of the same number",
    "Y5-F4": "Multiply proper fractions and mixed numbers by whole numbers",
    "Y5-F5": "Read and write decimal numbers as fractions",
}
ITEMS = [("Q1", "Y5-F1", 22), ("Q2", "Y5-F1", 20), ("Q3", "Y5-F2", 19), ("Q4", "Y5-F2", 17), ("Q5", "Y5-F3", 12),
         ("Q6", "Y5-F3", 11), ("Q7", "Y5-F3", 10), ("Q8", "Y5-F4", 18), ("Q9", "Y5-F5", 21), ("Q10", "Y5-F5", 16)]
PUPILS = [f"P{i:02d}" for i in range(1, 29)]
EAL = {"P04", "P11", "P19", "P23"}
SEN = {"P07": "Dyslexia: reading support", "P15": "ADHD: short tasks, movement breaks", "P26": "Dyscalculia support plan"}


def score(i: int, j: int) -> int:
    """Deterministic: exactly the item's count of pupils answer it correctly."""
    return 1 if (i * 5 + j * 11) % 28 < ITEMS[j][2] else 0


def objective_rates() -> dict[str, float]:
    totals: dict[str, list[int]] = {}
    for j, (_, obj, _) in enumerate(ITEMS):
        got = sum(score(i, j) for i in range(len(PUPILS)))
        t = totals.setdefault(obj, [0, 0])
        t[0] += got
        t[1] += len(PUPILS)
    return {obj: 100 * a / n for obj, (a, n) in totals.items()}


def write_inputs(inputs: Path) -> None:
    doc = new_document()
    b.title_block(doc, "Year 5 Mathematics - Fractions (including decimals)", ["Statutory objectives extract, school scheme of work 2025-26"])
    b.table(doc, ["Code", "Pupils should be taught to"], OBJECTIVES.items())
    b.para(doc, "School policy: lessons follow a concrete-pictorial-abstract sequence, include a timed plan totalling the "
                "lesson length, and end with an exit ticket of no more than five questions marked against the objective.")
    save_docx(doc, inputs / "curriculum_objectives.docx", "Year 5 fractions objectives")

    wb, ws = new_workbook("Scores")
    ws.append(["Pupil", *[q for q, _, _ in ITEMS]])
    for i, pupil in enumerate(PUPILS):
        ws.append([pupil, *[score(i, j) for j in range(len(ITEMS))]])
    ws2 = wb.create_sheet("Item map")
    ws2.append(["Item", "Objective", "Question"])
    questions = ["Order 2/3, 5/6, 7/12", "Which is larger, 3/4 or 5/8?", "Write two fractions equivalent to 2/5",
                 "Fill in: 3/4 = ?/12", "1/3 + 1/6", "7/8 - 1/4", "2/5 + 3/10", "4 x 2/3", "Write 0.7 as a fraction",
                 "Write 0.25 as a fraction in simplest form"]
    for (q, obj, _), text in zip(ITEMS, questions):
        ws2.append([q, obj, text])
    for sheet in (ws, ws2):
        for c in sheet[1]:
            c.font = Font(bold=True)
    ws2.column_dimensions["C"].width = 44
    ws["A31"] = "1 = correct, 0 = incorrect. Diagnostic taken 2026-01-12, 28 pupils, class 5M."
    save_xlsx(wb, inputs / "diagnostic_results.xlsx", "Fractions diagnostic")

    b.write_csv(inputs / "class_profile.csv", ["pupil", "eal", "sen", "notes"],
                [(p, "Y" if p in EAL else "N", "Y" if p in SEN else "N", SEN.get(p, "EAL: new to English (stage B)" if p in EAL else ""))
                 for p in PUPILS])


def write_reference(ref: Path, rates: dict[str, float]) -> None:
    weakest = min(rates, key=rates.__getitem__)
    assert weakest == "Y5-F3"
    pct = f"{rates[weakest]:.0f}%"
    doc = new_document()
    b.title_block(doc, "Lesson Plan - Adding and Subtracting Fractions", [
        "Class 5M (28 pupils)  |  60 minutes  |  Week of 2026-01-19", "Teacher: Year 5 maths lead"])
    b.heading(doc, "Learning Objective", 1)
    b.para(doc, f"Y5-F3: {OBJECTIVES[weakest]}.")
    b.para(doc, "Success criteria: I can find a common denominator when one denominator is a multiple of the other; "
                "I can add and subtract the numerators and simplify the answer.")
    b.heading(doc, "Prior Assessment Evidence", 1)
    b.para(doc, f"In the diagnostic of 2026-01-12 the class scored {pct} on Y5-F3 (items Q5-Q7), the lowest of the five "
                "objectives: " + ", ".join(f"{o} {r:.0f}%" for o, r in sorted(rates.items())) + ". "
                "Most errors added denominators (e.g. 1/3 + 1/6 = 2/9).")
    b.heading(doc, "Lesson Sequence", 1)
    b.table(doc, ["Minutes", "Phase", "Activity"], [
        ("0-5", "Starter", "Equivalent fractions on mini whiteboards: 1/3 = ?/6, 3/4 = ?/8"),
        ("5-15", "Concrete", "Fraction strips: show 1/3 + 1/6 by exchanging thirds for sixths"),
        ("15-30", "Pictorial", "Bar models for addition and subtraction with related denominators; guided practice in pairs"),
        ("30-45", "Abstract", "Independent practice: 12 questions in three levels of challenge"),
        ("45-55", "Plenary", "Address the misconception of adding denominators; pupils explain a worked error"),
        ("55-60", "Exit ticket", "Five questions (exit_quiz.md), marked against Y5-F3"),
    ])
    b.para(doc, "Total: 60 minutes.")
    b.heading(doc, "Differentiation", 1)
    b.bullets(doc, [
        "EAL pupils (P04, P11, P19, P23): vocabulary card for numerator, denominator, common denominator, with visuals; paired with a fluent partner.",
        "P07 (dyslexia): questions read aloud, larger font worksheet.",
        "P15 (ADHD): practice split into three short blocks with a movement break after the pictorial phase.",
        "P26 (dyscalculia plan): keeps fraction strips throughout; first level of challenge only, with TA support.",
        "Greater depth: missing-number problems (e.g. 5/8 - ? = 1/4) and a reasoning question.",
    ])
    b.heading(doc, "Assessment for Learning", 1)
    b.bullets(doc, [
        "Mini whiteboard checks after each phase; hinge question before independent practice: 1/2 + 1/4 = 2/6 or 3/4?",
        "Exit ticket: pupils scoring 4 or 5 of 5 move on; others join a pre-teach group next lesson.",
    ])
    b.heading(doc, "Resources", 1)
    b.para(doc, "Fraction strips, bar-model templates, mini whiteboards, three-level worksheet, exit ticket.")
    save_docx(doc, ref / "lesson_plan.docx", "Lesson plan Y5-F3")

    b.write_text(ref / "exit_quiz.md", """# Exit Ticket - Adding and Subtracting Fractions (Y5-F3)

Name: ____________  Date: ____________

1. 1/2 + 1/4 = ?
2. 2/3 + 1/6 = ?
3. 3/4 - 1/8 = ?
4. 5/6 - 1/3 = ? (give your answer in its simplest form)
5. Maya ate 1/3 of a pizza and Tom ate 1/6 of the same pizza. What fraction of the pizza did they eat altogether?

## Answer Key

1. 3/4 (1/2 = 2/4; 2/4 + 1/4 = 3/4)
2. 5/6 (2/3 = 4/6; 4/6 + 1/6 = 5/6)
3. 5/8 (3/4 = 6/8; 6/8 - 1/8 = 5/8)
4. 1/2 (1/3 = 2/6; 5/6 - 2/6 = 3/6 = 1/2)
5. 1/2 of the pizza (1/3 = 2/6; 2/6 + 1/6 = 3/6 = 1/2)

Marking: one mark per question; 4-5 = secure, 2-3 = developing, 0-1 = pre-teach group.
""")


def generate(root: Path) -> dict:
    task = root / "tasks" / ID
    write_inputs(task / "inputs")
    rates = objective_rates()
    write_reference(task / "evaluator" / "reference", rates)
    pct = f"{rates['Y5-F3']:.0f}%"
    d, q = "lesson_plan.docx", "exit_quiz.md"
    request = """
I teach Year 5 (class 5M). Last week's fractions diagnostic is in inputs/diagnostic_results.xlsx (item scores plus
an item-to-objective map), the objectives are in inputs/curriculum_objectives.docx, and inputs/class_profile.csv
flags pupils with EAL or SEN. Please plan next week's 60-minute lesson on the objective the class did worst on:

1. outputs/lesson_plan.docx with the headings Learning Objective (quote the objective code), Prior Assessment
   Evidence (percent correct by objective), Lesson Sequence (timed, totalling 60 minutes), Differentiation (name the
   pupils you are adapting for) and Assessment for Learning;
2. outputs/exit_quiz.md, a five-question exit ticket on that objective with an "Answer Key" section.
"""
    items = [
        item("plan-present", "outputs/lesson_plan.docx is delivered as a Word document.", "core", "structure-completeness", present(d, "docx")),
        item("quiz-present", "outputs/exit_quiz.md is delivered as a Markdown file.", "core", "structure-completeness", present(q, "md")),
        item("weakest-objective", "The lesson targets Y5-F3 (add and subtract fractions), the objective with the lowest diagnostic score.",
             "core", "information-integration", {"kind": "text-contains", "file": d, "text": "Y5-F3"}),
        item("quiz-correct", "All five exit-ticket questions assess Y5-F3 and every answer in the key is correct and simplified.",
             "core", "domain-compliance"),
        item("diagnostic-rate", f"The plan reports the class's {pct} correct on Y5-F3 (33 of 84 item responses).", "important", "calculation-precision",
             {"kind": "text-contains", "file": d, "text": pct}),
        item("differentiation-section", "The plan has a 'Differentiation' section.", "important", "structure-completeness",
             {"kind": "section-present", "file": d, "heading": "Differentiation"}),
        item("answer-key", "The exit ticket has an 'Answer Key' section.", "important", "structure-completeness",
             {"kind": "section-present", "file": q, "heading": "Answer Key"}),
        item("timings", "The timed sequence adds up to exactly 60 minutes.", "important", "calculation-precision"),
        item("named-adaptations", "Differentiation names the four EAL pupils and the three SEN pupils from class_profile.csv with specific adaptations.",
             "important", "information-integration"),
        item("cpa", "The sequence follows the school's concrete-pictorial-abstract policy and addresses the adding-denominators misconception.",
             "important", "domain-compliance"),
        item("no-todo", "The exit ticket contains no unfinished placeholders (TODO).", "auxiliary", "engineering-format",
             {"kind": "text-absent", "file": q, "text": "TODO"}),
        item("printable", "Both documents are clean and printable: the plan uses a table for timings, the quiz is a numbered list.",
             "auxiliary", "output-presentation"),
    ]
    write_task(task, id=ID, title="Year 5 fractions lesson from diagnostic data", domain="education", request=request,
               outputs=[output(d, "docx", "60-minute lesson plan"), output(q, "md", "Five-question exit ticket with answer key")],
               items=items, reference=[d, q])
    return {"id": ID, "rates": rates}
