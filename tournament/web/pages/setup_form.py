"""The new-tournament form: what it shows (the domain's settings, defaults and choices)
and what it sends to ``tournament.created`` (the same settings the API's create route
takes). The rules stay in :mod:`tournament.domain.model.settings`: a value the domain refuses
comes back as its refusal beside the field."""

from __future__ import annotations

import dataclasses
import datetime
from collections.abc import Mapping
from typing import Any

from flask_babel import gettext
from werkzeug.datastructures import MultiDict

from engine import VARIANTS
from tournament.domain.model.settings import (
    BEST_OF,
    DEFAULT_TIEBREAKS,
    FORMATS,
    OPTION_DEFAULTS,
    OTHER_TIEBREAKS,
    TIEBREAKS,
)
from tournament.web.pages.setup_words import HIDDEN_OPTIONS

#: The form's fields a refusal of the domain may name (``tournament_id`` is the id).
FIELDS = {"name", "id", "date", "venue", "format", "best_of", "variants", "tiebreaks",
          "first_dealer", "withdrawal", "late_entry_score", "options"}  # fmt: skip
ALIASES = {"tournament_id": "id", "schneiderbummerl": "variants", "seed": "_form"}


class FormProblem(Exception):
    """A value the form cannot even hand to the domain (not a number)."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(message)
        self.field, self.message = field, message


def option_fields(fmt: str) -> list[tuple[str, Any]]:
    """The format's options the form shows, with their defaults."""
    return [(k, v) for k, v in OPTION_DEFAULTS[fmt].items() if k not in HIDDEN_OPTIONS]


def option_name(fmt: str, key: str) -> str:
    return f"opt-{fmt}-{key}"


@dataclasses.dataclass
class NewTournament:
    """The form's values, as typed (text), with the domain's defaults."""

    name: str = ""
    id: str = ""
    date: str = ""
    venue: str = ""
    format: str = "swiss"
    best_of: str = "3"
    variants: list[str] = dataclasses.field(default_factory=list)
    tiebreak_mode: str = "default"
    tiebreak_order: list[str] = dataclasses.field(default_factory=list)
    tiebreaks_on: list[str] = dataclasses.field(default_factory=list)
    first_dealer: str = ""
    withdrawal: str = "forfeit"
    late_entry_score: str = "zero"
    options: dict[str, str] = dataclasses.field(default_factory=dict)

    @classmethod
    def blank(cls) -> NewTournament:
        swiss = list(DEFAULT_TIEBREAKS["swiss"])
        rest = [tb for tb in TIEBREAKS if tb not in swiss]
        options = {option_name(fmt, k): _shown(v) for fmt in FORMATS for k, v in option_fields(fmt)}
        return cls(
            date=datetime.date.today().isoformat(),
            tiebreak_order=swiss + rest,
            tiebreaks_on=swiss,
            options=options,
        )

    @classmethod
    def read(cls, form: MultiDict[str, str]) -> NewTournament:
        blank = cls.blank()
        order = [tb for tb in form.getlist("tiebreak_order") if tb in TIEBREAKS]
        order += [tb for tb in blank.tiebreak_order if tb not in order]
        options = {}
        for fmt in FORMATS:
            for key, default in option_fields(fmt):
                name = option_name(fmt, key)
                if isinstance(default, bool):
                    options[name] = "on" if form.get(name) else ""
                else:
                    options[name] = form.get(name, "").strip()
        return cls(
            name=form.get("name", ""),
            id=form.get("id", "").strip(),
            date=form.get("date", "").strip(),
            venue=form.get("venue", ""),
            format=form.get("format", "swiss"),
            best_of=form.get("best_of", "3"),
            variants=[v for v in form.getlist("variants") if v],
            tiebreak_mode="own" if form.get("tiebreak_mode") == "own" else "default",
            tiebreak_order=order,
            tiebreaks_on=[tb for tb in form.getlist("tiebreaks_on") if tb in TIEBREAKS],
            first_dealer=form.get("first_dealer", ""),
            withdrawal=form.get("withdrawal", "forfeit"),
            late_entry_score=form.get("late_entry_score", "zero"),
            options=options,
        )

    def move(self, how: str) -> str | None:
        """``up:<tie-break>`` or ``down:<tie-break>``: the order changed, the form now
        says "my own order"; returns the moved button's id, to put focus back on it."""
        direction, _, key = how.partition(":")
        if key not in self.tiebreak_order or direction not in ("up", "down"):
            return None
        at = self.tiebreak_order.index(key)
        to = at - 1 if direction == "up" else at + 1
        if 0 <= to < len(self.tiebreak_order):
            order = self.tiebreak_order
            order[at], order[to] = order[to], order[at]
        self.tiebreak_mode = "own"
        # Focus stays on the moved tie-break: on the other button once this one is
        # disabled (at the top or the bottom).
        at = self.tiebreak_order.index(key)
        if direction == "up" and at == 0:
            direction = "down"
        elif direction == "down" and at == len(self.tiebreak_order) - 1:
            direction = "up"
        return f"tb-{direction}-{key}"

    def settings(self) -> dict[str, Any]:
        """What ``tournament.created`` is asked to record (the API's create body)."""
        data: dict[str, Any] = {
            "name": self.name,
            "date": self.date,
            "venue": self.venue,
            "format": self.format,
            "best_of": _best_of(self.best_of),
            "variants": self.variants,
            "withdrawal": self.withdrawal,
            "late_entry_score": self.late_entry_score,
            "options": self.chosen_options(),
        }
        if self.tiebreak_mode == "own":
            data["tiebreaks"] = [tb for tb in self.tiebreak_order if tb in self.tiebreaks_on]
            if not data["tiebreaks"]:
                raise FormProblem(
                    "tiebreaks", gettext("Tick at least one tie-break, or take the format's own.")
                )
        if self.first_dealer:
            data["first_dealer"] = self.first_dealer
        return data

    def chosen_options(self) -> dict[str, int | bool]:
        """The options of the chosen format (the others' fields are ignored)."""
        if self.format not in OPTION_DEFAULTS:
            return {}
        chosen: dict[str, int | bool] = {}
        for key, default in option_fields(self.format):
            typed = self.options.get(option_name(self.format, key), "")
            if isinstance(default, bool):
                chosen[key] = typed == "on"
            elif not typed:
                continue  # left empty: the domain's default
            elif typed.isascii() and typed.isdigit():
                chosen[key] = int(typed)
            else:
                raise FormProblem(
                    option_name(self.format, key),
                    gettext("%(value)s is not a whole number like 5 (T-settings).", value=typed),
                )
        return chosen


def _best_of(text: str) -> int | str:
    # Handed on as typed when it is not a number: the domain says what best of may be.
    return int(text) if text.isascii() and text.isdigit() else text


def _shown(value: Any) -> str:
    if isinstance(value, bool):
        return "on" if value else ""
    return str(value)


def choices() -> Mapping[str, Any]:
    """The domain's lists the form offers."""
    return {
        "formats": FORMATS,
        "best_ofs": BEST_OF,
        "variant_names": list(VARIANTS),
        "all_tiebreaks": TIEBREAKS,
        "default_tiebreaks": {fmt: DEFAULT_TIEBREAKS.get(fmt, OTHER_TIEBREAKS) for fmt in FORMATS},
        "option_fields": {fmt: option_fields(fmt) for fmt in FORMATS},
    }
