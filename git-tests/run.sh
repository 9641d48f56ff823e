#!/bin/sh
# Runs test scripts of git's own suite (t/*.sh of git's source; nothing is built) with the refstore command
# standing in for git's ref plumbing, through the "git" of bin/git, or with a real git alone for a baseline.
#
# Usage:
#   git-tests/run.sh [options] --git GIT --refstore CMD [--baseline FILE] T_DIR [SCRIPT...]
#   git-tests/run.sh [options] --git GIT --baseline FILE T_DIR [SCRIPT...]    (git alone: writes FILE)
#
#   T_DIR      the t/ folder of git's source, of the same version as GIT (fetch-git-t.sh puts one in place)
#   SCRIPT     t1400-update-ref.sh, or t1400; with ":FORMAT" (t1461:reftable) it runs in that format only; by
#              default the eleven of DEFAULT_SCRIPTS below
#   --git GIT          the real git, shell words ("/opt/git/bin/git"): every call the shim does not route
#   --refstore CMD     the refstore command, shell words, an absolute path ("$PWD/refstore"); without it, the
#                      scripts run with git alone and their outcomes are written to the --baseline file
#   --baseline FILE    git alone's outcomes: written by a run without --refstore, read by one with it (without
#                      it, every failing test counts as new)
#   --formats LIST     the ref formats each script runs in (default "files reftable"); a script that sets
#                      GIT_TEST_DEFAULT_REF_FORMAT itself runs once, in its own
#   --jobs N           scripts run side by side (default 2)
#   --timeout SECONDS  the limit of one script's run (default 900)
#   --work DIR         the scratch folder (default a new /tmp/gt.XXXXXX); keep its path short (see run-one.sh)
#   --keep             keep the scripts' trash folders
#   --test-opts OPTS   more options for every script, shell words ("-v -i --run=1-20")
#   --route WORDS      what goes to refstore (REFSTORE_SHIM_ROUTE of bin/git; default "all")
#
# Prints a row per script and format, then "git-tests: scripts=N ok=X notok=Y new_failures=Z" (see
# lib/report.awk), and the folder of the runs' logs on standard error. Exits 0 when Z is 0 and every script ran to
# its end, 1 otherwise, 2 on a wrong call.

# t1461 runs t6300's cases (t/for-each-ref-tests.sh) with `git refs list` for `git for-each-ref`, and refstore
# answers both commands with one engine: the cases run once in each format, `for-each-ref` on files and `refs
# list` on reftable (the other two runs cost about three minutes of a CI run each).
DEFAULT_SCRIPTS="t1400-update-ref.sh t1403-show-ref.sh t1404-update-ref-errors.sh t1410-reflog.sh
t1460-refs-migrate.sh t1461-refs-list.sh:reftable t0600-reffiles-backend.sh t0610-reftable-basics.sh
t6300-for-each-ref.sh:files t0602-reffiles-fsck.sh t0614-reftable-fsck.sh"

here=$(cd "$(dirname "$0")" && pwd -P) || exit 2

usage() {
	sed -n '2,/^$/s/^# \{0,1\}//p' "$here/run.sh" >&2
	exit 2
}

die() {
	echo "git-tests/run.sh: $*" >&2
	exit 2
}

# needs_value OPTION COUNT: an option that takes a value must have one
needs_value() {
	[ "$2" -ge 2 ] || die "$1 needs a value (try --help)"
}

real_git= refstore= baseline= formats="files reftable" jobs=2 timeout=900 work= keep= test_opts= route=all
while [ $# -gt 0 ]; do
	case $1 in
	--git) needs_value "$1" $#; real_git=$2; shift ;;
	--refstore) needs_value "$1" $#; refstore=$2; shift ;;
	--baseline) needs_value "$1" $#; baseline=$2; shift ;;
	--formats) needs_value "$1" $#; formats=$2; shift ;;
	--jobs) needs_value "$1" $#; jobs=$2; shift ;;
	--timeout) needs_value "$1" $#; timeout=$2; shift ;;
	--work) needs_value "$1" $#; work=$2; shift ;;
	--keep) keep=yes ;;
	--test-opts) needs_value "$1" $#; test_opts=$2; shift ;;
	--route) needs_value "$1" $#; route=$2; shift ;;
	-h | --help) usage ;;
	--) shift; break ;;
	-*) die "unknown option $1 (try --help)" ;;
	*) break ;;
	esac
	shift
