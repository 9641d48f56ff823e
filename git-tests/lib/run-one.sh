#!/bin/sh
# One test script of git's in one ref format: git-tests/run.sh starts it (several at once) as
#   run-one.sh INDEX SCRIPT FORMAT
# with the run's settings in RUN_WORK, RUN_T, RUN_TIMEOUT, RUN_SHELL, RUN_KEEP and RUN_TEST_OPTS. It writes, in
# $RUN_WORK/INDEX/: tap.out and stderr (the script's output), routed.log (the calls the shim gave refstore),
# tool.log (the test-tool calls), outcomes ("<test number> ok|fixed|skip|todo|fail" a line) and summary (a row of
# tap-summary.awk). The folder's name is a number: gpg makes its socket under the script's trash folder, and git's
# tests skip their signing cases when that path passes 107 bytes.
index=$1
script=$2
format=$3
name=${script%.sh}
dir=$RUN_WORK/$index
rm -rf "$dir"
mkdir -p "$dir" || exit 1
# a readable name for people looking for a script's logs
ln -sfn "$index" "$RUN_WORK/$name.$format"
: >"$dir/routed.log"
: >"$dir/tool.log"
started=$(date +%s)
(
	cd "$RUN_T" || exit 1
	eval "set -- $RUN_TEST_OPTS"
	# git's test library runs the "installed" git of GIT_TEST_INSTALLED, reads its build settings from
	# GIT_BUILD_DIR, and makes the trash folder under TEST_OUTPUT_DIRECTORY
	exec env GIT_BUILD_DIR="$RUN_WORK/build" GIT_TEST_INSTALLED="$RUN_WORK/bin" TEST_OUTPUT_DIRECTORY="$dir" \
		GIT_TEST_DEFAULT_REF_FORMAT="$format" REFSTORE_SHIM_LOG="$dir/routed.log" REFSTORE_TOOL_LOG="$dir/tool.log" \
		timeout -k 20 "$RUN_TIMEOUT" "$RUN_SHELL" "./$script" "$@" </dev/null
) >"$dir/tap.out" 2>"$dir/stderr"
status=$?
seconds=$(($(date +%s) - started))
[ -n "$RUN_KEEP" ] || rm -rf "$dir/trash directory.$name"
awk -v script="$script" -v format="$format" -v exit_status="$status" -v seconds="$seconds" \
	-v tool_log="$dir/tool.log" -v routed_log="$dir/routed.log" -v outcomes="$dir/outcomes" \
	-f "$(dirname "$0")/tap-summary.awk" "$dir/tap.out" >"$dir/summary"
