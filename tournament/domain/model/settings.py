"""A tournament's settings: what ``tournament.created`` records, validated.

>>> s = Settings.from_payload({"name": "Herbstturnier", "format": "swiss", "best_of": 3})
>>> s.target, s.schneiderbummerl, s.tiebreaks[0]
(2, True, 'buchholz')
>>> Settings.from_payload({"name": "x", "best_of": 4})
Traceback (most recent call last):
...
tournament.domain.model.errors.DomainError: best_of: a match is best of 1, 3, 5 or 7 Bummerl, ...
"""

from __future__ import annotations

import dataclasses
import datetime
import re
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, Final

from engine import VARIANTS
from tournament.domain.model.errors import DomainError
from tournament.domain.model.text import excerpt

if TYPE_CHECKING:  # a type only: reading settings loads no format
    from tournament.formats.round_robin import WithdrawalPolicy

FORMATS: Final = (
    "single_elimination",
    "double_elimination",
    "round_robin",
    "swiss",
    "groups_knockout",
    "lives",
)
BEST_OF: Final = (1, 3, 5, 7)
#: How the first dealer of a match is chosen (R18): the better seed, a seeded draw per
#: match, as entered with the first result, or balanced by the format (Swiss: whoever dealt
#: first less often so far; round robin: the Berger tables' first-named player; lives and
#: knockouts: a seeded draw).
FIRST_DEALER_RULES: Final = ("higher_seed", "seeded_draw", "as_entered", "balanced")
#: The default first-dealer rule per format: the format's own balance where it has one
#: (in a round robin ``higher_seed`` would make seed 1 deal first in every game).
DEFAULT_FIRST_DEALER: Final = {
    "swiss": "balanced",
    "round_robin": "balanced",
    "groups_knockout": "balanced",
    "lives": "balanced",
}
#: What happens to the remaining matches of a withdrawn player.
WITHDRAWAL_POLICIES: Final = ("forfeit", "drop")
#: What a late entry (Swiss) scores for each round drawn before it entered: ``zero`` (an
#: unplayed round: no point, no Bummerl) or ``bye`` (each missed round scored as a bye).
LATE_ENTRY_SCORES: Final = ("zero", "bye")
TIEBREAKS: Final = (
    "bummerl_diff",
    "game_point_diff",
    "game_points",
    "direct_encounter",
    "buchholz",
    "buchholz_cut1",
    "median_buchholz",
    "sonneborn_berger",
    "wins",
    "schneider",
    "seed",
    "lot",
)
DEFAULT_TIEBREAKS: Final = {
    "swiss": ("buchholz", "bummerl_diff", "game_point_diff", "direct_encounter", "lot"),
}
OTHER_TIEBREAKS: Final = (
    "bummerl_diff",
    "game_point_diff",
    "game_points",
    "direct_encounter",
    "lot",
)


