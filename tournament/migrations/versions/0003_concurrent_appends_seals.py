"""Concurrent appends on PostgreSQL, seals over the whole log, expiring idempotency keys.

PostgreSQL: appends to different streams no longer wait for each other's commit.
``es_append()`` takes the stream's lock (to the end of its transaction: appends to one
stream stay one after the other) and, for two steps only, the append lock: the writing
transaction's id (``pg_current_xact_id()``, kept in ``tx_id``) and the batch's positions
(``es_events_position_seq``). So a transaction that took its positions later also has a
larger id, and a reader that reads only events of transactions older than every
transaction still running (``pg_snapshot_xmin(pg_current_snapshot())``) never skips an
event that commits later with a lower position (docs/event-store.md, "Concurrent
appends"). The time of an append is the server's clock (``clock_timestamp()``, never
before the stream's last event), not the caller's: the function has no time parameter.
The functions run as their owner (``SECURITY DEFINER``), so the application's role needs
no INSERT on the event tables (deploy/postgres-roles.sql), and has none: it appends only
as ``es_append()`` writes (now, numbered in order), seals only at the server's time
(``es_seal()``), and restores a backup (``tournament import``) only into a store that
holds nothing another transaction wrote (``es_restore_events()``, ``es_restore_keys()``,
``es_restore_seal()``).

Both databases: ``es_seals`` (append-only) holds the seals of the log
(tournament.eventstore.seals); ``es_idempotency`` lets keys older than a day be deleted
(``tournament db expire-keys``), nothing younger.

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-22
"""

from __future__ import annotations

import importlib.util
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from alembic import op

from tournament.eventstore.schema import append_only_ddl

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None

_APPEND_KEY = "((1396918350::bigint << 32) | ('es_events'::regclass::oid)::bigint)"
_SEAL_KEY = "((1396918350::bigint << 32) | ('es_seals'::regclass::oid)::bigint)"
_STREAM_KEY = "hashtextextended(p_stream, ('es_events'::regclass::oid)::bigint)"

