"""Benchmark: complete hands replayed per second by the rules engine, with every rule checked.

    .venv/bin/python bench/engine_replay.py [--hands 20000] [--runs 7]

Measures, each as the median of several runs over the same random hands (random legal play
with closes, exchanges, marriages and claims, plus the 500 independent vectors):
- in process, from parsed records (GameRecord.replay + outcome): hands/s and actions/s;
- in process, from JSON text (json.loads + GameRecord.from_json + replay + outcome);
- through the CLI (``python -m engine replay FILE``, interpreter start-up included).
Target (issue 2): at least 20,000 complete hands per second in process on one core.
The last line is JSON.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from timing import median_time  # noqa: E402

from engine.randomplay import random_records  # noqa: E402
from engine.record import GameRecord  # noqa: E402

VECTORS = ROOT / "tests" / "engine" / "data" / "independent-engine-hands.jsonl"
TARGET = 20_000


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

    in_process = median_time(replay_parsed, args.runs)
    from_text = median_time(replay_text, args.runs)

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
        "cli_hands_per_s": round(hands / through_cli),
        "cli_actions_per_s": round(actions / through_cli),
        "target_hands_per_s": TARGET,
        "meets_target": hands / in_process >= TARGET,
    }
    print(f"hands: {hands}, actions: {actions} ({actions / hands:.1f} per hand), median of runs")
    for label, seconds in [
        ("in process, parsed records", in_process),
        ("in process, from JSON text", from_text),
        ("CLI (python -m engine)", through_cli),
    ]:
        rates = f"{hands / seconds:>10,.0f} hands/s  {actions / seconds:>12,.0f} actions/s"
        print(f"{label:27}: {rates}")
    print(
        f"target: {TARGET:,} hands/s in process -> {'met' if result['meets_target'] else 'NOT met'}"
    )
    print(json.dumps(result))


if __name__ == "__main__":
    main()
