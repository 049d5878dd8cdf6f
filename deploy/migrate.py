"""Set up the PostgreSQL database for the service as docs/operations.md says: the roles
script as a superuser, the migrations as the owner role, the roles script again.

    python deploy/migrate.py              # all three: docker compose's one-shot `migrate`
    python deploy/migrate.py roles        # deploy/postgres-roles.sql, then the roles' passwords
    python deploy/migrate.py upgrade      # `tournament db upgrade` as the owner
    python deploy/migrate.py --dry-run    # print what it would run (no passwords), run nothing

The club server's ``schnapsen-migrate.service`` runs ``roles`` as the system's
``postgres`` user (a superuser by peer authentication) and ``upgrade`` as ``schnapsen``.

Environment (deploy/owner.env.example, deploy/env.example):

  ADMIN_DATABASE_URL   a superuser's connection, for psql. Without a password in it,
                       POSTGRES_PASSWORD (the postgres image's superuser) when set, else
                       libpq's usual ways (peer authentication, ~/.pgpass).
  OWNER_DATABASE_URL   the owner role's: it runs the migrations.
  DATABASE_URL         the app role's: what the web app and the workers connect as.

The roles are the users of OWNER_DATABASE_URL and DATABASE_URL (the script's
``-v owner=`` and ``-v app=``), the schema is their search_path (``public`` unless the
URLs say ``?options=-csearch_path%3DNAME``; it must exist), and a password in either URL
is set on its role, so the URLs and the roles cannot disagree. All three URLs name one
database. A password is never
printed, never a command-line argument (psql gets it in PGPASSWORD) and, when it is ASCII,
never sent to the server either: the role gets its SCRAM-SHA-256 verifier, made here, as
psql's ``\\password`` does.

Standard library only: the ``roles`` step runs as ``postgres``, with any Python.
"""

from __future__ import annotations

import argparse
import base64
import hashlib
import hmac
import os
import re
import secrets
import subprocess
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import parse_qs, unquote, urlsplit

ROLES_SQL = Path(__file__).resolve().with_name("postgres-roles.sql")
#: PostgreSQL's own default for a verifier (scram_iterations).
SCRAM_ITERATIONS = 4096


class SetupError(Exception):
    """A setting is missing or wrong, or a step failed: said in one line."""


@dataclass(frozen=True)
class Connection:
    """A PostgreSQL URL taken apart: what psql is given (no password), the user, the
    password and the database."""

    name: str  # the environment variable it came from
    url: str
    user: str | None
    password: str | None
    database: str
    schema: str  # the first of its search_path, or public


def connection(name: str, env: Mapping[str, str]) -> Connection:
    """The URL in ``env[name]``, its password taken out."""
    raw = env.get(name, "").strip()
    if not raw:
        raise SetupError(f"{name} is not set (docs/deploy.md)")
    parts = urlsplit(raw)
    if parts.scheme.split("+")[0] not in ("postgresql", "postgres"):
        raise SetupError(
            f"{name} is not a PostgreSQL URL: postgresql://USER:PASSWORD@HOST:PORT/DATABASE"
        )
    userinfo, _, hostport = parts.netloc.rpartition("@")
    quoted_user, has_password, _ = userinfo.partition(":")
    netloc = f"{quoted_user}@{hostport}" if quoted_user else hostport
    database = unquote(parts.path.lstrip("/"))
    if not database:
        raise SetupError(f"{name} names no database: postgresql://USER@HOST/DATABASE")
    options = " ".join(parse_qs(parts.query).get("options", []))
    search_path = re.search(r"-c\s*search_path=([^\s,]+)", options)
    return Connection(
        schema=search_path.group(1).strip('"') if search_path else "public",
        name=name,
        # Built by hand: urlunsplit drops the // of a URL without a host (a local socket).
        url=f"postgresql://{netloc}{parts.path}" + (f"?{parts.query}" if parts.query else ""),
        user=unquote(quoted_user) or None,
        password=unquote(parts.password or "") if has_password else None,
        database=database,
    )


def role(conn: Connection) -> str:
    if not conn.user:
        raise SetupError(f"{conn.name} names no user: it must name the role it logs in as")
    return conn.user


def scram_verifier(password: str, salt: bytes | None = None) -> str:
    """What PostgreSQL stores for ``password`` (RFC 5802/7677), for an ASCII password
    (which SASLprep leaves as it is)."""
    salt = salt if salt is not None else secrets.token_bytes(16)
    salted = hashlib.pbkdf2_hmac("sha256", password.encode(), salt, SCRAM_ITERATIONS)
    client_key = hmac.digest(salted, b"Client Key", "sha256")
    stored_key = hashlib.sha256(client_key).digest()
    server_key = hmac.digest(salted, b"Server Key", "sha256")

    def b64(data: bytes) -> str:
        return base64.b64encode(data).decode()

    return f"SCRAM-SHA-256${SCRAM_ITERATIONS}:{b64(salt)}${b64(stored_key)}:{b64(server_key)}"


