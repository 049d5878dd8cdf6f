"""Which release runs (operator F12): ``tournament --version`` and ``-V``, ``/healthz``,
``/readyz`` and every page's footer say the same, from one place (tournament/version.py)."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
from pathlib import Path

from click.testing import CliRunner

from tests.conftest import REPO
from tests.web.conftest import Web
from tournament import version as release
from tournament.cli import main


def test_the_version_is_the_installed_distributions() -> None:
    from importlib.metadata import version

    assert release.version() == version("schnapsen-tournament")
    assert release.describe().startswith(release.version())


def test_a_checkout_adds_its_commit_read_from_the_git_files() -> None:
    head = subprocess.run(
        ["git", "rev-parse", "HEAD"], cwd=REPO, capture_output=True, text=True, check=True
    ).stdout.strip()
    assert release.commit() == head[:12]
    assert release.describe() == f"{release.version()} (commit {head[:12]})"


def test_outside_a_checkout_there_is_no_commit_and_no_error(tmp_path: Path) -> None:
    assert release.commit.__wrapped__(tmp_path) is None
    (tmp_path / ".git").write_text("gitdir: /nowhere/at/all\n")  # a broken worktree link
    assert release.commit.__wrapped__(tmp_path) is None


def test_tournament_version_and_dash_capital_v_print_the_release_operator_f12() -> None:
    for flag in ("--version", "-V"):
        done = CliRunner().invoke(main, [flag])
        assert done.exit_code == 0, done.output
        assert done.output == f"tournament {release.describe()}\n"


def test_the_installed_command_answers_version_without_a_store(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "tournament", "--version"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env={"PATH": "/usr/bin:/bin", "DATABASE_URL": f"sqlite:///{tmp_path}/none.sqlite3"},
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == f"tournament {release.describe()}"
    assert not (tmp_path / "none.sqlite3").exists()


def test_healthz_and_readyz_name_the_release_operator_f12(web: Web) -> None:
    assert web.get("/healthz", token=None).get_json()["version"] == release.describe()
    assert web.get("/readyz", token=None).get_json()["version"] == release.describe()


def test_a_not_ready_answer_names_the_release_too(web: Web, tmp_path: Path) -> None:
    for leftover in tmp_path.glob("web.sqlite3*"):
        leftover.unlink()
    reply = web.get("/readyz", token=None)
    assert reply.status_code == 503
    assert reply.get_json()["version"] == release.describe()


def test_every_pages_footer_shows_the_release_operator_f12(web: Web) -> None:
    for path in ("/", "/login"):
        page = web.get(path, token=None)
        assert page.status_code == 200, path
        footer = page.get_data(as_text=True).split('<footer class="site-footer">', 1)[1]
        assert f"schnapsen-tournament {release.describe()}" in footer.split("</footer>")[0]


def test_an_older_release_stays_ready_on_a_newer_schema_and_says_so_operator_f9(
    web: Web, tmp_path: Path
) -> None:
    # While hosts are upgraded one by one, the first one's migration runs before the
    # others have the new code; a release's migrations only add (docs/deploy.md), so the
    # older hosts keep serving and a load balancer must not drop them.
    with sqlite3.connect(tmp_path / "web.sqlite3") as conn:
        conn.execute("UPDATE alembic_version SET version_num = '9999'")
    reply = web.get("/readyz", token=None)
    assert reply.status_code == 200
    body = reply.get_json()
    assert body["status"] == "ready" and body["checks"] == {"database": "ok", "seal key": "ok"}
    assert "database revision is 9999, newer than this program knows" in body["notes"]["database"]
    assert web.get("/api/v1/tournaments").status_code == 200


def test_the_previous_release_starts_on_a_newer_schema_operator_f9(tmp_path: Path) -> None:
    # A web process (or a worker) of the previous release restarted in the window of an
    # upgrade across hosts: it must come up, not fail to boot.
    from tests.web.conftest import make_web

    make_web(f"sqlite:///{tmp_path / 'web.sqlite3'}", tmp_path)  # a store at head
    with sqlite3.connect(tmp_path / "web.sqlite3") as conn:
        conn.execute("UPDATE alembic_version SET version_num = '9999'")
    again = make_web(f"sqlite:///{tmp_path / 'web.sqlite3'}", tmp_path)
    assert again.get("/readyz", token=None).status_code == 200
    assert again.get("/healthz", token=None).get_json()["status"] == "ok"
