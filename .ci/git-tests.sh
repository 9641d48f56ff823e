#!/usr/bin/env bash
# git's own ref tests, judging the refstore command: runs git's test scripts (t/ of the reftable-capable git that
# .ci/install-reftable-git.sh installs) through the harness in git-tests/, first with that git alone (the
# baseline), then with refstore standing in for git's ref plumbing. A test that fails through refstore and passes
# with git alone is a failure. The ones still expected are listed in .ci/git-tests-known-failures.txt: this script
# fails on a failure not listed there, and on a listed one that passes (the list only shrinks). The harness's
# self-test runs first (a second, no git).
#
# Needs ./refstore built (./mvnw package or verify). Environment: REFSTORE_REFTABLE_GIT (else installed here),
# REFSTORE_GIT_TESTS_SCRIPTS (default: the eleven of git-tests/run.sh), REFSTORE_GIT_TESTS_BASELINE=run (run git
# alone for the baseline even where git-tests/baseline/ keeps one for this git's version).
# Writes refstore-core/target/git-tests/: baseline.txt, report.txt, failures.txt, links to the runs' logs in /tmp.
set -euo pipefail
cd "$(dirname "$0")/.."

harness=git-tests
known=.ci/git-tests-known-failures.txt
if [ ! -x ./refstore ] || ! ./refstore -h >/dev/null 2>&1; then
	echo "git-tests: ./refstore does not run; build it first (./mvnw -DskipTests package)" >&2
	exit 2
fi
if ! selftest=$("$harness/selftest.sh" 2>&1); then
	echo "$selftest" >&2
	echo "git-tests: the harness's self-test failed" >&2
	exit 2
fi
git_bin=${REFSTORE_REFTABLE_GIT:-$(bash .ci/install-reftable-git.sh)}
version=$("$git_bin" version | sed -n 's/^git version \([0-9][0-9.]*[0-9]\).*/\1/p')

# git's t/ for exactly that version, from Debian's source package, kept between runs
src=${XDG_CACHE_HOME:-$HOME/.cache}/refstore/git-src-$version
if [ ! -f "$src/t/test-lib.sh" ]; then
	rm -rf "$src.partial"
	"$harness/fetch-git-t.sh" "$src.partial" "$version" >/dev/null
	rm -rf "$src"
	mv "$src.partial" "$src"
fi

work=$PWD/refstore-core/target/git-tests
rm -rf "$work"
mkdir -p "$work"
# The scripts run in short scratch paths of one length wherever the checkout is: in a longer one, gpg's sockets
# in the trash directories exceed 107 bytes and git's tests silently skip their GPG cases (the runner warns),
# so a checkout's path would change which tests run. They are linked from $work.
# They stay on /tmp: on tmpfs, t1400 ran slower with two scripts side by side as here (234 s against 221 s in both
# formats; alone it was faster, 139 s against 154 s), and whole CI runs summed 1,208 and 1,284 s against 1,153 s.
base_work=$(mktemp -d /tmp/gt.XXXXXX)
run_work=$(mktemp -d /tmp/gt.XXXXXX)
ln -sfn "$base_work" "$work/baseline-run"
ln -sfn "$run_work" "$work/run"
read -r -a scripts <<<"${REFSTORE_GIT_TESTS_SCRIPTS:-}"

# git alone's outcomes for this version are kept in the repository (git-tests/baseline/): they change only with
# git's version or the scripts, and running git alone through eleven scripts costs about two minutes of a CI run.
# REFSTORE_GIT_TESTS_BASELINE=run makes a fresh one (and git-tests/baseline/README.md says when to commit it).
kept=$harness/baseline/git-$version.txt
if [ -f "$kept" ] && [ "${REFSTORE_GIT_TESTS_BASELINE:-kept}" != run ]; then
	echo "git-tests: the baseline, git $version alone, as kept in $kept" >&2
	cp "$kept" "$work/baseline.txt"
else
	echo "git-tests: the baseline, git $version alone" >&2
	"$harness/run.sh" --git "$git_bin" --baseline "$work/baseline.txt" --work "$base_work" "$src/t" "${scripts[@]}" \
		>"$work/baseline.log" 2>&1 || {
		cat "$work/baseline.log" >&2
		echo "git-tests: the baseline run failed" >&2
		exit 2
	}
fi

echo "git-tests: through refstore" >&2
status=0
"$harness/run.sh" --git "$git_bin" --refstore "$PWD/refstore" --baseline "$work/baseline.txt" --work "$run_work" \
	--timeout 1200 "$src/t" "${scripts[@]}" >"$work/report.txt" || status=$?
cat "$work/report.txt"

# The report's rows: script, format, status, counts, then the new failures as ranges ("3-5,9", "-" for none,
# "(N did not run)" after a timeout). One line per failing test: "<script> <format> <number>".
awk '
	/^git-tests:/ { exit }
	$1 ~ /\.sh$/ && NF >= 13 {
		if ($3 != "done") printf "git-tests: %s %s ended %s\n", $1, $2, $3 > "/dev/stderr"
		if ($13 == "-") next
		n = split($13, parts, ",")
		for (i = 1; i <= n; i++) {
			if (split(parts[i], ab, "-") == 2) { a = ab[1] + 0; b = ab[2] + 0 } else { a = b = parts[i] + 0 }
			for (k = a; k <= b; k++) print $1, $2, k
		}
	}' "$work/report.txt" | LC_ALL=C sort -u >"$work/failures.txt"
if ! grep -q '^git-tests: ' "$work/report.txt"; then
	echo "git-tests: the harness ended without its summary (exit $status)" >&2
	exit 1
fi
if grep -E '^t[0-9]+-[^ ]+\.sh +[a-z]+ +' "$work/report.txt" | awk '$3 != "done" { bad = 1 } END { exit !bad }'; then
	echo "git-tests: a script did not finish (see its row above)" >&2
	exit 1
fi

# the expected failures of the scripts that ran (all of them unless REFSTORE_GIT_TESTS_SCRIPTS chose some)
awk '$1 ~ /\.sh$/ && NF >= 13 { print $1, $2 }' "$work/report.txt" | sort -u >"$work/ran.txt"
{ grep -v '^#' "$known" || true; } | sed '/^[[:space:]]*$/d' |
	awk 'NR == FNR { ran[$1 " " $2] = 1; next } ($1 " " $2) in ran' "$work/ran.txt" - | LC_ALL=C sort -u >"$work/known.txt"
LC_ALL=C comm -23 "$work/failures.txt" "$work/known.txt" >"$work/new.txt"
LC_ALL=C comm -13 "$work/failures.txt" "$work/known.txt" >"$work/fixed.txt"
echo "git-tests: $(wc -l <"$work/failures.txt") failures, $(wc -l <"$work/known.txt") expected in $known" >&2
result=0
if [ -s "$work/new.txt" ]; then
	echo "git-tests: $(wc -l <"$work/new.txt") new failures (script, format, test number), not in $known:" >&2
	sed 's/^/  /' "$work/new.txt" >&2
	result=1
fi
if [ -s "$work/fixed.txt" ]; then
	echo "git-tests: $(wc -l <"$work/fixed.txt") tests in $known now pass: remove them from the list:" >&2
	sed 's/^/  /' "$work/fixed.txt" >&2
	result=1
fi
if [ "$result" = 0 ] && [ -s "$work/known.txt" ]; then
	echo "git-tests: no new failures; every expected one still fails" >&2
elif [ "$result" = 0 ]; then
	echo "git-tests: every test that passes with git alone passes through refstore" >&2
fi
exit "$result"
