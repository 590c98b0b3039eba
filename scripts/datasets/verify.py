"""Verify the sample benchmark and record what every scripted agent scores.

    python scripts/datasets/verify.py [--benchmark datasets/sample] [--agent-python /usr/bin/python3]
                                      [--docker assay/base:bookworm] [--out DIR] [--snapshots DIR]

1. Every deterministic check holds on the reference (negative/fatal criteria:
   their failure condition does not hold), and each pre-generated flaw fails
   at least one check.
2. Runs packages/agents/scripted/assay_agent.py for every scripted agent on
   every task and through the project (one persistent workspace, releases
   copied per stage), evaluates the checks on what it wrote, and writes
   datasets/expected/scripted-outcomes.{json,md}.
Exit 1 when an expectation fails.
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import yaml

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from assay_datasets.checks import SAT, evaluate  # noqa: E402

REPO = HERE.parent.parent
AGENT = REPO / "packages" / "agents" / "scripted" / "assay_agent.py"
AGENTS = ["oracle", "nop", "missing-deliverable", "wrong-type", "no-cached-values", "correction-not-applied", "superseded-decision"]
W = {"core": 5, "important": 3, "auxiliary": 1}
problems: list[str] = []
DOCKER_IMAGE: str | None = None
SNAPSHOTS: Path | None = None


def load(p: Path) -> dict:
    return yaml.safe_load(p.read_text(encoding="utf-8"))


def expect(ok: bool, message: str) -> None:
    if not ok:
        problems.append(message)
        print(f"FAIL {message}")


def instruction(request: str, outputs: list[dict]) -> str:
    """Same shape as activities' renderInstruction / renderSubtaskInstruction."""
    lines = [request.strip(), "", "---", "Input files are in /workspace/inputs/. Write every deliverable to /workspace/outputs/.",
             "Required deliverables:"]
    lines += [f"- /workspace/outputs/{o['path']} ({o['format']})" for o in outputs]
    return "\n".join(lines) + "\n"


def run_agent(py: str, agent: str, workspace: Path, oracle: Path, instr: str, subtask: str | None) -> dict:
    """Run the agent on the host (python `py`) or, with --docker IMAGE, in a container laid out
    as the contract says: /workspace rw, /assay ro, /oracle/{reference,flaws} ro, no network."""
    adir = workspace.parent / "assay"
    adir.mkdir(exist_ok=True)
    (adir / "instruction.md").write_text(instr, encoding="utf-8")
    env = {"ASSAY_AGENT": agent, "ASSAY_TASK_ID": "verify", "ASSAY_TRIAL": "1"}
    if subtask:
        env["ASSAY_SUBTASK_ID"] = subtask
    if DOCKER_IMAGE:
        cmd = ["docker", "run", "--rm", "--network", "none", "--security-opt", "no-new-privileges", "--read-only",
               "--cpus", "1", "--memory", "1g", "--pids-limit", "128",
               "-v", f"{workspace}:/workspace", "-v", f"{adir}:/assay:ro", "-v", f"{AGENT.parent}:/opt/assay:ro",
               "-e", "ASSAY_INSTRUCTION_FILE=/assay/instruction.md"]
        if agent != "nop":
            cmd += ["-v", f"{oracle / 'reference'}:/oracle/reference:ro"]
            if (oracle / "flaws").is_dir():
                cmd += ["-v", f"{oracle / 'flaws'}:/oracle/flaws:ro"]
        for k, v in env.items():
            cmd += ["-e", f"{k}={v}"]
        cmd += ["--entrypoint", "python3", DOCKER_IMAGE, "/opt/assay/assay_agent.py"]
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    else:
        full = {**os.environ, **env, "ASSAY_WORKSPACE": str(workspace), "ASSAY_ORACLE_DIR": str(oracle),
                "ASSAY_INSTRUCTION_FILE": str(adir / "instruction.md")}
        full.pop("ASSAY_OUTPUTS", None)
        proc = subprocess.run([py, str(AGENT)], env=full, capture_output=True, text=True, timeout=300)
    expect(proc.returncode == 0, f"{agent}: exit {proc.returncode}: {proc.stderr.strip()}")
    return json.loads(proc.stdout.strip().splitlines()[-1]) if proc.returncode == 0 else {}


