"""The print packs' words for what the domain says in English identifiers or sentences:
where the tournament stands, a round's stage and bracket sections, a match's result, a
tie-break's column. Said in the pack's :class:`~tournament.printing.language.Language`;
the pages' words (``tournament/i18n/words.py``, ``public_words.py``) are reused by
their msgids, so the catalog keeps one entry for a word both show.
"""

from __future__ import annotations

from tournament.domain.model.state import Tournament
from tournament.domain.standings.progress import Stage
from tournament.domain.views.matchview import MatchLine
from tournament.domain.words.readback import read_back
from tournament.domain.words.wording import STAGE_TEMPLATES
from tournament.i18n.public_words import HEADINGS, numbered_heading
from tournament.i18n.words import TIEBREAKS
from tournament.printing.language import Language


def stage_words(t: Tournament, words: Language) -> str:
    """Where the standings stand, as the printed heading says it (the domain's
    :meth:`~tournament.domain.standings.progress.Stage.heading`, in the pack's language)."""
    from tournament.domain.standings.pairing import finished

    stage = Stage.of(t)
    n = stage.current
    if n == 0:
        return words.gettext("before round 1 (in seed order)")
    if stage.decided == stage.total:
        if finished(t):
            return words.gettext("final standings after round %(n)s", n=n)
        text = words.gettext("after round %(n)s", n=n)
    elif stage.decided == 0 and n > 1:
        text = words.gettext(
            "after round %(before)s (round %(n)s drawn: %(decided)s of %(all)s decided)",
            before=n - 1,
            n=n,
            decided=stage.decided,
            all=stage.total,
        )
    elif stage.decided == 0:
        text = words.gettext("before any result (round 1 drawn)")
    else:
        text = words.gettext(
            "during round %(n)s: %(decided)s of %(all)s decided",
            n=n,
            decided=stage.decided,
            all=stage.total,
        )
    if stage.void:
        ids = ", ".join(stage.void)
        text += "; " + words.gettext("void after a correction, drawn again: %(ids)s", ids=ids)
    if stage.reopened:
        ids = ", ".join(stage.reopened)
        text += "; " + words.gettext("open again: %(ids)s", ids=ids)
    return text


def round_stage_words(stage: str, words: Language) -> str:
    """A round's stage (``Swiss round 2 of 5``) in the pack's language: read back into its
    code as the pages read it (``domain/words/readback.py``, ``wording.STAGE_TEMPLATES``); a
    stage no template fits as the domain says it."""
    found = read_back(stage, STAGE_TEMPLATES)
    if isinstance(found, str):
        return found
    return words.gettext(
        STAGE_TEMPLATES[found.code], **{k: str(v) for k, v in found.params.items()}
    )


def section_words(heading: str, words: Language) -> str:
    """A bracket section (``Quarter-finals``, ``Round of 16``) in the pack's language,
    with the public pages' words."""
    if heading in HEADINGS:
        return words.lazy(HEADINGS[heading])
    if (numbered := numbered_heading(heading)) is not None:
        return words.gettext(numbered[0], n=numbered[1])
    return heading


def result_words(t: Tournament, line: MatchLine, words: Language) -> str:
    """A pairing's result (the domain's ``result_words``) in the pack's language:
    ``Anna (1) won 2:0``, ``by forfeit``, dropped, both absent; nothing while open."""
    if line.status == "dropped":
        return words.gettext("dropped")
    if line.status == "void":
        return words.gettext("void")
    if line.status != "decided":
        return ""
    if line.winner is None:
        return words.gettext("both absent")
    seat = 0 if line.winner.id == line.players[0].id else 1
    score = f"{line.bummerl[seat]}:{line.bummerl[1 - seat]}"
    who = f"{line.winner.name} ({line.winner.id})"
    if t.matches[line.match_id].summary.forfeit:
        return words.gettext("%(who)s won %(score)s by forfeit", who=who, score=score)
    return words.gettext("%(who)s won %(score)s", who=who, score=score)


def tiebreak_heading(name: str, words: Language) -> str:
    """A tie-break's column heading (``Bh``, ``SB`` ...), the standings page's word."""
    found = TIEBREAKS.get(name)
    return words.lazy(found[0]) if found is not None else name
