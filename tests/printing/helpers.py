"""The print packs' tests: tournaments with clubs, played at random, and the PDF's text.

Rendering needs WeasyPrint and the system's pango: without them each test module skips
(:func:`require_weasyprint`), except in CI (``SCHNAPSEN_REQUIRE_SERVICES=1``), where a
missing renderer is an error.
"""

from __future__ import annotations

import io
import random

import pytest

from tests.conftest import REQUIRE_SERVICES
from tournament.domain.commands.registration import create_tournament, register_player
from tournament.domain.commands.rounds import start_round
from tournament.domain.testing import Builder, random_match


def require_weasyprint() -> None:
    """Skip the calling test module when WeasyPrint cannot load (outside CI)."""
    try:
        import weasyprint  # noqa: F401  (needs the system's pango)
    except (ImportError, OSError) as error:
        if REQUIRE_SERVICES:
            raise RuntimeError(f"PDF rendering is needed in CI: {error}") from None
        pytest.skip(f"WeasyPrint cannot render here: {error}", allow_module_level=True)


CLUBS = ("SV Schnapsen Krems", "ASK Bummerl Wien", "")
SEAL = "Seal #7 @412 7KQM-3XJ9"


def evening(
    players: int,
    rounds: int,
    *,
    fmt: str = "swiss",
    best_of: int = 3,
    seed: int = 4,
    play_last: bool = True,
    **options: object,
) -> Builder:
    """A tournament ``t1`` named Freitagsturnier, players ``Spielerin N`` with clubs,
    ``rounds`` rounds drawn and played at random (the last left open unless
    ``play_last``); ``options``: the format's options."""
    settings = {"name": "Freitagsturnier", "format": fmt, "best_of": best_of, "seed": seed}
    if options:
        settings["options"] = options
    b = Builder(create_tournament("t1", settings))
    for i in range(1, players + 1):
        club = CLUBS[i % len(CLUBS)]
        b.add(register_player(b.state, f"Spielerin {i}", club=club, rating=2000 - i))
    rng = random.Random(seed)
    for number in range(1, rounds + 1):
        b.add(start_round(b.state))
        if number < rounds or play_last:
            for mid in b.state.rounds[-1].matches:
                random_match(b, b.state.matches[mid], rng)
    return b


def page_texts(data: bytes) -> list[str]:
    """The text of each page of the PDF."""
    pypdf = pytest.importorskip("pypdf")
    assert data.startswith(b"%PDF")
    return [page.extract_text() for page in pypdf.PdfReader(io.BytesIO(data)).pages]


def pdf_text(data: bytes) -> str:
    """The PDF's text, page after page."""
    return "\n".join(page_texts(data))
