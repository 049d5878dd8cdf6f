"""The new kinds through the pack queue, on a real store: asked for, rendered, kept, with
the seal the log has at rendering (``tournament verify --seal`` checks it later)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.printing.helpers import evening, pdf_text, require_weasyprint
from tournament.domain import events as ev
from tournament.domain.service import TournamentService
from tournament.eventstore import SQLEventStore, migrate
from tournament.printing.queue import DONE, pack_pdf, render_pack, request_pack

require_weasyprint()


@pytest.fixture
def service(tmp_path: Path) -> TournamentService:
    url = f"sqlite:///{tmp_path / 'print.sqlite3'}"
    migrate.upgrade(url)
    service = TournamentService(SQLEventStore(url))
    b = evening(9, rounds=2, play_last=False)
    service.store.append(ev.stream_id("t1"), b.events, expected_version=0)
    return service


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
