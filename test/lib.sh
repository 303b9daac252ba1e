# test/lib.sh: what demo.sh, test/matrix.sh, test/chroot.sh and bench/run.sh
# share (sourced): Debian packages on the host, a clean copy of the sources,
# and running a command inside a chroot of test/chroot.sh.

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
# /dev/shm (PostgreSQL's dynamic shared memory) mounted for the run only
chroot_exec()
{
	local dir=$1 vars=() rc
	shift
	while [ $# -gt 0 ] && [ "$1" != "--" ]; do
		vars+=("$1")
		shift
	done
	shift
	mount -t proc proc "$dir/proc"
	mount -t tmpfs -o size=512m tmpfs "$dir/dev/shm"
	chroot "$dir" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root \
		LANG=C.UTF-8 DEBIAN_FRONTEND=noninteractive "${vars[@]}" "$@"
	rc=$?
	chroot_unmount "$dir"
	return $rc
}
