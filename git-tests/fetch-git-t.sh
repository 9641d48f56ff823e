#!/usr/bin/env bash
# Puts the test suite of git's source (t/ and GIT-VERSION-GEN) of one git version into a folder, from Debian's
# source package of git: nothing of git is kept in this repository.
#
# Usage: git-tests/fetch-git-t.sh DEST VERSION     e.g. git-tests/fetch-git-t.sh /tmp/git-src 2.55.0
# Looks in the suites REFSTORE_GIT_SUITES names (default "sid trixie") of the Debian mirror this machine's apt
# uses (REFSTORE_DEBIAN_MIRROR overrides it), through private apt lists: the system's lists and caches are left
# alone. When DEST already holds that version's t/, it does nothing. Prints the version it put there. Needs
# apt-get, tar and xz; DEST is replaced.
set -euo pipefail

readonly KEYRING=/usr/share/keyrings/debian-archive-keyring.gpg

die() {
	echo "fetch-git-t: $*" >&2
	exit 1
}

# The first Debian archive URL (ending in /debian) in the machine's apt sources, one-line or deb822 format.
system_mirror() {
	local files=() f
	for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list /etc/apt/sources.list.d/*.sources; do
		[ -r "$f" ] && files+=("$f")
	done
	[ ${#files[@]} -gt 0 ] || return 0
	awk '
		/^[ \t]*#/ { next }
		$1 == "URIs:" { for (i = 2; i <= NF; i++) print $i; next }
		$1 == "deb" || $1 == "deb-src" { i = 2; if ($i ~ /^\[/) { while ($i !~ /\]$/ && i < NF) i++; i++ } print $i }
	' "${files[@]}" | grep -E '^https?://[^ ]*/debian/?$' | head -n 1 | sed 's:/$::' || true
}

# Downloads git's source package of upstream version $VERSION from suite $1 into $work/$1; prints the path of
# its upstream tarball. Fails quietly when the suite has another version.
download_from() {
	local suite=$1 dir=$work/$1 opts debian_version
	mkdir -p "$dir/lists/partial" "$dir/src" || return 1
	echo "deb-src [signed-by=$KEYRING] $mirror $suite main" >"$dir/sources.list"
	opts=(
		-o "Dir::Etc::SourceList=$dir/sources.list" -o Dir::Etc::SourceParts=/dev/null
		-o "Dir::State::Lists=$dir/lists" -o Dir::State::status=/dev/null -o Acquire::Languages=none
	)
	# apt's sandbox user may not enter a private folder of root's
	[ "$(id -u)" -ne 0 ] || opts+=(-o APT::Sandbox::User=root)
	apt-get "${opts[@]}" -qq update >"$dir/apt.log" 2>&1 || true
	if grep -q 'is expired' "$dir/apt.log"; then
		# a mirror frozen in time (sid's lists are valid for a week): signatures are still checked
		echo "fetch-git-t: Debian $suite's lists at $mirror have expired (a frozen mirror): used anyway" >&2
		opts+=(-o Acquire::Check-Valid-Until=false)
		apt-get "${opts[@]}" -qq update >"$dir/apt.log" 2>&1 || true
	fi
	! grep -q '^E: ' "$dir/apt.log" || return 1
	# the newest Debian revision of that upstream version (1:2.55.0-1 for 2.55.0)
	debian_version=$(apt-cache "${opts[@]}" showsrc git 2>/dev/null | awk '$1 == "Version:" { print $2 }' |
		awk -v want="$version" '{ v = $0; sub(/^[0-9]+:/, "", v); sub(/-[^-]*$/, "", v); if (v == want) print }' |
		sort -V | tail -n 1)
	[ -n "$debian_version" ] || return 1
	(cd "$dir/src" && apt-get "${opts[@]}" -qq source --download-only "git=$debian_version") >>"$dir/apt.log" 2>&1 ||
		return 1
	ls "$dir"/src/git_*.orig.tar.* 2>/dev/null | head -n 1
}

[ $# -eq 2 ] || die "usage: fetch-git-t.sh DEST VERSION"
dest=$1
version=$2
if [ -f "$dest/VERSION" ] && [ "$(cat "$dest/VERSION")" = "$version" ] && [ -f "$dest/t/test-lib.sh" ]; then
	echo "$version"
	exit 0
fi
[ -r "$KEYRING" ] || die "$KEYRING is missing: apt-get install debian-archive-keyring"
mirror=${REFSTORE_DEBIAN_MIRROR:-$(system_mirror)}
mirror=${mirror:-http://deb.debian.org/debian}
work=$(mktemp -d "${TMPDIR:-/tmp}/fetch-git-t.XXXXXX") || die "cannot create a temporary folder"
trap 'rm -rf "$work"' EXIT

for suite in ${REFSTORE_GIT_SUITES:-sid trixie}; do
	tarball=$(download_from "$suite") || continue
	[ -n "$tarball" ] || continue
	rm -rf "$dest"
	mkdir -p "$dest"
	# the tarball's top folder (git-2.55.0/) is dropped; a * stops at a slash, so contrib's t/ folders stay out
	tar -xf "$tarball" -C "$dest" --strip-components=1 --wildcards --no-wildcards-match-slash '*/t' \
		'*/GIT-VERSION-GEN' ||
		die "cannot unpack $tarball"
	echo "$version" >"$dest/VERSION"
	echo "$version"
	exit 0
done
die "no source package of git $version in Debian '${REFSTORE_GIT_SUITES:-sid trixie}' at $mirror"
