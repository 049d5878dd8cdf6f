"""Template filters that show the domain's stored English words in the reader's language
(issue 11): a round's stage, its warnings, a flag on a later match. Each reads the text
back into its code and params (:func:`tournament.domain.words.readback.read_back`) and renders
that from the catalog; a text of no known shape is shown as it is.

``{{ current.stage | stage_words }}``, ``{{ w | warning_words }}``, ``{{ flag | flag_words }}``.
"""

from __future__ import annotations

from flask import Blueprint

from tournament.domain.words.messages import Phrase
from tournament.domain.words.readback import (
    FLAG_TEMPLATES,
    STAGE_TEMPLATES,
    WARNING_TEMPLATES,
    read_back,
)
from tournament.web.pages.messages import say

#: No routes: the filters only (registered with the pages, :mod:`tournament.web.pages`).
pages = Blueprint("wording", __name__)


@pages.app_template_filter("stage_words")
def stage_words(stage: str) -> str:
    """A round's stage (``Swiss round 3 of 5``) in the reader's language."""
    return say(read_back(stage, STAGE_TEMPLATES))


@pages.app_template_filter("warning_words")
def warning_words(warning: str) -> str:
    """A round's warning (a manual pair's broken rule, T-override) in the reader's
    language."""
    return say(read_back(warning, WARNING_TEMPLATES))


@pages.app_template_filter("flag_words")
def flag_words(flag: str) -> str:
    """A later match's flag (an earlier result changed, R17) in the reader's language."""
    return say(read_back(flag, FLAG_TEMPLATES))


@pages.app_template_filter("say")
def say_phrase(words: Phrase | str) -> str:
    """A phrase the domain gives with its code (or a plain text) in the reader's language."""
    return say(words)
