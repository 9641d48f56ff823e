#!/usr/bin/env bash
# Installs a git that knows the reftable ref format (git >= 2.45) into a private prefix, for refstore's
# interop tests, without touching the system git or the system's package state.
#
# The packages come from Debian's own archive (suite sid, else trixie) through a private apt sources
# file and private package lists; dpkg -x unpacks them, and patchelf points the git binaries at the
# prefix's own dynamic loader and libraries, so that a newer glibc runs beside the system's.
#
# Usage: .ci/install-reftable-git.sh [--prefix DIR]
#   typically: export REFSTORE_REFTABLE_GIT="$(.ci/install-reftable-git.sh)" before ./mvnw verify
#   --prefix DIR   install there (default: ${REFSTORE_TOOLS:-$HOME/.cache/refstore}/git-<version>)
# Environment:
#   REFSTORE_TOOLS          parent folder of the default prefix
#   REFSTORE_GIT_SUITES     Debian suites to try, in order (default: "sid trixie")
#   REFSTORE_DEBIAN_MIRROR  Debian archive URL (default: the machine's, from /etc/apt/sources.list*)
#
# On success it prints the path of the wrapper <prefix>/bin/git and nothing else. When a working git
# is already installed (by default: the newest git-<version> in the tools folder) it only checks that
# one (no network) and prints its path. Needs no standard input; installs patchelf with apt-get when
# it is missing (root only).
set -euo pipefail

readonly MIN_VERSION=2.45
readonly PACKAGES=(git libc6 libpcre2-8-0 zlib1g)
readonly KEYRING=/usr/share/keyrings/debian-archive-keyring.gpg
# marks a prefix as made by this script: only such a prefix is ever replaced
readonly MARKER=.install-reftable-git

die() {
	echo "install-reftable-git: error: $*" >&2
	exit 1
}

warn() {
	echo "install-reftable-git: warning: $*" >&2
}

