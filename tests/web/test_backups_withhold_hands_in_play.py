"""F2: no backup holds the deck of a hand still in play (rules.md, "What a player may
see"; docs/event-store.md, "Hands in play are withheld").

The organiser's export (``GET .../export``) and the machine's whole-store backup
(``tournament export``) write the events of a live hand not yet over for good with their
payloads sealed under the seal key: no card of the deck is in the file. The hand's
record is published once it is over, and then the backup holds it in the clear. A backup
taken mid-hand restores where its seal key is (the hand plays on with the same deck),
and is refused, naming the line, where it is not.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from engine.cards import ALL_CARDS
from tests.pages.table_cards import CARD
from tests.web import played
from tests.web.conftest import Web
from tests.web.test_history import export, fresh, restore
from tournament.app.services import services
from tournament.cli import main
from tournament.domain.commands.live import abandon_live_hand, deal_live_hand
from tournament.domain.commands.rounds import start_round
from tournament.domain.model.hands import fold_hand
from tournament.eventstore import NO_STREAM

CARDS = {str(card) for card in ALL_CARDS}
OTHER_KEY = "a7" * 32


@pytest.fixture(params=["sqlite", "postgresql"])
def app(request: pytest.FixtureRequest) -> Web:
    found: Web = request.getfixturevalue("web" if request.param == "sqlite" else "web_pg")
    return found


def hand_in_play(web: Web, tid: str = "live") -> tuple[str, list[str]]:
    """A tournament whose match 1.1 has a live hand dealt and not played: its stream and
    its deck."""
    web.tournament(tid, best_of=3, first_dealer="higher_seed")
    played.register(web, tid, played.NAMES[:2])
    played.run(web, tid, lambda t: start_round(t))
    stream, hand, started = deal_live_hand(played.state(web, tid), "1.1", seed=3)
    with web.app.app_context():
        services().store.append(stream, hand, expected_version=NO_STREAM)
    played.run(web, tid, lambda t: started)
    return stream, list(hand[0].payload["deck"])


def cards_in(lines: list[dict[str, object]], stream: str) -> set[str]:
    """Every card code in the payloads of ``stream``'s lines."""
    text = json.dumps([line["payload"] for line in lines if line.get("stream_id") == stream])
    return {card for card in CARDS if f'"{card}"' in text}


def test_the_organisers_export_holds_no_card_of_a_hand_in_play(app: Web, tmp_path: Path) -> None:
    stream, deck = hand_in_play(app)
    backup = export(app, "live")
    lines = [json.loads(line) for line in backup.splitlines()]
    assert json.dumps(deck) not in backup.decode()
    assert cards_in(lines, stream) == set()
    dealt = next(line for line in lines if line.get("stream_id") == stream)
    assert set(dealt["payload"]) == {"withheld"}  # marked, and its hash kept
    # Restored where the seal key is, the hand is the same hand: same deck, plays on.
    other = fresh(tmp_path, "other")
    done = restore(other, backup)
    assert done.status_code == 201, done.get_data(as_text=True)
    with other.app.app_context():
        events = services().store.read_stream(stream)
    assert events[0].payload["deck"] == deck
    assert fold_hand(events).legal_actions()  # the hand plays on


