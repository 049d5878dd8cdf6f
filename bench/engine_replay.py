"""Benchmark: complete hands replayed per second by the rules engine, with every rule checked.

    .venv/bin/python bench/engine_replay.py [--hands 20000] [--runs 7]

Measures, each as the median of several runs over the same random hands (random legal play
with closes, exchanges, marriages and claims, plus the 500 independent vectors; every line
as ``GameRecord.dumps`` writes it, with its ``outcome`` as an extra field):
- in process, from parsed records (GameRecord.replay + outcome): hands/s and actions/s;
- in process, from JSON text (GameRecord.loads + replay + outcome), and its rate as a share
  of the parsed-records rate: what reading JSON costs;
- in process, from the bytes of a JSON Lines file (engine.record.read_jsonl, what the CLI
  reads with: UTF-8 per line, blank lines, line numbers in errors);
- through the CLI (``python -m engine replay FILE``, interpreter start-up included).
The in-process runs alternate (parsed, text, file, parsed, ...), so a busy moment of a
shared machine hits each of them alike.

Targets: at least 20,000 complete hands per second in process on one core (issue 2);
from JSON text at least 60 % of the parsed-records rate (issue 17). The last line is JSON.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from timing import median_time  # noqa: E402

from engine.randomplay import random_records  # noqa: E402
from engine.record import GameRecord, read_jsonl  # noqa: E402

VECTORS = ROOT / "tests" / "engine" / "data" / "independent-engine-hands.jsonl"
TARGET = 20_000
TARGET_TEXT_SHARE = 0.60


def alternating(runs: int, **jobs: Callable[[], None]) -> dict[str, float]:
    """Median seconds of each job over ``runs`` rounds, the jobs taking turns."""
    times: dict[str, list[float]] = {name: [] for name in jobs}
    for _ in range(runs):
        for name, job in jobs.items():
            start = time.perf_counter()
            job()
            times[name].append(time.perf_counter() - start)
    return {name: statistics.median(ts) for name, ts in times.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=20_000)
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()

    lines = [r.dumps() for r in random_records(seed=20261121, count=args.hands - 500)]
    lines += VECTORS.read_text().splitlines()
    records = [GameRecord.loads(line) for line in lines]
    hands = len(records)
    actions = sum(len(r.actions) for r in records)

    def replay_parsed() -> None:
        for record in records:
            record.replay().outcome()

    def replay_text() -> None:
        for line in lines:
            GameRecord.loads(line).replay().outcome()

    data = ("\n".join(lines) + "\n").encode()

    def replay_file() -> None:
        for record in read_jsonl(data):
            assert isinstance(record, GameRecord)
            record.replay().outcome()

    medians = alternating(args.runs, parsed=replay_parsed, text=replay_text, file=replay_file)
    in_process, from_text, from_file = medians["parsed"], medians["text"], medians["file"]

    with tempfile.NamedTemporaryFile("w", suffix=".jsonl", delete=False) as handle:
        handle.write("\n".join(lines) + "\n")
    try:
        env = dict(os.environ, PYTHONPATH=str(ROOT))

        def cli() -> None:
            subprocess.run(
                [sys.executable, "-m", "engine", "replay", handle.name],
                stdout=subprocess.DEVNULL,
                check=True,
                env=env,
            )

        through_cli = median_time(cli, max(3, args.runs // 2))
    finally:
        os.unlink(handle.name)

    result = {
        "bench": "engine_replay",
        "hands": hands,
        "actions": actions,
        "runs": args.runs,
        "in_process_hands_per_s": round(hands / in_process),
        "in_process_actions_per_s": round(actions / in_process),
        "from_json_hands_per_s": round(hands / from_text),
        "from_json_actions_per_s": round(actions / from_text),
        "from_json_share": round(in_process / from_text, 3),
        "from_jsonl_file_hands_per_s": round(hands / from_file),
        "cli_hands_per_s": round(hands / through_cli),
        "cli_actions_per_s": round(actions / through_cli),
        "target_hands_per_s": TARGET,
        "target_from_json_share": TARGET_TEXT_SHARE,
        "meets_target": hands / in_process >= TARGET
        and in_process / from_text >= TARGET_TEXT_SHARE,
    }
    print(f"hands: {hands}, actions: {actions} ({actions / hands:.1f} per hand), median of runs")
    for label, seconds in [
        ("in process, parsed records", in_process),
        ("in process, from JSON text", from_text),
        ("in process, JSON Lines file", from_file),
        ("CLI (python -m engine)", through_cli),
    ]:
        rates = f"{hands / seconds:>10,.0f} hands/s  {actions / seconds:>12,.0f} actions/s"
        print(f"{label:27}: {rates}")
    share = in_process / from_text
    print(f"from JSON text: {share:.0%} of the parsed-records rate (target >= 60 %)")
    print(
        f"targets: {TARGET:,} hands/s in process, 60 % from text -> "
        f"{'met' if result['meets_target'] else 'NOT met'}"
    )
    print(json.dumps(result))


if __name__ == "__main__":
    main()