# The upstream part of a Debian version: 1:2.55.0-1 -> 2.55.0
upstream_version() {
	local v=${1#*:}
	echo "${v%-*}"
}

# True if dotted version $1 >= $2.
version_at_least() {
	[ "$(printf '%s\n%s\n' "$2" "$1" | sort -V | head -n 1)" = "$2" ]
}

# The first Debian archive URL (a path ending in /debian) in the machine's apt sources, in one-line
# or deb822 format: that mirror is the one known to be reachable from here.
system_mirror() {
	local files=() f
	for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list /etc/apt/sources.list.d/*.sources; do
		[ -r "$f" ] && files+=("$f")
	done
	[ ${#files[@]} -gt 0 ] || return 0
	awk '
		/^[ \t]*#/ { next }
		$1 == "URIs:" { for (i = 2; i <= NF; i++) print $i; next }
		$1 == "deb" { i = 2; if ($i ~ /^\[/) { while ($i !~ /\]$/ && i < NF) i++; i++ } print $i }
	' "${files[@]}" | grep -E '^https?://[^ ]*/debian/?$' | head -n 1 | sed 's:/$::' || true
}

# Checks that the wrapper $1 runs a git >= MIN_VERSION that makes a reftable repository, writes and
# lists refs in it and (git >= 2.47) verifies it. Prints nothing; on failure the reason is in file $2.
smoke_test() {
	local git=$1 log=$2 dir rc
	dir=$(mktemp -d "$WORK/smoke.XXXXXX") || return 1
	# every step checks its own result: set -e does not act in a function called as a condition
	(
		export GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null LC_ALL=C
		export GIT_AUTHOR_NAME=smoke GIT_AUTHOR_EMAIL=smoke@example.com
		export GIT_COMMITTER_NAME=smoke GIT_COMMITTER_EMAIL=smoke@example.com
		out=$("$git" version) || exit 1
		version=${out#git version }
		version=${version%% *}
		version_at_least "$version" "$MIN_VERSION" || { echo "$git is git $version, older than $MIN_VERSION"; exit 1; }
		"$git" init -q -b main --ref-format=reftable "$dir/repo" && cd "$dir/repo" || exit 1
		format=$("$git" rev-parse --show-ref-format) || exit 1
		[ "$format" = reftable ] || { echo "$git made a '$format' repository, not reftable"; exit 1; }
		"$git" commit -q --allow-empty -m smoke && "$git" update-ref refs/tags/smoke HEAD || exit 1
		refs=$("$git" for-each-ref --format='%(refname)') || exit 1
		[ "$refs" = "refs/heads/main"$'\n'"refs/tags/smoke" ] || { echo "$git lists the refs as: $refs"; exit 1; }
		if version_at_least "$version" 2.47; then
			"$git" refs verify || exit 1
		fi
	) >"$log" 2>&1
	rc=$?
	rm -rf "$dir"
	return $rc
}

# Installs patchelf from the system's own suite if it is missing (root only).
ensure_patchelf() {
	command -v patchelf >/dev/null && return 0
	[ "$(id -u)" -eq 0 ] || die "patchelf is missing and only root can install it: apt-get install patchelf"
	export DEBIAN_FRONTEND=noninteractive
	# waits for a concurrent apt or dpkg run instead of failing at once
	local install=(apt-get -o DPkg::Lock::Timeout=300 install -y -qq patchelf)
	if ! "${install[@]}" >"$WORK/patchelf.log" 2>&1; then
		# stale or missing package lists on a fresh machine
		apt-get -o DPkg::Lock::Timeout=300 update -qq >>"$WORK/patchelf.log" 2>&1 || true
		"${install[@]}" >>"$WORK/patchelf.log" 2>&1 ||
			die "cannot install patchelf with apt-get:"$'\n'"$(cat "$WORK/patchelf.log")"
	fi
}

# Downloads PACKAGES from Debian suite $1 into $WORK/$1/debs; apt is kept away from the system's
# sources, lists, caches and dpkg status.
download_suite() {
	local suite=$1 dir=$WORK/$1 opts
	mkdir -p "$dir/lists/partial" "$dir/cache/archives/partial" "$dir/debs" || return 1
	echo "deb [signed-by=$KEYRING] $MIRROR $suite main" >"$dir/sources.list" || return 1
	opts=(
		-o "Dir::Etc::SourceList=$dir/sources.list" -o Dir::Etc::SourceParts=/dev/null
		-o "Dir::State::Lists=$dir/lists" -o "Dir::Cache=$dir/cache" -o Dir::State::status=/dev/null
		-o Acquire::Languages=none
	)
	# apt's sandbox user _apt may not enter these private folders
	[ "$(id -u)" -ne 0 ] || opts+=(-o APT::Sandbox::User=root)
	apt-get "${opts[@]}" -qq update >"$dir/apt.log" 2>&1 || true
	if grep -q 'is expired' "$dir/apt.log"; then
		# a mirror frozen in time (sid's lists are valid for a week): its signatures are still checked, and an
		# older suite's git would change which git the tests judge by
		warn "Debian $suite's package lists at $MIRROR have expired (a frozen mirror): used anyway, signatures checked"
		opts+=(-o Acquire::Check-Valid-Until=false)
		apt-get "${opts[@]}" -qq update >"$dir/apt.log" 2>&1 || true
	fi
	if grep -q '^E: ' "$dir/apt.log" ||
		! (cd "$dir/debs" && apt-get "${opts[@]}" -qq download "${PACKAGES[@]}") >>"$dir/apt.log" 2>&1; then
		cat "$dir/apt.log" >&2
		return 1
	fi
}

# Points every ELF executable of the unpacked git in $1 at the loader and libraries of prefix $2.
patch_binaries() {
	local stage=$1 libdir=$2/usr/lib/$TRIPLET f
	for f in "$stage"/usr/bin/* "$stage"/usr/lib/git-core/*; do
		if [ ! -f "$f" ] || [ -L "$f" ]; then
			continue
		fi
		[ "$(head -c 4 "$f" | od -An -c | tr -d ' ')" = '177ELF' ] || continue
		patchelf --set-interpreter "$libdir/$LOADER" --force-rpath --set-rpath "$libdir" "$f" ||
			{ warn "patchelf failed on $f"; return 1; }
	done
}

# Names every library that git in $1 needs but the unpacked packages lack.
check_libraries() {
	local stage=$1 lib missing=()
	for lib in $(patchelf --print-needed "$stage/usr/bin/git"); do
		[ -e "$stage/usr/lib/$TRIPLET/$lib" ] || missing+=("$lib")
	done
	[ ${#missing[@]} -eq 0 ] ||
		{ warn "git needs ${missing[*]}, which none of ${PACKAGES[*]} provides: add its package to PACKAGES"; return 1; }
}

# Writes the wrapper $1/bin/git for prefix $2, which holds git $4 from suite $3.
write_wrapper() {
	local stage=$1 prefix=$2 suite=$3 version=$4
	mkdir -p "$stage/bin" || return 1
	cat >"$stage/bin/git" <<-EOF || return 1
		#!/bin/sh
		# git $version from Debian $suite, installed by refstore's .ci/install-reftable-git.sh.
		# Its helpers and templates are the prefix's own, like its loader and libraries.
		GIT_EXEC_PATH='$prefix/usr/lib/git-core'
		export GIT_EXEC_PATH
		: "\${GIT_TEMPLATE_DIR:=$prefix/usr/share/git-core/templates}"
		export GIT_TEMPLATE_DIR
		exec '$prefix/usr/bin/git' "\$@"
	EOF
	chmod 755 "$stage/bin/git" && echo "git $version from Debian $suite" >"$stage/$MARKER"
}

# Replaces $1 by $2, refusing to delete a folder that this script did not make.
replace_prefix() {
	local prefix=$1 stage=$2
	if [ -e "$prefix" ] && [ ! -e "$prefix/$MARKER" ] && [ -n "$(ls -A "$prefix" 2>/dev/null)" ]; then
		rm -rf "$stage"
		die "$prefix is not empty and was not made by this script: choose another --prefix"
	fi
	{ rm -rf "$prefix" && mv "$stage" "$prefix"; } || die "cannot move $stage to $prefix"
}

# Installs git from Debian suite $1 into PREFIX (default: TOOLS/git-<version>); prints the wrapper.
install_from() {
	local suite=$1 dir=$WORK/$1 deb version prefix stage
	download_suite "$suite" || { warn "cannot download ${PACKAGES[*]} from Debian $suite at $MIRROR"; return 1; }
	deb=$(echo "$dir"/debs/git_*.deb)
	[ -f "$deb" ] || { warn "Debian $suite has no git package"; return 1; }
	version=$(upstream_version "$(dpkg-deb -f "$deb" Version)")
	version_at_least "$version" "$MIN_VERSION" ||
		{ warn "Debian $suite has git $version, older than $MIN_VERSION"; return 1; }
	prefix=${PREFIX:-$TOOLS/git-$version}
	stage=$prefix.installing
	{ rm -rf "$stage" && mkdir -p "$stage"; } || die "cannot create $stage"
	for deb in "$dir"/debs/*.deb; do
		dpkg -x "$deb" "$stage" || die "cannot unpack $deb"
	done
	# translations and change logs are a third of the size and no use to tests
	rm -rf "$stage/usr/share/locale"
	find "$stage/usr/share/doc" -type f ! -name copyright -delete
	find "$stage/usr/share/doc" -type d -empty -delete
	if ! patch_binaries "$stage" "$prefix" || ! check_libraries "$stage" ||
		! write_wrapper "$stage" "$prefix" "$suite" "$version"; then
		rm -rf "$stage"
		return 1
	fi
	# the binaries name their final paths, so they can run only after this move
	replace_prefix "$prefix" "$stage"
	if smoke_test "$prefix/bin/git" "$dir/smoke.log"; then
		echo "$prefix/bin/git"
		return 0
	fi
	warn "git $version from Debian $suite does not work here:"$'\n'"$(cat "$dir/smoke.log")"
	rm -rf "$prefix"
	return 1
}

# The wrapper that an earlier run installed: PREFIX's, or the newest in TOOLS.
installed_wrapper() {
	if [ -n "$PREFIX" ]; then
		echo "$PREFIX/bin/git"
	else
		local git
		for git in "$TOOLS"/git-*/bin/git; do
			case $git in *.installing/bin/git) ;; *) if [ -x "$git" ]; then echo "$git"; fi ;; esac
		done | sort -V | tail -n 1
	fi
}

