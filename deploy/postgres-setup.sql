-- PostgreSQL for a LifeSignal cluster (docs/OPERATIONS.md, "Several brokers on PostgreSQL"):
-- the role the brokers log in as and the database they share. The brokers create and migrate
-- the tables themselves at start; this makes only what needs a superuser. Run it as one:
--   password=$(openssl rand -hex 32)     # then give it to the brokers (URL or password file)
--   sudo -u postgres psql -v password="$password" < deploy/postgres-setup.sql
-- (or replace REPLACE-ME on the \set line below and leave out -v). Running it again only sets
-- the password again. A hex password needs no escaping in the URL nor in systemd's
-- EnvironmentFile; the URL, postgres://lifesignal:PASSWORD@HOST:5432/lifesignal[?pool=N], is not
-- percent-decoded, so a password must not contain '?'. To keep it out of the URL, put it alone
-- in a file of mode 600 and give that to --postgres-password-file (or use PGPASSFILE).
--
-- Connections (size max_connections by this). Each broker opens up to its pool size
-- (`?pool=N` in the URL, default 8) plus one connection that listens for the other brokers'
-- hints (NOTIFY), so:
--   max_connections >= brokers x (pool + 1) + margin
-- where the margin covers superuser_reserved_connections (3 by default), psql sessions,
-- `lsbroker pushes --postgres`, pg_dump and monitoring. Three brokers with the default pool need
-- 27 plus the margin; PostgreSQL's default of 100 leaves room. Throughput comes from batching
-- (docs/ARCHITECTURE.md, "The cluster"), not from big pools: raise `pool` only when a measurement says so.
--
-- Durability (a safety service: an acknowledged check-in must survive a crash). In
-- postgresql.conf keep the defaults that make a commit durable before the broker says `ok`:
--   fsync = on
--   full_page_writes = on
--   synchronous_commit = on          (also forced for this role below)
-- One primary is a single point of failure. A synchronous standby makes a commit wait until a
-- second machine has it too, so losing the primary loses nothing acknowledged:
--   synchronous_standby_names = 'FIRST 1 (standby1)'    (on the primary)
-- Then if the standby is down, commits wait, and so do the brokers' requests: run two standbys
-- ('ANY 1 (standby1, standby2)') or be ready to change the setting. Fail over with your
-- PostgreSQL tooling (pg_ctl promote, Patroni, …); a DNS name or address that moves with the
-- primary keeps the brokers' URL valid, else change the URL and restart the brokers.
-- Backups: base backups plus WAL archiving (archive_mode = on, archive_command), see OPERATIONS.
--
-- Dead broker hosts. A killed broker process closes its connections and PostgreSQL rolls its
-- transactions back at once; a host that loses power or network leaves them open, holding the
-- row locks of the users they touched, until TCP notices. Make that quick (postgresql.conf):
--   tcp_keepalives_idle = 10
--   tcp_keepalives_interval = 5
--   tcp_keepalives_count = 3
-- and end transactions left idle (the brokers' last milliseconds, never seconds), set below.
--
-- Access. Off loopback, turn TLS on (ssl = on, ssl_cert_file, ssl_key_file) and give the brokers
-- ?sslmode=verify-full&sslrootcert=PATH-OF-THE-CA (their default, prefer, encrypts when the
-- server offers TLS but checks no certificate); allow only the brokers' addresses, over TLS, in
-- pg_hba.conf, for example:
--   hostssl  lifesignal  lifesignal  10.0.0.0/24  scram-sha-256

\set ON_ERROR_STOP on

\if :{?password}
\else
\set password 'REPLACE-ME'
\endif
SELECT length(:'password') < 16 AS weak,
       NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'lifesignal') AS new_role,
       NOT EXISTS (SELECT 1 FROM pg_database WHERE datname = 'lifesignal') AS new_database
\gset
-- The placeholder is too short on purpose: nothing is created until a real password is given.
\if :weak
DO $$ BEGIN RAISE EXCEPTION 'give a password of 16 characters or more: psql -v password=...'; END $$;
\endif

-- The role: may log in, nothing more (no superuser, no CREATEDB, no CREATEROLE). The password is
-- stored as a SCRAM-SHA-256 hash (password_encryption's default).
\if :new_role
CREATE ROLE lifesignal LOGIN PASSWORD :'password';
\else
ALTER ROLE lifesignal PASSWORD :'password';
\endif

-- Forced for every session of the role, whatever postgresql.conf says.
ALTER ROLE lifesignal SET synchronous_commit = on;
ALTER ROLE lifesignal SET idle_in_transaction_session_timeout = '15s';

-- The database, owned by the role: the brokers create their tables in its public schema.
\if :new_database
CREATE DATABASE lifesignal OWNER lifesignal ENCODING 'UTF8' TEMPLATE template0;
\endif
REVOKE ALL ON DATABASE lifesignal FROM PUBLIC;
GRANT CONNECT, TEMPORARY ON DATABASE lifesignal TO lifesignal;

\unset password
