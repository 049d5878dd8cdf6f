"""Benchmark: how fast ``./dev serve`` (``python -m tournament serve``) is ready, against
a trivial Flask app under waitress in the same run (speed P10).

    .venv/bin/python bench/serve_start.py            # 5 rounds
    .venv/bin/python bench/serve_start.py --quick    # 1 round: the suite's smoke test

Each round starts, in turn: ``python -m tournament serve`` on an instance folder used
before (its SQLite store at the newest migration, an organiser's account and a Swiss of
200 players in it), the same on a fresh instance folder
(the store created and migrated), and ``waitress-serve`` with a Flask app whose one
route answers ``/healthz``. Measured per start: the wall time from spawning the command
to the first 200 from ``/healthz``, and the CPU seconds the process used until then
(``/proc``: hardly changed by the neighbours on a shared machine). Medians, and their
ratios to the Flask app's. Target: ``serve`` on a used instance within 3x. On the used
instance the first GET of the standings after ``/healthz`` is timed too: what the start
leaves to first use (modules, the store's engine) must not make the first real request
pay seconds instead.

The project's bytecode is compiled first (``compileall``), as any Python leaves it after
the first start unless ``PYTHONDONTWRITEBYTECODE`` is set (as in some CI shells): the
figures are those of a start after the first one. The last line is JSON.
"""

from __future__ import annotations

import argparse
import compileall
import http.client
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))

import live_services as services  # noqa: E402

TARGET = 3.0
#: The used instance's tournament, whose standings are asked for first after its starts.
TOURNAMENT = "bench"
PLAYERS = 200
STANDINGS = f"/api/v1/tournaments/{TOURNAMENT}/standings"
HELLO = """
from flask import Flask

app = Flask("hello")


@app.get("/healthz")
def healthz():
    return {"status": "ok"}
"""


