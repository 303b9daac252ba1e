/*-------------------------------------------------------------------------
 *
 * xid_mark.c
 *	  The durable mark: ids that never go back, across restarts, crashes,
 *	  clock steps and failover.
 *
 * xid_new() orders its values through the last value in shared memory
 * (xid_generate.c), which a restart forgets.  The durable mark is a
 * millisecond, written to WAL and flushed, that no id issued in the
 * database is beyond.  No id beyond the mark is returned before the mark
 * has moved a lease (XID_LEASE_MS) past it and its WAL record is flushed:
 * one record per lease, never per id, written halfway through the lease
 * before and flushed by the WAL writer meanwhile (xid_mark_cover).  When a server run first
 * reads a database's mark (after start-up, crash recovery, promotion or
 * pg_upgrade), its ids start above the mark's millisecond, so they are
 * above every id issued before, whatever the clock says; when the clock is
 * behind, the time field runs ahead of it until it catches up.
 *
 * Where the mark lives.  Each database that has the extension has a
 * sequence, @extschema@.xid_durable_mark, whose last_value is the mark.
 * PostgreSQL itself then replicates it to standbys, recovers it after a
 * crash, carries it through pg_upgrade, and (being marked with
 * pg_extension_config_dump) through pg_dump; no WAL resource manager of our
 * own, so standbys need no preloaded library and no resource manager id
 * has to be registered.  The value is written as nextval() writes it, in
 * place on the sequence's only page under an exclusive buffer lock, but
 * WAL-logged as a generic WAL record (access/generic_xlog.h, the interface
 * PostgreSQL offers extensions for pages of their own relations) rather
 * than through setval(): setval() refuses read-only transactions and
 * checks the caller's privileges, and xid_new() works in read-only
 * transactions and for every role.  Replay of the record restores the
 * page; any standby can replay it.
 *
 * Why a sequence and not a table: no one can UPDATE, DELETE or TRUNCATE a
 * sequence, its one tuple sits at a fixed place on its one page, and its
 * format (Form_pg_sequence_data) is a public header's.
 *
 * Scope.  The mark needs the shared state: with it (any version with
 * shared_preload_libraries, 17+ without), every database keeps a slot in
 * shared memory holding its mark as this server run knows it.  Without it
 * (15/16 without preloading) a session cannot tell a restart from a new
 * session, so there is no durable mark and ids are ordered within a
 * session only.  A hot standby cannot write WAL: there xid_new() works as
 * before, with no mark; a promoted standby reads the replayed mark at its
 * first id.  A session keeps the mark it last saw (xid_mark_covered_ms):
 * ids at or below it need no shared state at all.
 *
 *-------------------------------------------------------------------------
 */
#include "xid.h"

#include "access/generic_xlog.h"
#include "access/htup_details.h"
#include "access/genam.h"
#include "access/relation.h"
#include "access/table.h"
#include "access/xlog.h"
#include "catalog/namespace.h"
#include "catalog/pg_class.h"
#include "catalog/pg_extension.h"
#include "commands/sequence.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "storage/bufmgr.h"
#include "utils/builtins.h"
#include "utils/fmgroids.h"
#include "utils/inval.h"
#include "utils/lsyscache.h"
#include "utils/rel.h"
#include "utils/syscache.h"

/* The sequence that holds a database's mark, in the extension's schema */
#define XID_MARK_RELNAME	"xid_durable_mark"

/* Between two run-ahead warnings of a server, at least this long */
#define XID_WARN_INTERVAL_MS	60000

/*
 * xid.max_ahead: how far (ms) the time field of new ids may run ahead of
 * the clock; 0 = no bound.
 */
int			xid_max_ahead_ms = 0;

/*
 * The mark this session last saw: ids whose millisecond is at or below it
 * are covered.  -1 = look again (at start, and after any change to
 * pg_class, which may be the mark's sequence created or dropped);
 * PG_INT64_MAX = there is no mark to keep (no shared state, or a database
 * whose extension predates the mark).
 */
int64		xid_mark_covered_ms = -1;

static bool inval_registered = false;

/* The clock of this session's last run-ahead warning, without shared state */
static int64 local_warned_ms = 0;

void
xid_mark_init_slots(XidSharedState *state)
{
	SpinLockInit(&state->mutex);
	state->next_victim = 0;
	memset(state->slots, 0, sizeof(state->slots));
}

