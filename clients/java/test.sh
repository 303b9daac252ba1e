#!/usr/bin/env bash
# clients/java/test.sh: the Java package against a live server (test/clients.sh's
# contract: PGHOST PGPORT PGUSER PGDATABASE, XID_CLIENTS_WORK; prints ok/FAIL
# lines).
#
# pgjdbc and JUnit 5 come from Debian (libpostgresql-jdbc-java, junit5).
# Maven cannot fetch its plugins here, so the sources compile with javac and
# the tests run with JUnit's console launcher; pom.xml is for publishing.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
work=${XID_CLIENTS_WORK:-$(mktemp -d)}
jars=/usr/share/java
pgjdbc=$jars/postgresql.jar
junit=$jars/junit-platform-console-standalone.jar
failed=0

echo "$(java -version 2>&1 | head -1), pgjdbc $(dpkg-query -W -f '${Version}' libpostgresql-jdbc-java), junit $(dpkg-query -W -f '${Version}' junit5)"
rm -rf "$work/classes" "$work/test-classes"
mkdir -p "$work/classes" "$work/test-classes"
if ! javac --release 17 -Xlint:all -Werror -d "$work/classes" -cp "$pgjdbc" $(find "$here/src/main/java" -name '*.java') >"$work/javac.log" 2>&1; then
	sed 's/^/    /' "$work/javac.log"
	echo "FAIL javac --release 17 src/main (-Xlint:all -Werror)"
	exit 1
fi
echo "ok   javac --release 17 src/main with -Xlint:all -Werror"
if ! javac -d "$work/test-classes" -cp "$work/classes:$pgjdbc:$junit" $(find "$here/src/test/java" -name '*.java') >"$work/javac-test.log" 2>&1; then
	sed 's/^/    /' "$work/javac-test.log"
	echo "FAIL javac src/test"
	exit 1
fi

# one line per test: "JUnit Jupiter > Class > method() :: SUCCESSFUL" and
# the like become ok/FAIL/skip lines; the rest (failures' traces) indented
java -jar "$junit" execute --disable-banner --details=testfeed --disable-ansi-colors \
	-cp "$work/classes:$work/test-classes:$pgjdbc" --select-package io.github.xidpg.xid \
	>"$work/junit.log" 2>&1
rc=$?
awk '
	/ :: SUCCESSFUL/ && / > .*\(/ { sub(/^JUnit Jupiter > /, ""); sub(/ :: SUCCESSFUL.*/, ""); print "ok   " $0; next }
	/ :: (FAILED|ABORTED)/ && / > .*\(/ { sub(/^JUnit Jupiter > /, ""); sub(/ :: (FAILED|ABORTED).*/, ""); print "FAIL " $0; next }
	/ :: SKIPPED/ && / > .*\(/ { sub(/^JUnit Jupiter > /, ""); sub(/ :: SKIPPED.*/, ""); print "skip " $0; next }
	/ :: (SUCCESSFUL|SKIPPED|STARTED)/ || /^Test run finished/ || /^\[ +[0-9]+ (containers|tests) / { next }
	{ print "    " $0 }' "$work/junit.log" | grep -v -E '^    *$' | head -400
[ $rc -eq 0 ] || failed=1

# README: the Java block of "### Java" is a class Example; it runs (with
# assertions on) against the table orders ServerTest left, like the
# JavaScript block's
mkdir -p "$work/readme"
awk '$0 == "### Java" { sec = 1; next } sec && /^##/ { sec = 0 }
	sec && /^```java$/ { code = 1; next } code && /^```$/ { code = 0; n++; next }
	code { print }
	END { if (n != 1) exit 1 }' "$(cd "$here/../.." && pwd)/README.md" >"$work/readme/Example.java" ||
	{ echo "FAIL README: the Java section should hold exactly one java block"; failed=1; }
if (cd "$work/readme" && java -ea -cp "$work/classes:$pgjdbc" Example.java) >"$work/readme.log" 2>&1 &&
	grep -q -E '^[1-9A-HJ-NP-Za-km-z]{11} 20' "$work/readme.log"; then
	echo "ok   README: the Java class runs ($(wc -l <"$work/readme.log") ids printed)"
else
	sed 's/^/    /' "$work/readme.log" | tail -20
	echo "FAIL README: the Java class"
	failed=1
fi

[ -n "${XID_CLIENTS_BENCH:-}" ] && java -cp "$work/classes:$work/test-classes" io.github.xidpg.xid.XidBench
exit $failed
