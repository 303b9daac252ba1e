#!/usr/bin/env bash
# clients/java/test.sh: the Java packages against a live server (ci/clients.sh's
# contract: PGHOST PGPORT PGUSER PGDATABASE, XID_CLIENTS_WORK; prints ok/FAIL
# lines).
#
# `mvn verify` of clients/java/pom.xml: core/ (io.github.xid-pg:xid, the codec
# and pgjdbc support) and frameworks/ (io.github.xid-pg:xid-frameworks:
# Jackson, Hibernate 6 and Spring Boot 3, Spring Data JDBC, R2DBC, jOOQ).
# Maven and the JDK come from Debian (clients/debian-packages); every
# library and plugin from Maven Central at the versions pom.xml pins, into
# Maven's own cache (~/.m2).  The build runs in a copy in the scratch
# directory, with the Java blocks of this directory's README.md (section
# "From your application") added to it:
#   - the first (class Example: codec and pgjdbc) runs with java -ea after
#     the build, against the table orders that core's ServerTest left;
#   - the second (class FrameworksExample) is put into frameworks' tests,
#     where ReadmeExampleTest runs it.
# Surefire's reports become one ok/FAIL/skip line per test method.
# XID_CLIENTS_SERVER_ONLY=1 (ci/clients.sh, against PostgreSQL 15): the
# build and its tests only, not README's class Example, the application
# outside the build or the run without a server.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
work=${XID_CLIENTS_WORK:-$(mktemp -d)}
failed=0

echo "$(java -version 2>&1 | head -1); $(mvn -v 2>/dev/null | head -1 | sed 's/\x1b\[[0-9;]*m//g')"
rm -rf "$work/java"
mkdir -p "$work/java"
(cd "$here" && tar --exclude=target -cf - .) | (cd "$work/java" && tar -xf -)

# README.md's section "From your application": java blocks 1 and 2
readme_block()
{
	awk -v want="$1" '$0 == "## From your application" { sec = 1; next } sec && /^##/ { sec = 0 }
		sec && /^```java$/ { code = 1; n++; next } code && /^```$/ { code = 0; next }
		code && n == want { print }
		END { if (n != 2) exit 1 }' "$here/README.md"
}
mkdir -p "$work/readme"
if ! readme_block 1 >"$work/readme/Example.java" ||
	! readme_block 2 >"$work/java/frameworks/src/test/java/FrameworksExample.java"; then
	echo "FAIL README: the Java section should hold exactly two java blocks"
	failed=1
fi

start=$SECONDS
# Maven's own JVM compiles and resolves for a minute at most: C1 is enough
(cd "$work/java" && XID_README_EXAMPLE=1 MAVEN_OPTS="-XX:TieredStopAtLevel=1 -XX:+UseSerialGC" \
	mvn -B -ntp -Dmaven.test.failure.ignore=true verify) >"$work/mvn.log" 2>&1
rc=$?
echo "    mvn verify: exit $rc in $((SECONDS - start)) s"
reports=$(find "$work/java" -path '*/target/surefire-reports/TEST-*.xml' | sort)
if [ "$rc" -ne 0 ] || [ -z "$reports" ]; then
	grep -E '^\[ERROR\]|BUILD' "$work/mvn.log" | head -40 | sed 's/^/    /'
	echo "FAIL mvn verify (compile with -Xlint:all -Werror, or Maven itself)"
	failed=1
fi