/*
 * The mark's sequence in this database, looked up once and again after any
 * change to pg_class
 */
static Oid	mark_relid_cached = InvalidOid;
static bool mark_relid_known = false;

static void
mark_inval_callback(Datum arg, int cacheid, uint32 hashvalue)
{
	xid_mark_covered_ms = -1;
	mark_relid_known = false;
}

/*
 * The mark's sequence in this database: XID_MARK_RELNAME in the schema of
 * the extension, or InvalidOid when the extension's objects predate it.
 */
static Oid
mark_relid(void)
{
	Relation	rel;
	ScanKeyData key;
	SysScanDesc scan;
	HeapTuple	tuple;
	Oid			nsp = InvalidOid;

	if (mark_relid_known)
		return mark_relid_cached;
	if (!inval_registered)
	{
		CacheRegisterSyscacheCallback(RELOID, mark_inval_callback, (Datum) 0);
		inval_registered = true;
	}

	rel = table_open(ExtensionRelationId, AccessShareLock);
	ScanKeyInit(&key, Anum_pg_extension_extname, BTEqualStrategyNumber,
				F_NAMEEQ, CStringGetDatum("xid"));
	scan = systable_beginscan(rel, ExtensionNameIndexId, true, NULL, 1, &key);
	tuple = systable_getnext(scan);
	if (HeapTupleIsValid(tuple))
		nsp = ((Form_pg_extension) GETSTRUCT(tuple))->extnamespace;
	systable_endscan(scan);
	table_close(rel, AccessShareLock);

	mark_relid_cached = OidIsValid(nsp) ?
		get_relname_relid(XID_MARK_RELNAME, nsp) : InvalidOid;
	mark_relid_known = true;
	return mark_relid_cached;
}

/*
 * The sequence's tuple on its page: the values of nextval(), at their fixed
 * place (sequence.c's read_seq_tuple).  NULL when the page is not a
 * sequence's.
 */
static Form_pg_sequence_data
mark_tuple(Page page)
{
	ItemId		lp;
	HeapTupleHeader tup;

	if (PageIsNew(page) || PageGetMaxOffsetNumber(page) < FirstOffsetNumber)
		return NULL;
	lp = PageGetItemId(page, FirstOffsetNumber);
	if (!ItemIdIsNormal(lp))
		return NULL;
	tup = (HeapTupleHeader) PageGetItem(page, lp);
	if (ItemIdGetLength(lp) < tup->t_hoff +
		offsetof(FormData_pg_sequence_data, is_called) + sizeof(bool))
		return NULL;
	return (Form_pg_sequence_data) ((char *) tup + tup->t_hoff);
}

/* The mark's relation, checked to be a sequence */
static Relation
mark_open(Oid relid, LOCKMODE lockmode)
{
	Relation	rel = relation_open(relid, lockmode);

	if (rel->rd_rel->relkind != RELKIND_SEQUENCE)
		ereport(ERROR,
				(errcode(ERRCODE_WRONG_OBJECT_TYPE),
				 errmsg("\"%s\" is not a sequence", RelationGetRelationName(rel)),
				 errdetail("The xid extension keeps its durable mark in a sequence of that name.")));
	return rel;
}

/* A page of the sequence that is not one */
static void
mark_page_error(Relation rel)
{
	ereport(ERROR,
			(errcode(ERRCODE_DATA_CORRUPTED),
			 errmsg("sequence \"%s\" has no value", RelationGetRelationName(rel)),
			 errhint("Recreate the extension's durable mark with ALTER EXTENSION xid UPDATE, or restore it from a backup.")));
}

/*
 * The slot of a database's mark, or NULL.  Caller holds the mutex.
 */
static XidMarkSlot *
find_slot(XidSharedState *state, Oid dbid, Oid relid)
{
	int			i;

	for (i = 0; i < XID_MARK_SLOTS; i++)
		if (state->slots[i].dbid == dbid && state->slots[i].relid == relid)
			return &state->slots[i];
	return NULL;
}

/*
 * A slot for a mark read now: a free one, else the next in turn.  Reading a
 * mark again only moves the ids of its database above it once more, which
 * is harmless.  Caller holds the mutex.
 */
