#!/bin/sh
# Checks bin/git (the shim) and bin/test-tool (the stand-in) with a fake program in place of git and refstore:
# which calls are routed, the route words, arguments that need care (blanks, empty, newlines, a refstore command
# whose path has a blank), standard input, exit statuses, the loop guard, and test-tool's answers. Needs no git;
# takes about a second. Ends with "selftest: checks=N failed=F" and exits 1 when F > 0.
here=$(cd "$(dirname "$0")" && pwd -P) || exit 2
shim=$here/bin/git
tool=$here/bin/test-tool
scratch=$(mktemp -d "${TMPDIR:-/tmp}/gt-selftest.XXXXXX") || exit 2
trap 'rm -rf "$scratch"' EXIT
checks=0
failed=0

# The fake says which side it plays, then each argument in brackets, then its input when FAKE_READS is set; it
# exits with FAKE_EXIT.
mkdir "$scratch/a b"
cat >"$scratch/a b/fake" <<'FAKE'
#!/bin/sh
echo "$1"
shift
for arg; do
	printf '[%s]\n' "$arg"
done
[ -z "$FAKE_READS" ] || printf 'input: %s\n' "$(cat)"
exit "${FAKE_EXIT:-0}"
FAKE
chmod +x "$scratch/a b/fake"
unset REFSTORE_SHIM_ROUTE REFSTORE_SHIM_LOG REFSTORE_SHIM_DEPTH REFSTORE_TOOL_LOG FAKE_READS FAKE_EXIT
REFSTORE_SHIM_GIT="'$scratch/a b/fake' git"
REFSTORE_SHIM_CMD="'$scratch/a b/fake' refstore"
export REFSTORE_SHIM_GIT REFSTORE_SHIM_CMD

# expect NAME STATUS OUTPUT COMMAND...: COMMAND exits with STATUS and prints OUTPUT (stdout and stderr)
expect() {
	name=$1 status=$2 output=$3
	shift 3
	checks=$((checks + 1))
	got=$("$@" 2>&1)
	got_status=$?
	if [ "$got" != "$output" ] || [ "$got_status" != "$status" ]; then
		failed=$((failed + 1))
		printf 'FAILED: %s\n  expected (exit %s):\n%s\n  got (exit %s):\n%s\n' "$name" "$status" "$output" \
			"$got_status" "$got"
	fi
}

# to_refstore / to_git ARGS...: the fake's output when the call goes to that side
to_refstore() {
	echo refstore
	printf '[%s]\n' "$@"
}
to_git() {
	echo git
	printf '[%s]\n' "$@"
}

nl='
'
for command in show-ref for-each-ref update-ref symbolic-ref pack-refs; do
	expect "$command goes to refstore" 0 "$(to_refstore "$command" --x)" "$shim" "$command" --x
done
for sub in migrate verify list; do
	expect "refs $sub goes to refstore" 0 "$(to_refstore refs "$sub")" "$shim" refs "$sub"
done
expect "refs exists goes to git" 0 "$(to_git refs exists)" "$shim" refs exists
expect "rev-parse goes to git" 0 "$(to_git --git-dir=x rev-parse HEAD)" "$shim" --git-dir=x rev-parse HEAD
expect "git's global options reach refstore as given" 0 \
	"$(to_refstore -C "d i r" -c "a.b=c d" --git-dir=g update-ref -m "two  blanks" "" "new${nl}line")" \
	"$shim" -C "d i r" -c "a.b=c d" --git-dir=g update-ref -m "two  blanks" "" "new${nl}line"
expect "an option's value is not the command" 0 "$(to_git -c show-ref status)" "$shim" -c show-ref status
expect "--version answers before the command" 0 "$(to_git --version show-ref)" "$shim" --version show-ref
expect "no command goes to git" 0 "$(to_git -p)" "$shim" -p

