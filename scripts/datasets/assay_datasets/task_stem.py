"""STEM task: calibrate a pressure transducer from three runs against a
reference gauge; deliver a formula workbook (xlsx) and a certificate (pdf)."""
from __future__ import annotations

import tempfile
from pathlib import Path

from openpyxl.styles import Font

from . import build as b
from .office import new_document, new_workbook, save_docx, save_xlsx, to_pdf
from .spec import item, output, present, write_task

ID = "stem-sensor-calibration"
SETPOINTS = [0, 125, 250, 375, 500, 625, 750, 875, 1000]
TRUE_SLOPE, TRUE_OFFSET = 0.09984, 0.421
# Fixed run-to-run deviations in mV (3 runs x 9 points): hysteresis-like, deterministic.
NOISE = [
    [0.012, -0.031, 0.044, -0.018, 0.027, 0.051, -0.022, 0.036, -0.041],
    [-0.008, 0.019, -0.026, 0.048, -0.035, 0.014, 0.057, -0.029, 0.022],
    [0.021, -0.012, 0.009, -0.039, 0.046, -0.027, 0.018, 0.061, -0.015],
]
AMBIENT = [21.4, 21.6, 21.5]
SPEC_FS = 0.25
FULL_SCALE = 1000.0


def runs() -> list[list[float]]:
    return [[round(TRUE_OFFSET + TRUE_SLOPE * p + 3 * NOISE[r][i], 3) for i, p in enumerate(SETPOINTS)] for r in range(3)]


def fit() -> dict:
    data = runs()
    means = [sum(data[r][i] for r in range(3)) / 3 for i in range(len(SETPOINTS))]
    n = len(SETPOINTS)
    mx, my = sum(SETPOINTS) / n, sum(means) / n
    sxx = sum((x - mx) ** 2 for x in SETPOINTS)
    sxy = sum((x - mx) * (y - my) for x, y in zip(SETPOINTS, means))
    syy = sum((y - my) ** 2 for y in means)
    slope = sxy / sxx
    intercept = my - slope * mx
    resid = [y - (intercept + slope * x) for x, y in zip(SETPOINTS, means)]
    err_fs = [100 * (r / slope) / FULL_SCALE for r in resid]
    max_err = max(abs(e) for e in err_fs)
    assert max_err <= SPEC_FS, "sample data must pass the specification"
    return {"data": data, "means": means, "slope": slope, "intercept": intercept, "r2": sxy * sxy / (sxx * syy),
            "resid": resid, "err_fs": err_fs, "max_err": max_err}


def write_inputs(inputs: Path) -> None:
    data = runs()
    rows = []
    for r in range(3):
        for i, p in enumerate(SETPOINTS):
            rows.append((r + 1, p, f"{p:.2f}", f"{data[r][i]:.3f}", AMBIENT[r]))
    b.write_csv(inputs / "calibration_runs.csv", ["run", "setpoint_kpa", "reference_kpa", "output_mv", "ambient_c"], rows)
    b.write_text(inputs / "run_log.md", """# Calibration run log - transducer PT-1000 s/n 23-0457

- Date: 2026-02-18, Metrology lab B2, technician J. Mbeki
- Reference: Druck DPI 612 pressure calibrator s/n 6120-44871 (UKAS certificate 0412-26, due 2026-11-30)
- Excitation: 10.000 V DC; sensor output read with a Keysight 34465A DMM (6.5 digits)
- Procedure: three ascending runs 0-1000 kPa in 125 kPa steps, 60 s settling per point
- Ambient: run 1 21.4 C, run 2 21.6 C, run 3 21.5 C; humidity 41-43 %RH
- Notes: no leaks detected; all points recorded in calibration_runs.csv
""")
    doc = new_document()
    b.title_block(doc, "PT-1000 Series Pressure Transducer - Datasheet (extract)", ["Revision C, 2025-09"])
    b.table(doc, ["Parameter", "Value"], [
        ("Range", "0 to 1000 kPa gauge"),
        ("Excitation", "10 V DC"),
        ("Nominal sensitivity", "0.1000 mV/kPa +/- 1%"),
        ("Zero offset", "within +/- 0.5 mV"),
        ("Accuracy", "+/- 0.25% of full scale, best-fit straight line (includes non-linearity, hysteresis, repeatability)"),
        ("Operating temperature", "-20 to 80 C"),
    ])
    b.para(doc, "Calibration: fit a least-squares straight line of output (mV) against applied pressure (kPa); the "
                "error at each point is the residual expressed in kPa and as a percentage of full scale (1000 kPa).")
    with tempfile.TemporaryDirectory() as tmp:
        to_pdf(save_docx(doc, Path(tmp) / "sensor_datasheet.docx", "PT-1000 datasheet"), inputs / "sensor_datasheet.pdf")