static XidMarkSlot *
new_slot(XidSharedState *state)
{
	int			i;
	XidMarkSlot *slot;

	for (i = 0; i < XID_MARK_SLOTS; i++)
		if (!OidIsValid(state->slots[i].dbid))
			return &state->slots[i];
	slot = &state->slots[state->next_victim];
	state->next_victim = (state->next_victim + 1) % XID_MARK_SLOTS;
	return slot;
}

/* Raise the shared last value to at least value */
static void
raise_last(XidSharedState *state, uint64 value)
{
	uint64		old = pg_atomic_read_u64(&state->last);

	while (old < value &&
		   !pg_atomic_compare_exchange_u64(&state->last, &old, value))
		;
}

/* The fast-path limit of a session that saw slot: see xid_mark_covered_ms */
static inline int64
slot_covered(XidMarkSlot *slot)
{
	return XLogRecPtrIsInvalid(slot->pending_lsn) ?
		slot->mark_ms - XID_LEASE_MS / 2 : slot->mark_ms;
}

/*
 * Write the mark ms to the sequence's page, whose buffer the caller holds
 * locked exclusively; returns the record's LSN, not flushed.
 */
static XLogRecPtr
write_mark(Relation rel, Buffer buf, int64 ms)
{
	GenericXLogState *xlog = GenericXLogStart(rel);
	Form_pg_sequence_data seq;

	seq = mark_tuple(GenericXLogRegisterBuffer(xlog, buf, 0));
	seq->last_value = ms;
	seq->log_cnt = 0;
	seq->is_called = true;
	return GenericXLogFinish(xlog);
}

/*
 * Make the mark cover next, an id just taken from the shared last value,
 * before it is returned; false when the mark was read just now, or was read
 * by another session after next was taken and next is not above it: then
 * take the next id again, which is above it.
 *
 * The lease is taken early: once ids reach the second half of it, the next
 * one is written (a pending mark) and the WAL writer is asked to flush it,
 * without waiting.  When ids pass the mark, the pending mark becomes the
 * mark, after XLogFlush() of its record, which has almost always been
 * flushed by then.  So no id is returned before the mark that covers it is
 * flushed, and no session waits for a flush of its own in the middle of a
 * transaction, unless ids outrun the lease (after an idle spell, or when
 * the time field jumps).
 */
