#!/usr/bin/env bash
# clients/java/frameworks/bench.sh: the goals, Xid against UUID in the
# same framework and run (Jackson write + read; Hibernate loading 10,000 rows
# by key), and the codec's own benchmark (core's XidBench).  Needs the
# build of `mvn verify` (or `mvn test-compile`) in clients/java and, for
# Hibernate, the live server of PGHOST, PGPORT, PGUSER, PGDATABASE.
# Not run in CI (XID_CLIENTS_BENCH=1 bash clients/java/test.sh runs it).
set -euo pipefail
cd "$(dirname "$0")/.."
mvn -B -q -ntp test-compile dependency:build-classpath -pl frameworks -am \
	-Dmdep.outputFile=target/bench.classpath -Dmdep.includeScope=test
cp="core/target/classes:core/target/test-classes:frameworks/target/classes:frameworks/target/test-classes"
java -cp "$cp:$(cat frameworks/target/bench.classpath)" io.github.xidpg.xid.bench.FrameworksBench
java -cp "$cp" io.github.xidpg.xid.XidBench
