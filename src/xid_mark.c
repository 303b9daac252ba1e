/*-------------------------------------------------------------------------
 *
 * xid_mark.c
 *	  The durable mark: ids that never go back, across restarts, crashes,
 *	  clock steps and failover.
 *
 * xid_new() orders its values through the last value of its database in
 * shared memory (xid_generate.c, xid_shmem.c), which a restart forgets.
 * The durable mark is a millisecond, written to WAL and flushed, that no
 * id issued in the database is beyond.  No id beyond the mark is returned
 * before the mark has moved a lease (XID_LEASE_MS) past it and its WAL
 * record is flushed: one record per lease, never per id, written halfway
 * through the lease before and flushed by the WAL writer meanwhile
 * (xid_mark_cover).  When a server run first reads a database's mark (after
 * start-up, crash recovery, promotion or pg_upgrade), the database's ids
 * start above the mark's millisecond, so they are above every id issued
 * there before, whatever the clock says; when the clock is behind, the time
 * field runs ahead of it until it catches up.
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
 * Which sequence, and how far it is trusted.  The mark is the sequence
 * that is a member of the extension (pg_depend), found by the extension's
 * OID, never a relation that merely has the name: anyone who may create in
 * the extension's schema could make one.  The extension's owner (a
 * database owner, for a trusted extension) may read and set it, so that
 * pg_dump and pg_restore work as that role; so a mark read from the page,
 * at the first id of a server run or after a setval() by a restore or by
 * the owner, is refused when it is further ahead of the clock than
 * XID_MARK_HORIZON_MS (or xid.max_ahead refuses the ids above it): an
 * error in that database only, whose state is its own (xid_shmem.h).
 *
 * Scope.  The mark needs the shared state, which every version has, with
 * or without shared_preload_libraries (xid_shmem.c): every database that
 * makes ids has an entry in shared memory holding its mark as this server
 * run knows it, from its first id until the database is dropped.  (Without
 * it a session could not tell a restart from a new session, so xid_new()
 * fails where the state cannot be had.)  A hot standby cannot write WAL:
 * there xid_new() works as before, with no mark; a promoted standby reads
 * the replayed mark at its first id.  A session keeps the mark it last saw
 * (xid_mark_covered_ms): ids at or below it need no shared state at all.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/generic_xlog.h"
#include "access/htup_details.h"
#include "access/genam.h"
#include "access/relation.h"
#include "access/table.h"
#include "access/xlog.h"
#include "catalog/dependency.h"
#include "catalog/indexing.h"
#include "catalog/pg_class.h"
#include "catalog/pg_depend.h"
#include "catalog/pg_extension.h"
#include "commands/dbcommands.h"
#include "commands/sequence.h"
#include "miscadmin.h"
#include "storage/bufmgr.h"
#include "utils/builtins.h"
#include "utils/fmgroids.h"
#include "utils/guc.h"
#include "utils/inval.h"
#include "utils/lsyscache.h"
#include "utils/rel.h"
#include "utils/syscache.h"
#include "utils/timestamp.h"

#include "xid.h"
#include "xid_mark.h"
#include "xid_shmem.h"
#include "xid_time.h"

/* The name of the extension's sequence that holds a database's mark */
#define XID_MARK_RELNAME	"xid_durable_mark"

/*
 * A mark read from a database's sequence (after a restart, or set with
 * setval() by a restore or by its owner) is trusted up to this far ahead
 * of the clock while xid.max_ahead is 0; beyond it xid_new() refuses to
 * make ids in that database (with xid.max_ahead set, that bound refuses
 * them).  A day is far more than a clock that steps back (NTP, a lagging
 * standby, a VM moved) puts between them, and far less than the 2151 of a
 * mark set to its maximum.
 */
#define XID_MARK_HORIZON_MS	(INT64CONST(24) * 60 * 60 * 1000)

/* Between two run-ahead warnings in a database, at least this long */
#define XID_WARN_INTERVAL_MS	60000

/*
 * xid.max_ahead: how far (ms) the time field of new ids may run ahead of
 * the clock; 0 = no bound.
 */
static int	xid_max_ahead_ms = 0;