done
case $jobs in '' | *[!0-9]* | 0) die "--jobs wants a positive number, not '$jobs'" ;; esac
case $timeout in '' | *[!0-9]* | 0) die "--timeout wants a positive number of seconds, not '$timeout'" ;; esac
[ -n "$real_git" ] || die "--git is missing (try --help)"
[ -n "$refstore" ] || [ -n "$baseline" ] || die "a run of git alone writes a baseline: --baseline is missing"
[ $# -ge 1 ] || usage
t_dir=$(cd "$1" 2>/dev/null && pwd -P) || die "no folder $1"
shift
[ -f "$t_dir/test-lib.sh" ] || die "$t_dir is not git's t/ folder: it has no test-lib.sh"

# check_program WHAT WORDS: the first of the shell words WORDS must run from any folder, since the scripts run in
# their trash folders
check_program() {
	what=$1
	eval "set -- $2" || die "cannot read the $what '$2' as shell words"
	case $1 in
	/*) ;;
	*/*) die "the $what must be an absolute path or a name in PATH: '$1'" ;;
	esac
	command -v "$1" >/dev/null 2>&1 || die "no $what '$1'"
	case $(command -v "$1") in
	"$here/bin/git") die "the $what is the shim itself" ;;
	esac
}
check_program "real git (--git)" "$real_git"
[ -z "$refstore" ] || check_program "refstore command (--refstore)" "$refstore"
git_version=$(eval "$real_git version") || die "'$real_git version' fails"
exec_path=$(eval "$real_git --exec-path") || die "'$real_git --exec-path' fails"

scripts=
for wanted in ${*:-$DEFAULT_SCRIPTS}; do
	only=
	case $wanted in
	*:*) only=:${wanted##*:} && wanted=${wanted%:*} ;;
	esac
	case $only in
	'' | :files | :reftable) ;;
	*) die "no ref format '${only#:}' (files or reftable) for $wanted" ;;
	esac
	case $wanted in
	*.sh) found=$wanted ;;
	*) found=$(cd "$t_dir" && for f in "$wanted"-*.sh; do [ -f "$f" ] && echo "$f"; done | head -n 1) ;;
	esac
	if [ -z "$found" ] || [ ! -f "$t_dir/$found" ]; then
		echo "git-tests/run.sh: no script $wanted in $t_dir: skipped" >&2
		continue
	fi
	scripts="$scripts $found$only"
done
[ -n "$scripts" ] || die "no script to run"

if [ -z "$work" ]; then
	work=$(mktemp -d "${TMPDIR:-/tmp}/gt.XXXXXX") || die "cannot make a scratch folder"
