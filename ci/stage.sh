#!/usr/bin/env bash
# ci/stage.sh LOGS KIND NAME RUNS...: one stage of ci/Makefile.  Runs
# ci/stages.sh RUNS... in the repository's root with its output in
# LOGS/NAME.log, then prints that log whole (stages that overlap never
# interleave) and writes LOGS/NAME.result: "KIND RC PASSED FAILED START
# END".  PASSED and FAILED count the log's "ok" and "FAIL" lines; a stage
# that exited non-zero without a FAIL line, or a test stage that printed
# neither, counts one failure.  Stages not in XID_CRITICAL run at a lower
# priority, so that they fill the cores the long chains leave idle.  A
# test stage always succeeds for make (its failures are counted); a net or
# build stage that failed fails, so that what needs it is not run.
set -uo pipefail
logs=$1 kind=$2 name=$3
shift 3
cd "$(dirname "$0")/.."
# the makes a stage runs are its own, not jobs of the matrix's make
unset MAKEFLAGS MFLAGS MAKELEVEL
t0=$(cat "$logs/t0" 2>/dev/null || date +%s)
clock() { printf '%d:%02d' $((($1 - t0) / 60)) $((($1 - t0) % 60)); }

start=$(date +%s)
echo "---- $(clock "$start") start $name"
(
	case " ${XID_CRITICAL:-} " in
		*" $name "*) ;;
		*) renice -n 10 -p "$BASHPID" >/dev/null ;;
	esac
	exec bash ci/stages.sh "$@"
) </dev/null >"$logs/$name.log" 2>&1
rc=$?
end=$(date +%s)
passed=$(grep -c '^ok ' "$logs/$name.log")
failed=$(grep -c '^FAIL ' "$logs/$name.log")
if [ "$rc" -ne 0 ] && [ "$failed" -eq 0 ]; then
	echo "FAIL $name: exited $rc" >>"$logs/$name.log"
	failed=1
elif [ "$kind" = test ] && [ "$passed" -eq 0 ] && [ "$failed" -eq 0 ]; then
	echo "FAIL $name: printed no result" >>"$logs/$name.log"
	failed=1
fi
echo "$kind $rc $passed $failed $start $end" >"$logs/$name.result"
echo "==== $name ($(((end - start) / 60)):$(printf %02d $(((end - start) % 60))), ended at $(clock "$end"))"
cat "$logs/$name.log"
[ "$kind" = test ] || [ "$failed" -eq 0 ]
