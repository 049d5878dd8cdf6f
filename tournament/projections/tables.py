"""The projections' tables (read models), on a metadata of their own: :data:`metadata`.

Every name starts with ``proj_``. They hold nothing the log does not: each row is worked
out from a tournament's events by :mod:`tournament.projections.runner`, which rewrites a
tournament's rows and moves its checkpoint (``es_checkpoints``, ``projection:<tid>``) in
one transaction. Dropping every row (``tournament projections rebuild``) loses nothing.
Migration ``0005_projections`` creates them; ``alembic check`` compares the database with
:data:`metadata` as with the event store's and the accounts' tables.

    >>> sorted(metadata.tables)  # doctest: +NORMALIZE_WHITESPACE
    ['proj_documents', 'proj_outstanding', 'proj_players', 'proj_print_packs',
     'proj_reconciliations', 'proj_standings', 'proj_tournaments']
"""

from __future__ import annotations

import sqlalchemy as sa

metadata = sa.MetaData()

_TIME = sa.DateTime(timezone=True)
_TID = sa.String(200)

#: One row per projected tournament: the version of its stream the rows below are at.
tournaments = sa.Table(
    "proj_tournaments",
    metadata,
    sa.Column("tournament_id", _TID, primary_key=True),
    sa.Column("version", sa.Integer(), nullable=False),
    sa.Column("name", sa.String(300), nullable=False),
    sa.Column("format", sa.String(50), nullable=False),
    sa.Column("final", sa.Boolean(), nullable=False),
    # When the last event the rows include was recorded, and when the rows were written.
    sa.Column("event_at", _TIME, nullable=False),
    sa.Column("projected_at", _TIME, nullable=False),
    sa.Column("reconciled_at", _TIME, nullable=True),
)

#: Whole answers as the API sends them (JSON or CSV text), by name: ``standings``,
#: ``standings.csv``, ``standings/group/2``, ``standings/category/W``, ``bracket``.
documents = sa.Table(
    "proj_documents",
    metadata,
    sa.Column("tournament_id", _TID, primary_key=True),
    sa.Column("name", sa.String(200), primary_key=True),
    sa.Column("version", sa.Integer(), nullable=False),
    sa.Column("media_type", sa.String(100), nullable=False),
    sa.Column("body", sa.Text(), nullable=False),
)

#: The standings of the whole field, a row per player, in rank order (``place``).
standings = sa.Table(
    "proj_standings",
    metadata,
    sa.Column("tournament_id", _TID, primary_key=True),
    sa.Column("player_id", sa.Integer(), primary_key=True),
    sa.Column("place", sa.Integer(), nullable=False),
    sa.Column("rank", sa.Integer(), nullable=False),  # 0: never played, not ranked
    sa.Column("points", sa.Integer(), nullable=False),
    sa.Column("name", sa.String(300), nullable=False),
    sa.Column("row", sa.Text(), nullable=False),  # the API's row, JSON
)

#: Matches of the current round still without a result.
outstanding = sa.Table(
    "proj_outstanding",
    metadata,
    sa.Column("tournament_id", _TID, primary_key=True),
    sa.Column("match_id", sa.String(100), primary_key=True),
    sa.Column("round", sa.Integer(), nullable=False),
    sa.Column("table_no", sa.Integer(), nullable=True),
    sa.Column("player_a", sa.Integer(), nullable=False),
    sa.Column("player_b", sa.Integer(), nullable=True),
    sa.Column("status", sa.String(50), nullable=False),
    sa.Column("words", sa.String(500), nullable=False),
)

#: Per player: where they stand, what they played, where they sit next.
players = sa.Table(
    "proj_players",
    metadata,
    sa.Column("tournament_id", _TID, primary_key=True),
    sa.Column("player_id", sa.Integer(), primary_key=True),
    sa.Column("name", sa.String(300), nullable=False),
    sa.Column("status", sa.String(50), nullable=False),
    sa.Column("rank", sa.Integer(), nullable=True),
    sa.Column("points", sa.Integer(), nullable=False),
    sa.Column("played", sa.Integer(), nullable=False),
    sa.Column("won", sa.Integer(), nullable=False),
    sa.Column("lost", sa.Integer(), nullable=False),
    sa.Column("bummerl_won", sa.Integer(), nullable=False),
    sa.Column("bummerl_lost", sa.Integer(), nullable=False),
    sa.Column("next_match", sa.String(100), nullable=True),
    sa.Column("next_table", sa.Integer(), nullable=True),
    sa.Column("summary", sa.Text(), nullable=False),  # the API's document, JSON
)

#: Each reconciliation: a rebuild from scratch compared with the incremental rows. A
#: row with ``matched`` false is an alarm (``/metrics``: schnapsen_projection_mismatches).
reconciliations = sa.Table(
    "proj_reconciliations",
    metadata,
    sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
    sa.Column("tournament_id", _TID, nullable=False),
    sa.Column("version", sa.Integer(), nullable=False),
    sa.Column("checked_at", _TIME, nullable=False),
    sa.Column("matched", sa.Boolean(), nullable=False),
    sa.Column("differences", sa.Text(), nullable=False),
)

#: Print packs (PDF) asked for, and what the worker (or this process) rendered: derived
#: like the rest, kept until deleted (tournament/printing/queue.py).
print_packs = sa.Table(
    "proj_print_packs",
    metadata,
    sa.Column("id", sa.String(36), primary_key=True),
    sa.Column("tournament_id", _TID, nullable=False),
    sa.Column("kind", sa.String(50), nullable=False),
    sa.Column("round", sa.Integer(), nullable=True),
    sa.Column("version", sa.Integer(), nullable=False),
    # The pack's language (migration 0006): the same pack in German and in English are two.
    sa.Column("lang", sa.String(5), nullable=False, server_default="de"),
    sa.Column("status", sa.String(20), nullable=False),
    sa.Column("pdf", sa.LargeBinary(), nullable=True),
    sa.Column("pages", sa.Integer(), nullable=True),
    sa.Column("seal", sa.String(100), nullable=True),
    sa.Column("error", sa.Text(), nullable=True),
    sa.Column("requested_by", sa.String(254), nullable=False),
    sa.Column("requested_at", _TIME, nullable=False),
    sa.Column("done_at", _TIME, nullable=True),
    sa.Index("ix_proj_print_packs_asked", "tournament_id", "kind", "round", "version"),
)

ALL = (tournaments, documents, standings, outstanding, players)
