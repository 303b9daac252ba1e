#!/bin/sh
# move/check_runner.sh: every statement of xid_move goes through its one
# runner (src/xid_move_run.c: the tables' owner, security-restricted,
# search_path pg_catalog, pg_temp).  Fails if another C file of the library
# calls SPI to prepare or execute a statement (SPI_connect, SPI_finish,
# SPI_getbinval and the like, which run nothing, stay allowed).
# Fails too if a PL/pgSQL routine in src/sql runs dynamic SQL with
# EXECUTE, which would run it in the caller's context: what a step reads
# from the tables goes through xid_move_query(), what it runs through
# xid_move_run() (make -C move check-runner, before installcheck).
set -eu
dir=$(dirname "$0")
status=0

for f in "$dir"/src/*.c; do
	[ "$(basename "$f")" = xid_move_run.c ] && continue
	# comments stripped, so that a comment may name what it does not call
	hits=$(perl -0777 -pe 's{/\*.*?\*/}{ my $c = $&; $c =~ s/[^\n]//g; $c }gse' "$f" |
		grep -nE '\bSPI_(exec|execp|execute[A-Za-z_]*|prepare[A-Za-z_]*|cursor_open[A-Za-z_]*|cursor_parse_open[A-Za-z_]*)[[:space:]]*\(' || true)
	if [ -n "$hits" ]; then
		echo "$f: calls SPI outside the runner (src/xid_move_run.c):" >&2
		echo "$hits" | sed 's/^/  line /' >&2
		status=1
	fi
done

{
	hits=$(grep -nE '(^|[^A-Za-z_])EXECUTE([[:space:]]|$)' "$dir"/src/sql/*.sql |
		grep -vE 'EXECUTE (FUNCTION|PROCEDURE)' || true)
	if [ -n "$hits" ]; then
		echo "dynamic SQL run in the caller's context, not through the runner:" >&2
		echo "$hits" | sed 's/^/  /' >&2
		status=1
	fi
}

[ $status -eq 0 ] && echo "check_runner: every statement of the library goes through the runner"
exit $status
