"""The German pages use one word for one thing (issue 11 review): the desk and the people
running it are the *Turnierleitung* (never *Veranstalter*), a paper sheet is a
*Spielbericht*, a late entry *nachgemeldet* (never *Nachzügler*), a match a *Partie*; and
two different states of a table's page do not read the same."""

from __future__ import annotations

import re

from babel.messages.pofile import read_po

from tests.pages.test_catalog import CATALOG
from tests.web.conftest import Web

#: A word the pages do not use, and the one they use for it.
NOT_USED = {
    r"\bVeranstalter": "Turnierleitung",
    r"\bNachzügler": "nachgemeldet / Nachmeldung",
    r"\bSchreibblatt|\bSpielblatt": "Spielbericht",
    r"\bAbgeschrieben": "abgestrichen",
    r"\bWarteliste": "Prüfliste (the queue)",
    r"\bSpiel um Platz": "Partie um Platz",
}


def german() -> dict[str, str]:
    with (CATALOG / "messages.po").open("rb") as file:
        catalog = read_po(file)
    return {str(m.id): str(m.string) for m in catalog if m.id and isinstance(m.id, str)}


def test_no_german_string_uses_a_word_the_pages_say_otherwise() -> None:
    found = [
        f"{msgid!r}: {text!r} (say {better})"
        for msgid, text in german().items()
        for word, better in NOT_USED.items()
        if re.search(word, text)
    ]
    assert found == []


def test_a_table_at_the_desk_and_one_with_the_organiser_read_differently() -> None:
    words = german()
    assert words["At the desk"] != words["With the organiser"]
    assert words["At the desk"] == "Eingabe bei der Turnierleitung"
    assert words["With the organiser"] == "Entscheidung der Turnierleitung"


def test_the_setup_link_makes_the_first_account_of_the_turnierleitung(web: Web) -> None:
    html = web.client.get("/setup?token=x&lang=de").get_data(as_text=True)
    assert "<h1>Erstes Konto der Turnierleitung anlegen</h1>" in html