def cpu_of(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def start(
    command: list[str], env: dict[str, str], port: int, first: str | None = None
) -> tuple[float, float | None, float | None]:
    """Spawn ``command``, wait for ``/healthz`` on ``port``: wall and CPU seconds to it;
    then, with ``first``, the wall seconds of a GET of that path (what the first real
    request after the start pays for what the start left to first use)."""
    began = time.perf_counter()
    child = subprocess.Popen(
        command, env=env, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    try:
        while True:
            if child.poll() is not None:
                raise RuntimeError(f"{command} exited with {child.returncode}")
            conn = http.client.HTTPConnection(services.HOST, port, timeout=5)
            try:
                conn.request("GET", "/healthz")
                if conn.getresponse().status == 200:
                    break
            except OSError:
                time.sleep(0.005)
            finally:
                conn.close()
        wall = time.perf_counter() - began
        try:
            cpu: float | None = cpu_of(child.pid)
        except OSError:
            cpu = None
        then: float | None = None
        if first is not None:
            asked = time.perf_counter()
            conn = http.client.HTTPConnection(services.HOST, port, timeout=30)
            try:
                conn.request("GET", first)
                answer = conn.getresponse()
                answer.read()
                if answer.status != 200:
                    raise RuntimeError(f"GET {first}: {answer.status}")
            finally:
                conn.close()
            then = time.perf_counter() - asked
        return wall, cpu, then
    finally:
        child.terminate()
        try:
            child.wait(20)
        except subprocess.TimeoutExpired:
            child.kill()
            child.wait()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    if args.quick:
        args.rounds = 1
    for package in ("tournament", "engine", "workers"):
        compileall.compile_dir(ROOT / package, quiet=1)
    waitress_serve = shutil.which("waitress-serve", path=str(Path(sys.executable).parent))
    if waitress_serve is None:
        raise SystemExit("waitress-serve is not installed next to this Python")
    times: dict[str, list[tuple[float, float | None, float | None]]] = {
        "used": [],
        "fresh": [],
        "hello": [],
    }
    with tempfile.TemporaryDirectory(prefix="bench-serve-start-") as folder:
        Path(folder, "hello.py").write_text(HELLO)
        base = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}
        base.pop("PORT", None)
        used = str(Path(folder) / "used")
        serve = [sys.executable, "-m", "tournament", "serve"]
        port = services.free_port()
        start([*serve, "--port", str(port)], {**base, "SCHNAPSEN_INSTANCE": used}, port)
        # A laptop used before has its organiser (no setup link to make at each start)
        # and a tournament: a Swiss of 200 players, round 1 drawn.
        Path(folder, "players.csv").write_text(
            "name,club,rating\n" + "".join(f"Player {i:03d},Club {i % 10},{1200 + i}\n"
                                            for i in range(PLAYERS))
        )  # fmt: skip
        for words, given in (
            (["accounts", "add", "desk@club.example", "--password-stdin"], "eleven chars\n"),
            (["create", "Bench", "--id", TOURNAMENT, "--format", "swiss", "--best-of", "3"], ""),
            (["players", "import", str(Path(folder, "players.csv"))], ""),
            (["round", "start"], ""),
        ):
            subprocess.run(
                [sys.executable, "-m", "tournament", *words], input=given, text=True,
                check=True, capture_output=True, env={**base, "SCHNAPSEN_INSTANCE": used},
                cwd=ROOT,
            )  # fmt: skip
        for number in range(args.rounds):
            port = services.free_port()
            env = {**base, "SCHNAPSEN_INSTANCE": used}
            times["used"].append(start([*serve, "--port", str(port)], env, port, STANDINGS))
            port = services.free_port()
            env = {**base, "SCHNAPSEN_INSTANCE": str(Path(folder) / f"fresh{number}")}
            times["fresh"].append(start([*serve, "--port", str(port)], env, port))
            port = services.free_port()
            env = {**base, "PYTHONPATH": folder}
            command = [waitress_serve, "--listen", f"{services.HOST}:{port}", "hello:app"]
            times["hello"].append(start(command, env, port))

    def median(case: str, part: int) -> float | None:
        found = [one[part] for one in times[case] if one[part] is not None]
        return round(statistics.median(found), 3) if found else None  # type: ignore[type-var, arg-type]

    figures: dict[str, Any] = {"rounds": args.rounds}
    for case in times:
        figures[f"{case}_wall_s"] = median(case, 0)
        figures[f"{case}_cpu_s"] = median(case, 1)
    figures["used_first_standings_s"] = median("used", 2)
    for case in ("used", "fresh"):
        for part in ("wall", "cpu"):
            mine, hello = figures[f"{case}_{part}_s"], figures[f"hello_{part}_s"]
            figures[f"{case}_{part}_ratio"] = round(mine / hello, 2) if mine and hello else None
    ok = (figures["used_wall_ratio"] or 99) <= TARGET
    print(f"start to /healthz, medians of {args.rounds} (load {services_load()}):")
    for case, label in (
        ("used", "tournament serve, instance used before"),
        ("fresh", "tournament serve, fresh instance (store created)"),
        ("hello", "a trivial Flask app under waitress-serve"),
    ):
        ratio = (
            ""
            if case == "hello"
            else (f"  x{figures[f'{case}_wall_ratio']} wall, x{figures[f'{case}_cpu_ratio']} CPU")
        )
        print(f"  {label}: {figures[f'{case}_wall_s']} s wall, {figures[f'{case}_cpu_s']} s CPU"
              f"{ratio}")  # fmt: skip
    print(f"  then the first GET of the standings ({PLAYERS} players) on the used instance: "
          f"{figures['used_first_standings_s']} s")  # fmt: skip
    print(f"  target: serve (used instance) within {TARGET:g}x wall: {'met' if ok else 'MISSED'}")
    print(json.dumps({"bench": "serve_start", "ok": ok, **figures}))


def services_load() -> str:
    return " ".join(f"{x:.1f}" for x in os.getloadavg())


if __name__ == "__main__":
    main()
