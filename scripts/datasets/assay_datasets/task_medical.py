"""Medical task: discharge medication reconciliation after PCI for a patient
with CKD stage 3b (deliverable: docx)."""
from __future__ import annotations

import datetime as dt
from pathlib import Path

from openpyxl.styles import Font

from . import build as b
from .office import new_document, new_workbook, save_docx, save_xlsx
from .spec import item, output, present, write_task

ID = "med-discharge-reconciliation"
HOME_MEDS = [
    ("Metformin", "1000 mg", "twice daily", "Type 2 diabetes"),
    ("Glipizide", "5 mg", "once daily", "Type 2 diabetes"),
    ("Lisinopril", "10 mg", "once daily", "Hypertension"),
    ("Atorvastatin", "20 mg", "once daily", "Hyperlipidaemia"),
    ("Omeprazole", "20 mg", "once daily", "Gastro-oesophageal reflux"),
    ("Ibuprofen", "400 mg", "three times daily as needed", "Knee osteoarthritis pain"),
]
LABS = [  # date, test, value, unit, reference range
    ("2026-03-02", "Creatinine", 1.72, "mg/dL", "0.70-1.30"),
    ("2026-03-02", "eGFR (CKD-EPI)", 38, "mL/min/1.73m2", ">60"),
    ("2026-03-02", "Potassium", 4.9, "mmol/L", "3.5-5.1"),
    ("2026-03-02", "HbA1c", 7.4, "%", "<6.5"),
    ("2026-03-02", "LDL cholesterol", 131, "mg/dL", "<55 after ACS"),
    ("2026-03-02", "Haemoglobin", 12.1, "g/dL", "13.0-17.0"),
    ("2026-03-02", "Platelets", 231, "x10^9/L", "150-400"),
    ("2026-03-04", "High-sensitivity troponin T (peak)", 412, "ng/L", "<14"),
    ("2026-03-05", "Creatinine", 1.69, "mg/dL", "0.70-1.30"),
    ("2026-03-05", "Potassium", 4.8, "mmol/L", "3.5-5.1"),
]
RECON = [  # medication, decision, discharge dose, rationale
    ("Aspirin", "NEW", "81 mg once daily, indefinitely", "Dual antiplatelet therapy after DES (cardiology)"),
    ("Clopidogrel", "NEW", "75 mg once daily for 12 months", "DES to LAD on 2026-03-03; do not interrupt without cardiology advice"),
    ("Metoprolol succinate", "NEW", "25 mg once daily", "Secondary prevention after NSTEMI"),
    ("Atorvastatin", "CHANGE", "80 mg once daily (was 20 mg)", "High-intensity statin after ACS; LDL 131 mg/dL"),
    ("Metformin", "CHANGE", "500 mg twice daily (was 1000 mg twice daily)", "eGFR 38: maximum 1000 mg/day"),
    ("Omeprazole", "STOP", "-", "CYP2C19 interaction reduces clopidogrel activation"),
    ("Pantoprazole", "NEW", "40 mg once daily", "Gastroprotection on dual antiplatelet therapy; replaces omeprazole"),
    ("Ibuprofen", "STOP", "-", "NSAID: bleeding risk on dual antiplatelet therapy and worsens CKD"),
    ("Paracetamol", "NEW", "1 g up to three times daily as needed", "Knee pain analgesia in place of ibuprofen"),
    ("Lisinopril", "CONTINUE", "10 mg once daily", "Renal and cardiac protection; potassium 4.9 mmol/L"),
    ("Glipizide", "CONTINUE", "5 mg once daily", "Hepatically cleared sulfonylurea; hypoglycaemia advice given"),
]


