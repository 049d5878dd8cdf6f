"""The outcome of a hand, in the exact JSON shape of docs/rules.md."""

from __future__ import annotations

import dataclasses
from typing import Any, Final

#: Why a hand ended (docs/rules.md, game record format).
REASONS: Final = ("claim", "false_claim", "last_trick", "closer_failed")


@dataclasses.dataclass(frozen=True, slots=True)
class Outcome:
    """Where a hand stands: complete with a winner and game points, or who may act now.

    ``points`` are R11 points (card points plus marriages that count), ``tricks`` the number
    of tricks each seat has taken.
    """

    complete: bool
    points: tuple[int, int]
    tricks: tuple[int, int]
    winner: int | None = None
    game_points: int | None = None
    reason: str | None = None
    to_act: tuple[int, ...] = ()

    def to_json(self) -> dict[str, Any]:
        if self.complete:
            return {
                "complete": True,
                "winner": self.winner,
                "game_points": self.game_points,
                "reason": self.reason,
                "points": list(self.points),
                "tricks": list(self.tricks),
            }
        return {
            "complete": False,
            "to_act": list(self.to_act),
            "points": list(self.points),
            "tricks": list(self.tricks),
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Outcome:
        return cls(
            complete=bool(data["complete"]),
            points=(int(data["points"][0]), int(data["points"][1])),
            tricks=(int(data["tricks"][0]), int(data["tricks"][1])),
            winner=data.get("winner"),
            game_points=data.get("game_points"),
            reason=data.get("reason"),
            to_act=tuple(data.get("to_act", ())),
        )
