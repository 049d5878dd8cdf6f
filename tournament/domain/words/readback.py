"""A stored English text of the domain read back into its code and params (issue 11).

A round's stage and warnings, a flag's reason are stored in events as the English the
domain said then (:mod:`tournament.domain.words.wording`); a page shows them in the reader's
language by recognising the template they were filled from. A text no template fits (an
event older than its template, a format's new wording) stays the English it is, never
dropped. Pure and stdlib only.

>>> read_back("Swiss round 3 of 5", STAGE_TEMPLATES)
Phrase(code='stage.swiss', params={'number': '3', 'total': '5'})
>>> read_back("round 4 (as typed)", STAGE_TEMPLATES)
'round 4 (as typed)'
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from functools import cache

from tournament.domain.words.messages import TEMPLATES, Param, Phrase
from tournament.domain.words.wording import (
    BUY_BACK_TEMPLATES,
    FLAG_TEMPLATES,
    STAGE_TEMPLATES,
    TEXT_TEMPLATES,
    WARNING_TEMPLATES,
)

__all__ = [
    "BUY_BACK_TEMPLATES",
    "FLAG_TEMPLATES",
    "NOBODY_BUYS_TEMPLATES",
    "STAGE_TEMPLATES",
    "WARNING_TEMPLATES",
    "read_back",
]

#: Why nobody may buy back a life now (tournament.domain.commands.buyback.may_buy_back, T-lives):
#: its own reasons and the lives rules' (``lives.*``).
NOBODY_BUYS_TEMPLATES: Mapping[str, str] = {
    **BUY_BACK_TEMPLATES,
    **{code: t for code, t in TEMPLATES.items() if code.startswith("lives.")},
}

_PLACEHOLDER = re.compile(r"%\((\w+)\)s|%%")

#: Params that hold a refusal's English (a ConflictError's message inside a warning):
#: read back against the refusals' templates too.
_NESTED: Mapping[str, Mapping[str, str]] = {
    "refusal": TEMPLATES,
    "why": FLAG_TEMPLATES,
    # where the next draw would change (preview._next_round)
    "changes": {
        code: t
        for code, t in TEXT_TEMPLATES.items()
        if code in ("preview.tables_and_bye", "preview.tables", "preview.the_bye")
    },
    # what an open match still needs (progress.still_needed_phrase)
    "needed": {code: t for code, t in TEMPLATES.items() if code.startswith("progress.enter_")},
}


def read_back(text: str, templates: Mapping[str, str]) -> Phrase | str:
    """``text`` as the :class:`Phrase` of the first of ``templates`` that fills to it
    exactly; ``text`` itself when none does."""
    for code, template in templates.items():
        found = _pattern(template).fullmatch(text)
        if found is not None:
            params: dict[str, Param] = {}
            for name, value in found.groupdict().items():
                nested = _NESTED.get(name)
                params[name] = value if nested is None else read_back(value, nested)
            return Phrase(code, params)
    return text


@cache
def _pattern(template: str) -> re.Pattern[str]:
    """``template`` as a regular expression: each placeholder a group (the same name
    twice: the same text twice), everything else literal."""
    parts, seen, at = [], set(), 0
    for m in _PLACEHOLDER.finditer(template):
        parts.append(re.escape(template[at : m.start()]))
        name = m.group(1)
        if name is None:
            parts.append("%")
        elif name in seen:
            parts.append(f"(?P={name})")
        else:
            seen.add(name)
            parts.append(f"(?P<{name}>.+?)")
        at = m.end()
    parts.append(re.escape(template[at:]))
    return re.compile("".join(parts), re.DOTALL)