def password_sql(connections: Sequence[Connection]) -> str:
    """ALTER ROLE ... PASSWORD for each connection that has a password ('' if none)."""

    def identifier(text: str) -> str:
        return '"' + text.replace('"', '""') + '"'

    def literal(text: str) -> str:
        return "'" + text.replace("'", "''") + "'"

    lines = []
    for conn in connections:
        if conn.password is None:
            continue
        secret = conn.password
        if secret.isascii():  # else the server applies SASLprep itself
            secret = scram_verifier(secret)
        lines.append(f"ALTER ROLE {identifier(role(conn))} PASSWORD {literal(secret)};")
    if not lines:
        return ""
    return "\n".join(["SET standard_conforming_strings = on;", "BEGIN;", *lines, "COMMIT;", ""])


@dataclass(frozen=True)
class Step:
    """One command: what it runs, with which environment, fed what."""

    title: str
    command: list[str]
    env: dict[str, str]
    stdin: str | None = None


def roles_steps(env: Mapping[str, str]) -> list[Step]:
    admin = connection("ADMIN_DATABASE_URL", env)
    owner = connection("OWNER_DATABASE_URL", env)
    app = connection("DATABASE_URL", env)
    for other in (owner, app):
        if other.database != admin.database:
            raise SetupError(
                f"{other.name} names the database {other.database!r}, "
                f"ADMIN_DATABASE_URL {admin.database!r}: they must be one database"
            )
    if role(owner) == role(app):
        raise SetupError(
            f"OWNER_DATABASE_URL and DATABASE_URL both log in as {role(app)!r}: the app "
            "must be a role of its own, which may only read and append"
        )
    if owner.schema != app.schema:
        raise SetupError(
            f"OWNER_DATABASE_URL's search_path is {owner.schema!r}, DATABASE_URL's "
            f"{app.schema!r}: the app must read the tables the owner makes"
        )
    psql_env = dict(env)
    password = admin.password if admin.password is not None else env.get("POSTGRES_PASSWORD")
    if password:
        psql_env["PGPASSWORD"] = password
    psql = ["psql", "-X", "-q", "-v", "ON_ERROR_STOP=1", "-d", admin.url]
    variables = [f"owner={role(owner)}", f"app={role(app)}", f"schema={owner.schema}"]
    variables = [word for variable in variables for word in ("-v", variable)]
    steps = [
        Step(
            f"roles and grants ({ROLES_SQL.name}): owner {role(owner)}, app {role(app)}",
            [*psql, *variables, "-f", str(ROLES_SQL)],
            psql_env,
        )
    ]
    sql = password_sql([owner, app])
    if sql:
        steps.append(Step("the roles' passwords, from the URLs", psql, psql_env, stdin=sql))
    return steps


def upgrade_steps(env: Mapping[str, str]) -> list[Step]:
    owner = connection("OWNER_DATABASE_URL", env)
    app = connection("DATABASE_URL", env)
    if role(owner) == role(app):
        raise SetupError("OWNER_DATABASE_URL and DATABASE_URL log in as the same role")
    return [
        Step(
            f"migrations (tournament db upgrade) as {role(owner)}",
            [sys.executable, "-m", "tournament", "db", "upgrade"],
            {**env, "DATABASE_URL": env["OWNER_DATABASE_URL"]},
        )
    ]


def plan(what: str, env: Mapping[str, str]) -> list[Step]:
    """The steps of ``what``: roles, upgrade, or all (roles, upgrade, roles)."""
    if what == "roles":
        return roles_steps(env)
    if what == "upgrade":
        return upgrade_steps(env)
    return [*roles_steps(env), *upgrade_steps(env), *roles_steps(env)]


def run(steps: Sequence[Step], *, dry_run: bool = False) -> None:
    for number, step in enumerate(steps, 1):
        print(f"migrate: {number}/{len(steps)} {step.title}", file=sys.stderr, flush=True)
        if dry_run:
            print(" ".join(step.command))
            continue
        result = subprocess.run(step.command, env=step.env, input=step.stdin, text=True)
        if result.returncode != 0:
            raise SetupError(f"{step.title}: failed (exit status {result.returncode})")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("what", nargs="?", choices=("all", "roles", "upgrade"), default="all")
    parser.add_argument("--dry-run", action="store_true", help="print the commands, run none")
    args = parser.parse_args(argv)
    try:
        run(plan(args.what, os.environ), dry_run=args.dry_run)
    except SetupError as error:
        print(f"migrate: {error}", file=sys.stderr)
        return 1
    if not args.dry_run:
        print("migrate: done", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