@dataclasses.dataclass(frozen=True)
class Settings:
    """Everything an organiser decides when creating a tournament (docs/tournaments.md)."""

    name: str
    date: str = ""
    venue: str = ""
    variants: tuple[str, ...] = ()
    schneiderbummerl: bool = True
    best_of: int = 3
    format: str = "swiss"
    #: Format parameters, passed to the pairing functions: rounds, groups, third_place,
    #: grand_final_reset, lives, buy_back, advance (per group), final_players.
    options: Mapping[str, Any] = dataclasses.field(default_factory=dict)
    tiebreaks: tuple[str, ...] = ()
    first_dealer: str = "higher_seed"
    #: Bummerl (winner, loser) of a forfeit or no-show, and of a bye.
    forfeit_score: tuple[int, int] = (2, 0)
    bye_score: tuple[int, int] = (2, 0)
    withdrawal: WithdrawalPolicy = "forfeit"
    #: What a late entry scores for each round it missed (LATE_ENTRY_SCORES).
    late_entry_score: str = "zero"
    #: Master seed of every draw of the tournament (lots, first dealers, pairings).
    seed: int = 0

    @property
    def target(self) -> int:
        """Bummerl a match winner needs: (N+1)/2 (R20)."""
        return (self.best_of + 1) // 2

    @classmethod
    def from_payload(cls, data: Mapping[str, Any]) -> Settings:
        """Validate and complete the payload of ``tournament.created`` (defaults filled in)."""
        name = str(data.get("name", "")).strip()
        if not name:
            raise DomainError("name", "T-settings", code="settings.tournament_needs_name")
        date = parse_date(str(data.get("date") or ""))
        variants = tuple(sorted(set(data.get("variants") or ())))
        for variant in variants:
            if variant not in VARIANTS:
                known = ", ".join(VARIANTS)
                raise DomainError(
                    "variants",
                    "T-settings",
                    code="settings.unknown_variant",
                    params={"variant": excerpt(str(variant)), "known": known},
                )
        schneider = bool(data.get("schneiderbummerl", "no-schneiderbummerl" not in variants))
        if not schneider and "no-schneiderbummerl" not in variants:
            variants = tuple(sorted({*variants, "no-schneiderbummerl"}))
        if schneider and "no-schneiderbummerl" in variants:
            raise DomainError(
                "schneiderbummerl",
                "R19",
                code="settings.schneiderbummerl_but_variant_schneiderbummerl",
            )
        best_of = data.get("best_of", 3)
        if best_of not in BEST_OF or isinstance(best_of, bool):
            raise DomainError(
                "best_of",
                "R20",
                code="settings.match_best_bummerl",
                params={"best_of": repr(best_of)},
            )
        fmt = _choice(data, "format", FORMATS, "swiss")
        target = (best_of + 1) // 2
        tiebreaks = tuple(data.get("tiebreaks") or DEFAULT_TIEBREAKS.get(fmt, OTHER_TIEBREAKS))
        for tb in tiebreaks:
            if tb not in TIEBREAKS:
                raise DomainError(
                    "tiebreaks",
                    "T-settings",
                    code="settings.unknown_tie_break",
                    params={"tb": excerpt(str(tb)), "tiebreaks": ", ".join(TIEBREAKS)},
                )
        if len(set(tiebreaks)) != len(tiebreaks):
            raise DomainError("tiebreaks", "T-settings", code="settings.tie_break_listed_twice")
        seed = data.get("seed", 0)
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise DomainError(
                "seed", "T-settings", code="settings.seed_must_integer", params={"seed": repr(seed)}
            )
        return cls(
            name=name,
            date=date,
            venue=str(data.get("venue") or ""),
            variants=variants,
            schneiderbummerl=schneider,
            best_of=best_of,
            format=fmt,
            options=_options(fmt, data.get("options") or {}),
            tiebreaks=tiebreaks,
            first_dealer=_choice(
                data,
                "first_dealer",
                FIRST_DEALER_RULES,
                DEFAULT_FIRST_DEALER.get(fmt, "higher_seed"),
            ),
            forfeit_score=_score(data, "forfeit_score", (target, 0), target),
            bye_score=_score(data, "bye_score", (target, 0), target),
            withdrawal="drop"
            if _choice(data, "withdrawal", WITHDRAWAL_POLICIES, "forfeit") == "drop"
            else "forfeit",
            late_entry_score=_late_entry_score(data, fmt),
            seed=seed,
        )

    def to_payload(self) -> dict[str, Any]:
        data = dataclasses.asdict(self)
        data["variants"] = list(self.variants)
        data["tiebreaks"] = list(self.tiebreaks)
        data["forfeit_score"] = list(self.forfeit_score)
        data["bye_score"] = list(self.bye_score)
        data["options"] = dict(self.options)
        return data


_ISO_DATE = re.compile(r"([0-9]{4})-([0-9]{2})-([0-9]{2})")
_AUSTRIAN_DATE = re.compile(r"([0-9]{1,2})\.\s*([0-9]{1,2})\.\s*([0-9]+)\.?")


def parse_date(text: str) -> str:
    """A tournament's date as typed, stored as ``YYYY-MM-DD``: ISO (``2026-11-27``) or as
    Austrian forms write it, day first (``27.11.2026``, ``1.2.2026``). A two-digit year
    (``27.11.26``) is refused: the year is written in full, so no record is a century off.

    >>> parse_date("27.11.2026"), parse_date("2026-11-27"), parse_date("1. 2. 2026"), parse_date("")
    ('2026-11-27', '2026-11-27', '2026-02-01', '')
    >>> parse_date("27.11.26")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    tournament.domain.model.errors.DomainError: date: '27.11.26': write the year in full, ...
    """
    value = text.strip()
    if not value:
        return ""
    iso, dotted = _ISO_DATE.fullmatch(value), _AUSTRIAN_DATE.fullmatch(value)
    if dotted and len(dotted[3]) == 2:
        day, month = int(dotted[1]), int(dotted[2])
        raise DomainError(
            "date",
            "T-settings",
            code="settings.write_year_full",
            params={"text": excerpt(text), "day": day, "month": month, "dotted": dotted[3]},
        )
    try:
        if iso:
            return datetime.date(int(iso[1]), int(iso[2]), int(iso[3])).isoformat()
        if dotted and len(dotted[3]) == 4:
            return datetime.date(int(dotted[3]), int(dotted[2]), int(dotted[1])).isoformat()
    except ValueError:
        raise DomainError(
            "date", "T-settings", code="settings.day_calendar", params={"text": excerpt(text)}
        ) from None
    try:  # the other ISO forms (20261127) were accepted before, and may be stored
        return datetime.date.fromisoformat(value).isoformat()
    except ValueError:
        pass
    raise DomainError(
        "date", "T-settings", code="settings.date_like", params={"text": excerpt(text)}
    )


def _choice(data: Mapping[str, Any], key: str, allowed: Sequence[str], default: str) -> str:
    value = data.get(key) or default
    if value not in allowed:
        raise DomainError(
            key,
            "T-settings",
            code="settings.not_one_of",
            params={"value": repr(value), "allowed": ", ".join(allowed)},
        )
    return str(value)


