#!/usr/bin/env bash
# Gives CI a PostgreSQL to test against, on a fresh Debian machine, as root: installs the Debian
# `postgresql` package if missing, starts its cluster, and makes a role and the database
# `veridesk_test`. Safe to run again: every step checks first.
#
# stdout carries two lines, so a CI step can export each (see .ci/run):
#   TEST_DATABASE_URL=postgres://…      the owner role: makes the scratch databases, runs migrations
#   TEST_APP_DATABASE_URL=postgres://…  the app role: what the tests then run as (ADR 0019)
# (also appended to $GITHUB_ENV when that is set); progress goes to stderr.
#
# The owner role gets CREATEDB because the migration tests make a fresh database per run, and
# pg_signal_backend so that dropping a scratch database (`DROP DATABASE … WITH (FORCE)`) may end
# an app-role connection still open on it: without it PostgreSQL refuses the drop ("must be a
# member of the role whose process is being terminated"). The app role gets nothing here: each
# migration grants it only what the app needs, as in production.
set -euo pipefail

DB_NAME="${VERIDESK_TEST_DB_NAME:-veridesk_test}"
DB_USER="${VERIDESK_TEST_DB_USER:-veridesk}"
DB_PASSWORD="${VERIDESK_TEST_DB_PASSWORD:-veridesk}"
DB_PORT="${VERIDESK_TEST_DB_PORT:-5432}"
DB_APP_USER="${VERIDESK_TEST_DB_APP_USER:-veridesk_app}"
DB_APP_PASSWORD="${VERIDESK_TEST_DB_APP_PASSWORD:-veridesk_app}"

say() { echo "ci-postgres: $*" >&2; }
as_postgres() { runuser -u postgres -- "$@"; }

if [[ "$(id -u)" -ne 0 ]]; then
  say "run as root (it installs packages and starts the PostgreSQL service)"
  exit 1
fi

if ! compgen -G "/usr/lib/postgresql/*/bin/postgres" >/dev/null; then
  say "installing postgresql"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >&2
  apt-get install -y -qq postgresql >&2
fi

version="$(ls /usr/lib/postgresql | sort -n | tail -n 1)"

# Prints column $1 of `pg_lsclusters` for cluster <version>/main (empty when there is none).
cluster_field() {
  pg_lsclusters --no-header | awk -v v="$version" -v f="$1" '$1 == v && $2 == "main" { print $f }'
}

# Debian's package normally creates the cluster `main`; a minimal image may have skipped it.
if [[ -z "$(cluster_field 1)" ]]; then
  say "creating cluster $version/main on port $DB_PORT"
  pg_createcluster --port "$DB_PORT" "$version" main >&2
fi

if [[ "$(cluster_field 3)" != "$DB_PORT" ]]; then
  say "cluster $version/main listens on port $(cluster_field 3), not $DB_PORT; set VERIDESK_TEST_DB_PORT"
  exit 1
fi

if [[ "$(cluster_field 4)" != "online" ]]; then
  say "starting cluster $version/main"
  # Without systemd (containers, most CI runners) pg_ctlcluster starts the server itself.
  pg_ctlcluster "$version" main start >&2
fi

for _ in $(seq 1 30); do
  pg_isready -q -h 127.0.0.1 -p "$DB_PORT" && break
  sleep 1
done
pg_isready -h 127.0.0.1 -p "$DB_PORT" >&2

# psql variables (:'name') quote the values, so an odd password cannot break the SQL.
as_postgres psql -X -q -v ON_ERROR_STOP=1 -p "$DB_PORT" \
  -v user="$DB_USER" -v password="$DB_PASSWORD" -v db="$DB_NAME" \
  -v app_user="$DB_APP_USER" -v app_password="$DB_APP_PASSWORD" <<'SQL' >&2
SELECT format('CREATE ROLE %I LOGIN', :'user')
  WHERE NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = :'user') \gexec
SELECT format('ALTER ROLE %I LOGIN CREATEDB PASSWORD %L', :'user', :'password') \gexec
SELECT format('GRANT pg_signal_backend TO %I', :'user')
  WHERE NOT pg_has_role(:'user', 'pg_signal_backend', 'MEMBER') \gexec
SELECT format('CREATE ROLE %I LOGIN', :'app_user')
  WHERE NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = :'app_user') \gexec
SELECT format('ALTER ROLE %I LOGIN NOCREATEDB NOCREATEROLE NOSUPERUSER PASSWORD %L', :'app_user', :'app_password') \gexec
SELECT format('CREATE DATABASE %I OWNER %I', :'db', :'user')
  WHERE NOT EXISTS (SELECT 1 FROM pg_database WHERE datname = :'db') \gexec
SQL

# The defaults need no URL-encoding; keep overrides to letters, digits and underscores.
url="postgres://${DB_USER}:${DB_PASSWORD}@127.0.0.1:${DB_PORT}/${DB_NAME}"
app_url="postgres://${DB_APP_USER}:${DB_APP_PASSWORD}@127.0.0.1:${DB_PORT}/${DB_NAME}"
# Proves the password works over TCP, the way the tests connect.
PGCONNECT_TIMEOUT=5 psql -X -q "$url" -c "SELECT 1" >/dev/null
PGCONNECT_TIMEOUT=5 psql -X -q "$app_url" -c "SELECT 1" >/dev/null
say "ready: PostgreSQL $version, database $DB_NAME, owner role $DB_USER, app role $DB_APP_USER"

if [[ -n "${GITHUB_ENV:-}" ]]; then
  echo "TEST_DATABASE_URL=$url" >>"$GITHUB_ENV"
  echo "TEST_APP_DATABASE_URL=$app_url" >>"$GITHUB_ENV"
fi
echo "TEST_DATABASE_URL=$url"
echo "TEST_APP_DATABASE_URL=$app_url"