fi
case $work in *[[:space:]]*) die "the scratch folder's path has a blank: $work" ;; esac
mkdir -p "$work/bin" "$work/build/t/helper" || die "cannot write in $work"
work=$(cd "$work" && pwd -P)
if [ ${#work} -gt 32 ]; then
	echo "git-tests/run.sh: warning: $work is long: gpg's sockets in the trash folders may pass 107 bytes," \
		"and git's tests then skip their signing cases (choose a shorter --work)" >&2
fi

# The test library puts GIT_TEST_INSTALLED ($work/bin) first in PATH: the git there is the shim, or a plain way
# to the real git for a baseline, and nothing else may be there.
rm -f "$work/bin/git"
if [ -n "$refstore" ]; then
	ln -s "$here/bin/git" "$work/bin/git" || die "cannot link the shim into $work/bin"
	REFSTORE_SHIM_CMD=$refstore
	REFSTORE_SHIM_ROUTE=$route
	export REFSTORE_SHIM_CMD REFSTORE_SHIM_ROUTE
else
	printf '#!/bin/sh\neval "exec $REFSTORE_SHIM_GIT \\"\\$@\\""\n' >"$work/bin/git" && chmod +x "$work/bin/git" ||
		die "cannot write $work/bin/git"
fi
REFSTORE_SHIM_GIT=$real_git
export REFSTORE_SHIM_GIT

# A stand-in for the build folder the test library expects: GIT-BUILD-OPTIONS, the settings a build of git
# writes, and t/helper/test-tool. Its t/ only holds the helper; the scripts run from t_dir.
cp "$here/bin/test-tool" "$work/build/t/helper/test-tool" && chmod +x "$work/build/t/helper/test-tool" ||
	die "cannot put test-tool in $work/build/t/helper"
templates=$exec_path/../../share/git-core/templates
if [ ! -d "$templates" ]; then
	templates=$work/build/templates
	mkdir -p "$templates"
fi
templates=$(cd "$templates" && pwd -P)
build_options=$(eval "$real_git version --build-options")
shell=/bin/sh
perl=$(command -v perl)
if [ -z "$perl" ]; then
	# the test library checks each script's && chains with a Perl program, unless told not to
	GIT_TEST_CHAIN_LINT=0
	export GIT_TEST_CHAIN_LINT
fi
{
	echo "# the build settings git's test library reads, written by refstore's git-tests/run.sh"
	echo "SHELL_PATH='$shell'"
	echo "TEST_SHELL_PATH='$shell'"
	echo "PERL_PATH='$perl'"
	echo "DIFF='diff'"
	echo "TAR='tar'"
	echo "X=''"
	echo "NO_PYTHON=YesPlease"
	echo "GIT_TEST_TEMPLATE_DIR='$templates'"
	case $build_options in *"gettext: enabled"*) ;; *) echo "NO_GETTEXT=YesPlease" ;; esac
	case $build_options in *libcurl:*) ;; *) echo "NO_CURL=YesPlease" ;; esac
	echo "# test-tool's log names the test that called it"
	echo "export test_count this_test"
} >"$work/build/GIT-BUILD-OPTIONS" || die "cannot write $work/build/GIT-BUILD-OPTIONS"

# The runs: index, script and format, a line each
: >"$work/runs"
index=0
for script in $scripts; do
	case $script in
	*:*) own=${script##*:} && script=${script%:*} ;;
	*) own=$(sed -n 's/^GIT_TEST_DEFAULT_REF_FORMAT=\([a-z]*\).*/\1/p' "$t_dir/$script" | head -n 1) ;;
	esac
	for format in ${own:-$formats}; do
		index=$((index + 1))
		echo "$index $script $format" >>"$work/runs"
	done
done

if [ -n "$refstore" ]; then what="through $refstore"; else what="git alone"; fi
echo "# $git_version, $what; t/: $t_dir; work: $work" >&2
RUN_WORK=$work RUN_T=$t_dir RUN_TIMEOUT=$timeout RUN_SHELL=$shell RUN_KEEP=$keep RUN_TEST_OPTS=$test_opts
export RUN_WORK RUN_T RUN_TIMEOUT RUN_SHELL RUN_KEEP RUN_TEST_OPTS
xargs -P "$jobs" -n 3 "$here/lib/run-one.sh" <"$work/runs"

# a run without a summary did not end at all
tab=$(printf '\t')
while read -r index script format; do
	if [ -s "$work/$index/summary" ]; then
		printf '%s\t%s\n' "$index" "$(cat "$work/$index/summary")"
	else
		printf '%s\t%s\t%s\tmissing\t0\t0\t0\t0\t0\t0\t0\t0\n' "$index" "$script" "$format"
	fi
done <"$work/runs" >"$work/results"

if [ -z "$refstore" ]; then
	{
		echo "# git alone's outcomes, written by refstore's git-tests/run.sh: script, format, test number, outcome"
		echo "# $git_version; t/: $t_dir"
		while read -r index script format; do
			[ ! -f "$work/$index/outcomes" ] ||
				sed "s/^\([0-9]*\) /$script$tab$format$tab\1$tab/" "$work/$index/outcomes"
		done <"$work/runs"
	} >"$baseline" || die "cannot write $baseline"
	compare_with=/dev/null
elif [ -n "$baseline" ]; then
	[ -f "$baseline" ] || die "no baseline $baseline"
	compare_with=$baseline
else
	echo "# no baseline: every failing test counts as new" >&2
	compare_with=/dev/null
fi
alone=
[ -n "$refstore" ] || alone=yes
awk -v baseline="$compare_with" -v work="$work" -v baseline_run="$alone" \
	-f "$here/lib/report.awk" "$compare_with" "$work/results"
status=$?
echo "# the runs' logs: $work/<script>.<format>/ (tap.out, stderr, routed.log, tool.log)" >&2
exit $status