def write_inputs(inputs: Path) -> None:
    b.write_csv(inputs / "admission_medications.csv", ["medication", "dose", "frequency", "indication", "source"],
                [(*m, "Patient's own supply, verified with GP record 2026-03-02") for m in HOME_MEDS])

    doc = new_document()
    b.title_block(doc, "Inpatient notes - R.M., 67-year-old man (MRN 40-118-552)", [
        "Admitted 2026-03-02 with NSTEMI. Ward 7B, St Aldhelm's Hospital."])
    b.heading(doc, "Cardiology - 2026-03-03 (Dr A. Okafor)", 1)
    b.para(doc, "Coronary angiography: 90% proximal LAD stenosis treated with one drug-eluting stent (DES). "
                "Start aspirin 81 mg daily indefinitely and clopidogrel 75 mg daily for 12 months; clopidogrel must "
                "not be interrupted for elective procedures without discussion with cardiology. Start metoprolol "
                "succinate 25 mg daily. Increase atorvastatin to high intensity, 80 mg daily. Avoid NSAIDs.")
    b.heading(doc, "Nephrology - 2026-03-04 (Dr L. Haddad)", 1)
    b.para(doc, "CKD stage 3b, stable (eGFR 38). Contrast given on 03-03; creatinine stable at 1.69-1.72 mg/dL. "
                "Metformin: reduce to a maximum of 1000 mg per day (500 mg twice daily) while eGFR is 30-45; stop if "
                "eGFR falls below 30. Continue lisinopril 10 mg. Recheck creatinine and potassium in 1 week.")
    b.heading(doc, "Gastroenterology pharmacist note - 2026-03-05", 1)
    b.para(doc, "On dual antiplatelet therapy with a history of reflux: PPI gastroprotection indicated. Omeprazole "
                "inhibits CYP2C19 and reduces clopidogrel activation; switch to pantoprazole 40 mg daily.")
    b.heading(doc, "Plan for discharge - 2026-03-06", 1)
    b.para(doc, "Discharge home 2026-03-06 if observations stable. Cardiac rehabilitation referral made. "
                "Knee pain: paracetamol as needed instead of ibuprofen.")
    save_docx(doc, inputs / "inpatient_notes.docx", "Inpatient notes")

    wb, ws = new_workbook("Results")
    ws.append(["Date", "Test", "Value", "Unit", "Reference range"])
    for d, test, value, unit, rng in LABS:
        ws.append([dt.date.fromisoformat(d), test, value, unit, rng])
        ws.cell(ws.max_row, 1).number_format = "yyyy-mm-dd"
    for c in ws[1]:
        c.font = Font(bold=True)
    for col, width in zip("ABCDE", (12, 34, 10, 16, 18)):
        ws.column_dimensions[col].width = width
    save_xlsx(wb, inputs / "lab_results.xlsx", "Laboratory results")


def write_reference(path: Path) -> None:
    doc = new_document()
    b.title_block(doc, "Discharge Medication Reconciliation", [
        "Patient: R.M., 67-year-old man, MRN 40-118-552", "Admission: 2026-03-02 (NSTEMI)  |  Discharge: 2026-03-06",
        "Prepared by: Ward pharmacist, Ward 7B, St Aldhelm's Hospital, for the discharging physician"])
    b.heading(doc, "Patient Summary", 1)
    b.para(doc, "NSTEMI treated with a drug-eluting stent to the proximal LAD on 2026-03-03. Comorbidities: type 2 "
                "diabetes (HbA1c 7.4%), hypertension, hyperlipidaemia (LDL 131 mg/dL), CKD stage 3b with eGFR 38 "
                "mL/min/1.73m2 (creatinine 1.72 mg/dL on 03-02, 1.69 mg/dL on 03-05), potassium 4.8-4.9 mmol/L, "
                "haemoglobin 12.1 g/dL, platelets 231 x10^9/L.")
    b.heading(doc, "Medication Reconciliation", 1)
    b.para(doc, "All six home medications (admission_medications.csv) and every medication started in hospital are reconciled below.")
    b.table(doc, ["Medication", "Decision", "Discharge dose", "Rationale"], RECON)
    b.heading(doc, "Antiplatelet Plan", 1)
    b.para(doc, "Dual antiplatelet therapy: aspirin 81 mg once daily indefinitely plus Clopidogrel 75 mg once daily "
                "for 12 months (until 2027-03-03). Clopidogrel must not be interrupted, including for elective dental "
                "or surgical procedures, without discussion with the cardiology team. Pantoprazole provides gastroprotection.")
    b.heading(doc, "Renal Dose Adjustments", 1)
    b.para(doc, "Metformin: reduce to 500 mg twice daily (maximum 1000 mg/day) because eGFR is 38; stop if eGFR falls below 30.")
    b.para(doc, "Lisinopril: continue 10 mg once daily; potassium 4.9 mmol/L is within range but close to the upper limit.")
    b.para(doc, "Ibuprofen: stopped; NSAIDs worsen renal function and increase bleeding risk on dual antiplatelet therapy.")
    b.heading(doc, "Monitoring and Follow-up", 1)
    b.bullets(doc, [
        "Creatinine, eGFR and potassium in 1 week (by 2026-03-13), via the GP practice.",
        "Fasting lipid profile in 6-8 weeks to confirm the LDL response to atorvastatin 80 mg.",
        "HbA1c in 3 months; review glycaemic control after the metformin dose reduction.",
        "Cardiology clinic at 6 weeks; cardiac rehabilitation referral made.",
        "Report black stools, blood in urine or unusual bruising immediately.",
    ])
    b.heading(doc, "Patient Counselling", 1)
    b.bullets(doc, [
        "Take aspirin and clopidogrel every day. Do not stop clopidogrel unless your heart doctor tells you to.",
        "Do not take ibuprofen or other NSAIDs (for example naproxen). Use paracetamol for knee pain.",
        "Your metformin dose is now one 500 mg tablet twice a day with meals because of your kidney function.",
        "Omeprazole is replaced by pantoprazole to protect your stomach; do not take both.",
        "Glipizide can cause low blood sugar: carry glucose tablets and eat regular meals.",
    ])
    save_docx(doc, path, "Discharge medication reconciliation")