def snapshot(outputs: Path, rel: str, record: dict) -> None:
    """With --snapshots DIR: keep what the agent wrote plus the checks and our outcomes, so another
    evaluator (packages/evidence, via crosscheck-evidence.ts) can be compared against them."""
    if SNAPSHOTS is None:
        return
    dest = SNAPSHOTS / rel
    shutil.copytree(outputs, dest / "outputs")
    (dest / "checks.json").write_text(json.dumps(record, indent=1) + "\n", encoding="utf-8")


def task_score(items: list[dict], outcome: dict[str, str], judge: bool) -> float:
    total = sum(W[i["importance"]] for i in items)
    got = sum(W[i["importance"]] for i in items if (outcome[i["id"]] == SAT if "check" in i else judge))
    return round(100 * got / total, 2)


def project_score(criteria: list[dict], h: dict[str, int | None], judge: bool) -> float:
    """Mirror of core scoreProjectFinal; judge-only criteria get h = judge for positives, 0 for negatives/gates."""
    eff: dict[str, int] = {}
    for c in criteria:
        v = h.get(c["id"])
        eff[c["id"]] = (1 if judge and c["weight"] > 0 else 0) if v is None else v

    def holds(c: dict) -> bool:
        return eff[c["id"]] == 0 if c["weight"] < 0 or c.get("fatal") else eff[c["id"]] == 1

    by = {c["id"]: c for c in criteria}
    for c in criteria:
        if c["weight"] > 0 and not all(holds(by[d]) for d in c.get("dependsOn", [])):
            eff[c["id"]] = 0
    if any(c.get("fatal") and eff[c["id"]] == 1 for c in criteria):
        return 0.0
    wplus = sum(max(c["weight"], 0) for c in criteria)
    raw = 100 * sum(c["weight"] * eff[c["id"]] for c in criteria if not c.get("fatal")) / wplus
    return round(min(100.0, max(0.0, raw)), 2)


def verify_task(bench: Path, tid: str, py: str) -> dict:
    tdir = bench / "tasks" / tid
    spec, rubric = load(tdir / "task.yaml"), load(tdir / "evaluator" / "rubric.yaml")
    items = rubric["items"]
    ref = tdir / "evaluator" / "reference"
    for it in items:
        if "check" in it:
            expect(evaluate(it["check"], ref) == SAT, f"{tid}/{it['id']}: check fails on the reference")
    flaws = tdir / "evaluator" / "flaws"
    for fdir in sorted(flaws.iterdir()) if flaws.is_dir() else []:
        failed = [it["id"] for it in items if "check" in it and evaluate(it["check"], fdir) != SAT]
        expect(bool(failed), f"{tid}: flaw {fdir.name} fails no check")
    result = {}
    for agent in AGENTS:
        with tempfile.TemporaryDirectory() as tmp:
            ws = Path(tmp) / "workspace"
            shutil.copytree(tdir / "inputs", ws / "inputs")
            (ws / "outputs").mkdir()
            summary = run_agent(py, agent, ws, tdir / "evaluator", instruction(spec["request"], spec["outputs"]), None)
            outcome = {it["id"]: evaluate(it["check"], ws / "outputs") for it in items if "check" in it}
            snapshot(ws / "outputs", f"tasks/{tid}/{agent}", {"checks": [it for it in items if "check" in it], "outcome": outcome})
            files = sorted(p.relative_to(ws / "outputs").as_posix() for p in (ws / "outputs").rglob("*") if p.is_file())
        full = {**outcome, **{it["id"]: None for it in items if "check" not in it}}
        result[agent] = {"files": files, "summaryFiles": summary.get("files"),
                         "failedChecks": sorted(k for k, v in outcome.items() if v != SAT),
                         "passedChecks": sorted(k for k, v in outcome.items() if v == SAT),
                         "scoreIfJudgeSatisfied": task_score(items, full, True), "scoreIfJudgeNotSatisfied": task_score(items, full, False)}
    expect(result["oracle"]["failedChecks"] == [], f"{tid}: oracle fails {result['oracle']['failedChecks']}")
    expect(result["nop"]["files"] == [], f"{tid}: nop wrote files")
    expect(result["missing-deliverable"]["failedChecks"] != [], f"{tid}: missing-deliverable fails no check")
    expect(result["wrong-type"]["failedChecks"] != [], f"{tid}: wrong-type fails no check")
    has_formula_check = any(it.get("check", {}).get("kind") == "formula-cached" for it in items)
    if has_formula_check:
        expect(result["no-cached-values"]["failedChecks"] != [], f"{tid}: no-cached-values fails no check")
    return {"outputs": [(o["path"], o["format"]) for o in spec["outputs"]], "checks": sum(1 for it in items if "check" in it),
            "items": len(items), "agents": result}


