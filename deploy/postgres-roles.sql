-- PostgreSQL roles for the tournament service: the app reads the log and writes it only
-- through the store's functions.
--
--   owner  owns the tables and the functions and runs the migrations (`tournament db
--          upgrade`); the app never logs in as it.
--   app    what the web app and the workers log in as. On the event tables (es_events,
--          es_idempotency, es_seals) it has SELECT and nothing else. It appends, seals,
--          expires old idempotency keys and restores a backup only by calling functions
--          that run as the owner (SECURITY DEFINER): es_append() (and es_append_one(),
--          the same for one event) numbers an append, chains its hashes and stamps it
--          with the database server's clock (it takes no time), so the app cannot
--          backdate an event or place one anywhere but at the end of the log; es_seal()
--          takes a seal only at the server's time; the es_restore_*() functions restore
--          only into an empty store. The append-only
--          triggers refuse UPDATE, DELETE and TRUNCATE whoever asks. The app may move
--          projection checkpoints (es_checkpoints: SELECT, INSERT, UPDATE, DELETE)
--          and the projections' tables (proj_*), which are bookkeeping, not history,
--          and keeps the accounts (acct_*: SELECT,
--          INSERT, UPDATE; DELETE only of roles), which are not part of the log.
--
-- Whoever can get past all of that (a superuser, the owner) can rewrite rows and
-- recompute the hash chains, but not the seals: they are authenticated with a key the
-- service keeps outside the database (SCHNAPSEN_SEAL_KEY or SCHNAPSEN_SEAL_KEY_FILE,
-- tournament/eventstore/seals.py), and `tournament verify` checks every one. Events after
-- the last seal are covered by their chains only.
--
-- Run as a superuser; it is idempotent and changes the grants in one transaction. Run it
-- once before the first migration (roles, default privileges) and once after every
-- migration (grants on the tables and functions it made):
--
--   psql -v ON_ERROR_STOP=1 -d club -f deploy/postgres-roles.sql
--   DATABASE_URL=postgresql://schnapsen_owner@db/club tournament db upgrade
--   psql -v ON_ERROR_STOP=1 -d club -f deploy/postgres-roles.sql
--   DATABASE_URL=postgresql://schnapsen_app@db/club   (the service)
--
-- Names can be changed with -v owner=... -v app=... -v schema=...; set passwords with
-- \password in psql. See docs/operations.md.

\if :{?owner}
\else
\set owner schnapsen_owner
\endif
\if :{?app}
\else
\set app schnapsen_app
\endif
\if :{?schema}
\else
\set schema public
\endif

BEGIN;

SELECT format('CREATE ROLE %I LOGIN', :'owner')
 WHERE NOT EXISTS (SELECT FROM pg_roles WHERE rolname = :'owner') \gexec
SELECT format('CREATE ROLE %I LOGIN', :'app')
 WHERE NOT EXISTS (SELECT FROM pg_roles WHERE rolname = :'app') \gexec

-- The owner creates tables in the schema; the app may only look up names in it.
GRANT USAGE, CREATE ON SCHEMA :"schema" TO :"owner";
GRANT USAGE ON SCHEMA :"schema" TO :"app";
REVOKE CREATE ON SCHEMA :"schema" FROM :"app";

-- Tables the owner creates later (migrations): the app may read them, nothing more (the
-- REVOKE undoes the SELECT, INSERT earlier versions of this script granted). A table the
-- app must write gets its grant below, by name. No sequences: es_append() takes the
-- positions as the owner.
ALTER DEFAULT PRIVILEGES FOR ROLE :"owner" IN SCHEMA :"schema"
    REVOKE ALL ON TABLES FROM :"app";
ALTER DEFAULT PRIVILEGES FOR ROLE :"owner" IN SCHEMA :"schema"
    GRANT SELECT ON TABLES TO :"app";
ALTER DEFAULT PRIVILEGES FOR ROLE :"owner" IN SCHEMA :"schema"
    REVOKE ALL ON SEQUENCES FROM :"app";
