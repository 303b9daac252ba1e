# Makefile for the xid extension (PGXS)

EXTENSION = xid
MODULE_big = xid
OBJS = \
	src/uid11.o \
	src/xid_io.o \
	src/xid_ops.o \
	src/xid_generate.o \
	src/xid_range.o \
	src/xid_planner.o

DATA = $(wildcard xid--*.sql)
PGFILEDESC = "xid - compact, time-sortable identifiers"

PG_CONFIG ?= pg_config

# One file per feature; each loads the extension itself.
REGRESS = io cast btree hash generate range planner brin upgrade
REGRESS_OPTS = --load-extension=xid

PGXS := $(shell $(PG_CONFIG) --pgxs)
include $(PGXS)

# Soft input errors exist from 16, COPY ... ON_ERROR from 17.
ifeq ($(shell test $(MAJORVERSION) -ge 16 && echo yes),yes)
REGRESS += softerr
endif
ifeq ($(shell test $(MAJORVERSION) -ge 17 && echo yes),yes)
REGRESS += copy_onerror
endif

# The codec's unit tests need no server.
test/test_uid11: test/test_uid11.c src/uid11.c src/uid11.h
	$(CC) -std=c99 -O2 -Wall -Wextra -Werror -Isrc -o $@ test/test_uid11.c src/uid11.c

.PHONY: unittest
unittest: test/test_uid11
	test/test_uid11

EXTRA_CLEAN = test/test_uid11
