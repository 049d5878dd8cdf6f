"""The engine's command line. Its output is stable: other tools and the tests read it.

    python -m engine replay FILE     one outcome (or error) object per record, per line
    python -m engine legal FILE      one JSON list of legal actions per record, per line
    python -m engine random --seed S --count N [--variant NAME ...]
    python -m engine demo            a random hand, narrated

FILE is ``-`` for standard input; a ``.json`` file holds one record (or a JSON list of
records), anything else is JSON Lines. The exit status is 1 if any record was bad, else 0;
no input, however broken, produces a traceback.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Iterator, Sequence
from typing import Any, TextIO

from engine.errors import EngineError, RecordFormatError
from engine.record import GameRecord, decode_json, read_jsonl
from engine.rules import VARIANTS


def _records(path: str, stdin: TextIO) -> Iterator[GameRecord | EngineError]:
    """The records of FILE, each or the error in its place (one per line of JSON Lines;
    a line that is not UTF-8 is an error for that line only)."""
    try:
        if path == "-":
            buffer = getattr(stdin, "buffer", None)  # bytes, unless a test's StringIO
            data: bytes | str = stdin.read() if buffer is None else buffer.read()
        else:
            with open(path, "rb") as handle:
                data = handle.read()
    except OSError as error:
        yield RecordFormatError("format", f"cannot read {path}: {error}")
        return
    if not path.endswith(".json"):
        yield from read_jsonl(data)
        return
    try:  # one document: one record or a list of them
        text = data if isinstance(data, str) else data.decode("utf-8-sig")
        decoded = decode_json(text)
    except UnicodeDecodeError as error:
        yield RecordFormatError("format", f"cannot read {path}: {error}")
        return
    except RecordFormatError as error:
        yield error
        return
    for item in decoded if isinstance(decoded, list) else [decoded]:
        try:
            yield GameRecord.from_json(item)
        except EngineError as error:
            yield error


#: ``json.dumps(obj, ensure_ascii=False)``, without building an encoder per line.
_encode = json.JSONEncoder(ensure_ascii=False).encode


def _dump(obj: Any, out: TextIO) -> None:
    out.write(_encode(obj) + "\n")


def _each(path: str, stdin: TextIO, out: TextIO, answer: Callable[[GameRecord], Any]) -> int:
    """Print ``answer(record)`` for each record of FILE, or its error object; the exit
    status is 1 if any record was bad."""
    status = 0
    for item in _records(path, stdin):
        try:
            if isinstance(item, EngineError):
                raise item
            _dump(answer(item), out)
        except EngineError as error:
            _dump({"error": error.to_json()}, out)
            status = 1
    return status


def cmd_replay(path: str, out: TextIO, stdin: TextIO) -> int:
    return _each(path, stdin, out, lambda record: record.outcome().to_json())


def cmd_legal(path: str, out: TextIO, stdin: TextIO) -> int:
    return _each(
        path, stdin, out, lambda record: [a.to_json() for a in record.replay().legal_actions()]
    )


def cmd_random(seed: int, count: int, variants: Sequence[str], out: TextIO) -> int:
    from engine.randomplay import random_records

    for record in random_records(seed, count, variants):
        out.write(record.dumps() + "\n")
    return 0


def cmd_demo(seed: int, out: TextIO) -> int:
    from engine.randomplay import random_records

    record = next(random_records(seed, 1))
    state = record.start()
    out.write(f"Dealer: seat {record.dealer}. Trumps: {state.trump.name.lower()} ")
    out.write(f"(turn-up {state.turnup}).\n")
    for seat in (0, 1):
        out.write(f"Seat {seat} holds {' '.join(c.code for c in state.cards_of(seat))}\n")
    for action in record.actions:
        state = state.apply(action)
        out.write(f"  {action}\n")
    out.write(json.dumps(state.outcome().to_json()) + "\n")
    return 0


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> Any:  # usage errors: a message, exit 2, no traceback
        self.print_usage(sys.stderr)
        self.exit(2, f"{self.prog}: error: {message}\n")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="python -m engine", description="The Schnapsen rules engine.")
    commands = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    replay = commands.add_parser("replay", help="print the outcome of each record")
    replay.add_argument("file", help="a .json record, a JSON Lines file, or - for stdin")
    legal = commands.add_parser("legal", help="print the legal actions after each record")
    legal.add_argument("file")
    rand = commands.add_parser("random", help="write random legal records (JSON Lines)")
    rand.add_argument("--seed", type=int, required=True)
    rand.add_argument("--count", type=int, required=True)
    rand.add_argument("--variant", action="append", default=[], choices=sorted(VARIANTS))
    demo = commands.add_parser("demo", help="play one random hand and narrate it")
    demo.add_argument("--seed", type=int, default=1)
    return parser


def main(argv: Sequence[str] | None = None, out: TextIO | None = None) -> int:
    args = build_parser().parse_args(argv)
    out = out or sys.stdout
    try:
        if args.command == "replay":
            return cmd_replay(args.file, out, sys.stdin)
        if args.command == "legal":
            return cmd_legal(args.file, out, sys.stdin)
        if args.command == "random":
            if args.count < 0:
                raise RecordFormatError("format", "--count must be 0 or more")
            return cmd_random(args.seed, args.count, args.variant, out)
        return cmd_demo(args.seed, out)
    except EngineError as error:
        sys.stderr.write(f"error: {error}\n")
        return 2
    except BrokenPipeError:
        return 0
