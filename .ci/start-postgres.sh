#!/usr/bin/env bash
# Starts a local PostgreSQL for the tests (Debian's postgresql package) and makes sure the role and the
# database they use exist. Idempotent: safe to run when the server already runs. Prints the JDBC URL.
#   user refstore, password refstore, database refstore_test, localhost:5432
set -euo pipefail
# Only the URL goes to stdout (callers capture it); everything the tools print (pg_ctlcluster may say
# "Removed stale pid file.") goes to stderr.
exec 3>&1 1>&2

if ! command -v pg_lsclusters >/dev/null 2>&1; then
	if [ "$(id -u)" = 0 ]; then
		apt-get install -y -q postgresql >/dev/null
	else
		echo "PostgreSQL is missing: install it with 'sudo apt-get install -y postgresql'" >&2
		exit 1
	fi
fi

version=$(pg_lsclusters --no-header | awk 'NR==1 {print $1}')
cluster=$(pg_lsclusters --no-header | awk 'NR==1 {print $2}')
if [ -z "$version" ]; then
	version=$(ls /usr/lib/postgresql | sort -n | tail -n 1)
	cluster=main
	pg_createcluster "$version" "$cluster" >/dev/null 3>&-
fi
if ! pg_lsclusters --no-header | awk -v v="$version" -v c="$cluster" '$1==v && $2==c {print $4}' | grep -q online; then
	pg_ctlcluster "$version" "$cluster" start 3>&-   # the server must not hold the caller's stdout open
fi

as_postgres() {
	# from /, which postgres may enter (a checkout under /root is closed to it, and psql says so)
	if [ "$(id -u)" = 0 ]; then (cd / && su postgres -c "$*"); else (cd / && sudo -u postgres sh -c "$*"); fi
}
as_postgres "psql -qtAc \"SELECT 1 FROM pg_roles WHERE rolname='refstore'\"" | grep -q 1 \
	|| as_postgres "psql -qc \"CREATE ROLE refstore LOGIN CREATEDB PASSWORD 'refstore'\""
as_postgres "psql -qtAc \"SELECT 1 FROM pg_database WHERE datname='refstore_test'\"" | grep -q 1 \
	|| as_postgres "createdb -O refstore refstore_test"

port=$(pg_lsclusters --no-header | awk -v v="$version" -v c="$cluster" '$1==v && $2==c {print $3}')
echo "jdbc:postgresql://localhost:${port}/refstore_test" >&3