main() {
	PREFIX=
	while [ $# -gt 0 ]; do
		case $1 in
		--prefix) [ $# -ge 2 ] || die "--prefix needs a folder"; PREFIX=$2; shift 2 ;;
		--prefix=*) PREFIX=${1#--prefix=}; shift ;;
		-h | --help) sed -n '2,/^set -e/{/^#/s/^# \{0,1\}//p}' "$0"; exit 0 ;;
		*) die "unknown argument '$1' (usage: $0 [--prefix DIR])" ;;
		esac
	done
	[ -n "${HOME:-}" ] || [ -n "${REFSTORE_TOOLS:-}" ] || [ -n "$PREFIX" ] ||
		die "HOME is not set: set REFSTORE_TOOLS or pass --prefix"
	TOOLS=${REFSTORE_TOOLS:-$HOME/.cache/refstore}
	mkdir -p "$TOOLS" || die "cannot create the tools folder $TOOLS"
	TOOLS=$(cd "$TOOLS" && pwd -P)
	if [ -n "$PREFIX" ]; then
		mkdir -p "$(dirname "$PREFIX")" || die "cannot create the parent of $PREFIX"
		PREFIX=$(cd "$(dirname "$PREFIX")" && pwd -P)/$(basename "$PREFIX")
	fi

	WORK=$(mktemp -d "${TMPDIR:-/tmp}/install-reftable-git.XXXXXX") || die "cannot create a temporary folder"
	trap 'rm -rf "$WORK"' EXIT

	# one run at a time per folder (parallel CI jobs, several worktrees of one user)
	local lock
	lock=${PREFIX:+$(dirname "$PREFIX")}
	lock=${lock:-$TOOLS}/.install-reftable-git.lock
	exec 9>"$lock" || die "cannot open the lock file $lock"
	flock 9 || die "cannot lock $lock"

	local wrapper
	wrapper=$(installed_wrapper)
	if [ -n "$wrapper" ] && [ -x "$wrapper" ] && smoke_test "$wrapper" "$WORK/smoke.log"; then
		echo "$wrapper"
		return 0
	fi

	if [ -n "$PREFIX" ] && [ -e "$PREFIX" ] && [ ! -e "$PREFIX/$MARKER" ] && [ -n "$(ls -A "$PREFIX")" ]; then
		die "$PREFIX is not empty and was not made by this script: choose another --prefix"
	fi
	case $(dpkg --print-architecture) in
	amd64) TRIPLET=x86_64-linux-gnu LOADER=ld-linux-x86-64.so.2 ;;
	arm64) TRIPLET=aarch64-linux-gnu LOADER=ld-linux-aarch64.so.1 ;;
	*) die "architecture $(dpkg --print-architecture) is not supported (amd64, arm64)" ;;
	esac
	[ -r "$KEYRING" ] || die "$KEYRING is missing: apt-get install debian-archive-keyring"
	MIRROR=${REFSTORE_DEBIAN_MIRROR:-$(system_mirror)}
	MIRROR=${MIRROR:-http://deb.debian.org/debian}
	ensure_patchelf

	local suite
	for suite in ${REFSTORE_GIT_SUITES:-sid trixie}; do
		install_from "$suite" && return 0
	done
	die "no working git >= $MIN_VERSION from Debian '${REFSTORE_GIT_SUITES:-sid trixie}' at $MIRROR (see above)"
}

main "$@"