def workbook(path: Path) -> None:
    data = runs()
    wb, ws = new_workbook("Data")
    ws.append(["Setpoint (kPa)", "Run 1 (mV)", "Run 2 (mV)", "Run 3 (mV)", "Mean (mV)", "Fitted (mV)",
               "Residual (mV)", "Error (kPa)", "Error (% FS)"])
    for i, p in enumerate(SETPOINTS):
        r = i + 2
        ws.append([p, data[0][i], data[1][i], data[2][i], f"=AVERAGE(B{r}:D{r})", f"=Fit!$B$3+Fit!$B$2*A{r}",
                   f"=E{r}-F{r}", f"=G{r}/Fit!$B$2", f"=H{r}/1000*100"])
        for col in "BCDEFG":
            ws[f"{col}{r}"].number_format = "0.000"
        ws[f"H{r}"].number_format = "0.00"
        ws[f"I{r}"].number_format = "0.000"
    fit_ws = wb.create_sheet("Fit")
    rows = [("Parameter", "Value"),
            ("Sensitivity (mV/kPa)", "=SLOPE(Data!E2:E10,Data!A2:A10)"),
            ("Zero offset (mV)", "=INTERCEPT(Data!E2:E10,Data!A2:A10)"),
            ("R squared", "=RSQ(Data!E2:E10,Data!A2:A10)"),
            ("Maximum error (% FS)", "=MAX(MAX(Data!I2:I10),-MIN(Data!I2:I10))"),
            ("Specification (% FS)", SPEC_FS),
            ("Result", '=IF(B5<=B6,"PASS","FAIL")')]
    for row in rows:
        fit_ws.append(list(row))
    fit_ws["B2"].number_format = "0.00000"
    fit_ws["B3"].number_format = "0.000"
    fit_ws["B4"].number_format = "0.000000"
    fit_ws["B5"].number_format = "0.000"
    for sheet in (ws, fit_ws):
        for c in sheet[1]:
            c.font = Font(bold=True)
    for col in "ABCDEFGHI":
        ws.column_dimensions[col].width = 14
    fit_ws.column_dimensions["A"].width = 26
    fit_ws.column_dimensions["B"].width = 14
    save_xlsx(wb, path, "PT-1000 calibration", recalc=True)


def certificate(pdf: Path, f: dict) -> None:
    doc = new_document()
    b.title_block(doc, "Calibration Certificate", [
        "Certificate no. CAL-2026-0218-01", "Instrument: PT-1000 pressure transducer, s/n 23-0457",
        "Calibrated: 2026-02-18, Metrology lab B2 (J. Mbeki)",
        "Reference: Druck DPI 612 s/n 6120-44871, UKAS certificate 0412-26 (due 2026-11-30)",
        "Conditions: 21.4-21.6 C, 41-43 %RH, excitation 10.000 V DC"])
    b.heading(doc, "Results", 1)
    b.para(doc, f"Sensitivity: {f['slope']:.5f} mV/kPa")
    b.para(doc, f"Zero offset: {f['intercept']:.3f} mV")
    b.para(doc, f"Coefficient of determination: R2 = {f['r2']:.6f}")
    b.para(doc, f"Maximum error: {f['max_err']:.3f}% FS (specification +/- {SPEC_FS}% FS)")
    b.para(doc, "Result: PASS - the transducer meets the datasheet accuracy over 0-1000 kPa.", bold=True)
    b.heading(doc, "Error by Setpoint", 1)
    b.table(doc, ["Setpoint (kPa)", "Mean output (mV)", "Residual (mV)", "Error (kPa)", "Error (% FS)"],
            [(p, f"{m:.3f}", f"{r:+.4f}", f"{r / f['slope']:+.2f}", f"{e:+.3f}")
             for p, m, r, e in zip(SETPOINTS, f["means"], f["resid"], f["err_fs"])])
    b.heading(doc, "Method", 1)
    b.para(doc, "Least-squares straight line of the mean of three ascending runs against applied pressure; errors are "
                "residuals divided by the sensitivity, expressed as a percentage of the 1000 kPa full scale. "
                "Data and formulas: calibration.xlsx.")
    with tempfile.TemporaryDirectory() as tmp:
        to_pdf(save_docx(doc, Path(tmp) / "calibration_certificate.docx", "Calibration certificate"), pdf)


