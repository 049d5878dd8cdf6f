"""Soak: SIGKILL the Celery worker in the middle of a projection 100 times (issue 10: "at
least 20 times in the suite, 100 in a benchmark or soak script"), and after each kill
check that the standings equal a rebuild from scratch and that no result counted twice.

It runs the suite's own test (tests/live/test_worker_killed.py: a real worker, a real
PostgreSQL and a redis-server of its own) on a Swiss of 20 players over 10 rounds, one
kill per result: 100 kills, one in eight of the worker's main process (then a new worker
and beat's sweep bring the tournament up to date), the rest of its pool child (the task
goes back to the broker and a new child runs it). Prints the outcome and a last line of
JSON.

    .venv/bin/python bench/kill_soak.py            # 100 kills, about 2 minutes here
    .venv/bin/python bench/kill_soak.py --kills 40
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--kills", type=int, default=100, help="kills (a multiple of 10)")
    args = parser.parse_args()
    rounds = max(3, args.kills // 10)
    env = {**os.environ, "SCHNAPSEN_KILL_SOAK": f"20,{rounds}", "SCHNAPSEN_REQUIRE_SERVICES": "1"}
    env.setdefault("SCHNAPSEN_SEAL_KEY", "ab" * 32)
    started = time.monotonic()
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-s", "-p", "no:cacheprovider",
         "tests/live/test_worker_killed.py"],
        cwd=REPO, env=env, capture_output=True, text=True,
    )  # fmt: skip
    seconds = time.monotonic() - started
    found = re.search(r"kills: (\d+) \((\d+) of the main process\) in ([\d.]+) s", run.stdout)
    kills, main_kills, killing = (
        (int(found[1]), int(found[2]), float(found[3])) if found else (0, 0, 0.0)
    )
    passed = run.returncode == 0
    print(run.stdout[-2000:] if not passed else "")
    print(f"kills mid-projection: {kills} ({main_kills} of the main process, the rest")
    print("  of its pool child)")
    print("after each: stored rows == a rebuild, points total == results posted: "
          + ("held" if passed else "FAILED"))  # fmt: skip
    print(f"time: {killing:.1f} s of kills, {seconds:.1f} s in all")
    print(json.dumps({
        "bench": "kill_soak", "kills": kills, "main_process_kills": main_kills,
        "held": passed, "seconds": round(seconds, 1), "kill_seconds": killing,
    }))  # fmt: skip
    return 0 if passed else 1


if __name__ == "__main__":
    sys.exit(main())