def verify_project(bench: Path, pid: str, py: str) -> dict:
    pdir = bench / "projects" / pid
    spec, crit = load(pdir / "project.yaml"), load(pdir / "evaluator" / "criteria.yaml")
    ev = pdir / "evaluator"
    subtasks = [(st, t) for st in spec["stages"] for t in st["subtasks"]]
    last = subtasks[-1][1]["id"]

    def judge_all(criteria: list[dict], root: Path) -> dict[str, int | None]:
        return {c["id"]: (1 if evaluate(c["check"], root) == SAT else 0) if "check" in c else None for c in criteria}

    for _, t in subtasks:
        h = judge_all(crit["checkpoints"][t["id"]], ev / "reference" / t["id"])
        expect(project_score(crit["checkpoints"][t["id"]], h, True) == 100.0, f"{pid}/{t['id']}: reference checkpoint is not 100: {h}")
    expect(project_score(crit["final"], judge_all(crit["final"], ev / "reference" / last), True) == 100.0, f"{pid}: reference final is not 100")

    result = {}
    for agent in AGENTS:
        with tempfile.TemporaryDirectory() as tmp:
            ws = Path(tmp) / "workspace"
            (ws / "inputs").mkdir(parents=True)
            (ws / "outputs").mkdir()
            per = {}
            for stage, t in subtasks:
                if t is stage["subtasks"][0]:
                    for r in stage.get("releases", []):
                        dest = ws / "inputs" / (r.get("to") or Path(r["path"]).name)
                        dest.parent.mkdir(parents=True, exist_ok=True)
                        shutil.copyfile(pdir / "releases" / r["path"], dest)
                run_agent(py, agent, ws, ev, instruction(t["instructions"], t["deliverables"]), t["id"])
                crits = crit["checkpoints"][t["id"]]
                h = judge_all(crits, ws / "outputs")
                snapshot(ws / "outputs", f"projects/{pid}/{agent}/{t['id']}",
                         {"checks": [c for c in crits if "check" in c], "outcome": {k: SAT if v else "not-satisfied" for k, v in h.items() if v is not None}})
                per[t["id"]] = {"h": {k: v for k, v in h.items() if v is not None},
                                "scoreIfJudgeFavourable": project_score(crits, h, True), "scoreIfJudgeZero": project_score(crits, h, False)}
            hf = judge_all(crit["final"], ws / "outputs")
            snapshot(ws / "outputs", f"projects/{pid}/{agent}/final",
                     {"checks": [c for c in crit["final"] if "check" in c], "outcome": {k: SAT if v else "not-satisfied" for k, v in hf.items() if v is not None}})
        gates = [c["id"] for c in crit["final"] if c.get("fatal") and hf[c["id"]] == 1]
        result[agent] = {"checkpoints": per, "final": {"h": {k: v for k, v in hf.items() if v is not None}, "gates": gates,
                                                       "scoreIfJudgeFavourable": project_score(crit["final"], hf, True),
                                                       "scoreIfJudgeZero": project_score(crit["final"], hf, False)}}
    expect(result["oracle"]["final"]["scoreIfJudgeFavourable"] == 100.0, f"{pid}: oracle final is not 100")
    expect(result["correction-not-applied"]["final"]["gates"] == ["fatal-stale-capex"], f"{pid}: correction-not-applied does not trigger the gate")
    expect(result["superseded-decision"]["final"]["h"].get("pa-stale-decision") == 1, f"{pid}: superseded-decision not detected")
    expect(result["nop"]["final"]["scoreIfJudgeFavourable"] < 100, f"{pid}: nop scores 100")
    return {"subtasks": [t["id"] for _, t in subtasks], "agents": result}