def missed_rounds_score(value: object, field: str = "late_entry_score") -> str:
    """What a late entry scores per missed round, as stored: ``zero`` or ``bye`` (typed
    ``0``, ``zero`` or ``bye``).

    >>> missed_rounds_score("0"), missed_rounds_score(" Bye ")
    ('zero', 'bye')
    """
    text = str(value).strip().lower()
    text = "zero" if text == "0" else text
    if text not in LATE_ENTRY_SCORES:
        raise DomainError(
            field,
            "T-late-entry",
            code="settings.bye_what_late_entry",
            params={"value": repr(value)},
        )
    return text


def _late_entry_score(data: Mapping[str, Any], fmt: str) -> str:
    score = missed_rounds_score(data.get("late_entry_score") or "zero")
    if score != "zero" and fmt != "swiss":
        raise DomainError(
            "late_entry_score",
            "T-late-entry",
            code="settings.only_swiss_takes_late",
            params={"replace": fmt.replace("_", " ")},
        )
    return score


def _score(
    data: Mapping[str, Any], key: str, default: tuple[int, int], target: int
) -> tuple[int, int]:
    raw = data.get(key)
    if raw is None:
        return default
    try:
        won, lost = (int(x) for x in raw)
    except (TypeError, ValueError):
        raise DomainError(
            key, "T-settings", code="settings.score_like", params={"raw": repr(raw)}
        ) from None
    if not (0 <= lost < target and won == target):
        raise DomainError(
            key,
            "R20",
            code="settings.score_decided_match_first",
            params={"won": won, "lost": lost, "target": target},
        )
    return (won, lost)


#: Known options per format, with their defaults.
OPTION_DEFAULTS: Final[Mapping[str, Mapping[str, Any]]] = {
    "single_elimination": {"third_place": False},
    "double_elimination": {"grand_final_reset": True},
    "round_robin": {"groups": 1, "double": False},
    "swiss": {"rounds": 0},
    "groups_knockout": {"groups": 2, "advance": 2, "third_place": False},
    # buy_backs: per player (0: none); buy_back_until: the last round a buy-back may come
    # before (0: any round). buy_back=true, as older tournaments say it, means one.
    "lives": {
        "lives": 2,
        "buy_back": False,
        "buy_backs": 0,
        "buy_back_until": 0,
        "final_players": 2,
    },
}


def _options(fmt: str, raw: Mapping[str, Any]) -> dict[str, Any]:
    defaults = OPTION_DEFAULTS[fmt]
    unknown = set(raw) - set(defaults)
    if unknown:
        raise DomainError(
            "options",
            "T-settings",
            code="settings.unknown_options",
            params={
                "options": ", ".join(excerpt(str(k)) for k in sorted(unknown)),
                "fmt": fmt,
                "known": ", ".join(defaults) or "none",
            },
        )
    options = {**defaults, **raw}
    for key, default in defaults.items():
        value = options[key]
        if isinstance(default, bool):
            if not isinstance(value, bool):
                raise DomainError(
                    "options", "T-settings", code="settings.must_true_false", params={"key": key}
                )
        elif not isinstance(value, int) or isinstance(value, bool) or value < 0:
            raise DomainError(
                "options", "T-settings", code="settings.must_whole_number", params={"key": key}
            )
    if fmt == "lives" and options["lives"] not in (2, 3):
        raise DomainError("options", "T-settings", code="settings.player_lives")
    if fmt == "lives":
        options |= _buy_backs(raw, options)
    if fmt in ("round_robin", "groups_knockout") and options["groups"] < 1:
        raise DomainError("options", "T-settings", code="settings.there_least_one_group")
    if fmt == "groups_knockout" and options["advance"] < 1:
        raise DomainError(
            "options",
            "T-settings",
            code="settings.advance_must_more_players",
        )
    if fmt == "groups_knockout" and options["groups"] * options["advance"] < 2:
        raise DomainError(
            "options",
            "T-settings",
            code="settings.group_advance_sends_player",
            params={"option": options["groups"], "option2": options["advance"]},
        )
    if fmt == "lives" and options["final_players"] < 2:
        raise DomainError(
            "options",
            "T-settings",
            code="settings.final_players_must_more",
            params={"option": options["final_players"]},
        )
    return options


def _buy_backs(raw: Mapping[str, Any], options: Mapping[str, Any]) -> dict[str, Any]:
    """The lives format's buy-back options made consistent: ``buy_backs`` is the number per
    player, ``buy_back`` (kept for the tournaments created before ``buy_backs``) says
    whether there is any."""
    count = options["buy_backs"] if "buy_backs" in raw else int(options["buy_back"])
    if "buy_back" in raw and raw["buy_back"] != (count > 0):
        raise DomainError(
            "options",
            "T-settings",
            code="settings.buy_back_contradicts_buy",
            params={"lower": str(raw["buy_back"]).lower(), "count": count},
        )
    until = options["buy_back_until"]
    if until and count == 0:
        raise DomainError("options", "T-settings", code="settings.buy_back_until_needs")
    if until == 1:
        raise DomainError(
            "options",
            "T-settings",
            code="settings.buy_back_until_must",
        )
    return {"buy_backs": count, "buy_back": count > 0}