ES_APPEND = rf"""
CREATE OR REPLACE FUNCTION es_append(
    p_stream text, p_expected integer, p_key text, p_event_ids uuid[], p_types text[],
    p_schema_versions integer[], p_payloads text[], p_metadata text[],
    OUT status text, OUT positions bigint[], OUT first_version integer,
    OUT last_version integer, OUT prev_hash text, OUT hashes text[],
    OUT recorded_at timestamptz, OUT key_stream text
)
LANGUAGE plpgsql VOLATILE SECURITY DEFINER SET search_path FROM CURRENT AS $fn$
-- One row back (not a set): the event i has version first_version + i - 1, position
-- positions[i], hash hashes[i], and as prev_hash hashes[i - 1] (the first: prev_hash).
-- A replay names the stream and versions its key stored; a conflict the actual version.
DECLARE
    v_version integer;
    v_hash text;
    v_last_at timestamptz;
    v_xid bigint;
    v_stamp text;
    n integer := coalesce(cardinality(p_event_ids), 0);
BEGIN
    -- The stream's lock (the key Backend.locked takes too), to the end of the
    -- transaction: appends to one stream one after the other; to others, side by side.
    PERFORM pg_advisory_xact_lock({_STREAM_KEY});
    IF p_key IS NOT NULL THEN
        SELECT 'replay', k.stream_id, k.first_version, k.last_version
          INTO status, key_stream, first_version, last_version
          FROM es_idempotency k WHERE k.key = p_key;
        IF FOUND THEN
            RETURN;
        END IF;
    END IF;
    SELECT e.version, e.hash, e.recorded_at INTO v_version, v_hash, v_last_at
      FROM es_events e WHERE e.stream_id = p_stream ORDER BY e.version DESC LIMIT 1;
    IF NOT FOUND THEN
        v_version := 0;
        v_hash := repeat('0', 64);
    END IF;
    IF p_expected IS NOT NULL AND v_version <> p_expected THEN
        status := 'conflict';
        first_version := v_version;
        RETURN;
    END IF;
    status := 'ok';
    positions := '{{}}';
    hashes := '{{}}';
    IF n = 0 THEN
        RETURN;
    END IF;
    -- The transaction's id must be taken with its positions (below); one taken by an
    -- earlier write could be older than ids that took lower positions meanwhile.
    IF pg_current_xact_id_if_assigned() IS NOT NULL THEN
        RAISE EXCEPTION 'es_append() must be the first write of its transaction'
              USING ERRCODE = 'invalid_transaction_state';
    END IF;
    -- The append lock, for these steps only and not to the commit: the transaction id
    -- and the positions, in the same order for every writer. (A session lock outlives
    -- an error; nothing in between can fail short of a cancel, and the store's client
    -- releases the session's locks after any error: postgres_backend._connect.)
    PERFORM pg_advisory_lock({_APPEND_KEY});
    v_xid := pg_current_xact_id()::text::bigint;
    IF n = 1 THEN
        positions := ARRAY[nextval('es_events_position_seq')];
    ELSE
        positions := ARRAY(SELECT nextval('es_events_position_seq') FROM generate_series(1, n));
    END IF;
    recorded_at := greatest(clock_timestamp(), v_last_at);
    PERFORM pg_advisory_unlock({_APPEND_KEY});
    first_version := v_version + 1;
    last_version := v_version + n;
    prev_hash := v_hash;
    IF p_key IS NOT NULL THEN
        -- An append with the same key on another stream may have committed meanwhile
        -- (this waits for one still running): then that one stands.
        INSERT INTO es_idempotency (key, stream_id, first_version, last_version, recorded_at)
        VALUES (p_key, p_stream, first_version, last_version, recorded_at)
        ON CONFLICT (key) DO NOTHING;
        IF NOT FOUND THEN
            SELECT 'replay', k.stream_id, k.first_version, k.last_version, NULL, NULL, NULL
              INTO status, key_stream, first_version, last_version, positions, hashes,
                   prev_hash
              FROM es_idempotency k WHERE k.key = p_key;
            RETURN;
        END IF;
    END IF;
    v_stamp := to_char(recorded_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"');
    FOR i IN 1..n LOOP
        v_hash := encode(sha256(convert_to(
            '["' || v_hash || '","' || p_stream || '",' || (v_version + i) || ',"'
            || p_event_ids[i]::text || '","' || p_types[i] || '",' || p_schema_versions[i]
            || ',"' || v_stamp || '",' || p_metadata[i] || ',' || p_payloads[i] || ']',
            'UTF8')), 'hex');
        hashes := hashes || v_hash;
    END LOOP;
    IF n = 1 THEN  -- the common case, without unnest
        INSERT INTO es_events (position, event_id, stream_id, version, type, schema_version,
                               payload, metadata, recorded_at, prev_hash, hash, tx_id)
        VALUES (positions[1], p_event_ids[1], p_stream, first_version, p_types[1],
                p_schema_versions[1], p_payloads[1], p_metadata[1], recorded_at, prev_hash,
                v_hash, v_xid);
    ELSE
        INSERT INTO es_events (position, event_id, stream_id, version, type, schema_version,
                               payload, metadata, recorded_at, prev_hash, hash, tx_id)
        SELECT u.p, u.e, p_stream, v_version + u.i, u.t, u.sv, u.pl, u.md, recorded_at,
               CASE WHEN u.i = 1 THEN prev_hash ELSE hashes[u.i - 1] END, u.h, v_xid
          FROM unnest(positions, p_event_ids, p_types, p_schema_versions, p_payloads,
                      p_metadata, hashes) WITH ORDINALITY AS u(p, e, t, sv, pl, md, h, i);
    END IF;
END
$fn$
"""

ES_SEAL = rf"""
CREATE OR REPLACE FUNCTION es_seal(
    p_seq integer, p_position bigint, p_events bigint, p_head text, p_digests text,
    p_sealed_at timestamptz, p_reason text, p_key_id text, p_mac text
) RETURNS text
LANGUAGE plpgsql VOLATILE SECURITY DEFINER SET search_path FROM CURRENT AS $fn$
DECLARE
    v_seq integer;
    v_position bigint;
    v_at timestamptz;
BEGIN
    PERFORM pg_advisory_xact_lock({_SEAL_KEY});
    SELECT s.seq, s.position, s.sealed_at INTO v_seq, v_position, v_at
      FROM es_seals s ORDER BY s.seq DESC LIMIT 1;
    IF coalesce(v_seq, 0) + 1 <> p_seq OR p_position < coalesce(v_position, 0) THEN
        RETURN 'stale';  -- another process sealed first
    END IF;
    -- The seal's time is in its authenticated text, so the caller sends it; it must be
    -- the server's (asked just before) and not before the previous seal's.
    IF abs(extract(epoch FROM clock_timestamp() - p_sealed_at)) > 60
       OR p_sealed_at < coalesce(v_at, '-infinity') THEN
        RAISE EXCEPTION 'a seal''s time must be the database server''s clock (it is %, the seal says %)',
              clock_timestamp(), p_sealed_at USING ERRCODE = 'invalid_parameter_value';
    END IF;
    INSERT INTO es_seals (seq, position, events, head, digests, sealed_at, reason, key_id, mac)
    VALUES (p_seq, p_position, p_events, p_head, p_digests, p_sealed_at, p_reason, p_key_id,
            p_mac);
    RETURN 'ok';
END
$fn$
"""

