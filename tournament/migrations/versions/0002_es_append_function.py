"""PostgreSQL: es_append(), the whole append in one server-side call.

The store's append on PostgreSQL (lock, idempotency key, expected version, hash chain,
positions, inserts) runs here, so an append is one round trip and one implicit
transaction. It does exactly what tournament.eventstore.sqlite_backend.SQLiteBackend does in
Python; the contract tests run both. The hash body is spliced from text: every field
except metadata and payload is restricted (stream ids, type names, uuids, numbers, the
time stamp) to characters JSON never escapes, and metadata and payload arrive as
canonical JSON text, so the text equals Python's canonical JSON of the array.

Nothing changes on SQLite.

Revision ID: 0002
Revises: 0001
Create Date: 2025-01-02
"""

from __future__ import annotations

from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None

# The append lock, in one place for es_append() and for the store's other writers
# (import): an advisory transaction lock whose key is "SCHN" (0x5343484E) in the high half
# and the events table's oid in the low half, so each schema has its own.
ES_APPEND_LOCK = r"""
CREATE OR REPLACE FUNCTION es_append_lock() RETURNS void LANGUAGE sql VOLATILE AS $fn$
    SELECT pg_advisory_xact_lock((1396918350::bigint << 32) | ('es_events'::regclass::oid)::bigint)
$fn$
"""

ES_APPEND = r"""
CREATE OR REPLACE FUNCTION es_append(
    p_stream text, p_expected integer, p_key text, p_recorded_at timestamptz, p_stamp text,
    p_event_ids uuid[], p_types text[], p_schema_versions integer[], p_payloads text[],
    p_metadata text[]
) RETURNS TABLE (status text, "position" bigint, version integer, prev_hash text, hash text)
LANGUAGE plpgsql VOLATILE AS $fn$
#variable_conflict use_column
DECLARE
    v_position bigint;
    v_version integer;
    v_hash text;
    v_first integer;
    v_last integer;
    v_key_stream text;
    n integer := coalesce(array_length(p_event_ids, 1), 0);
    positions bigint[] := '{}';
    versions integer[] := '{}';
    prevs text[] := '{}';
    hashes text[] := '{}';
BEGIN
    -- Held to the end of the transaction, released only after its commit is visible:
    -- positions (max + 1 under the lock) become visible in order, with no holes.
    -- Each statement below takes a fresh snapshot (VOLATILE, READ COMMITTED), so it
    -- sees every append that committed while this one waited for the lock.
    PERFORM es_append_lock();
    IF p_key IS NOT NULL THEN
        SELECT k.stream_id, k.first_version, k.last_version
          INTO v_key_stream, v_first, v_last
          FROM es_idempotency k WHERE k.key = p_key;
        IF FOUND THEN
            RETURN QUERY SELECT 'replay'::text, NULL::bigint, v_first, v_key_stream,
                                v_last::text;
            RETURN;
        END IF;
    END IF;
    -- The stream's head and the log's head in one statement (each costs a round of SPI).
    SELECT coalesce(h.version, 0), coalesce(h.hash, repeat('0', 64)),
           (SELECT coalesce(max(m.position), 0) FROM es_events m)
      INTO v_version, v_hash, v_position
      FROM (SELECT 1) AS one
      LEFT JOIN LATERAL (SELECT e.version, e.hash FROM es_events e WHERE e.stream_id = p_stream
                         ORDER BY e.version DESC LIMIT 1) AS h ON true;
    IF p_expected IS NOT NULL AND v_version <> p_expected THEN
        RETURN QUERY SELECT 'conflict'::text, NULL::bigint, v_version, NULL::text, NULL::text;
        RETURN;
    END IF;
    IF n = 0 THEN
        RETURN;
    END IF;
    v_first := v_version + 1;
    FOR i IN 1..n LOOP
        v_position := v_position + 1;
        v_version := v_version + 1;
        positions := positions || v_position;
        versions := versions || v_version;
        prevs := prevs || v_hash;
        v_hash := encode(sha256(convert_to(
            '["' || v_hash || '","' || p_stream || '",' || v_version || ',"'
            || p_event_ids[i]::text || '","' || p_types[i] || '",' || p_schema_versions[i]
            || ',"' || p_stamp || '",' || p_metadata[i] || ',' || p_payloads[i] || ']',
            'UTF8')), 'hex');
        hashes := hashes || v_hash;
    END LOOP;
    INSERT INTO es_events (position, event_id, stream_id, version, type, schema_version,
                           payload, metadata, recorded_at, prev_hash, hash)
    SELECT u.p, u.e, p_stream, u.v, u.t, u.sv, u.pl, u.md, p_recorded_at, u.ph, u.h
      FROM unnest(positions, p_event_ids, versions, p_types, p_schema_versions, p_payloads,
                  p_metadata, prevs, hashes) AS u(p, e, v, t, sv, pl, md, ph, h);
    IF p_key IS NOT NULL THEN
        INSERT INTO es_idempotency (key, stream_id, first_version, last_version, recorded_at)
        VALUES (p_key, p_stream, v_first, v_version, p_recorded_at);
    END IF;
    RETURN QUERY SELECT 'ok'::text, u.p, u.v, u.ph, u.h
      FROM unnest(positions, versions, prevs, hashes) AS u(p, v, ph, h);
END
$fn$
"""


def upgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.execute(ES_APPEND_LOCK)
        op.execute(ES_APPEND)


def downgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.execute(
            "DROP FUNCTION IF EXISTS es_append(text, integer, text, timestamptz, text, uuid[], "
            "text[], integer[], text[], text[])"
        )
        op.execute("DROP FUNCTION IF EXISTS es_append_lock()")
