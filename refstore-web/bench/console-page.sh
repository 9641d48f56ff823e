#!/usr/bin/env bash
# Server time of the console's repository page (/repo?name=...) on a large repository, both formats.
#
#   ./mvnw -q -DskipTests package -pl refstore-web -am
#   refstore-web/bench/console-page.sh [corpus-dir] [requests] [warm-up requests]
#
# The corpus directory holds files.git and reftable.git (refstore-benchmark makes them, e.g. with
# --refs 1000000 --work /tmp/refstore-bench); they are copied to a temporary directory first and never changed.
# The application runs from refstore-web's jar on a free port with the demo users and Tomcat's access log,
# whose %D is the time Tomcat spent on each request, from the first byte read to the last byte written
# (server time). For each page: warm-up requests (the first one counts the refs per namespace for the chart,
# which the application then keeps until the store changes), then the median, 90th percentile and maximum of
# the timed requests, with curl's end-to-end median beside it. Pages: the first page of refs, a page after a
# cursor half-way through the refs, and a prefix search (each with its refs' date, author and subject), two
# filtered views of the branches (by age in date order, unmerged), and the stale and merged branches fragment.
set -euo pipefail

corpus=${1:-/tmp/refstore-bench/corpus-1000000}
requests=${2:-50}
warmup=${3:-10}
here=$(cd "$(dirname "$0")/../.." && pwd)
jar=$(ls "$here"/refstore-web/target/refstore-web-*.jar | grep -v -- '-plain' | head -1)
work=$(mktemp -d /tmp/refstore-console-bench.XXXXXX)
app=
cleanup() {
	if [ -n "$app" ]; then kill "$app" 2>/dev/null || true; wait "$app" 2>/dev/null || true; fi
	rm -rf "$work"
}
trap cleanup EXIT

mkdir -p "$work/repos" "$work/logs"
for repo in files.git reftable.git; do
	[ -d "$corpus/$repo" ] || { echo "no $corpus/$repo" >&2; exit 2; }
	cp -a "$corpus/$repo" "$work/repos/$repo"
done
total=$(git -C "$work/repos/files.git" for-each-ref --format=x | wc -l)
middle=$(git -C "$work/repos/files.git" for-each-ref --format='%(refname)' | sed -n "$((total / 2))p")

java -Xmx2g -jar "$jar" --server.port=0 --refstore.home="$work" \
	--refstore.repositories.roots[0]="$work/repos" --refstore.demo.enabled=true \
	--server.tomcat.accesslog.enabled=true --server.tomcat.accesslog.directory="$work/logs" \
	--server.tomcat.accesslog.prefix=access --server.tomcat.accesslog.suffix=.log \
	--server.tomcat.accesslog.rotate=false --server.tomcat.accesslog.buffered=false \
	'--server.tomcat.accesslog.pattern=%s %D %U%q' >"$work/app.log" 2>&1 &
app=$!
port=
for _ in $(seq 1 240); do
	port=$(sed -n 's/.*Tomcat started on port \([0-9]*\).*/\1/p' "$work/app.log" | head -1)
	[ -n "$port" ] && break
	kill -0 "$app" 2>/dev/null || { cat "$work/app.log" >&2; exit 1; }
	sleep 0.5
done
[ -n "$port" ] || { echo "the application did not start" >&2; exit 1; }
base="http://localhost:$port"

cookies="$work/cookies"
token=$(curl -sf -c "$cookies" -b "$cookies" "$base/login" | sed -n 's/.*name="_csrf"[^>]*value="\([^"]*\)".*/\1/p' | head -1)
curl -sf -c "$cookies" -b "$cookies" -o /dev/null --data-urlencode "username=viewer" \
	--data-urlencode "password=viewer-demo" --data-urlencode "_csrf=$token" "$base/login"

# median, p90 and max of the numbers on stdin, in the unit given
stats() {
	sort -n | awk -v unit="$1" '{ v[NR] = $1 } END { m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2;
		printf "median %.1f %s, p90 %.1f %s, max %.1f %s (n=%d)", m, unit, v[int(NR * 0.9 + 0.5)], unit, v[NR], unit, NR }'
}

echo "corpus $corpus: $total refs; $requests timed requests after $warmup warm-up ones; $(nproc) CPUs; load $(cut -d" " -f1-3 /proc/loadavg)"
printf '| page | format | server time (Tomcat %%D) | end to end (curl) |\n|---|---|---|---|\n'
# label|path after /repo|query; the filtered pages and the branch ages read every branch's facts on their first
# request (a warm-up one), then page from the facts the application keeps until the store changes
for page in "first page||" "after the middle ref||&after=$middle" "prefix refs/tags/||&prefix=refs/tags/" \
	"branches older than 90 days, newest first||&prefix=refs/heads/&older=90&sort=newest" \
	"unmerged branches||&prefix=refs/heads/&merged=no" "stale and merged branches|/hygiene|"; do
	label=${page%%|*}
	rest=${page#*|}
	path=${rest%%|*}
	query=${rest#*|}
	for format in files reftable; do
		url="$base/repo$path?name=$format.git$query"
		for _ in $(seq 1 "$warmup"); do
			curl -sf -b "$cookies" -o /dev/null "$url"
		done
		: >"$work/curl.txt"
		before=$(cat "$work"/logs/access*.log | wc -l)
		for _ in $(seq 1 "$requests"); do
			curl -sf -b "$cookies" -o /dev/null -w '%{time_total}\n' "$url" >>"$work/curl.txt"
		done
		sleep 0.2
		# %D is in microseconds on Tomcat 10 and later
		server=$(cat "$work"/logs/access*.log | tail -n +"$((before + 1))" | awk '$1 == 200 && $3 ~ /^\/repo/ { print $2 / 1000 }' | stats ms)
		client=$(awk '{ print $1 * 1000 }' "$work/curl.txt" | stats ms)
		echo "| $label | $format | $server | ${client%%,*} |"
	done
done
