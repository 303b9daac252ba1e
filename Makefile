# Makefile for the xid extension (PGXS)

EXTENSION = xid
MODULE_big = xid
OBJS = \
	src/uid11.o \
	src/xid_module.o \
	src/xid_io.o \
	src/xid_ops.o \
	src/xid_time.o \
	src/xid_generate.o \
	src/xid_shmem.o \
	src/xid_mark.o \
	src/xid_range.o \
	src/xid_like.o \
	src/xid_catcache.o \
	src/xid_done.o \
	src/xid_clause.o \
	src/xid_support.o \
	src/xid_prune.o \
	src/xid_actual.o \
	src/xid_selfuncs.o \
	src/xid_analyze.o \
	src/xid_warn.o \
	src/xid_uuid.o \
	src/xid_ulid.o \
	src/xid_key.o

# The current version's script is built from its sources, one file per
# concern (src/sql/NN_concern.sql, in that order), as pgvector builds
# vector--X.Y.sql; released versions are xid--1.0.sql and the update
# scripts, never edited (CREATE EXTENSION xid VERSION '1.2' runs 1.0's
# script and the updates).
CURRENT = 1.3
SQL_SOURCES = $(sort $(wildcard $(srcdir)/src/sql/*.sql))
DATA = xid--1.0.sql $(wildcard xid--*--*.sql)
DATA_built = xid--$(CURRENT).sql
# The type's header, for other extensions: installed as
# $(includedir_server)/extension/xid/xid.h, as pgvector installs vector.h
HEADERS = src/xid.h
PGFILEDESC = "xid - compact, time-sortable identifiers"

PG_CONFIG ?= pg_config

# One file per feature.  pg_regress creates the extension in its database
# (REGRESS_OPTS), so each file runs alone too: make installcheck REGRESS=io
REGRESS = io cast btree hash generate node durable range planner timecmp estimate growth partition predicate predicate_inherit like brin torture integrity warn tenancy upgrade arguments convert
REGRESS_OPTS = --load-extension=xid

PGXS := $(shell $(PG_CONFIG) --pgxs)
include $(PGXS)

xid--$(CURRENT).sql: $(SQL_SOURCES)
	cat $(SQL_SOURCES) >$@

# The online key move is an extension of its own, xid_move (move/): a
# plain install puts it beside xid, so that CREATE EXTENSION xid_move works
# where a move runs; nothing of it is loaded until then.
install: install-move
.PHONY: install-move
install-move:
	$(MAKE) -C $(srcdir)/move install

# The tests that need several sessions, a crash or a restart, or servers of
# their own: TAP tests in test/t, with PostgreSQL::Test::Cluster, against the
# installed build (each starts the servers it needs, as the user running
# it; initdb refuses root): make prove_installcheck, or one of them,
# make prove_installcheck PROVE_TESTS=test/t/010_crash.pl.
PROVE_TESTS ?= test/t/*.pl
PG_PROVE_FLAGS += -I test/perl
.PHONY: prove_installcheck
prove_installcheck:
	$(prove_installcheck)

# Soft input errors exist from 16, COPY ... ON_ERROR from 17.
ifeq ($(shell test $(MAJORVERSION) -ge 16 && echo yes),yes)
REGRESS += softerr
endif
ifeq ($(shell test $(MAJORVERSION) -ge 17 && echo yes),yes)
REGRESS += copy_onerror
endif

# The quick gate before a push (as root: the throwaway servers run as
# postgres): ci/suite.sh on this host's version (PG_CONFIG) with the
# longest TAP tests left out (XID_SKIP_SH, as ci/suite.sh reads it; about
# 4 of the 6.5 minutes of the whole suite on 15 on 2 cores): the
# build with every warning an error, the codec's unit tests, the call
# graph, every regression test and the other TAP tests.
QUICK_SKIP ?= hostile sqlsmith durable tenants
.PHONY: check-quick
check-quick:
	XID_SKIP_SH="$(QUICK_SKIP)" bash $(srcdir)/ci/suite.sh $(PG_CONFIG)

# One test against the working tree's build, on a throwaway preloaded
# server (ci/run-one.sh, as root): make run-one TEST=clause_ddl, or a
# regression file, TEST=planner.  PG_CONFIG, when given, is the
# installation to build for and test.
.PHONY: run-one
run-one:
	bash $(srcdir)/ci/run-one.sh $(TEST)

# The codec's unit tests need no server.
test/test_uid11: test/test_uid11.c src/uid11.c src/uid11.h src/uid11_pairs.h
	$(CC) -std=c11 -O2 -Wall -Wextra -Werror -Isrc -o $@ test/test_uid11.c src/uid11.c

# No two C files call each other, directly or through others: read from
# the objects with nm (ci/check_calls.sh prints who calls whom).
.PHONY: check-calls
check-calls: $(OBJS)
	sh $(srcdir)/ci/check_calls.sh $(OBJS)

.PHONY: unittest check-generated
unittest: check-generated test/test_uid11
	test/test_uid11

# src/uid11_pairs.h is checked in; it must be what its generator prints.
check-generated:
	sh $(srcdir)/src/gen_uid11_pairs.sh | diff -u $(srcdir)/src/uid11_pairs.h - \
		|| { echo "src/uid11_pairs.h differs from src/gen_uid11_pairs.sh's output" >&2; exit 1; }

EXTRA_CLEAN = test/test_uid11

# The codec's unit tests under AddressSanitizer and UndefinedBehaviorSanitizer.
SANITIZE = -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
test/test_uid11_san: test/test_uid11.c src/uid11.c src/uid11.h src/uid11_pairs.h
	$(CC) -std=c11 -O1 -g $(SANITIZE) -Wall -Wextra -Werror -Isrc -o $@ test/test_uid11.c src/uid11.c

.PHONY: sanitize
sanitize: test/test_uid11_san
	test/test_uid11_san

# libFuzzer (clang): make fuzz FUZZ_SECONDS=600 for a longer run.  New inputs
# go to a scratch directory; the seed corpus in test/fuzz-corpus stays as is.
FUZZ_SECONDS ?= 60
FUZZ_CC ?= clang
test/fuzz_uid11: test/fuzz_uid11.c src/uid11.c src/uid11.h src/uid11_pairs.h
	$(FUZZ_CC) -O1 -g -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all -Isrc -o $@ test/fuzz_uid11.c src/uid11.c

.PHONY: fuzz
fuzz: test/fuzz_uid11
	rm -rf test/fuzz-corpus-work && mkdir -p test/fuzz-corpus-work
	test/fuzz_uid11 -max_total_time=$(FUZZ_SECONDS) -print_final_stats=1 \
		test/fuzz-corpus-work test/fuzz-corpus

EXTRA_CLEAN += test/test_uid11_san test/fuzz_uid11 test/fuzz-corpus-work tmp_check

# The PGXN distribution: the committed tree (git archive of HEAD) as
# xid-VERSION.zip, VERSION being META.json's, checked by ci/check_dist.py.
DIST_VERSION = $(shell sed -nE 's/^   "version": "(.*)",$$/\1/p' $(srcdir)/META.json)
.PHONY: dist
dist:
	git -C $(srcdir) archive --format=zip --prefix=xid-$(DIST_VERSION)/ -o $(CURDIR)/xid-$(DIST_VERSION).zip HEAD
	python3 $(srcdir)/ci/check_dist.py xid-$(DIST_VERSION).zip $(srcdir)/xid.control