def generate(root: Path) -> dict:
    task = root / "tasks" / ID
    write_inputs(task / "inputs")
    write_reference(task / "evaluator" / "reference" / "discharge_reconciliation.docx")
    request = """
I'm the ward pharmacist on 7B. Mr R.M. (67, NSTEMI, stented on 3 March) goes home on 6 March and the discharging
physician needs the medication reconciliation today. His home medication list is inputs/admission_medications.csv,
the cardiology, nephrology and pharmacy notes are in inputs/inpatient_notes.docx, and his labs are in
inputs/lab_results.xlsx.

Please write outputs/discharge_reconciliation.docx (Word) with these headings: Patient Summary, Medication
Reconciliation (a table: medication, decision CONTINUE/CHANGE/STOP/NEW, discharge dose, rationale - cover every
home medication and every new one), Antiplatelet Plan, Renal Dose Adjustments, Monitoring and Follow-up, and
Patient Counselling (plain language). Follow the specialist notes exactly and dose for his renal function.
"""
    f = "discharge_reconciliation.docx"
    items = [
        item("doc-present", "outputs/discharge_reconciliation.docx is delivered as a Word document.", "core", "structure-completeness", present(f, "docx")),
        item("recon-section", "The document has a 'Medication Reconciliation' section.", "core", "structure-completeness",
             {"kind": "section-present", "file": f, "heading": "Medication Reconciliation"}),
        item("clopidogrel-12-months", "Clopidogrel 75 mg once daily is prescribed for 12 months without interruption, as cardiology specified.",
             "core", "domain-compliance", {"kind": "text-contains", "file": f, "text": "Clopidogrel 75 mg"}),
        item("nsaid-stopped", "Ibuprofen is stopped and the patient is told not to take NSAIDs (bleeding risk on DAPT, CKD).", "core", "domain-compliance",
             {"kind": "text-contains", "file": f, "text": "Do not take ibuprofen"}),
        item("metformin-renal-dose", "Metformin is reduced to 500 mg twice daily (maximum 1000 mg/day) for eGFR 38.", "core", "calculation-precision",
             {"kind": "text-contains", "file": f, "text": "500 mg twice daily"}),
        item("ppi-switch", "Omeprazole is stopped and replaced by pantoprazole because of the CYP2C19 interaction with clopidogrel.",
             "important", "domain-compliance", {"kind": "text-contains", "file": f, "text": "pantoprazole"}),
        item("statin-intensity", "Atorvastatin is increased from 20 mg to 80 mg (high intensity) after ACS.", "important", "calculation-precision"),
        item("labs-integrated", "The patient summary uses the laboratory values from lab_results.xlsx (eGFR 38, creatinine, potassium, LDL).",
             "important", "information-integration"),
        item("all-meds-covered", "Every home medication (6) and every new medication (aspirin, clopidogrel, metoprolol, pantoprazole, paracetamol) has a row with a decision.",
             "important", "information-integration"),
        item("monitoring", "Follow-up includes creatinine and potassium within 1 week and a lipid check after statin intensification.",
             "important", "domain-compliance"),
        item("table-format", "The reconciliation is a real Word table with the four requested columns.", "auxiliary", "engineering-format"),
        item("plain-language", "Patient counselling is in plain language without unexplained abbreviations.", "auxiliary", "output-presentation"),
    ]
    write_task(task, id=ID, title="Discharge medication reconciliation after PCI", domain="medical", request=request,
               outputs=[output(f, "docx", "Reconciliation with the six requested sections")], items=items, reference=[f])
    return {"id": ID}
