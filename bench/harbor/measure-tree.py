#!/usr/bin/env python3
"""Run a command as a child subreaper and report its whole tree's CPU (JSON on fd 3).

Orphaned descendants (an unreaped parser process, a detached helper) are re-parented to this
process and waited for, so RUSAGE_CHILDREN covers every process the command started, whoever its
parent was. Wall time ends when the command itself exits; stragglers get 10 s more to exit.
Usage: measure-tree.py CMD [ARGS...]   (3>result.json)
"""
import ctypes
import json
import os
import resource
import sys
import time

PR_SET_CHILD_SUBREAPER = 36
ctypes.CDLL(None, use_errno=True).prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)

start = time.time()
pid = os.fork()
if pid == 0:
    os.execvp(sys.argv[1], sys.argv[1:])
_, status = os.waitpid(pid, 0)
end = time.time()
deadline = end + 10
while time.time() < deadline:
    try:
        reaped, _ = os.waitpid(-1, os.WNOHANG)
    except ChildProcessError:
        break
    if reaped == 0:
        time.sleep(0.05)
ru = resource.getrusage(resource.RUSAGE_CHILDREN)
out = {
    "pid": pid,
    "exitCode": os.waitstatus_to_exitcode(status),
    "startMs": start * 1000,
    "endMs": end * 1000,
    "userSeconds": ru.ru_utime,
    "systemSeconds": ru.ru_stime,
    "maxRssKbLargestProcess": ru.ru_maxrss,
}
with os.fdopen(3, "w") as f:
    json.dump(out, f)
sys.exit(0)