def generate(root: Path) -> dict:
    task = root / "tasks" / ID
    write_inputs(task / "inputs")
    f = fit()
    ref = task / "evaluator" / "reference"
    workbook(ref / "calibration.xlsx")
    certificate(ref / "calibration_certificate.pdf", f)
    x, c = "calibration.xlsx", "calibration_certificate.pdf"
    request = """
We calibrated PT-1000 pressure transducer s/n 23-0457 against our reference calibrator: three runs at nine
setpoints (inputs/calibration_runs.csv, conditions in inputs/run_log.md). Using the method and tolerance in
inputs/sensor_datasheet.pdf, please produce:

1. outputs/calibration.xlsx with live formulas: sheet "Data" with one row per setpoint (rows 2-10: setpoint, the
   three runs, mean, fitted value, residual, error in kPa, error in % FS), and sheet "Fit" with sensitivity (slope,
   mV/kPa) in B2, zero offset in B3, R squared in B4, maximum absolute error in % FS in B5, the specification in B6
   and PASS/FAIL in B7;
2. outputs/calibration_certificate.pdf, a one-page calibration certificate with traceability details, the results
   (write the sensitivity as "Sensitivity: 0.xxxxx mV/kPa"), the error at each setpoint and the pass/fail verdict.
"""
    items = [
        item("workbook-present", "outputs/calibration.xlsx is delivered as an Excel workbook.", "core", "structure-completeness", present(x, "xlsx")),
        item("certificate-present", "outputs/calibration_certificate.pdf is delivered as a PDF.", "core", "structure-completeness", present(c, "pdf")),
        item("slope", f"Sensitivity in Fit!B2 is the least-squares slope of the run means, {f['slope']:.6f} mV/kPa.", "core", "calculation-precision",
             {"kind": "cell-value", "file": x, "cell": "Fit!B2", "equals": round(f["slope"], 8), "tolerance": 1e-6}),
        item("verdict", "The certificate gives the PASS verdict against the +/-0.25% FS datasheet accuracy.", "core", "domain-compliance",
             {"kind": "text-contains", "file": c, "text": "PASS"}),
        item("offset", f"Zero offset in Fit!B3 is {f['intercept']:.4f} mV.", "important", "calculation-precision",
             {"kind": "cell-value", "file": x, "cell": "Fit!B3", "equals": round(f["intercept"], 6), "tolerance": 1e-4}),
        item("fit-formulas", "The Fit sheet uses live formulas with calculated values stored (B2:B5).", "important", "engineering-format",
             {"kind": "formula-cached", "file": x, "range": "Fit!B2:B5"}),
        item("nine-setpoints", "The Data sheet has one row per setpoint (9) averaging the three runs.", "important", "information-integration",
             {"kind": "row-count", "file": x, "sheet": "Data", "min": 9, "max": 10}),
        item("certificate-matches", "The sensitivity on the certificate agrees with Fit!B2.", "important", "information-integration",
             {"kind": "files-agree", "a": {"file": x, "cell": "Fit!B2"}, "b": {"file": c, "pattern": "Sensitivity: ([0-9]+\\.[0-9]+) mV/kPa"}, "tolerance": 1e-5}),
        item("error-fs", f"Errors are expressed in % of the 1000 kPa full scale; the maximum is {f['max_err']:.3f}% FS.", "important", "domain-compliance"),
        item("traceability", "The certificate names the reference calibrator, its certificate and due date, and the ambient conditions.",
             "auxiliary", "domain-compliance"),
        item("units", "Units are stated on every quantity (kPa, mV, mV/kPa, % FS).", "auxiliary", "engineering-format"),
        item("error-table", "The certificate shows the error at every setpoint in a readable table.", "auxiliary", "output-presentation"),
    ]
    write_task(task, id=ID, title="Pressure transducer calibration and certificate", domain="stem", request=request,
               outputs=[output(x, "xlsx", "Calibration workbook with formulas"), output(c, "pdf", "One-page calibration certificate")],
               items=items, reference=[x, c])
    return {"id": ID, "fit": f}