bool
xid_mark_cover(uint64 next)
{
	XidSharedState *state = xid_shared_state();
	int64		ms = XidPayloadGetMs(next);
	Oid			relid;
	XidMarkSlot *slot;
	Relation	rel;
	Buffer		buf;
	Form_pg_sequence_data seq;
	int64		mark;
	uint64		floor;
	XLogRecPtr	lsn;

	/* no shared state, no mark (see the file header) */
	if (state == NULL)
	{
		xid_mark_covered_ms = PG_INT64_MAX;
		return true;
	}
	/* a hot standby writes no WAL: no mark either (see README) */
	if (RecoveryInProgress())
		return true;
	relid = mark_relid();
	if (!OidIsValid(relid))
	{
		xid_mark_covered_ms = PG_INT64_MAX;
		return true;
	}

	SpinLockAcquire(&state->mutex);
	slot = find_slot(state, MyDatabaseId, relid);
	if (slot != NULL && next > slot->floor)
	{
		/* covered, and the next lease under way or not due yet */
		if (ms <= slot_covered(slot))
		{
			xid_mark_covered_ms = slot_covered(slot);
			SpinLockRelease(&state->mutex);
			return true;
		}
		/* past the mark, into the pending one: it becomes the mark */
		if (ms > slot->mark_ms && !XLogRecPtrIsInvalid(slot->pending_lsn) &&
			ms <= slot->pending_ms)
		{
			lsn = slot->pending_lsn;
			mark = slot->pending_ms;
			SpinLockRelease(&state->mutex);
			XLogFlush(lsn);
			SpinLockAcquire(&state->mutex);
			slot = find_slot(state, MyDatabaseId, relid);
			if (slot != NULL && slot->pending_lsn == lsn)
			{
				slot->mark_ms = Max(slot->mark_ms, mark);
				slot->pending_lsn = InvalidXLogRecPtr;
			}
			xid_mark_covered_ms = slot != NULL ? slot_covered(slot) : -1;
			SpinLockRelease(&state->mutex);
			return true;
		}
	}
	SpinLockRelease(&state->mutex);

	/*
	 * Read the mark and move it, one session at a time: the exclusive lock on
	 * the sequence's page orders them.
	 */
	rel = mark_open(relid, RowExclusiveLock);
	buf = ReadBuffer(rel, 0);
	LockBuffer(buf, BUFFER_LOCK_EXCLUSIVE);
	seq = mark_tuple(BufferGetPage(buf));
	if (seq == NULL)
	{
		UnlockReleaseBuffer(buf);
		mark_page_error(rel);
	}

	/*
	 * Only a session that holds the page's lock adds a slot, so a missing
	 * slot stays missing until this one adds it.
	 */
	SpinLockAcquire(&state->mutex);
	slot = find_slot(state, MyDatabaseId, relid);
	SpinLockRelease(&state->mutex);
	if (slot == NULL)
	{
		/*
		 * First read in this server run: ids from now on are above every id
		 * issued before the mark was written, so above its millisecond.  The
		 * page may hold a pending mark of a slot given up since: it counts
		 * once flushed.
		 */
		XLogFlush(PageGetLSN(BufferGetPage(buf)));
		SpinLockAcquire(&state->mutex);
		slot = new_slot(state);
		slot->dbid = MyDatabaseId;
		slot->relid = relid;
		slot->mark_ms = seq->last_value;
		slot->pending_ms = 0;
		slot->pending_lsn = InvalidXLogRecPtr;
		slot->floor = XidMsGetPayload(Max(seq->last_value, 0), XID_RANDOM_MASK);
		floor = slot->floor;
		SpinLockRelease(&state->mutex);
		raise_last(state, floor);
		UnlockReleaseBuffer(buf);
		relation_close(rel, NoLock);
		return false;
	}
	SpinLockAcquire(&state->mutex);
	if (next <= slot->floor)
	{
		floor = slot->floor;
		SpinLockRelease(&state->mutex);
		raise_last(state, floor);
		UnlockReleaseBuffer(buf);
		relation_close(rel, NoLock);
		return false;
	}
	mark = slot->mark_ms;
	if (ms <= slot_covered(slot) ||
		(ms > mark && !XLogRecPtrIsInvalid(slot->pending_lsn) &&
		 ms <= slot->pending_ms))
	{
		/* another session moved it meanwhile: look again */
		SpinLockRelease(&state->mutex);
		UnlockReleaseBuffer(buf);
		relation_close(rel, NoLock);
		return xid_mark_cover(next);
	}
	SpinLockRelease(&state->mutex);

	if (ms > mark)
	{
		/* past the lease with none pending: take one and wait for it */
		mark = Min(Max(ms, seq->last_value) + XID_LEASE_MS, XID_MAX_MS);
		lsn = write_mark(rel, buf, mark);
		XLogFlush(lsn);
		SpinLockAcquire(&state->mutex);
		slot = find_slot(state, MyDatabaseId, relid);
		if (slot != NULL)
		{
			slot->mark_ms = Max(slot->mark_ms, mark);
			if (!XLogRecPtrIsInvalid(slot->pending_lsn) && slot->pending_ms <= mark)
				slot->pending_lsn = InvalidXLogRecPtr;
		}
	}
	else
	{
		/* in the lease's second half: the next one, flushed in background */
		int64		pending = Min(Max(ms, seq->last_value) + XID_LEASE_MS, XID_MAX_MS);

		lsn = write_mark(rel, buf, pending);
		XLogSetAsyncXactLSN(lsn);
		SpinLockAcquire(&state->mutex);
		slot = find_slot(state, MyDatabaseId, relid);
		if (slot != NULL)
		{
			slot->pending_ms = pending;
			slot->pending_lsn = lsn;
		}
	}
	/* (a slot given up meanwhile is read again next time) */
	xid_mark_covered_ms = slot != NULL ? slot_covered(slot) : -1;
	SpinLockRelease(&state->mutex);

	UnlockReleaseBuffer(buf);
	relation_close(rel, NoLock);
	return true;
}

/*
 * next runs more than XID_AHEAD_WARN_MS ahead of the clock (now_ms): refuse
 * it beyond xid.max_ahead, and warn in the server's log, at most once a
 * minute per server.
 */
