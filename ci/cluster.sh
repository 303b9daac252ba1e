# ci/cluster.sh: start and stop throwaway PostgreSQL clusters (sourced).
#
# A cluster runs as the postgres OS user, from a private directory, on a unix
# socket only, on a port given by the caller; cluster_stop stops exactly that
# cluster, by its own data directory.

# cluster_init BINDIR DIR PORT [postgresql.conf lines...]: a new cluster in
# DIR/data, configured but not started
cluster_init()
{
	local bindir=$1 dir=$2 port=$3
	shift 3
	mkdir -p "$dir/sock"
	chown -R postgres: "$dir"
	chmod 700 "$dir"
	runuser -u postgres -- "$bindir/initdb" -D "$dir/data" --auth=trust \
		--no-sync -E UTF8 --locale=C.UTF-8 -U postgres >"$dir/initdb.log" 2>&1 ||
		runuser -u postgres -- "$bindir/initdb" -D "$dir/data" --auth=trust \
			--no-sync -E UTF8 --locale=C -U postgres >"$dir/initdb.log" 2>&1 || {
		cat "$dir/initdb.log" >&2
		return 1
	}
	cluster_configure "$dir" "$port" "$@"
}

# cluster_configure DIR PORT [lines...]: where the cluster in DIR/data
# listens, and the settings of every test cluster
cluster_configure()
{
	local dir=$1 port=$2
	shift 2
	{
		echo "listen_addresses = ''"
		echo "unix_socket_directories = '$dir/sock'"
		echo "port = $port"
		echo "fsync = off"
		echo "max_connections = 40"
		echo "shared_buffers = 256MB"
		echo "max_prepared_transactions = 0"
		for opt in "$@"; do echo "$opt"; done
	} >>"$dir/data/postgresql.conf"
}

# cluster_run BINDIR DIR: start the cluster in DIR/data
cluster_run()
{
	local bindir=$1 dir=$2
	runuser -u postgres -- "$bindir/pg_ctl" -D "$dir/data" -l "$dir/server.log" \
		-w -t 60 start >/dev/null || {
		tail -20 "$dir/server.log" >&2
		return 1
	}
}

# cluster_start BINDIR DIR PORT [postgresql.conf lines...]: init and start
cluster_start()
{
	cluster_init "$@" && cluster_run "$1" "$2"
}

# cluster_stop BINDIR DIR
cluster_stop()
{
	local bindir=$1 dir=$2
	if [ -f "$dir/data/postmaster.pid" ]; then
		runuser -u postgres -- "$bindir/pg_ctl" -D "$dir/data" -m fast -w -t 60 stop >/dev/null 2>&1 ||
			runuser -u postgres -- "$bindir/pg_ctl" -D "$dir/data" -m immediate -w stop >/dev/null 2>&1 || true
	fi
}

# pg_major PG_CONFIG: the major version of the PostgreSQL it names (15, 18)
pg_major()
{
	"$1" --version | sed -E 's/^PostgreSQL ([0-9]+).*/\1/'
}

