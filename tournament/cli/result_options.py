"""What one ``results`` command may be given together: a hand, the sheet's tallies or a
forfeit to enter; one correction; signatures with the entry that decides the match.

An option the command would drop without a word is refused instead, before the store is
opened, with every option involved named and "nothing stored" (T-result, T-correction).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import click

from tournament.domain import commands as c
from tournament.domain.errors import ConflictError, DomainError
from tournament.domain.state import Tournament


def refuse_mixed(
    hand: Sequence[str],
    tallies: Sequence[str],
    forfeit: str | None,
    *,
    first_dealer: int | None = None,
    scorer: int | None = None,
    signed: bool = False,
) -> None:
    """One kind of result per command: a hand (``hand``: the hand options given), the
    sheet's tallies, or a forfeit. Anything given beside it would be dropped without a word
    -- a stray ``--forfeit`` ends the match, a ``--dealer`` beside a tally is never
    checked -- so the command is refused instead (T-result)."""
    either = "give either --tally, --winner/--points or --forfeit, not several"
    if forfeit is not None:
        play = [*(["--tally"] if tallies else []), *hand]
        play += [
            o for o, v in (("--first-dealer", first_dealer), ("--scorer", scorer)) if v is not None
        ]
        play += ["--signed"] if signed else []  # an absent player signs no sheet
        if play:
            raise DomainError(
                "options",
                "T-result",
                f"--forfeit with {', '.join(play)}: {either} (a forfeit is not played: no "
                "hand, dealer, scorer or signed sheet goes with it); nothing stored",
            )
    elif tallies and hand:
        raise DomainError(
            "options",
            "T-result",
            f"--tally with {', '.join(hand)}: {either} (a tally's hands have no dealer, "
            "reason or card points of their own: the deal alternates, R18); nothing stored",
        )


def refuse_correction_mix(
    hand: Sequence[str],
    tally: str | None,
    *,
    void: bool,
    undo: bool,
    yes: bool,
    preview_only: bool,
) -> None:
    """One correction per command: new hand fields, a new tally, --void or --undo; and
    --preview (show only) or --yes (store), not both. Anything else would be dropped
    without a word (T-correction)."""
    given = [*hand, *(["--tally"] if tally is not None else [])]
    alone = [o for o, on in (("--void", void), ("--undo", undo)) if on]
    if alone and (given or len(alone) > 1):
        others = [*alone[1:], *given]
        raise DomainError(
            "options",
            "T-correction",
            f"{alone[0]} with {', '.join(others)}: give either what changes, --void or "
            "--undo, not several; nothing stored",
        )
    if tally is not None and hand:
        raise DomainError(
            "options",
            "T-correction",
            f"--tally with {', '.join(hand)}: a tally is corrected as a whole tally, a hand "
            "by its fields; nothing stored",
        )
    if yes and preview_only:
        raise click.BadParameter(
            "--preview only shows and --yes stores: give one of them", param_hint="--yes"
        )


def signatures(t: Tournament, mid: str, events: list[Any], actor: str) -> list[Any]:
    """Both players sign with the entry that decides the match (``--signed``)."""
    signed: list[Any] = []
    for pid in t.matches[mid].players:
        try:
            signed += c.sign_sheet(t, mid, pid, actor=actor, new=events)
        except ConflictError as error:
            if error.rule != "T-sheet":
                raise
            raise ConflictError(
                "signed",
                "T-sheet",
                f"{error.message}: --signed goes only with the entry that decides the match "
                "(enter the whole sheet at once: --tally ... --tally ... --signed, or sign "
                "later with `tournament results sign`)",
            ) from None
    return signed