-- A new function is executable by PUBLIC, so every role could append with it until this
-- script runs again. PUBLIC's EXECUTE is a default of every schema, so it is revoked for
-- the owner's functions everywhere (per schema it cannot be).
ALTER DEFAULT PRIVILEGES FOR ROLE :"owner" REVOKE EXECUTE ON FUNCTIONS FROM PUBLIC;

-- Tables and sequences that exist already (run again after each migration).
REVOKE ALL ON ALL TABLES IN SCHEMA :"schema" FROM :"app";
GRANT SELECT ON ALL TABLES IN SCHEMA :"schema" TO :"app";
REVOKE ALL ON ALL SEQUENCES IN SCHEMA :"schema" FROM :"app";
SELECT format('GRANT SELECT, INSERT, UPDATE, DELETE ON %I.es_checkpoints TO %I',
              :'schema', :'app')
 WHERE to_regclass(format('%I.es_checkpoints', :'schema')) IS NOT NULL \gexec
-- The projections (tournament/projections, migration 0005): read models the web app and
-- the workers rewrite per tournament, in the transaction that moves its checkpoint. They
-- hold nothing the log does not (they can be dropped and rebuilt), so the app writes them.
SELECT format('GRANT SELECT, INSERT, UPDATE, DELETE ON %I.%I TO %I', :'schema', c.relname, :'app')
  FROM pg_class c
 WHERE c.relnamespace = to_regnamespace(quote_ident(:'schema')) AND c.relkind = 'r'
   AND c.relname LIKE 'proj\_%' \gexec
SELECT format('GRANT USAGE ON SEQUENCE %s TO %I',
              pg_get_serial_sequence(format('%I.proj_reconciliations', :'schema'), 'id'), :'app')
 WHERE to_regclass(format('%I.proj_reconciliations', :'schema')) IS NOT NULL \gexec
-- The accounts (tournament/accounts, migration 0004): what the service writes, by table.
-- Accounts and tokens are never deleted (a token is revoked); a role is taken away by
-- deleting its row. The ids come from the tables' sequences.
SELECT format('GRANT INSERT, UPDATE ON %I.%I TO %I', :'schema', t, :'app')
  FROM unnest(ARRAY['acct_accounts', 'acct_api_tokens', 'acct_setup_tokens']) AS t
 WHERE to_regclass(format('%I.%I', :'schema', t)) IS NOT NULL \gexec
SELECT format('GRANT INSERT, UPDATE, DELETE ON %I.acct_tournament_roles TO %I',
              :'schema', :'app')
 WHERE to_regclass(format('%I.acct_tournament_roles', :'schema')) IS NOT NULL \gexec
SELECT format('GRANT USAGE ON SEQUENCE %s TO %I',
              pg_get_serial_sequence(format('%I.%I', :'schema', t), 'id'), :'app')
  FROM unnest(ARRAY['acct_accounts', 'acct_api_tokens']) AS t
 WHERE to_regclass(format('%I.%I', :'schema', t)) IS NOT NULL \gexec

-- The store's functions (es_*): nobody may run them but the owner and, for those it
-- calls, the app. es_append_lock() only takes the append lock (import holds it).
SELECT format('REVOKE ALL ON FUNCTION %s FROM PUBLIC, %I', p.oid::regprocedure, :'app')
  FROM pg_proc p
 WHERE p.pronamespace = to_regnamespace(quote_ident(:'schema')) AND p.prokind = 'f'
   AND p.proname LIKE 'es\_%' \gexec
SELECT format('GRANT EXECUTE ON FUNCTION %s TO %I', p.oid::regprocedure, :'app')
  FROM pg_proc p
 WHERE p.pronamespace = to_regnamespace(quote_ident(:'schema')) AND p.prokind = 'f'
   AND p.proname IN ('es_append', 'es_append_one', 'es_append_lock', 'es_seal',
                     'es_expire_keys', 'es_restore_events', 'es_restore_keys', 'es_restore_seal') \gexec

COMMIT;
