"""How the ``tournament`` command reads its command line and reports what it refuses.

Exit statuses (docs/tournaments.md, "Exit statuses"):

* 0: done;
* 1: refused -- a value the command cannot take (``--rating 1.530``, a date that is no
  date, a name with a control character, an argument that is not UTF-8 text), or a
  command the tournament's rules refuse; one ``Error:`` line (an import lists its bad
  rows), and nothing stored;
* 2: the command line itself is wrong -- an unknown command or option, a missing
  argument, an option without its value -- with click's usage hint.

Every message is printed harmless: no raw control character reaches the terminal, and
bad input is quoted short (a 1 MB value is not echoed back).
"""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Callable, Sequence
from typing import Any

import click

#: Where the arguments are kept on the context, for messages that quote them.
_ARGS = "tournament.args"


class Refused(click.ClickException):
    """A value or command refused: exit status 1, one ``Error:`` line, no usage hint."""

    exit_code = 1


class TournamentGroup(click.Group):
    """The top-level ``tournament`` group: arguments must be UTF-8 text; a bad value is a
    refusal (exit 1) rather than a usage error (exit 2); messages are made safe."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        refuse_undecodable(args, lambda position: self._argument_at(ctx, args, position))
        ctx.meta[_ARGS] = list(args)
        return super().parse_args(ctx, args)

    def _argument_at(self, ctx: click.Context, args: Sequence[str], position: int) -> str | None:
        """The name of the command's argument that word ``position`` of the command line
        is (``NAME``), read off the commands as click would; None if it is none."""
        command: click.Command = self
        index = 0
        while isinstance(command, click.Group) and index < len(args):
            word = args[index]
            if word.startswith("-"):
                return None  # a group's own option: no argument of a command
            found = command.get_command(ctx, word)
            if found is None:
                return None
            command, index = found, index + 1
        arguments = [p for p in command.params if isinstance(p, click.Argument)]
        takes_value = {
            name
            for p in command.params
            if isinstance(p, click.Option) and not p.is_flag and not p.count
            for name in p.opts
        }
        skip = False
        for i in range(index, len(args)):
            word = args[i]
            if skip:
                skip = False
                if i == position:
                    return None
                continue
            if word.startswith("-") and len(word) > 1:
                skip = word in takes_value  # ``--name VALUE``; ``--name=VALUE`` is one word
                continue
            if i == position:
                return arguments[0].human_readable_name if arguments else None
            if arguments and arguments[0].nargs == 1:
                arguments.pop(0)
        return None

    def invoke(self, ctx: click.Context) -> Any:
        args = ctx.meta.get(_ARGS, ())
        stdout = sys.stdout
        sys.stdout = QuietWhenClosed(stdout)
        try:
            return super().invoke(ctx)
        except click.MissingParameter:  # a usage error (exit 2, usage shown) naming no input
            raise
        except click.BadParameter as error:  # a value refused: exit 1, no usage noise
            raise Refused(safe(_refusal(error), args)) from None
        except click.UsageError as error:  # unknown option or command: exit 2, usage shown
            raise click.UsageError(safe(error.format_message(), args), error.ctx) from None
        except click.ClickException as error:
            if type(error).exit_code != Refused.exit_code:
                raise
            raise Refused(safe(error.format_message(), args)) from None
        finally:
            sys.stdout = stdout


class QuietWhenClosed:
    """Standard output that goes quiet when its reader has gone (``tournament standings |
    head -3``): the command goes on and does what it was told -- a correction piped into
    ``head`` is still stored -- instead of failing on "Broken pipe" halfway."""

    def __init__(self, stream: Any) -> None:
        self._stream = stream
        self._gone = False

    def write(self, text: str) -> int:
        if not self._gone:
            try:
                return int(self._stream.write(text))
            except BrokenPipeError:
                self._reader_gone()
        return len(text)

    def flush(self) -> None:
        if not self._gone:
            try:
                self._stream.flush()
            except BrokenPipeError:
                self._reader_gone()

    def _reader_gone(self) -> None:
        self._gone = True
        # Python flushes standard output once more at exit; point the descriptor at
        # /dev/null so that last flush has somewhere to go and says nothing.
        with contextlib.suppress(OSError, ValueError, AttributeError):
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, self._stream.fileno())
            os.close(devnull)

    def __getattr__(self, name: str) -> Any:  # encoding, isatty, fileno ... as the stream's
        return getattr(self._stream, name)


def _refusal(error: click.BadParameter) -> str:
    """``--rating: '1.530' is not a whole number``: the option, then what is wrong."""
    hint = error.param_hint
    if hint is None and error.param is not None:
        hint = error.param.get_error_hint(error.ctx) if error.ctx else error.param.name
    if isinstance(hint, Sequence) and not isinstance(hint, str):
        hint = " / ".join(hint)
    hint = (hint or "").replace("'", "").replace('"', "")
    return f"{hint}: {error.message}" if hint else error.message


def refuse_undecodable(
    args: Sequence[str], argument_at: Callable[[int], str | None] = lambda _: None
) -> None:
    """Refuse the first argument that is not UTF-8 text (a Latin-1 terminal sends "Jörg" as
    the byte 0xf6, which Python keeps as a lone surrogate that no store can hold), naming
    the option it belongs to, or the command's argument (``argument_at``: its name for a
    word's position)."""
    for position, arg in enumerate(args):
        try:
            arg.encode("utf-8")
        except UnicodeEncodeError:
            option, eq, value = arg.partition("=")
            before = args[position - 1] if position else ""
            name = None if arg.startswith("-") else argument_at(position)
            if arg.startswith("--") and eq:
                where, bad = option, value
            elif name is not None:  # a command's own argument: NAME
                where, bad = name, arg
            elif before.startswith("-") and "=" not in before and len(before) > 1:
                where, bad = before, arg
            else:  # said by its place on the line
                where, bad = f"word {position + 1} of the command", arg
            raise Refused(
                f"{where}: {_shown(bad)} is not UTF-8 text: set your terminal to UTF-8 "
                "(nothing stored)"
            ) from None


def _shown(text: str, limit: int = 40) -> str:
    """``'J\\xf6rg'``: an undecodable argument quoted with its bytes as the terminal sent
    them (Python keeps a byte that is not UTF-8 as a surrogate U+DC80-U+DCFF)."""
    out = []
    for ch in text[:limit]:
        code = ord(ch)
        if 0xDC80 <= code <= 0xDCFF:
            out.append(f"\\x{code - 0xDC00:02x}")
        else:
            out.append(ch if ch.isprintable() else repr(ch)[1:-1])
    return "'" + "".join(out) + ("…" if len(text) > limit else "") + "'"


#: An argument quoted back longer than this is cut to an excerpt; a file's path is shorter
#: and is quoted whole.
LONG_ARGUMENT = 300


def safe(message: str, args: Sequence[str] = ()) -> str:
    """``message`` with long arguments it quotes in full cut to an excerpt, and anything a
    terminal would act on escaped (:func:`tournament.domain.model.text.clean`)."""
    from tournament.domain.model.text import clean, excerpt

    for arg in args:
        if len(arg) > LONG_ARGUMENT and repr(arg) in message:
            message = message.replace(repr(arg), excerpt(arg))
    return clean(message)