# a testcase element per test: its class (without the package), its name,
# and a failure, error or skipped element inside it
for f in $reports; do
	module=$(basename "$(dirname "$(dirname "$(dirname "$f")")")")
	awk -v module="$module" '
		function unxml(t) {
			gsub(/&quot;/, "\"", t); gsub(/&apos;/, "\047", t); gsub(/&lt;/, "<", t); gsub(/&gt;/, ">", t)
			gsub(/&#10;/, " ", t); gsub(/&amp;/, "\\&", t)
			return t
		}
		BEGIN { RS = "<testcase" }
		NR > 1 {
			head = $0; sub(/>.*/, "", head)
			cls = head; sub(/.* classname="/, "", cls); sub(/".*/, "", cls); sub(/.*\./, "", cls)
			name = " " head; sub(/.* name="/, "", name); sub(/".*/, "", name)
			name = unxml(name)
			what = module ": " cls " > " name
			if ($0 ~ /<(failure|error)[ >]/) {
				msg = $0; sub(/.*<(failure|error)[^>]*message="/, "", msg); sub(/".*/, "", msg)
				msg = unxml(msg)
				print "    " substr(msg, 1, 300)
				print "FAIL " what
			} else if ($0 ~ /<skipped/) {
				print "skip " what
			} else {
				print "ok   " what
			}
		}' "$f"
done | tee "$work/results.txt"
grep -q '^FAIL' "$work/results.txt" && failed=1
[ -n "${XID_CLIENTS_SERVER_ONLY:-}" ] && exit $failed

# README block 1 against the table orders of core's ServerTest
pgjdbc_version=$(sed -n 's:.*<postgresql.version>\(.*\)</postgresql.version>.*:\1:p' "$here/pom.xml")
pgjdbc=${HOME}/.m2/repository/org/postgresql/postgresql/$pgjdbc_version/postgresql-$pgjdbc_version.jar
if (cd "$work/readme" && java -ea -cp "$work/java/core/target/classes:$pgjdbc" Example.java) >"$work/readme.log" 2>&1 &&
	grep -q -E '^[1-9A-HJ-NP-Za-km-z]{11} 20' "$work/readme.log"; then
	echo "ok   README: the Java class Example runs ($(wc -l <"$work/readme.log") ids printed)"
else
	sed 's/^/    /' "$work/readme.log" | tail -20
	echo "FAIL README: the Java class Example"
	failed=1
fi

# An application outside the build (app/: its own pom.xml, every version
# pinned): the artifacts installed as a user installs them, `mvn install`,
# into a private local repository (Maven's own, ~/.m2, only read: it is
# that repository's tail), then app/'s tests, resolved from it, against
# the server: AppTest (xid with pgjdbc) and FrameworksAppTest
# (xid-frameworks with Hibernate and jOOQ), one "app: " line each.
# README's section "Installing": its sh block's mvn command (the second
# line, before its comment; the first is the cd into clients/java, here
# the copy) runs with this run's options (a private local repository, no
# tests: they ran above), and its xml block is app/pom.xml's dependencies
# on the two artifacts, put where app/pom.xml says.
t=$SECONDS
repo="$work/m2"
m2=(-B -ntp "-Dmaven.repo.local=$repo" "-Dmaven.repo.local.tail=$HOME/.m2/repository")
rm -rf "$repo" "$work/app"
cp -r "$here/app" "$work/app"
install_block()
{
	awk -v want="$1" '$0 == "## Installing" { sec = 1; next } sec && /^##/ { sec = 0 }
		sec && $0 == "```" want { code = 1; n++; next } code && /^```$/ { code = 0; next }
		code && n == 1 { print }
		END { if (n != 1) exit 1 }' "$here/README.md"
}
install_cmd=$(install_block sh | sed -n '2s/ *#.*//p')
marker='    <!-- README.md: the xml block of its section "Installing", put here by'
if ! install_block sh | sed -n 1p | grep -qx 'cd path/to/xid/clients/java' || [ "$install_cmd" != "mvn install" ] ||
	! install_block xml >"$work/readme-deps.xml" || ! grep -qxF "$marker" "$work/app/pom.xml"; then
	install_block sh | sed 's/^/    | /'
	echo "FAIL README's section Installing: an sh block (cd path/to/xid/clients/java, then mvn install) and an xml block expected, and app/pom.xml's place for it"
	failed=1
fi
awk -v deps="$work/readme-deps.xml" -v marker="$marker" '$0 == marker { while ((getline l < deps) > 0) print "    " l } { print }' \
	"$here/app/pom.xml" >"$work/app/pom.xml"
if ! (cd "$work/java" && MAVEN_OPTS="-XX:TieredStopAtLevel=1 -XX:+UseSerialGC" \
	$install_cmd "${m2[@]}" -DskipTests) >"$work/install.log" 2>&1 ||
	[ ! -f "$repo/io/github/xid-pg/xid/1.3.0/xid-1.3.0.jar" ] ||
	[ ! -f "$repo/io/github/xid-pg/xid-frameworks/1.3.0/xid-frameworks-1.3.0.jar" ]; then
	grep -E '^\[ERROR\]|BUILD' "$work/install.log" | head -20 | sed 's/^/    /'
	echo "FAIL app: mvn install of io.github.xid-pg:xid and xid-frameworks into a local repository"
	failed=1
elif (cd "$work/app" && MAVEN_OPTS="-XX:TieredStopAtLevel=1 -XX:+UseSerialGC" mvn "${m2[@]}" test) >"$work/app.log" 2>&1 &&
	[ "$(grep -c '^app: ' "$work/app.log")" -eq 2 ]; then
	echo "ok   app outside the repository installs the built xid-1.3.0.jar and xid-frameworks-1.3.0.jar (mvn install, a local repository) and runs: $(sed -n 's/^app: //p' "$work/app.log" | paste -sd '|' | sed 's/|/; /g') ($((SECONDS - t)) s)"
else
	grep -E '^\[ERROR\]|BUILD|^app: ' "$work/app.log" | head -30 | sed 's/^/    /'
	echo "FAIL app: mvn test of app/ with io.github.xid-pg:xid and xid-frameworks from the local repository"
	failed=1
fi

# Without a server (no PG* variables): the build passes, and the server
# tests skip, saying why (pom.xml once handed the test JVM a literal
# ${env.PGHOST}, and they threw NullPointerExceptions instead)
t=$SECONDS
if (cd "$work/java" && env -u PGHOST -u PGPORT -u PGUSER -u PGDATABASE \
	MAVEN_OPTS="-XX:TieredStopAtLevel=1 -XX:+UseSerialGC" mvn -B -ntp -o -pl core test) >"$work/noserver.log" 2>&1 &&
	grep -q 'Tests run: 0, Failures: 0, Errors: 0, Skipped: 0, .* in io.github.xidpg.xid.ServerTest' "$work/noserver.log" &&
	grep -q 'no server: set PGHOST' "$work/java/core/target/surefire-reports/TEST-io.github.xidpg.xid.TextCastTest.xml"; then
	echo "ok   without a server: mvn test passes, ServerTest's @BeforeAll and TextCastTest skip saying why ($((SECONDS - t)) s)"
else
	grep -E '^\[ERROR\]|Tests run|BUILD' "$work/noserver.log" | head -20 | sed 's/^/    /'
	echo "FAIL without a server: mvn test of core with no PG* variables"
	failed=1
fi

[ -n "${XID_CLIENTS_BENCH:-}" ] && (cd "$work/java" && bash frameworks/bench.sh)
exit $failed