# faketime_env: the environment (words for env) of a server whose clock
# libfaketime moves: Debian's library, monotonic clocks (timeouts) real,
# and NO_FAKE_STAT and FAKETIME_DISABLE_SHM (which 0.9.10, bookworm's,
# ignores): libfaketime otherwise takes a semaphore shared by every
# process of the server around each stat(); a backend killed holding it
# (kill -9, or the SIGQUIT of the crash restart) left the postmaster
# waiting on it forever in its restart (a CI run hung in the durable test's
# kill -9 phase on 17).  Prints nothing, non-zero, without the library.
faketime_env()
{
	local lib
	lib=$(ls /usr/lib/*/faketime/libfaketime.so.1 2>/dev/null | head -1)
	[ -n "$lib" ] || return 1
	echo "LD_PRELOAD=$lib DONT_FAKE_MONOTONIC=1 NO_FAKE_STAT=1 FAKETIME_DISABLE_SHM=1"
}

# free_port [START]: the one port allocator of the tests.  The first port
# from START (default XID_PORT_BASE, else 55000) that nothing listens on,
# that no TCP socket uses as its local port (a client's ephemeral port,
# from 32768 up, blocks a server's bind as much as a listener does), and
# that no other running script holds: each port handed out is reserved in
# $XID_PORT_DIR (default /tmp/xid-ports) for the calling script's process
# ($$), and free again once that process has ended, so that two scripts,
# or two servers of one script, never get the same port.  A server that
# listens on TCP takes a START below 32768 (ci/clients.sh, pooler.sh,
# ha.sh, matrix.sh's cross-version stages): between this check and the
# server's bind, seconds later, any new client connection of the machine
# may take a port of the ephemeral range.  Unix sockets have no such race.
free_port()
{
	local p=${1:-${XID_PORT_BASE:-55000}} dir=${XID_PORT_DIR:-/tmp/xid-ports} owner
	mkdir -p "$dir" 2>/dev/null && chmod 1777 "$dir" 2>/dev/null
	while :; do
		if [ ! -e "/tmp/.s.PGSQL.$p" ] && ! (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null &&
			! port_in_use "$p"; then
			# mkdir is atomic: of two scripts asking at once, one wins
			if mkdir "$dir/$p" 2>/dev/null; then
				echo $$ >"$dir/$p/pid"
				break
			fi
			[ -d "$dir/$p" ] || break # no reservations possible here
			owner=$(cat "$dir/$p/pid" 2>/dev/null)
			# its script has ended (or died before it wrote its pid)
			if { [ -n "$owner" ] && [ ! -d "/proc/$owner" ]; } ||
				{ [ -z "$owner" ] && [ -n "$(find "$dir/$p" -maxdepth 0 -mmin +1)" ]; }; then
				rm -rf "$dir/$p"
				continue
			fi
		fi
		p=$((p + 1))
	done
	echo "$p"
}

# port_in_use PORT: a TCP socket of this machine has it as its local port
port_in_use()
{
	local hex
	hex=$(printf '%04X' "$1")
	cat /proc/net/tcp /proc/net/tcp6 2>/dev/null | awk -v h=":$hex" '
		NR > 0 { split($2, a, ":"); if (":" a[2] == h) found = 1 }
		END { exit !found }'
}

# Sanitized servers (ci/assert.sh: an assert-enabled server, the extension
# built with AddressSanitizer and UndefinedBehaviorSanitizer).

# sanitizer_env DIR: the sanitizers' options for every server started from
# here on (they reach it through runuser and pg_ctl): no leak reports (a
# backend frees little on exit), and a report ends the process with
# SIGABRT, which the postmaster logs as a crash (the default, exit code 1,
# passes for a plain FATAL exit); ASan's reports go to DIR/asan.PID, UBSan's
# to the server's log (gcc 16's runtime, with ASan's, ignores its log_path)
sanitizer_env()
{
	mkdir -p "$1"
	chmod 1777 "$1"
	export ASAN_OPTIONS="detect_leaks=0:abort_on_error=1:log_path=$1/asan"
	export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1:abort_on_error=1:log_path=$1/ubsan"
}

# What such a server must never log: an assertion failure, a sanitizer
# report, a server process killed by any signal but the 9 of the tests
# that kill on purpose (a failed assertion and a sanitizer report abort,
# signal 6), a write past the end of a palloc'd chunk.
server_report_re='TRAP:|AddressSanitizer|runtime error:|terminated by signal ([0-8]|[1-9][0-9]+):|detected write past chunk end|problem in alloc set'

# server_reports DIR LOG...: print each of those in the LOGs, with what
# follows it (the backtrace, the query of the process that died), and each
# report in DIR from sanitizer_env; fails when there is any
server_reports()
{
	local sandir=$1 f bad=0
	shift
	for f in "$@"; do
		[ -f "$f" ] && grep -Eq "$server_report_re" "$f" || continue
		bad=1
		echo "---- $f"
		grep -E -A12 "$server_report_re" "$f" | head -60
	done
	for f in "$sandir"/asan.* "$sandir"/ubsan.*; do
		[ -f "$f" ] && grep -Eq 'ERROR: AddressSanitizer|runtime error:|SUMMARY:' "$f" || continue
		bad=1
		echo "---- $f"
		head -60 "$f"
	done
	[ "$bad" -eq 0 ]
}
