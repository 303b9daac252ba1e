# ci/lib.sh: what demo.sh, ci/matrix.sh, ci/chroot.sh and bench/run.sh
# share (sourced): Debian packages on the host, a clean copy of the sources,
# and running a command inside a chroot of ci/chroot.sh.

# apt_install PKG...: install those of the packages that are missing
apt_install()
{
	local need=() p
	for p in "$@"; do
		dpkg -s "$p" >/dev/null 2>&1 || need+=("$p")
	done
	[ ${#need[@]} -eq 0 ] && return 0
	echo "installing ${need[*]}"
	apt-get update -q >/dev/null &&
		DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${need[@]}" >/dev/null
}

# copy_sources TOP DEST: what git tracks below TOP, plus new files it does
# not ignore, as they are in the working tree
copy_sources()
{
	local top=$1 dest=$2
	rm -rf "$dest"
	mkdir -p "$dest"
	git -C "$top" ls-files -z --cached --others --exclude-standard |
		(cd "$top" && xargs -0 tar -cf - --no-recursion 2>/dev/null) | tar -xf - -C "$dest"
}

# chroot_unmount DIR: unmount everything below DIR, deepest first
chroot_unmount()
{
	local dir=$1 m
	for m in $(awk -v d="$dir" '$2 == d || index($2, d "/") == 1 { print $2 }' /proc/mounts | sort -r); do
		umount -l "$m" 2>/dev/null || true
	done
}

# chroot_exec DIR [VAR=value...] -- CMD...: run CMD inside the chroot at DIR
# with a clean environment plus the given variables, /proc and a tmpfs on
# /dev/shm (PostgreSQL's dynamic shared memory) mounted for the run only.
# The mounts live in a private mount namespace: stages that run side by side
# (ci/matrix.sh) never see, nor unmount, each other's, and they go with
# the last process of the run.  With XID_APT_ARCHIVES set, that directory
# is bind-mounted on the chroot's /var/cache/apt/archives (chroot_apt).
chroot_exec()
{
	local dir=$1 vars=()
	shift
	while [ $# -gt 0 ] && [ "$1" != "--" ]; do
		vars+=("$1")
		shift
	done
	shift
	unshare --mount --propagation private -- bash -c '
		dir=$1
		shift
		mount -t proc proc "$dir/proc" &&
			mount -t tmpfs -o size=512m tmpfs "$dir/dev/shm" || exit 1
		if [ -n "${XID_APT_ARCHIVES:-}" ]; then
			mount --bind "$XID_APT_ARCHIVES" "$dir/var/cache/apt/archives" || exit 1
		fi
		exec chroot "$dir" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root \
			LANG=C.UTF-8 DEBIAN_FRONTEND=noninteractive "$@"' _ "$dir" "${vars[@]}" "$@"
}

# Chroots are made from one debootstrap per Debian suite, kept as
# CACHE/base-SUITE, and share CACHE/apt-SUITE as their apt archive: a
# package is downloaded once per suite, however many chroots install it.
# Every base trusts the host's own certificate authorities
# (/usr/local/share/ca-certificates), so that what runs inside reaches the
# package registries (PyPI, npm, Maven Central, the Go module proxy) as the
# host does.

# chroot_suite_options SUITE: apt options a suite needs.  The archive here
# serves sid as a frozen snapshot whose Release file has expired, and apt
# refuses it ("E: Release file for .../sid/InRelease is expired (invalid
# since ...)"): only there is the validity check off.
chroot_suite_options()
{
	case "$1" in
		sid) echo 'Acquire::Check-Valid-Until "false";' ;;
	esac
}

# chroot_base CACHE SUITE: make CACHE/base-SUITE once (one builder at a
# time, under a lock; a half-made one is made again)
chroot_base()
{
	local cache=$1 suite=$2 base="$1/base-$2" mirror=${XID_DEBIAN_MIRROR:-http://deb.debian.org/debian}
	local want options cas rc=0
	options=$(chroot_suite_options "$suite")
	cas=$(cat /usr/local/share/ca-certificates/*.crt 2>/dev/null | md5sum | cut -c1-12)
	want="$suite $mirror ca:$cas${options:+ $options}"
	mkdir -p "$cache"
	(
		flock 8
		[ -f "$base/.xid-base-complete" ] && [ "$(cat "$base/.xid-base-complete")" = "$want" ] && exit 0
		apt_install debootstrap || exit 1
		chroot_unmount "$base"
		rm -rf --one-file-system "$base"
		mkdir -p "$base"
		debootstrap --variant=minbase --include=ca-certificates "$suite" "$base" "$mirror" \
			>"$base.log" 2>&1 || {
			tail -20 "$base.log" >&2
			exit 1
		}
		# packages start no server and create no cluster of their own
		printf '#!/bin/sh\nexit 101\n' >"$base/usr/sbin/policy-rc.d"
		chmod +x "$base/usr/sbin/policy-rc.d"
		mkdir -p "$base/etc/postgresql-common"
		echo "create_main_cluster = false" >"$base/etc/postgresql-common/createcluster.conf"
		[ -n "$options" ] && echo "$options" >"$base/etc/apt/apt.conf.d/99xid-snapshot"
		# the apt archive is shared (chroot_apt): keep what is downloaded
		rm -f "$base/etc/apt/apt.conf.d/docker-clean"
		echo 'APT::Keep-Downloaded-Packages "true";' >"$base/etc/apt/apt.conf.d/99xid-keep"
		# a throwaway chroot needs no fsync after every file dpkg
		# unpacks: without it, installing is mostly waiting on the disk
		echo force-unsafe-io >"$base/etc/dpkg/dpkg.cfg.d/99xid-unsafe-io"
		mkdir -p "$base/usr/local/share/ca-certificates"
		cp /usr/local/share/ca-certificates/*.crt "$base/usr/local/share/ca-certificates/" 2>/dev/null
		chroot_exec "$base" -- sh -c "update-ca-certificates && apt-get update -q" >>"$base.log" 2>&1 || {
			tail -20 "$base.log" >&2
			exit 1
		}
		rm -f "$base.log"
		echo "$want" >"$base/.xid-base-complete"
	) 8>"$base.lock" || rc=1
	return $rc
}

# chroot_from_base CACHE SUITE DIR: DIR anew, a copy of the suite's base
chroot_from_base()
{
	local cache=$1 suite=$2 dir=$3
	chroot_base "$cache" "$suite" || return 1
	chroot_unmount "$dir"
	rm -rf --one-file-system "$dir"
	mkdir -p "$dir"
	cp -a "$cache/base-$suite/." "$dir/" && rm -f "$dir/.xid-base-complete"
}

# chroot_apt CACHE SUITE DIR PACKAGES: apt-get update and install PACKAGES
# (a string) in the chroot at DIR.  What is missing is downloaded into the
# suite's shared archive, one chroot at a time (apt locks the archive);
# the packages are then hard-linked into the chroot's own archive and
# installed there without that lock, so that chroots of one suite unpack
# side by side.
chroot_apt()
{
	local cache=$1 suite=$2 dir=$3 packages=$4 rc=0
	mkdir -p "$cache/apt-$suite/partial"
	(
		flock 8
		XID_APT_ARCHIVES="$cache/apt-$suite" chroot_exec "$dir" -- sh -c \
			"update-ca-certificates >/dev/null && apt-get update -q &&
			apt-get install -y -q --no-install-recommends --download-only $packages"
	) 8>"$cache/apt-$suite.lock" || return 1
	find "$cache/apt-$suite" -maxdepth 1 -name '*.deb' -exec ln -f -t "$dir/var/cache/apt/archives/" {} + &&
		chroot_exec "$dir" -- sh -c "apt-get install -y -q --no-install-recommends $packages" || rc=1
	rm -f "$dir"/var/cache/apt/archives/*.deb
	return $rc
}
