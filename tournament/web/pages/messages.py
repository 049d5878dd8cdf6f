"""The domain's refusals in the reader's language.

A :class:`~tournament.domain.errors.DomainError` names its ``field`` and ``rule`` and says
what is wrong in English. :func:`describe` gives the line a page shows; where the error
carries a ``code`` with ``params`` it is rendered from the German or English catalog, so
one refusal reads the same from the API (English) and from a page (either language).
"""

from __future__ import annotations

from tournament.domain.errors import DomainError


def describe(error: DomainError) -> str:
    """One line: what is wrong, and the rule it breaks."""
    return error.line()
