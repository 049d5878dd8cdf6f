"""What the desk is told after an entry or a draw, though nothing is refused: both
players of a table recorded as scorer, and double no-shows whose players are drawn again."""

from __future__ import annotations

from collections.abc import Sequence

from tournament.domain.model.matchstate import MatchState
from tournament.domain.model.state import Tournament
from tournament.domain.words.messages import Param, Phrase


def scorer_warning(match: MatchState) -> str | None:
    """Both players of the table recorded as scorer in one match: one keeps the sheet."""
    scorers = match.scorers()
    if len(scorers) < 2:
        return None
    return (
        f"match {match.match_id}: both {match.label(scorers[0])} and {match.label(scorers[1])} "
        "are recorded as scorer; one player keeps the sheet (check who wrote which hands)"
    )


def absent_warning(
    t: Tournament, match_ids: Sequence[str], drawn_in: int | None = None
) -> list[str]:
    """Double no-shows among ``match_ids`` whose players are still in the tournament: the
    draw pairs them again (nothing withdraws a player but the organiser), each against a
    new opponent, so say so; ``drawn_in``: the round just drawn, whose matches are named,
    and only the players it drew are spoken of (a knockout after the groups leaves out
    a player the groups put out). In English: :func:`absent_phrases` for a page."""
    return [str(p) for p in absent_phrases(t, match_ids, drawn_in)]


def absent_phrases(
    t: Tournament, match_ids: Sequence[str], drawn_in: int | None = None
) -> list[Phrase]:
    """:func:`absent_warning` with its codes (tournament/domain/words/wording.py), for a page
    that says it in the reader's language."""
    out = []
    for mid in dict.fromkeys(match_ids):
        m = t.matches[mid]
        if not (m.summary.forfeit and m.summary.decided and m.winner is None):
            continue
        still_in = [p for p in m.players if t.players[p].active]
        if drawn_in is not None:
            still_in = [p for p in still_in if _match_in(t, p, drawn_in) != "not drawn"]
        else:
            still_in = _may_go_on(t, still_in)
        if not still_in:
            continue
        names = _and([t.label(p) for p in still_in])
        both = len(still_in) == 2
        where: Phrase
        if drawn_in is None:
            groups = "_groups" if _groups_end(t, m) else ""  # the groups send them on
            # both: "each on their own", not "paired again": that reads as with each other
            where = Phrase(f"notice.next_draw_{'both' if both else 'one'}{groups}")
        else:
            now = [_match_in(t, p, drawn_in) for p in still_in]
            if both and now[0] == now[1]:  # they never played: the draw may repeat it
                where = Phrase("notice.paired_again", {"round": drawn_in, "match_id": now[0]})
            else:
                code = "notice.drawn_again_both" if both else "notice.drawn_again_one"
                where = Phrase(code, {"round": drawn_in, "now": _and(now)})
        cmds = ", ".join(f"`tournament players withdraw {p}`" for p in still_in)
        params: dict[str, Param] = {"match_id": mid, "names": names, "where": where}
        out.append(Phrase("notice.absent", {**params, "commands": cmds}))
    return out


def _and(words: Sequence[str]) -> Param:
    """One word, or two joined by "and" (in the reader's language on a page)."""
    return words[0] if len(words) == 1 else Phrase("notice.and", {"a": words[0], "b": words[1]})


def _match_in(t: Tournament, player_id: int, number: int) -> str:
    """Where a player is in round ``number``: its match id, ``bye`` or ``not drawn``."""
    r = t.rounds[number - 1]
    if player_id in r.byes:
        return "bye"
    return next((mid for mid in r.matches if player_id in t.matches[mid].players), "not drawn")


def _may_go_on(t: Tournament, players: Sequence[int]) -> list[int]:
    """``players`` the next draw may take: in the lives format those with a life left
    (a double no-show costs each a life, T-lives); everybody in other formats."""
    from tournament.domain.standings.lives import lives_left

    left = lives_left(t)
    return list(players) if left is None else [p for p in players if left.get(p, 0) > 0]


def _groups_end(t: Tournament, m: MatchState) -> bool:
    """Whether ``m`` is a game of the last round of the groups before a knockout: the
    next draw takes only the players the group tables send on."""
    if t.settings is None or t.settings.format != "groups_knockout" or m.bracket:
        return False
    from tournament.domain.standings.pairing import frozen
    from tournament.formats.round_robin import round_count

    groups = frozen(t, "groups") or []
    return bool(groups) and m.round >= round_count(groups)
