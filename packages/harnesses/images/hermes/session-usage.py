"""Print Hermes' token totals from $HERMES_HOME/state.db as one line: `[assay-usage <tag>] {json}`.

Run before and after the agent; this run's usage is the difference (Hermes keeps
running totals per session, and --continue adds to the resumed session's row).
"""
import json
import os
import sqlite3
import sys

tag = sys.argv[1] if len(sys.argv) > 1 else "after"
db = os.path.join(os.environ.get("HERMES_HOME", os.path.expanduser("~/.hermes")), "state.db")
totals = {"input": 0, "output": 0, "cache_read": 0, "cache_write": 0, "reasoning": 0, "api_calls": 0, "cost_usd": None, "sessions": []}
if os.path.exists(db):
    con = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    rows = con.execute(
        "select id, coalesce(input_tokens,0), coalesce(output_tokens,0), coalesce(cache_read_tokens,0),"
        " coalesce(cache_write_tokens,0), coalesce(reasoning_tokens,0), coalesce(api_call_count,0),"
        " coalesce(actual_cost_usd, estimated_cost_usd) from sessions"
    ).fetchall()
    for sid, i, o, cr, cw, r, n, cost in rows:
        totals["input"] += i
        totals["output"] += o
        totals["cache_read"] += cr
        totals["cache_write"] += cw
        totals["reasoning"] += r
        totals["api_calls"] += n
        if cost is not None:
            totals["cost_usd"] = (totals["cost_usd"] or 0) + cost
        totals["sessions"].append(sid)
print(f"[assay-usage {tag}] {json.dumps(totals)}", flush=True)
