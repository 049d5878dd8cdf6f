"""The events of ``tournament log`` in words: moved to :mod:`tournament.domain.views.eventwords`
(the API's event history says them too); kept here for what imports it from here."""

from __future__ import annotations

from tournament.domain.views.eventwords import WORDS, in_words

__all__ = ["WORDS", "in_words"]