ES_EXPIRE_KEYS = r"""
CREATE OR REPLACE FUNCTION es_expire_keys(p_before timestamptz) RETURNS bigint
LANGUAGE sql VOLATILE SECURITY DEFINER SET search_path FROM CURRENT AS $fn$
    WITH gone AS (
        DELETE FROM es_idempotency
         WHERE recorded_at < least(p_before, now() - interval '1 day') RETURNING 1
    )
    SELECT count(*) FROM gone
$fn$
"""

# What every restore function checks first. The append lock to the commit: appends and
# other restores wait, and the log holds no event another transaction wrote. Checked on
# every call, but not by a scan of the log (a restore of n events in batches would cost
# n^2): before this transaction's first event the log must be empty (no first event),
# and from then on nobody else inserts events until it commits (the append lock), so its
# first and its last event by position being this transaction's is enough.
_RESTORING = rf"""
    PERFORM pg_advisory_xact_lock({_APPEND_KEY});
    v_xid := pg_current_xact_id()::text::bigint;
    SELECT e.tx_id INTO v_lowest FROM es_events e ORDER BY e.position LIMIT 1;
    SELECT e.tx_id INTO v_highest FROM es_events e ORDER BY e.position DESC LIMIT 1;
    IF v_lowest <> v_xid OR v_highest <> v_xid
       OR (v_lowest IS NULL AND (EXISTS (SELECT FROM es_idempotency)
                                 OR EXISTS (SELECT FROM es_seals))) THEN
        RAISE EXCEPTION 'a restore needs an empty event store: this one holds events, keys or '
              'seals that another transaction wrote'
              USING ERRCODE = 'object_not_in_prerequisite_state';
    END IF;
"""
_RESTORING_VARIABLES = """
DECLARE
    v_xid bigint;
    v_lowest bigint;
    v_highest bigint;
"""

#: A backup's events, as they were (positions, times, hashes): ``tournament import`` as
#: the application's role, which may not INSERT. Restored events carry this
#: transaction's id; appends after the restore take positions above them.
ES_RESTORE_EVENTS = rf"""
CREATE OR REPLACE FUNCTION es_restore_events(
    p_positions bigint[], p_event_ids uuid[], p_streams text[], p_versions integer[],
    p_types text[], p_schema_versions integer[], p_payloads text[], p_metadata text[],
    p_recorded_at timestamptz[], p_prev_hashes text[], p_hashes text[]
) RETURNS bigint
LANGUAGE plpgsql VOLATILE SECURITY DEFINER SET search_path FROM CURRENT AS $fn$
{_RESTORING_VARIABLES}
BEGIN
{_RESTORING}
    INSERT INTO es_events (position, event_id, stream_id, version, type, schema_version,
                           payload, metadata, recorded_at, prev_hash, hash, tx_id)
    SELECT u.*, v_xid
      FROM unnest(p_positions, p_event_ids, p_streams, p_versions, p_types,
                  p_schema_versions, p_payloads, p_metadata, p_recorded_at, p_prev_hashes,
                  p_hashes) AS u;
    PERFORM setval('es_events_position_seq', (SELECT max(e.position) FROM es_events e));
    RETURN coalesce(array_length(p_positions, 1), 0);
END
$fn$
"""

#: A backup's idempotency keys (after its events, in the same transaction).
ES_RESTORE_KEYS = rf"""
CREATE OR REPLACE FUNCTION es_restore_keys(
    p_keys text[], p_streams text[], p_first_versions integer[], p_last_versions integer[],
    p_recorded_at timestamptz[]
) RETURNS bigint
LANGUAGE plpgsql VOLATILE SECURITY DEFINER SET search_path FROM CURRENT AS $fn$
{_RESTORING_VARIABLES}
BEGIN
{_RESTORING}
    INSERT INTO es_idempotency (key, stream_id, first_version, last_version, recorded_at)
    SELECT * FROM unnest(p_keys, p_streams, p_first_versions, p_last_versions, p_recorded_at);
    RETURN coalesce(array_length(p_keys, 1), 0);
END
$fn$
"""

#: A backup's seal, as it was made (its time included: es_seal() would refuse it).
ES_RESTORE_SEAL = rf"""
CREATE OR REPLACE FUNCTION es_restore_seal(
    p_seq integer, p_position bigint, p_events bigint, p_head text, p_digests text,
    p_sealed_at timestamptz, p_reason text, p_key_id text, p_mac text
) RETURNS void
LANGUAGE plpgsql VOLATILE SECURITY DEFINER SET search_path FROM CURRENT AS $fn$
{_RESTORING_VARIABLES}
BEGIN
{_RESTORING}
    INSERT INTO es_seals (seq, position, events, head, digests, sealed_at, reason, key_id, mac)
    VALUES (p_seq, p_position, p_events, p_head, p_digests, p_sealed_at, p_reason, p_key_id,
            p_mac);
END
$fn$
"""

