"""PostgreSQL: ``es_append_one()``, a plain append of one event with less work per call.

Most appends are one event (a move, a result). ``es_append()`` (0003) takes arrays: each
call parsed five array literals, ran its hash and its insert in loops and over arrays,
and its row went back through ``array_to_string`` and ``to_char``. ``es_append_one()``
does the same steps in the same order under the same locks (the stream's lock to the
commit; the append lock only for the transaction id, the position and the time; the
idempotency key checked, then claimed with ``ON CONFLICT DO NOTHING``; no key, no key
row), with scalar parameters: the event's hash is the same expression over the same
text (a previous release's ``verify`` accepts its events, and this one's accepts the
previous release's), and its row gives the time as the hash chain stamps it. The
server's work per single append fell by about 16 % (callgrind, issue 22). Batches and
appends inside a stream's lock still call ``es_append()``, which is unchanged.

The roles that may run ``es_append()`` are granted ``es_append_one()`` too (the app's role,
deploy/postgres-roles.sql): a confined deployment keeps appending after ``db upgrade``
before the roles script is run again. A client of this release on a database still at
0007 (hosts upgraded one by one) falls back to ``es_append()``.

Nothing changes on SQLite.

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-07
"""

from __future__ import annotations

from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None

_APPEND_KEY = "((1396918350::bigint << 32) | ('es_events'::regclass::oid)::bigint)"
_STREAM_KEY = "hashtextextended(p_stream, ('es_events'::regclass::oid)::bigint)"

SIGNATURE = "es_append_one(text, integer, text, uuid, text, integer, text, text)"
_APPEND_ARRAYS = "es_append(text, integer, text, uuid[], text[], integer[], text[], text[])"

# Step by step es_append() of migration 0003 for n = 1 (see its comments): only the
# arrays are gone, and the stamp is returned beside the hash it went into.
ES_APPEND_ONE = rf"""
CREATE OR REPLACE FUNCTION es_append_one(
    p_stream text, p_expected integer, p_key text, p_event_id uuid, p_type text,
    p_schema_version integer, p_payload text, p_metadata text,
    OUT status text, OUT "position" bigint, OUT first_version integer,
    OUT last_version integer, OUT prev_hash text, OUT hash text, OUT stamp text,
    OUT key_stream text
)
LANGUAGE plpgsql VOLATILE SECURITY DEFINER SET search_path FROM CURRENT AS $fn$
-- One row back: 'ok' with the event's position, version (first_version = last_version),
-- prev_hash, hash and the time stamped into the hash (UTC, microseconds, 'Z'); 'replay'
-- with the stream and versions its key stored; 'conflict' with the actual version.
#variable_conflict use_column
DECLARE
    v_version integer;
    v_last_at timestamptz;
    v_at timestamptz;
    v_xid bigint;
BEGIN
    PERFORM pg_advisory_xact_lock({_STREAM_KEY});
    IF p_key IS NOT NULL THEN
        SELECT 'replay', k.stream_id, k.first_version, k.last_version
          INTO status, key_stream, first_version, last_version
          FROM es_idempotency k WHERE k.key = p_key;
        IF FOUND THEN
            RETURN;
        END IF;
    END IF;
    SELECT e.version, e.hash, e.recorded_at INTO v_version, prev_hash, v_last_at
      FROM es_events e WHERE e.stream_id = p_stream ORDER BY e.version DESC LIMIT 1;
    IF NOT FOUND THEN
        v_version := 0;
        prev_hash := repeat('0', 64);
    END IF;
    IF p_expected IS NOT NULL AND v_version <> p_expected THEN
        status := 'conflict';
        first_version := v_version;
        prev_hash := NULL;
        RETURN;
    END IF;
    IF pg_current_xact_id_if_assigned() IS NOT NULL THEN
        RAISE EXCEPTION 'es_append_one() must be the first write of its transaction'
              USING ERRCODE = 'invalid_transaction_state';
    END IF;
    PERFORM pg_advisory_lock({_APPEND_KEY});
    v_xid := pg_current_xact_id()::text::bigint;
    "position" := nextval('es_events_position_seq');
    v_at := greatest(clock_timestamp(), v_last_at);
    PERFORM pg_advisory_unlock({_APPEND_KEY});
    first_version := v_version + 1;
    last_version := first_version;
    IF p_key IS NOT NULL THEN
        INSERT INTO es_idempotency (key, stream_id, first_version, last_version, recorded_at)
        VALUES (p_key, p_stream, first_version, first_version, v_at)
        ON CONFLICT (key) DO NOTHING;
        IF NOT FOUND THEN
            SELECT 'replay', k.stream_id, k.first_version, k.last_version, NULL, NULL
              INTO status, key_stream, first_version, last_version, "position", prev_hash
              FROM es_idempotency k WHERE k.key = p_key;
            RETURN;
        END IF;
    END IF;
    stamp := to_char(v_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"');
    hash := encode(sha256(convert_to(
        '["' || prev_hash || '","' || p_stream || '",' || first_version || ',"'
        || p_event_id::text || '","' || p_type || '",' || p_schema_version
        || ',"' || stamp || '",' || p_metadata || ',' || p_payload || ']',
        'UTF8')), 'hex');
    INSERT INTO es_events (position, event_id, stream_id, version, type, schema_version,
                           payload, metadata, recorded_at, prev_hash, hash, tx_id)
    VALUES ("position", p_event_id, p_stream, first_version, p_type, p_schema_version,
            p_payload, p_metadata, v_at, prev_hash, hash, v_xid);
    status := 'ok';
END
$fn$
"""

# Whoever may run es_append() (by name, not PUBLIC: the roles script revoked that).
_GRANT_LIKE_APPEND = rf"""
DO $do$
DECLARE
    r record;
BEGIN
    FOR r IN SELECT DISTINCT a.grantee::regrole::text AS who
               FROM pg_proc p, aclexplode(p.proacl) a
              WHERE p.oid = to_regprocedure('{_APPEND_ARRAYS}')
                AND a.privilege_type = 'EXECUTE' AND a.grantee <> 0 LOOP
        EXECUTE format('GRANT EXECUTE ON FUNCTION {SIGNATURE} TO %s', r.who);
    END LOOP;
END
$do$
"""


def upgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.execute(ES_APPEND_ONE)
        op.execute(_GRANT_LIKE_APPEND)


def downgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.execute(f"DROP FUNCTION IF EXISTS {SIGNATURE}")
