-- PostgreSQL roles for the tournament service: the app can only read and append events.
--
--   owner  owns the tables and runs the migrations (`tournament db upgrade`); the app
--          never logs in as it.
--   app    what the web app and the workers log in as: SELECT and INSERT on the event
--          tables and nothing else there, so even a compromised app cannot rewrite
--          history (the append-only triggers stop everyone else, and the hash chains
--          show anything done behind both). It may move projection checkpoints
--          (UPDATE/DELETE on es_checkpoints), which are bookkeeping, not history.
--
-- Run as a superuser; it is idempotent. Run it once before the first migration (roles,
-- default privileges) and once after every migration (grants on existing tables):
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

SELECT format('CREATE ROLE %I LOGIN', :'owner')
 WHERE NOT EXISTS (SELECT FROM pg_roles WHERE rolname = :'owner') \gexec
SELECT format('CREATE ROLE %I LOGIN', :'app')
 WHERE NOT EXISTS (SELECT FROM pg_roles WHERE rolname = :'app') \gexec

-- The owner creates tables in the schema; the app may only look up names in it.
GRANT USAGE, CREATE ON SCHEMA :"schema" TO :"owner";
GRANT USAGE ON SCHEMA :"schema" TO :"app";
REVOKE CREATE ON SCHEMA :"schema" FROM :"app";

-- Tables the owner creates later (migrations) are readable and appendable, nothing more.
ALTER DEFAULT PRIVILEGES FOR ROLE :"owner" IN SCHEMA :"schema"
    GRANT SELECT, INSERT ON TABLES TO :"app";

-- Tables that exist already (run again after each migration).
GRANT SELECT, INSERT ON ALL TABLES IN SCHEMA :"schema" TO :"app";
REVOKE UPDATE, DELETE, TRUNCATE, REFERENCES, TRIGGER ON ALL TABLES IN SCHEMA :"schema"
    FROM :"app";
SELECT format('GRANT UPDATE, DELETE ON %I.es_checkpoints TO %I', :'schema', :'app')
 WHERE to_regclass(format('%I.es_checkpoints', :'schema')) IS NOT NULL \gexec
