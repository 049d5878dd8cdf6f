"""Benchmark: the server CPU of the public standings page and the desk's rounds page of a
200-player tournament (issue 22, trial 9 section 7: 82 and 77 ms).

    .venv/bin/python bench/pages_cpu.py            # 25 loads of each page, in turns
    .venv/bin/python bench/pages_cpu.py --quick    # the smoke test: a small field

The app (``tournament.web.create_app``) runs in this process on a SQLite store in a
temporary folder, as ``tournament serve`` does; the tournament (bench/reads_stage.py: a
Swiss of 200 players, 7 rounds played, round 8 drawn) is stored through the app's own
service, which projects it. Each load is the WSGI call itself, timed with
``time.process_time`` (the CPU this process spent: the load of a shared machine disturbs
it much less than the wall clock), the pages taking turns; the first loads are not
counted. For each page: the median and the slowest, against the target (< 20 ms), and
the first load (templates compiled, nothing rendered yet: what the first phone after a
result pays, roughly). The last line is JSON.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import reads_stage  # noqa: E402
from api_stage import uptime  # noqa: E402

TARGET_MS = 20.0
TID = "bench-200"


def options() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="a small field, a few loads")
    parser.add_argument("--loads", type=int, default=25, help="of each page, counted")
    parser.add_argument("--players", type=int, default=200)
    parser.add_argument("--played", type=int, default=7, help="rounds played")
    args = parser.parse_args()
    if args.quick:
        args.loads, args.players, args.played = 3, 16, 2
    return args


def loader(app: Any, path: str, headers: dict[str, str]) -> Callable[[], tuple[float, int, int]]:
    """One load of ``path``: (CPU ms, status, bytes)."""
    from werkzeug.test import EnvironBuilder

    environ = EnvironBuilder(path=path, headers=headers).get_environ()

    def load() -> tuple[float, int, int]:
        status: list[str] = []
        began = time.process_time()
        answer = app.wsgi_app(dict(environ), lambda s, h, e=None: status.append(s))
        try:
            body = b"".join(answer)
        finally:
            getattr(answer, "close", lambda: None)()
        spent = (time.process_time() - began) * 1000
        return spent, int(status[0].split()[0]), len(body)

    return load


def main() -> None:
    args = options()
    before = uptime()
    from argon2 import PasswordHasher

    with tempfile.TemporaryDirectory() as folder:
        os.environ.setdefault("SCHNAPSEN_INSTANCE", folder)
        from tournament.app.services import services
        from tournament.web import create_app

        app = create_app({
            "DATABASE_URL": f"sqlite:///{Path(folder) / 'bench.sqlite3'}",
            "SECRET_KEY": "bench-" + "s" * 32,
            "INSTANCE_PATH": folder,
            "PROJECTIONS": "inline",  # each write projected in its own call
            "PASSWORD_HASHER": PasswordHasher(time_cost=1, memory_cost=1024, parallelism=1),
        })  # fmt: skip
        print(f"setting up {args.players} players, {args.played} rounds ...", file=sys.stderr)
        with app.app_context():
            reads_stage.tournament(services().tournaments, TID, args.players, played=args.played)
            accounts = services().accounts
            accounts.add("organiser@bench.test", "bench password 1", admin=True)
            _, token = accounts.create_token("organiser@bench.test", "bench")
        pages = {
            "public_standings": loader(app, f"/t/{TID}", {}),
            "desk_rounds": loader(
                app, f"/desk/t/{TID}/rounds", {"Authorization": f"Bearer {token}"}
            ),
        }
        import io

        quiet, sys.stderr = sys.stderr, io.StringIO()  # the access log of every load
        try:
            checked = {name: load() for name, load in pages.items()}
            for load in pages.values():
                load()
            spent: dict[str, list[float]] = {name: [] for name in pages}
            for _ in range(args.loads):
                for name, load in pages.items():
                    spent[name].append(load()[0])
                sys.stderr = io.StringIO()
        finally:
            sys.stderr = quiet
        services_stop(app)
    after = uptime()
    report(args, checked, spent, before, after)


def services_stop(app: Any) -> None:
    from tournament.web.live import KEY

    live = app.extensions.get(KEY)
    if live is not None:
        live.stop()


def report(args: argparse.Namespace, checked: dict[str, tuple[float, int, int]],
           spent: dict[str, list[float]], before: str, after: str) -> None:  # fmt: skip
    figures = {}
    for name, values in spent.items():
        figures[name] = {
            "status": checked[name][1],
            "bytes": checked[name][2],
            "first_load_ms": round(checked[name][0], 2),
            "median_ms": round(statistics.median(values), 2),
            "max_ms": round(max(values), 2),
            "loads": len(values),
            "pass": statistics.median(values) < TARGET_MS,
        }
    print(f"\nload before: {before}\nload after:  {after}")
    print(f"{args.players} players, {args.played} rounds played; server CPU per page "
          f"(time.process_time around the WSGI call), median of {args.loads} loads "
          "in turns")  # fmt: skip
    for name, f in figures.items():
        print(f"  {name:18s} status {f['status']}  {f['bytes']:7d} bytes  first "
              f"{f['first_load_ms']:7.2f} ms  median {f['median_ms']:7.2f} ms  max "
              f"{f['max_ms']:7.2f} ms  target < {TARGET_MS:g} ms: "
              f"{'met' if f['pass'] else 'MISSED'}")  # fmt: skip
    summary = {
        "bench": "pages_cpu", "quick": args.quick, "players": args.players,
        "rounds_played": args.played, "loads": args.loads, "target_ms": TARGET_MS,
        "load": {"before": before, "after": after, "cpus": os.cpu_count()},
        "pages": figures,
    }  # fmt: skip
    print(json.dumps(summary))


if __name__ == "__main__":
    main()
