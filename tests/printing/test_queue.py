"""The new kinds through the pack queue, on a real store: asked for, rendered, kept, with
the seal the log has at rendering (``tournament verify --seal`` checks it later)."""

from __future__ import annotations

import pytest

from tests.printing.helpers import pdf_text, require_weasyprint
from tournament.app.service import TournamentService
from tournament.eventstore import SQLEventStore
from tournament.printing.queue import DONE, pack_pdf, render_pack, request_pack

require_weasyprint()


@pytest.mark.parametrize(
    ("kind", "round", "shows"),
    [
        ("table-cards", 2, ["Tisch 4", "gibt zuerst (R18)", "https://club.example/t/t1"]),
        ("scoresheets", 1, ["Spielbericht", "Runde 1", "Unterschrift A"]),
        ("crosstable", None, ["Kreuztabelle", "R2"]),
    ],
)
def test_a_pack_of_each_new_kind_renders_with_the_names_and_the_logs_seal(
    service: TournamentService, kind: str, round: int | None, shows: list[str]
) -> None:
    store = service.store
    assert isinstance(store, SQLEventStore)
    t = service.state("t1")
    pack, new = request_pack(store.engine, "t1", kind, round, t.version, "organiser")
    assert new
    assert render_pack(store, service, pack.id, "https://club.example/") == DONE
    latest = store.latest_seal()
    assert latest is not None
    data = pack_pdf(store.engine, "t1", pack.id)
    assert data is not None
    text = pdf_text(data)
    assert latest.short in text, "the log's latest seal is printed"
    for shown in shows:
        assert shown in text
    if round is None:  # the crosstable: everybody
        assert all(p.name in text for p in t.players.values())
        return
    matches = [t.matches[mid] for mid in t.rounds[round - 1].matches]
    playing = {t.players[pid].name for m in matches for pid in m.players}
    assert playing and all(name in text for name in playing)