_OLD_APPEND = (
    "es_append(text, integer, text, timestamptz, text, uuid[], text[], integer[], text[], text[])"
)
_NEW_APPEND = "es_append(text, integer, text, uuid[], text[], integer[], text[], text[])"
_SEAL_ARGS = "es_seal(integer, bigint, bigint, text, text, timestamptz, text, text, text)"
_RESTORE_FUNCTIONS = (
    "es_restore_events(bigint[], uuid[], text[], integer[], text[], integer[], text[], text[],"
    " timestamptz[], text[], text[])",
    "es_restore_keys(text[], text[], integer[], integer[], timestamptz[])",
    "es_restore_seal(integer, bigint, bigint, text, text, timestamptz, text, text, text)",
)


def upgrade() -> None:
    dialect = op.get_bind().dialect.name
    op.add_column(
        "es_events", sa.Column("tx_id", sa.BigInteger(), nullable=False, server_default="0")
    )
    op.create_table(
        "es_seals",
        sa.Column("seq", sa.Integer(), primary_key=True, autoincrement=False),
        sa.Column("position", sa.BigInteger(), nullable=False),
        sa.Column("events", sa.BigInteger(), nullable=False),
        sa.Column("head", sa.String(64), nullable=False),
        sa.Column("digests", sa.Text(), nullable=False),
        sa.Column("sealed_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("reason", sa.String(200), nullable=False),
        sa.Column("key_id", sa.String(16), nullable=False),
        sa.Column("mac", sa.String(64), nullable=False),
    )
    # Old keys may now expire: the idempotency table's delete guard is replaced.
    if dialect == "postgresql":
        op.execute("DROP TRIGGER IF EXISTS es_idempotency_no_update_delete ON es_idempotency")
    else:
        op.execute("DROP TRIGGER IF EXISTS es_idempotency_no_delete")
    for table in ("es_idempotency", "es_seals"):
        for statement in append_only_ddl(dialect, table):
            op.execute(statement)
    if dialect != "postgresql":
        return
    op.execute("CREATE SEQUENCE es_events_position_seq AS bigint OWNED BY es_events.position")
    op.execute(
        "SELECT setval('es_events_position_seq', greatest(max(position), 1), max(position) > 0)"
        " FROM es_events"
    )
    op.execute(f"DROP FUNCTION IF EXISTS {_OLD_APPEND}")
    op.execute(ES_APPEND)
    op.execute(ES_SEAL)
    op.execute(ES_EXPIRE_KEYS)
    for function in (ES_RESTORE_EVENTS, ES_RESTORE_KEYS, ES_RESTORE_SEAL):
        op.execute(function)


def _revision_0002() -> Any:
    """Migration 0002's module (its name starts with a digit: no plain import)."""
    path = Path(__file__).with_name("0002_es_append_function.py")
    spec = importlib.util.spec_from_file_location("_revision_0002", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def downgrade() -> None:
    dialect = op.get_bind().dialect.name
    if dialect == "postgresql":
        previous = _revision_0002()
        op.execute(f"DROP FUNCTION IF EXISTS {_NEW_APPEND}")
        op.execute(f"DROP FUNCTION IF EXISTS {_SEAL_ARGS}")
        op.execute("DROP FUNCTION IF EXISTS es_expire_keys(timestamptz)")
        for function in _RESTORE_FUNCTIONS:
            op.execute(f"DROP FUNCTION IF EXISTS {function}")
        op.execute(previous.ES_APPEND)
        op.execute("DROP SEQUENCE IF EXISTS es_events_position_seq")
        op.execute("DROP TRIGGER IF EXISTS es_idempotency_no_update ON es_idempotency")
        op.execute("DROP TRIGGER IF EXISTS es_idempotency_no_recent_delete ON es_idempotency")
        op.execute(
            "CREATE OR REPLACE TRIGGER es_idempotency_no_update_delete BEFORE UPDATE OR DELETE "
            "ON es_idempotency FOR EACH ROW EXECUTE FUNCTION es_reject_change()"
        )
    else:
        op.execute("DROP TRIGGER IF EXISTS es_idempotency_no_delete")
        op.execute(
            "CREATE TRIGGER es_idempotency_no_delete BEFORE DELETE ON es_idempotency "
            "BEGIN SELECT RAISE(ABORT, 'es_idempotency is append-only: DELETE is not "
            "allowed'); END"
        )
    op.drop_table("es_seals")
    with op.batch_alter_table("es_events") as batch:
        batch.drop_column("tx_id")
    if dialect == "sqlite":  # batch mode recreated es_events without its triggers
        for statement in append_only_ddl(dialect, "es_events"):
            op.execute(statement)