/*
 * The mark this session last saw: ids whose millisecond is at or below it
 * are covered.  -1 = look again (at start, and after a change to the mark's
 * sequence in pg_class); PG_INT64_MAX = there is no mark to keep (a
 * database whose extension predates the mark).
 */
int64		xid_mark_covered_ms = -1;

/*
 * The mark's sequence in this database, looked up once, and again after a
 * change to its row in pg_class (or, while there is none, to any row: the
 * extension may be created or updated)
 */
static Oid	mark_relid_cached = InvalidOid;
static uint32 mark_relid_hash = 0;
static bool mark_relid_known = false;
static bool inval_registered = false;

static void
mark_inval_callback(Datum arg, int cacheid, uint32 hashvalue)
{
	if (!OidIsValid(mark_relid_cached) || hashvalue == 0 ||
		hashvalue == mark_relid_hash)
	{
		xid_mark_covered_ms = -1;
		mark_relid_known = false;
	}
}

/*
 * The member sequence of the extension named XID_MARK_RELNAME, in the
 * extension's schema: found through the extension's dependents in
 * pg_depend, so that no other relation of that name is ever taken for it.
 * InvalidOid when the extension is not installed or its objects predate the
 * mark (1.0).
 */
Oid
xid_mark_relid(void)
{
	Relation	rel;
	ScanKeyData key[2];
	SysScanDesc scan;
	HeapTuple	tuple;
	Oid			extoid = InvalidOid;
	Oid			nsp = InvalidOid;
	Oid			found = InvalidOid;

	if (mark_relid_known)
		return mark_relid_cached;
	if (!inval_registered)
	{
		CacheRegisterSyscacheCallback(RELOID, mark_inval_callback, (Datum) 0);
		inval_registered = true;
	}

	rel = table_open(ExtensionRelationId, AccessShareLock);
	ScanKeyInit(&key[0], Anum_pg_extension_extname, BTEqualStrategyNumber,
				F_NAMEEQ, CStringGetDatum("xid"));
	scan = systable_beginscan(rel, ExtensionNameIndexId, true, NULL, 1, key);
	tuple = systable_getnext(scan);
	if (HeapTupleIsValid(tuple))
	{
		extoid = ((Form_pg_extension) GETSTRUCT(tuple))->oid;
		nsp = ((Form_pg_extension) GETSTRUCT(tuple))->extnamespace;
	}
	systable_endscan(scan);
	table_close(rel, AccessShareLock);

	if (OidIsValid(extoid))
	{
		rel = table_open(DependRelationId, AccessShareLock);
		ScanKeyInit(&key[0], Anum_pg_depend_refclassid, BTEqualStrategyNumber,
					F_OIDEQ, ObjectIdGetDatum(ExtensionRelationId));
		ScanKeyInit(&key[1], Anum_pg_depend_refobjid, BTEqualStrategyNumber,
					F_OIDEQ, ObjectIdGetDatum(extoid));
		scan = systable_beginscan(rel, DependReferenceIndexId, true, NULL, 2, key);
		while (!OidIsValid(found) &&
			   HeapTupleIsValid(tuple = systable_getnext(scan)))
		{
			Form_pg_depend dep = (Form_pg_depend) GETSTRUCT(tuple);
			HeapTuple	reltup;
			Form_pg_class relform;

			if (dep->classid != RelationRelationId || dep->objsubid != 0 ||
				dep->deptype != DEPENDENCY_EXTENSION)
				continue;
			reltup = SearchSysCache1(RELOID, ObjectIdGetDatum(dep->objid));
			if (!HeapTupleIsValid(reltup))
				continue;
			relform = (Form_pg_class) GETSTRUCT(reltup);
			if (relform->relkind == RELKIND_SEQUENCE &&
				relform->relnamespace == nsp &&
				strcmp(NameStr(relform->relname), XID_MARK_RELNAME) == 0)
				found = dep->objid;
			ReleaseSysCache(reltup);
		}
		systable_endscan(scan);
		table_close(rel, AccessShareLock);
	}

	mark_relid_cached = found;
	mark_relid_hash = OidIsValid(found) ?
		GetSysCacheHashValue1(RELOID, ObjectIdGetDatum(found)) : 0;
	mark_relid_known = true;
	return found;
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
 * Is a mark read from the page, ms, beyond the horizon?  With xid.max_ahead
 * set, that bound refuses the ids above it instead.
 */
static inline bool
mark_beyond_horizon(int64 ms)
{
	return xid_max_ahead_ms == 0 && ms - xid_now_ms() > XID_MARK_HORIZON_MS;
}

/*
 * Refuse to make ids in this database above a mark beyond the horizon.  The
 * caller has released the page.
 */
static void
mark_horizon_error(Relation rel, int64 ms)
{
	int64		ahead = ms - xid_now_ms();

	ereport(ERROR,
			(errcode(ERRCODE_SEQUENCE_GENERATOR_LIMIT_EXCEEDED),
			 errmsg("durable mark of xid_new() in database \"%s\" is %lld ms ahead of the clock",
					get_database_name(MyDatabaseId), (long long) ahead),
			 errdetail("Sequence %s.%s holds %s; new ids would have to be above it, and a mark more than a day ahead of the clock is not trusted.",
					   quote_identifier(get_namespace_name(RelationGetNamespace(rel))),
					   quote_identifier(RelationGetRelationName(rel)),
					   timestamptz_to_str(xid_ms_timestamp(ms))),
			 errhint("Correct the server's clock.  If the mark is wrong (set by hand, or restored from a server whose clock was ahead), the extension's owner can set it back with setval(); ids made before may then be above new ones.")));
}

/* Raise the database's last value to at least value */
static void
raise_last(XidDbState *db, uint64 value)
{
	uint64		old = pg_atomic_read_u64(&db->last);

	while (old < value &&
		   !pg_atomic_compare_exchange_u64(&db->last, &old, value))
		;
}

/* The fast-path limit of a session that saw db: see xid_mark_covered_ms */
static inline int64
db_covered(XidDbState *db)
{
	return XLogRecPtrIsInvalid(db->pending_lsn) ?
		db->mark_ms - XID_LEASE_MS / 2 : db->mark_ms;
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
 * Make the mark of the database (db, its shared state) cover next, an id
 * just taken from its last value, before it is returned; false when the
 * mark was read just now, or was read by another session after next was
 * taken and next is not above it: then take the next id again, which is
 * above it.
 *
 * The lease is taken early: once ids reach the second half of it, the next
 * one is written (a pending mark) and the WAL writer is asked to flush it,
 * without waiting.  When ids pass the mark, the pending mark becomes the
 * mark, after XLogFlush() of its record, which has almost always been
 * flushed by then.  So no id is returned before the mark that covers it is
 * flushed, and no session waits for a flush of its own in the middle of a
 * transaction, unless ids outrun the lease (after an idle spell, or when
 * the time field jumps).  db->mark_ms only ever holds a flushed value.
 *
 * The mark is read from the page (and ids start above it) when the state has
 * not read this sequence yet: the first id of a server run, or a sequence
 * made anew with the extension; and when the page holds more than this
 * server run wrote there: a setval() by pg_restore or the owner.
 */
bool
xid_mark_cover(XidDbState *db, uint64 next)
{
	int64		ms = XidPayloadGetMs(next);
	Oid			relid;
	Relation	rel;
	Buffer		buf;
	Form_pg_sequence_data seq;
	int64		page_ms;
	int64		mark;
	XLogRecPtr	lsn;
	bool		known;

	/* a hot standby writes no WAL: no mark either (docs/generating.md) */
	if (RecoveryInProgress())
		return true;
	relid = xid_mark_relid();
	if (!OidIsValid(relid))
	{
		xid_mark_covered_ms = PG_INT64_MAX;
		return true;
	}

	SpinLockAcquire(&db->mutex);
	if (db->relid == relid && next > db->floor)
	{
		/* covered, and the next lease under way or not due yet */
		if (ms <= db_covered(db))
		{
			xid_mark_covered_ms = db_covered(db);
			SpinLockRelease(&db->mutex);
			return true;
		}
		/* past the mark, into the pending one: it becomes the mark */
		if (ms > db->mark_ms && !XLogRecPtrIsInvalid(db->pending_lsn) &&
			ms <= db->pending_ms)
		{
			lsn = db->pending_lsn;
			mark = db->pending_ms;
			SpinLockRelease(&db->mutex);
			XLogFlush(lsn);
			SpinLockAcquire(&db->mutex);
			if (db->relid == relid && db->pending_lsn == lsn)
			{
				db->mark_ms = Max(db->mark_ms, mark);
				db->pending_lsn = InvalidXLogRecPtr;
			}
			xid_mark_covered_ms = db->relid == relid ? db_covered(db) : -1;
			SpinLockRelease(&db->mutex);
			return true;
		}
	}
	SpinLockRelease(&db->mutex);

	/*
	 * Read the mark and move it, one session at a time: the exclusive lock on
	 * the sequence's page orders them.
	 */
	rel = relation_open(relid, RowExclusiveLock);
	buf = ReadBuffer(rel, 0);
	LockBuffer(buf, BUFFER_LOCK_EXCLUSIVE);
	seq = mark_tuple(BufferGetPage(buf));
	if (seq == NULL)
	{
		UnlockReleaseBuffer(buf);
		mark_page_error(rel);
	}
	page_ms = Max(seq->last_value, 0);

	/*
	 * Only a session that holds the page's lock reads the page into the state
	 * or writes it, so what the state says of the page stays true while this
	 * one holds it.
	 */
	SpinLockAcquire(&db->mutex);
	known = db->relid == relid && page_ms <= db->page_ms;
	SpinLockRelease(&db->mutex);
	if (!known)
	{
		uint64		floor = XidMsGetPayload(page_ms, XID_RANDOM_MASK);

		/*
		 * The first read of this sequence in this server run, or a value set
		 * by someone else: ids from now on are above every id issued before
		 * the mark was written, so above its millisecond.  The page may hold
		 * a pending mark of a server run that ended since: it counts once
		 * flushed.
		 */
		if (mark_beyond_horizon(page_ms))
		{
			UnlockReleaseBuffer(buf);
			mark_horizon_error(rel, page_ms);
		}
		XLogFlush(PageGetLSN(BufferGetPage(buf)));
		SpinLockAcquire(&db->mutex);
		db->relid = relid;
		db->page_ms = page_ms;
		db->mark_ms = page_ms;
		db->pending_ms = 0;
		db->pending_lsn = InvalidXLogRecPtr;
		db->floor = floor;
		SpinLockRelease(&db->mutex);
		raise_last(db, floor);
		xid_mark_covered_ms = -1;
		UnlockReleaseBuffer(buf);
		relation_close(rel, NoLock);
		return false;
	}

	SpinLockAcquire(&db->mutex);
	if (next <= db->floor)
	{
		/* another session read the mark after next was taken */
		SpinLockRelease(&db->mutex);
		UnlockReleaseBuffer(buf);
		relation_close(rel, NoLock);
		return false;
	}
	mark = db->mark_ms;
	if (ms <= db_covered(db) ||
		(ms > mark && !XLogRecPtrIsInvalid(db->pending_lsn) &&
		 ms <= db->pending_ms))
	{
		/* another session moved it meanwhile: look again */
		SpinLockRelease(&db->mutex);
		UnlockReleaseBuffer(buf);
		relation_close(rel, NoLock);
		return xid_mark_cover(db, next);
	}
	SpinLockRelease(&db->mutex);

	if (ms > mark)
	{
		/* past the lease with none pending: take one and wait for it */
		mark = Min(Max(ms, page_ms) + XID_LEASE_MS, XID_MAX_MS);
		lsn = write_mark(rel, buf, mark);
		XLogFlush(lsn);
		SpinLockAcquire(&db->mutex);
		if (db->relid == relid)
		{
			db->page_ms = mark;
			db->mark_ms = Max(db->mark_ms, mark);
			if (!XLogRecPtrIsInvalid(db->pending_lsn) && db->pending_ms <= mark)
				db->pending_lsn = InvalidXLogRecPtr;
		}
	}
	else
	{
		/* in the lease's second half: the next one, flushed in background */
		int64		pending = Min(Max(ms, page_ms) + XID_LEASE_MS, XID_MAX_MS);

		lsn = write_mark(rel, buf, pending);
		XLogSetAsyncXactLSN(lsn);
		SpinLockAcquire(&db->mutex);
		if (db->relid == relid)
		{
			db->page_ms = pending;
			db->pending_ms = pending;
			db->pending_lsn = lsn;
		}
	}
	/* (a state that went to a new sequence meanwhile reads it next time) */
	xid_mark_covered_ms = db->relid == relid ? db_covered(db) : -1;
	SpinLockRelease(&db->mutex);

	UnlockReleaseBuffer(buf);
	relation_close(rel, NoLock);
	return true;
}

/*
 * Whether a warning at warned_ms is less than XID_WARN_INTERVAL_MS from
 * now_ms, either way: sessions read the clock a little apart, so the one
 * that warned may have read a later millisecond than another that comes
 * after it; a clock stepped back further than that warns again.
 */
static inline bool
warned_recently(int64 now_ms, int64 warned_ms)
{
	return now_ms - warned_ms < XID_WARN_INTERVAL_MS &&
		warned_ms - now_ms < XID_WARN_INTERVAL_MS;
}

/*
 * next runs more than XID_AHEAD_WARN_MS ahead of the clock (now_ms): refuse
 * it beyond xid.max_ahead, and warn in the server's log, at most once a
 * minute per database (db, its shared state).
 */
void
xid_check_ahead(XidDbState *db, uint64 next, int64 now_ms)
{
	int64		ahead = XidPayloadGetMs(next) - now_ms;
	uint64		warned;

	if (xid_max_ahead_ms > 0 && ahead > xid_max_ahead_ms)
		ereport(ERROR,
				(errcode(ERRCODE_SEQUENCE_GENERATOR_LIMIT_EXCEEDED),
				 errmsg("new xid would be %lld ms ahead of the clock, beyond xid.max_ahead (%d ms)",
						(long long) ahead, xid_max_ahead_ms),
				 errdetail("New ids stay above every id issued before, and the clock is behind the last of them."),
				 errhint("Correct the server's clock, or raise xid.max_ahead.")));

	warned = pg_atomic_read_u64(&db->warned_ms);
	if (warned_recently(now_ms, (int64) warned))
		return;
	if (!pg_atomic_compare_exchange_u64(&db->warned_ms, &warned, (uint64) now_ms))
		return;					/* another session warns */
	ereport(WARNING,
			(errmsg("new xids are %lld ms ahead of the clock", (long long) ahead),
			 errdetail("New ids stay above every id issued before; their time runs ahead until the clock catches up."),
			 errhint("Check the server's clock; xid_generator_status() shows how far it is behind.")));
}

/*
 * The mark on the page of relid, the mark's sequence (xid_mark_relid), for
 * xid_generator_status(); false when it has none yet.
 */
bool
xid_mark_read(Oid relid, int64 *mark)
{
	Relation	rel = relation_open(relid, AccessShareLock);
	Buffer		buf = ReadBuffer(rel, 0);
	Form_pg_sequence_data seq;
	bool		have = false;

	LockBuffer(buf, BUFFER_LOCK_SHARE);
	seq = mark_tuple(BufferGetPage(buf));
	if (seq != NULL && seq->is_called)
	{
		*mark = seq->last_value;
		have = true;
	}
	UnlockReleaseBuffer(buf);
	relation_close(rel, AccessShareLock);
	return have;
}

/* From _PG_init: the setting that bounds how far ids run ahead */
void
xid_mark_init(void)
{
	DefineCustomIntVariable("xid.max_ahead",
							"How far the time in new xids may run ahead of the clock (0 = no bound).",
							"New ids stay above every id issued before, also when the clock goes back; beyond this, xid_new() fails instead.",
							&xid_max_ahead_ms,
							0, 0, INT_MAX,
							PGC_SIGHUP,
							GUC_UNIT_MS,
							NULL, NULL, NULL);
}
