"""Benchmark: what the organiser waits for per command, against a bare interpreter start.

    .venv/bin/python bench/cli.py [--players 40] [--rounds 5] [--runs 9]

Builds a Swiss of ``--players`` players (default 40) in a temporary SQLite store: rounds
1 to ``--rounds`` - 1 played hand by hand (best of 3), round ``--rounds`` drawn and open.
Then times, interleaved and each the median wall time of ``--runs`` new processes of the
same interpreter (CPU time beside it, which a busy machine disturbs less):

- ``python -c pass``: the floor, interpreter start-up and ``site``;
- ``tournament --help``: opens no store (target: at most 4x the floor);
- ``tournament standings``: opens the store, folds the tournament, ranks it;
- ``tournament results enter R.T --winner P --points 1``: one paper hand, in a different
  open match each run (target: at most 6x the floor).

Then splits ``results enter`` into parts, timed inside one process (medians of ``--runs``
more processes): what it imports, in the order it happens -- click and the command group;
the event store (``tournament.eventstore``'s store and migration check, on the ``sqlite3``
module: SQLAlchemy is not imported, and the benchmark fails if it is); everything else
(the CLI module, the domain, the engine) -- and the command itself (open the store, read
and fold the tournament, decide, append, print). What is left of its wall time is the
interpreter's start and exit. Each entry needs an open match: ``--runs`` at most
(players / 2 - 2) / 2.

The commands run as an installed checkout runs them: bytecode cached (``__pycache__``, here
in a temporary ``PYTHONPYCACHEPREFIX``, filled by one warm-up run of each command), even
where ``PYTHONDONTWRITEBYTECODE`` is set, which would compile every module of the project
on every start. The last line is JSON.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

TARGETS = {"help_ratio": 4.0, "results_enter_ratio": 6.0}

#: ``results enter`` in one process, in parts (milliseconds): its imports in three, then
#: the command itself (argv[1:]).
SPLIT = """
import json, sys, time
t0 = time.perf_counter()
import click, tournament.cli
t1 = time.perf_counter()
import tournament.eventstore.store, tournament.eventstore.migrate
t2 = time.perf_counter()
import tournament.cli.results
t3 = time.perf_counter()
sys.argv[0] = "tournament"  # the arguments from the command line, as the program runs
tournament.cli.main(standalone_mode=False)
t4 = time.perf_counter()
from tournament.cli.common import get_service
from tournament.domain.model.state import fold
events = get_service().events("test")
t5 = time.perf_counter()
fold(events)
t6 = time.perf_counter()
parts = [(t0, t1), (t1, t2), (t2, t3), (t3, t4), (t5, t6), (t4, t6)]
loaded = [name for name in ("sqlalchemy", "alembic") if name in sys.modules]
print(json.dumps([1000 * (b - a) for a, b in parts] + [len(events), loaded]))
"""


def build_store(folder: Path, players: int, rounds: int, seed: int) -> tuple[str, dict[str, int]]:
    """A SQLite store holding the tournament: its URL, and per open match a winner."""
    from tournament.domain.commands.rounds import start_round
    from tournament.domain.testing import Builder, random_hands, registered
    from tournament.eventstore import SQLEventStore, migrate

    b = Builder(registered(players, seed=seed, best_of=3, options={"rounds": rounds}))
    rng = random.Random(seed)
    for _ in range(rounds - 1):
        b.add(start_round(b.state))
        for mid in b.state.rounds[-1].matches:
            random_hands(b, b.state.matches[mid], rng)
    b.add(start_round(b.state))
    url = f"sqlite:///{folder / 'bench.sqlite3'}"
    migrate.upgrade(url)
    SQLEventStore(url).append("tournament-test", b.events, expected_version=0)
    return url, {m: b.state.matches[m].players[0] for m in b.state.rounds[-1].matches}


def run(argv: list[str], env: dict[str, str]) -> tuple[float, float, str]:
    """Wall seconds, CPU seconds (user + system) and output of one process."""
    start = time.perf_counter()
    process = subprocess.Popen(
        argv, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
    )
    assert process.stdout is not None
    output = process.stdout.read()
    _, status, usage = os.wait4(process.pid, 0)  # reaps it, with its resource usage
    wall = time.perf_counter() - start
    process.returncode = os.waitstatus_to_exitcode(status)
    process.stdout.close()
    if process.returncode != 0:
        raise SystemExit(f"{' '.join(argv)} failed:\n{output}")
    return wall, usage.ru_utime + usage.ru_stime, output


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--players", type=int, default=40)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--runs", type=int, default=9)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    folder = Path(tempfile.mkdtemp(prefix="bench-cli-"))
    try:
        measure(args, folder)
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def measure(args: argparse.Namespace, folder: Path) -> None:
    url, winners = build_store(folder, args.players, args.rounds, args.seed)
    if len(winners) < 2 * args.runs + 1:
        raise SystemExit(f"only {len(winners)} open matches for {2 * args.runs + 1} entries")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env.update(
        DATABASE_URL=url,
        SCHNAPSEN_INSTANCE=str(folder),
        SCHNAPSEN_TOURNAMENT="test",
        PYTHONPATH=str(ROOT),
        PYTHONPYCACHEPREFIX=str(folder / "pycache"),
    )
    python = sys.executable
    script = Path(python).with_name("tournament")
    cli = [str(script)] if script.exists() else [python, "-m", "tournament"]
    matches = iter(winners)

    def enter() -> list[str]:
        match = next(matches)
        return [*cli, "results", "enter", match, "--winner", str(winners[match]), "--points", "1"]

    commands = {
        "python -c pass": lambda: [python, "-c", "pass"],
        "tournament --help": lambda: [*cli, "--help"],
        "tournament standings": lambda: [*cli, "standings"],
        "tournament results enter": enter,
    }
    for argv in commands.values():  # warm-up: bytecode written, files in the page cache
        run(argv(), env)
    wall: dict[str, list[float]] = defaultdict(list)
    cpu: dict[str, list[float]] = defaultdict(list)
    split: list[list[float]] = []
    for _ in range(args.runs):  # interleaved: a busy moment hits every command alike
        for label, argv in commands.items():
            w, c, _ = run(argv(), env)
            wall[label].append(w)
            cpu[label].append(c)
        entry = enter()[len(cli) :]
        whole, _, output = run([python, "-c", SPLIT, *entry], env)
        *timed, count, loaded = json.loads(output.splitlines()[-1])
        if loaded:
            raise SystemExit(f"results enter imported {', '.join(loaded)}: see docs/operations.md")
        split.append([*timed, whole * 1000])

    median = {label: statistics.median(ts) for label, ts in wall.items()}
    floor = median["python -c pass"]
    print(f"{args.players} players, {args.rounds} rounds; medians of {args.runs} runs")
    for label, seconds in median.items():
        used = statistics.median(cpu[label])
        print(
            f"{label:26} {seconds * 1000:7.1f} ms  {seconds / floor:5.1f}x the floor  "
            f"(CPU {used * 1000:6.1f} ms)"
        )
    parts = [statistics.median(part) for part in zip(*split, strict=True)]
    frame, store, rest, work, folding, _, whole = parts
    entered = median["tournament results enter"] * 1000
    # The process's wall time less everything timed inside it (the fold again included).
    left = statistics.median(s[6] - sum(s[:4]) - s[5] for s in split)
    print("results enter, where the time goes (inside one process):")
    print(f"  click and the command group   {frame:6.1f} ms")
    print(f"  the event store's imports     {store:6.1f} ms (tournament.eventstore on sqlite3)")
    print(f"  the command's other imports   {rest:6.1f} ms (CLI module, domain, engine)")
    print(f"  the command itself            {work:6.1f} ms (open, read, fold, decide, append)")
    print(f"    of which folding {count:,} events {folding:6.1f} ms (timed again after it)")
    print(f"  start and exit of the process {left:6.1f} ms (python -c pass: {floor * 1000:.1f} ms)")
    print(f"  that process in all           {whole:6.1f} ms (as run above: {entered:.1f} ms)")

    result: dict[str, Any] = {
        "bench": "cli",
        "players": args.players,
        "rounds": args.rounds,
        "runs": args.runs,
        "python_s": round(floor, 4),
        "help_s": round(median["tournament --help"], 4),
        "standings_s": round(median["tournament standings"], 4),
        "results_enter_s": round(median["tournament results enter"], 4),
        "help_ratio": round(median["tournament --help"] / floor, 2),
        "standings_ratio": round(median["tournament standings"] / floor, 2),
        "results_enter_ratio": round(median["tournament results enter"] / floor, 2),
        "results_enter_store_imports_ms": round(store, 1),
        "results_enter_other_imports_ms": round(frame + rest, 1),
        "results_enter_command_ms": round(work, 1),
        "results_enter_fold_ms": round(folding, 1),
        "targets": TARGETS,
    }
    result["ok"] = all(result[k] <= v for k, v in TARGETS.items())
    print(json.dumps(result))


if __name__ == "__main__":
    main()
