"""Seal keys that rotate and a configured key that is missing (operator F8, attack F11):
``tournament seal-key new/rotate/show``, the keyring of retired keys, ``verify``'s exit
statuses, and a service that will not run unsealed (tournament/eventstore/seal_keys.py,
docs/operations.md "Rotating the seal key")."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from tournament.cli import main
from tournament.eventstore import SQLEventStore
from tournament.web import create_app


@pytest.fixture
def key_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, cli) -> Path:  # type: ignore[no-untyped-def]
    """A store with a tournament, sealed under a key file made by ``seal-key new``."""
    path = tmp_path / "keys" / "seal.key"
    monkeypatch.delenv("SCHNAPSEN_SEAL_KEY")
    monkeypatch.setenv("SCHNAPSEN_SEAL_KEY_FILE", str(path))
    cli("seal-key", "new")
    cli("create", "Cup", "--id", "cup")
    cli("players", "add", "Anna")
    cli("seal")
    return path


def test_seal_key_new_makes_a_file_only_its_owner_reads_and_never_overwrites(
    key_file: Path, cli
) -> None:  # type: ignore[no-untyped-def]
    assert stat.S_IMODE(key_file.stat().st_mode) == 0o600
    assert len(key_file.read_text().strip()) == 64
    again = cli("seal-key", "new", ok=False)
    assert again.exit_code == 1
    assert "exists already: a seal key is never overwritten" in again.output


def test_operator_f8_after_a_rotation_old_and_new_seals_authenticate(key_file: Path, cli) -> None:  # type: ignore[no-untyped-def]
    old = key_file.read_text()
    sealed = len(SQLEventStore().seals())
    rotated = cli("seal-key", "rotate").output
    new = key_file.read_text()
    assert new != old and stat.S_IMODE(key_file.stat().st_mode) == 0o600
    retired = next((key_file.parent / "seal-keyring").glob("*.key"))
    assert retired.read_text() == old and stat.S_IMODE(retired.stat().st_mode) == 0o600
    assert f"retired key {retired.stem} to {retired}" in rotated
    # The head had not changed, and still it got a seal under the new key.
    seals = SQLEventStore().seals()
    assert [s.key_id for s in seals] == [retired.stem] * sealed + [seals[-1].key_id]
    assert seals[-1].key_id != retired.stem and seals[-1].position == seals[-2].position
    assert f"sealed with the new key: {seals[-1].short}" in rotated

    cli("players", "add", "Berta")
    cli("seal")
    checked = cli("verify", "--require-authenticated").output
    assert f"seals #1-#{sealed} made with key {retired.stem} (a retired key in the keyring)" in (
        checked
    )
    assert f"seals #{sealed + 1}-#{sealed + 2} made with key {seals[-1].key_id} (the current " in (
        checked
    )
    assert "NOT AUTHENTICATED" not in checked
    assert checked.endswith("all chains and seals verify\n")
    shown = cli("seal-key", "show").output
    assert f"current: {seals[-1].key_id} ({key_file})" in shown and retired.stem in shown


def test_operator_f8_verify_require_authenticated_exits_2_without_the_retired_key(
    key_file: Path, cli
) -> None:  # type: ignore[no-untyped-def]
    cli("seal-key", "rotate")
    for retired in (key_file.parent / "seal-keyring").glob("*.key"):
        retired.unlink()
    lenient = cli("verify")
    assert lenient.exit_code == 0 and "NOT AUTHENTICATED seal #1" in lenient.output
    strict = cli("verify", "--require-authenticated", ok=False)
    assert strict.exit_code == 2
    assert "could not be authenticated here" in strict.output


def test_operator_f8_a_forged_seal_under_a_retired_key_is_broken(key_file: Path, cli) -> None:  # type: ignore[no-untyped-def]
    cli("seal-key", "rotate")
    retired = next((key_file.parent / "seal-keyring").glob("*.key"))
    retired.write_text("ab" * 32 + "\n")  # another secret under the old key's file name
    checked = cli("verify", ok=False)
    # Its id is another's now, so seal #1's key is not here: reported, never "verified".
    assert "NOT AUTHENTICATED seal #1" in checked.output
    assert cli("verify", "--require-authenticated", ok=False).exit_code == 2


def test_attack_f11_verify_says_the_configured_key_is_missing_and_exits_1(
    key_file: Path, cli
) -> None:  # type: ignore[no-untyped-def]
    key_file.unlink()
    checked = cli("verify", ok=False)
    assert checked.exit_code == 1
    assert f"SEAL KEY the seal key file {key_file} does not exist" in checked.output
    assert "checked; log head position" in checked.output  # the chains were checked all the same


def test_attack_f11_a_missing_key_file_makes_readyz_not_ready(
    key_file: Path, tmp_path: Path
) -> None:
    app = create_app({"TESTING": True, "DATABASE_URL": os.environ["DATABASE_URL"]})
    client = app.test_client()
    ready = client.get("/readyz")
    assert ready.status_code == 200 and ready.get_json()["checks"]["seal key"] == "ok"
    key_file.unlink()
    reply = client.get("/readyz")
    assert reply.status_code == 503
    assert reply.get_json()["checks"]["seal key"] == (
        f"the seal key file {key_file} does not exist"
    )
    assert f"seal key: the seal key file {key_file} does not exist" in reply.get_json()["detail"]


def test_attack_f11_a_missing_key_file_stops_the_app_factory(
    key_file: Path, tmp_path: Path
) -> None:
    key_file.unlink()
    with pytest.raises(Exception, match="does not exist: the log cannot be sealed"):
        create_app({"TESTING": True, "DATABASE_URL": os.environ["DATABASE_URL"]})


def test_attack_f11_a_missing_key_file_stops_serve_with_one_line(tmp_path: Path) -> None:
    env = {**os.environ, "SCHNAPSEN_INSTANCE": str(tmp_path),
           "DATABASE_URL": f"sqlite:///{tmp_path / 'club.sqlite3'}",
           "SCHNAPSEN_SEAL_KEY_FILE": str(tmp_path / "not-made-yet.key")}  # fmt: skip
    env.pop("SCHNAPSEN_SEAL_KEY", None)
    done = subprocess.run(
        [sys.executable, "-m", "tournament", "serve", "--port", "0"],
        env=env, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert done.returncode == 1
    assert done.stderr.strip().splitlines() == [
        f"Error: the seal key file {tmp_path / 'not-made-yet.key'} does not exist: the log "
        "cannot be sealed; make it (tournament seal-key new) or fix SCHNAPSEN_SEAL_KEY_FILE"
    ]
    assert not (tmp_path / "not-made-yet.key").exists()  # never made behind the operator


def test_attack_f11_a_missing_key_file_stops_gunicorns_app_with_one_line(tmp_path: Path) -> None:
    env = {**os.environ, "SCHNAPSEN_INSTANCE": str(tmp_path),
           "DATABASE_URL": f"sqlite:///{tmp_path / 'club.sqlite3'}",
           "SCHNAPSEN_SEAL_KEY_FILE": str(tmp_path / "gone.key")}  # fmt: skip
    env.pop("SCHNAPSEN_SEAL_KEY", None)
    done = subprocess.run(
        [sys.executable, "-c", "import tournament.web.wsgi"],
        env=env, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert done.returncode == 4  # gunicorn's "App failed to load": no respawning
    [line] = done.stderr.strip().splitlines()  # a JSON line, as gunicorn logs (opfix 4)
    assert json.loads(line)["event"] == (
        f"Error: the seal key file {tmp_path / 'gone.key'} does not exist: the log cannot be "
        "sealed; make it (tournament seal-key new) or fix SCHNAPSEN_SEAL_KEY_FILE"
    )


def test_operator_f8_rotate_refuses_a_key_given_in_the_environment(
    cli, monkeypatch: pytest.MonkeyPatch
) -> None:  # type: ignore[no-untyped-def]
    cli("create", "Cup", "--id", "cup")
    refused = cli("seal-key", "rotate", ok=False)
    assert refused.exit_code == 1
    assert "the seal key is given in SCHNAPSEN_SEAL_KEY: rotating needs a key file" in (
        refused.output
    )


def test_operator_f8_a_running_service_seals_with_the_rotated_key_without_a_restart(
    key_file: Path, tmp_path: Path
) -> None:
    app = create_app({"TESTING": True, "DATABASE_URL": os.environ["DATABASE_URL"]})
    from tournament.app.services import services

    with app.app_context():
        store = services().store
        before = store.seal("before")
        assert CliRunner().invoke(main, ["seal-key", "rotate"]).exit_code == 0
        rotated = SQLEventStore().seals()[-1]
        after = store.seal("after the rotation")
        assert store.sealing is not None and store.sealing.key.key_id == rotated.key_id
    assert before is not None and after is not None
    assert before.key_id != rotated.key_id
    assert after.key_id == rotated.key_id  # the service read the new file by itself


@pytest.mark.skipif(os.geteuid() != 0, reason="giving a file away needs root")
def test_operator_f8_seal_key_new_gives_the_file_to_the_services_user(tmp_path: Path, cli) -> None:  # type: ignore[no-untyped-def]
    import pwd

    path = tmp_path / "etc" / "seal.key"
    made = cli("seal-key", "new", str(path), "--owner", "nobody")
    assert f"written to {path} (mode 0600)" in made.output
    assert path.stat().st_uid == pwd.getpwnam("nobody").pw_uid
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    refused = cli(
        "seal-key", "new", str(tmp_path / "other.key"), "--owner", "no-such-user-f8", ok=False
    )
    assert refused.exit_code == 1 and "cannot give" in refused.output
    assert not (tmp_path / "other.key").exists()  # no key left behind for the wrong owner


@pytest.mark.skipif(os.geteuid() != 0, reason="giving a file away needs root")
def test_operator_f8_a_rotation_as_root_leaves_the_keyring_to_the_services_user(
    key_file: Path, cli
) -> None:  # type: ignore[no-untyped-def]
    """Rotating as root with --owner (docs/operations.md): the keyring folder it makes
    belongs to the service's user like its keys, so that verify and import, run as
    that user, can list the retired keys (a folder of root's, mode 0700, hid them)."""
    import pwd

    nobody = pwd.getpwnam("nobody").pw_uid
    ring = key_file.parent / "seal-keyring"
    refused = cli("seal-key", "rotate", "--owner", "no-such-user-f8", ok=False)
    assert refused.exit_code == 1 and "cannot give" in refused.output
    assert not ring.exists()  # nothing left of root's that a second try would keep
    cli("seal-key", "rotate", "--owner", "nobody")
    assert ring.stat().st_uid == nobody and stat.S_IMODE(ring.stat().st_mode) == 0o700
    (retired,) = ring.glob("*.key")
    assert retired.stat().st_uid == nobody


def test_a_printed_seal_no_key_here_authenticates_exits_2_without_the_flag_opfix_2(
    key_file: Path, cli
) -> None:  # type: ignore[no-untyped-def]
    """Operator trial of main, 2: `verify --seal '<printed seal>'` exited 0 when that seal
    could not be authenticated. A seal checked by hand says so, and exits 2."""
    printed = SQLEventStore().seals()[0].short
    assert cli("verify", "--seal", printed).exit_code == 0  # its key is here
    cli("seal-key", "rotate")
    for retired in (key_file.parent / "seal-keyring").glob("*.key"):
        retired.unlink()
    checked = cli("verify", "--seal", printed, ok=False)
    assert checked.exit_code == 2
    assert (
        f"NOT AUTHENTICATED the printed seal {printed} matches the log, but no key here "
        "authenticates it" in checked.output
    )