def markdown(out: dict) -> str:
    lines = ["# Expected outcomes of the scripted agents on datasets/sample", "",
             "Generated by scripts/datasets/verify.py. Scores: checks decided as listed; judge-only items either all",
             "satisfied (\"judge yes\") or all not satisfied (\"judge no\"); negative/fatal judge-only criteria never triggered.", "",
             "## Tasks", ""]
    for tid, t in out["tasks"].items():
        lines.append(f"### {tid} ({', '.join(f'{p} [{f}]' for p, f in t['outputs'])}; {t['items']} items, {t['checks']} with checks)")
        lines += ["", "| agent | failed checks | score judge yes | score judge no |", "|---|---|---:|---:|"]
        for agent, r in t["agents"].items():
            lines.append(f"| {agent} | {', '.join(r['failedChecks']) or '-'} | {r['scoreIfJudgeSatisfied']} | {r['scoreIfJudgeNotSatisfied']} |")
        lines.append("")
    lines += ["## Projects", ""]
    for pid, p in out["projects"].items():
        lines += [f"### {pid}", "", "| agent | " + " | ".join(p["subtasks"]) + " | final | gates |",
                  "|---|" + "---:|" * (len(p["subtasks"]) + 1) + "---|"]
        for agent, r in p["agents"].items():
            cps = [f"{r['checkpoints'][s]['scoreIfJudgeFavourable']}" for s in p["subtasks"]]
            lines.append(f"| {agent} | " + " | ".join(cps) + f" | {r['final']['scoreIfJudgeFavourable']} | {', '.join(r['final']['gates']) or '-'} |")
        lines += ["", "(checkpoint and final scores with judge-only criteria favourable; the JSON also has the judge-zero variant "
                  "and every check-decided h.)", ""]
    return "\n".join(lines)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--benchmark", type=Path, default=REPO / "datasets" / "sample")
    ap.add_argument("--agent-python", default="/usr/bin/python3", help="python with openpyxl + python-docx (the container's versions)")
    ap.add_argument("--out", type=Path, default=REPO / "datasets" / "expected")
    ap.add_argument("--snapshots", type=Path, help="keep every agent output and its check outcomes here")
    ap.add_argument("--docker", metavar="IMAGE", help="run the agents in this image (Debian python3-openpyxl/-docx), script mounted at /opt/assay")
    args = ap.parse_args()
    global DOCKER_IMAGE, SNAPSHOTS
    DOCKER_IMAGE = args.docker
    if args.snapshots:
        SNAPSHOTS = args.snapshots.resolve()
        shutil.rmtree(SNAPSHOTS, ignore_errors=True)
    bench = args.benchmark.resolve()
    index = load(bench / "benchmark.yaml")
    out = {"benchmark": index["id"], "version": index["version"], "tasks": {}, "projects": {}}
    for tid in index["tasks"]:
        out["tasks"][tid] = verify_task(bench, tid, args.agent_python)
        print(f"task {tid}: verified")
    for pid in index["projects"]:
        out["projects"][pid] = verify_project(bench, pid, args.agent_python)
        print(f"project {pid}: verified")
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "scripted-outcomes.json").write_text(json.dumps(out, indent=1) + "\n", encoding="utf-8")
    (args.out / "scripted-outcomes.md").write_text(markdown(out), encoding="utf-8")
    print(f"{len(problems)} problem(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