expect "route none" 0 "$(to_git show-ref)" env REFSTORE_SHIM_ROUTE=none "$shim" show-ref
expect "an empty route" 0 "$(to_git show-ref)" env REFSTORE_SHIM_ROUTE= "$shim" show-ref
expect "route refs takes every refs call" 0 "$(to_refstore refs exists)" env REFSTORE_SHIM_ROUTE=refs \
	"$shim" refs exists
expect "route words add up" 0 "$(to_refstore refs exists)" env REFSTORE_SHIM_ROUTE="all refs:exists" \
	"$shim" refs exists
expect "route words add up (the default set stays)" 0 "$(to_refstore pack-refs)" \
	env REFSTORE_SHIM_ROUTE="all refs:exists" "$shim" pack-refs
expect "route words split at commas" 0 "$(to_refstore show-ref)" env REFSTORE_SHIM_ROUTE="refs:list,show-ref" \
	"$shim" show-ref
expect "a refs word routes only its subcommand" 0 "$(to_git refs migrate)" env REFSTORE_SHIM_ROUTE=refs:list \
	"$shim" refs migrate
expect "a command named like a refs word" 0 "$(to_git refs:list)" env REFSTORE_SHIM_ROUTE=refs:list "$shim" refs:list
expect "route words are not globbed" 0 "$(to_git status)" env REFSTORE_SHIM_ROUTE="*" "$shim" status

expect "standard input reaches refstore" 0 "$(to_refstore update-ref --stdin)${nl}input: create refs/heads/x" \
	sh -c 'echo "create refs/heads/x" | FAKE_READS=1 "$0" update-ref --stdin' "$shim"
expect "refstore's exit status" 3 "$(to_refstore show-ref)" env FAKE_EXIT=3 "$shim" show-ref
expect "git's exit status" 129 "$(to_git status)" env FAKE_EXIT=129 "$shim" status
expect "a routed call is logged" 0 "routed	refs list	$scratch${nl}routed	show-ref	$scratch" \
	sh -c 'cd "$1" && export REFSTORE_SHIM_LOG=log && "$0" refs list >/dev/null && "$0" show-ref >/dev/null && cat log' \
	"$shim" "$scratch"
expect "a shim that calls itself stops" 128 \
	"git (refstore's test shim): nested 9 deep: REFSTORE_SHIM_GIT or REFSTORE_SHIM_CMD leads back to the shim" \
	env REFSTORE_SHIM_GIT="$shim" "$shim" status
expect "no refstore command" 128 \
	"git (refstore's test shim): REFSTORE_SHIM_CMD is not set, and 'git show-ref' goes to refstore" \
	env REFSTORE_SHIM_CMD= "$shim" show-ref

expect "test-tool: a true boolean" 0 true env V=Yes "$tool" env-helper --type=bool V
expect "test-tool: a number is a boolean" 0 true env V=2k "$tool" env-helper --type=bool V
expect "test-tool: the default" 0 false env -u V "$tool" env-helper --type=bool --default=0 V
expect "test-tool: --exit-code" 1 "" env V=off "$tool" env-helper --type=bool --exit-code V
expect "test-tool: a bad boolean" 128 "fatal: bad boolean environment value 'maybe' for 'V'" \
	env V=maybe "$tool" env-helper --type=bool V
expect "test-tool: a number" 0 42 env V=42 "$tool" env-helper --type=ulong V
printf 'sixsix' >"$scratch/six"
expect "test-tool: file-size" 0 6 "$tool" path-utils file-size "$scratch/six"
expect "test-tool: another helper" 127 \
	"test-tool (refstore's stand-in): no 'ref-store' here; only a build of git has it" \
	"$tool" -C . ref-store main for-each-ref
expect "test-tool: a refusal is logged" 0 "t9.7	chmtime	refused" \
	sh -c 'REFSTORE_TOOL_LOG="$1/tool.log" this_test=t9 test_count=7 "$0" chmtime 2>/dev/null; cat "$1/tool.log"' \
	"$tool" "$scratch"

echo "selftest: checks=$checks failed=$failed"
[ "$failed" = 0 ]