void
xid_check_ahead(uint64 next, int64 now_ms)
{
	XidSharedState *state = xid_shared_state();
	int64		ahead = XidPayloadGetMs(next) - now_ms;
	uint64		warned;

	if (xid_max_ahead_ms > 0 && ahead > xid_max_ahead_ms)
		ereport(ERROR,
				(errcode(ERRCODE_SEQUENCE_GENERATOR_LIMIT_EXCEEDED),
				 errmsg("new xid would be %lld ms ahead of the clock, beyond xid.max_ahead (%d ms)",
						(long long) ahead, xid_max_ahead_ms),
				 errdetail("New ids stay above every id issued before, and the clock is behind the last of them."),
				 errhint("Correct the server's clock, or raise xid.max_ahead.")));

	if (state == NULL)
	{
		if (now_ms >= local_warned_ms && now_ms - local_warned_ms < XID_WARN_INTERVAL_MS)
			return;
		local_warned_ms = now_ms;
	}
	else
	{
		warned = pg_atomic_read_u64(&state->warned_ms);
		if (now_ms >= (int64) warned && now_ms - (int64) warned < XID_WARN_INTERVAL_MS)
			return;
		if (!pg_atomic_compare_exchange_u64(&state->warned_ms, &warned, (uint64) now_ms))
			return;				/* another session warns */
	}
	ereport(WARNING,
			(errmsg("new xids are %lld ms ahead of the clock", (long long) ahead),
			 errdetail("New ids stay above every id issued before; their time runs ahead until the clock catches up."),
			 errhint("Check the server's clock; xid_generator_status() shows how far it is behind.")));
}

/* A millisecond of the xid epoch as a timestamptz */
static Datum
ms_timestamptz(int64 ms)
{
	return TimestampTzGetDatum(xid_ms_timestamp(ms));
}

/* A number of milliseconds as an interval */
static Datum
ms_interval(int64 ms)
{
	Interval   *iv = palloc0(sizeof(Interval));

	iv->time = ms * 1000;
	return IntervalPGetDatum(iv);
}

/*
 * xid_generator_status(): the last id issued, the durable mark of this
 * database, the clock, and how far the clock is behind the two.
 */
PG_FUNCTION_INFO_V1(xid_generator_status);
Datum
xid_generator_status(PG_FUNCTION_ARGS)
{
	TupleDesc	tupdesc;
	Datum		values[8];
	bool		nulls[8] = {0};
	XidSharedState *state = xid_shared_state();
	uint64		last = state ? pg_atomic_read_u64(&state->last) : 0;
	int64		now_ms = xid_now_ms();
	Oid			relid = mark_relid();
	bool		have_mark = false;
	int64		mark = 0;

	if (get_call_result_type(fcinfo, NULL, &tupdesc) != TYPEFUNC_COMPOSITE)
		elog(ERROR, "return type must be a row type");

	if (state == NULL)
		last = xid_session_last();
	if (OidIsValid(relid))
	{
		Relation	rel = mark_open(relid, AccessShareLock);
		Buffer		buf = ReadBuffer(rel, 0);
		Form_pg_sequence_data seq;

		LockBuffer(buf, BUFFER_LOCK_SHARE);
		seq = mark_tuple(BufferGetPage(buf));
		if (seq != NULL && seq->is_called)
		{
			mark = seq->last_value;
			have_mark = true;
		}
		UnlockReleaseBuffer(buf);
		relation_close(rel, AccessShareLock);
	}

	/* last_id, last_time, last_ahead */
	if (last != 0)
	{
		values[0] = XidPayloadGetDatum(last);
		values[1] = ms_timestamptz(XidPayloadGetMs(last));
		values[4] = ms_interval(XidPayloadGetMs(last) - now_ms);
	}
	else
		nulls[0] = nulls[1] = nulls[4] = true;
	/* durable_mark, mark_ahead */
	if (have_mark)
	{
		values[2] = ms_timestamptz(mark);
		values[5] = ms_interval(mark - now_ms);
	}
	else
		nulls[2] = nulls[5] = true;
	/* clock */
	values[3] = ms_timestamptz(now_ms);
	/* scope */
	values[6] = CStringGetTextDatum(state ? "server" : "session");
	/* durable: marks are written here */
	values[7] = BoolGetDatum(state != NULL && OidIsValid(relid) &&
							 !RecoveryInProgress());

	PG_RETURN_DATUM(HeapTupleGetDatum(heap_form_tuple(tupdesc, values, nulls)));
}