def test_a_backup_of_a_hand_in_play_is_refused_where_its_seal_key_is_not(
    web: Web, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    stream, _ = hand_in_play(web)
    backup = export(web, "live")
    line = 1 + next(
        n
        for n, text in enumerate(backup.splitlines())
        if json.loads(text).get("stream_id") == stream
    )
    monkeypatch.setenv("SCHNAPSEN_SEAL_KEY", OTHER_KEY)
    other = fresh(tmp_path, "other")
    refused = restore(other, backup)
    assert refused.status_code == 422
    problem = refused.get_json()
    assert problem["line"] == line
    assert (
        "withheld under seal key" in problem["detail"] and "nothing imported" in problem["detail"]
    )
    assert other.ok("GET", "/api/v1/tournaments")["tournaments"] == []


def test_without_a_seal_key_a_hand_in_play_is_never_exported_in_the_clear(
    web: Web, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    hand_in_play(web)
    monkeypatch.delenv("SCHNAPSEN_SEAL_KEY")
    monkeypatch.setenv("SCHNAPSEN_SEAL_KEY_FILE", str(tmp_path / "missing.key"))
    refused = web.get("/api/v1/tournaments/live/export")
    assert refused.status_code == 503
    assert refused.mimetype == "application/problem+json"
    detail = refused.get_json()["detail"]
    assert "a hand is in play" in detail and "missing.key" in detail
    assert not CARD.findall(refused.get_data(as_text=True))


def test_the_deck_is_published_in_the_backup_once_the_hand_is_over(app: Web) -> None:
    stream, deck = hand_in_play(app)
    played.run(app, "live", lambda t: abandon_live_hand(t, stream, by="Eva", reason="misdeal"))
    lines = [json.loads(line) for line in export(app, "live").splitlines()]
    dealt = next(line for line in lines if line.get("stream_id") == stream)
    assert dealt["payload"]["deck"] == deck


def test_the_machines_backup_holds_no_card_of_a_hand_in_play_and_restores_whole(
    web: Web, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    stream, deck = hand_in_play(web)
    monkeypatch.setenv("DATABASE_URL", web.app.config["DATABASE_URL"])
    runner = CliRunner()
    file = tmp_path / "club.jsonl"
    done = runner.invoke(main, ["export", str(file)])
    assert done.exit_code == 0, done.output
    text = file.read_text()
    assert json.dumps(deck) not in text
    assert cards_in([json.loads(line) for line in text.splitlines()], stream) == set()
    # `tournament import` restores it into an empty store, every chain and seal checked,
    # and `tournament verify` finds the restored log whole (the deck is back in it).
    target = f"sqlite:///{tmp_path / 'restored.sqlite3'}"
    restored = runner.invoke(main, ["import", str(file), "--database-url", target])
    assert restored.exit_code == 0, restored.output
    checked = runner.invoke(main, ["verify", "--database-url", target])
    assert checked.exit_code == 0, checked.output
    # Without the seal key the file is refused, naming the hand's line; nothing stored.
    monkeypatch.setenv("SCHNAPSEN_SEAL_KEY", OTHER_KEY)
    elsewhere = f"sqlite:///{tmp_path / 'elsewhere.sqlite3'}"
    refused = runner.invoke(main, ["import", str(file), "--database-url", elsewhere])
    assert refused.exit_code == 1
    assert "withheld under seal key" in refused.output
    assert not (tmp_path / "elsewhere.sqlite3").exists()


def test_a_withheld_deal_keeps_a_secret_salt_so_its_hash_tells_nothing(app: Web) -> None:
    """The hash of a withheld deal stays in the backup; a player who knows their own five
    cards and the turn-up could try the 14! orders of the rest against it, unless the deal
    holds a secret no one can guess: 128 random bits, restored with the deal (F2)."""
    stream, deck = hand_in_play(app)
    with app.app.app_context():
        (dealt,) = services().store.read_stream(stream)
    salt = dealt.payload["salt"]
    assert isinstance(salt, str) and len(salt) == 32 and int(salt, 16) >= 0
    # The same deck and dealer dealt again (another tournament, the same seed) gets
    # another salt: another hash.
    other, other_deck = hand_in_play(app, "again")
    with app.app.app_context():
        (again,) = services().store.read_stream(other)
    assert other_deck == deck and again.payload["salt"] != salt
    line = next(
        json.loads(line) for line in export(app, "live").splitlines()
        if json.loads(line).get("stream_id") == stream
    )  # fmt: skip
    assert salt not in json.dumps(line)  # withheld with the deck, never beside it
