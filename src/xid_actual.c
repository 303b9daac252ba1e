/*-------------------------------------------------------------------------
 *
 * xid_actual.c
 *	  The actual ends of an xid column, read through its btree index, once
 *	  per plan and relation.
 *
 * The statistics end where the last ANALYZE found the column; the rows
 * inserted since, on a time-ordered key the ones queried most, lie past
 * that end.  Core's get_actual_variable_range() (selfuncs.c) reads the
 * true ends from a btree index for the same reason, and this is the same
 * read: an index-only descent to the first entry from either end whose
 * heap tuple is not dead to everyone (SnapshotNonVacuumable), the heap
 * visited only where the visibility map cannot answer, and given up after
 * XID_ACTUAL_PAGES_LIMIT heap pages of dead tuples (as core does from 16
 * on).  A third descent finds the first value past the histogram's end,
 * where the rows added since ANALYZE begin: after a gap (a table idle for
 * days, then written again) they do not begin at the histogram's end.
 *
 * Core reads the ends once per clause; here the answer is kept for the
 * rest of the plan, in the memory of the planner's PlannerGlobal: the next
 * plan reads the index anew and so sees the rows inserted meanwhile.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/genam.h"
#include "access/nbtree.h"
#include "access/relscan.h"
#include "access/skey.h"
#include "access/stratnum.h"
#include "access/table.h"
#include "access/tableam.h"
#include "access/visibilitymap.h"
#include "catalog/pg_am.h"
#include "executor/tuptable.h"
#include "parser/parsetree.h"
#include "storage/bufmgr.h"
#include "utils/hsearch.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/rel.h"
#include "utils/snapmgr.h"
#include "utils/typcache.h"

#include "compat.h"
#include "xid.h"
#include "xid_actual.h"

/* heap pages of dead tuples a descent reads before it gives up */
#define XID_ACTUAL_PAGES_LIMIT 100

typedef struct ActualKey
{
	Oid			relid;
	AttrNumber	attno;
} ActualKey;

typedef struct ActualEntry
{
	ActualKey	key;
	bool		have;			/* the index has a non-null value */
	XidActualRange range;
	uint64		past;			/* what range.after is above */
	bool		have_past;
} ActualEntry;

/* the plan the cache belongs to, and the cache, in that plan's memory */
static PlannerGlobal *cache_glob = NULL;
static HTAB *cache = NULL;

static void
cache_forget(void *arg)
{
	cache_glob = NULL;
	cache = NULL;
}

/*
 * The cache of this plan, made in the memory its PlannerGlobal lives in,
 * and forgotten when that memory goes.
 */
static HTAB *
plan_cache(PlannerInfo *root)
{
	MemoryContext cxt;
	MemoryContextCallback *cb;
	HASHCTL		ctl;

	if (root->glob == NULL)
		return NULL;
	if (cache != NULL && cache_glob == root->glob)
		return cache;
	cxt = GetMemoryChunkContext(root->glob);
	ctl.keysize = sizeof(ActualKey);
	ctl.entrysize = sizeof(ActualEntry);
	ctl.hcxt = cxt;
	cache = hash_create("xid actual ranges", 16, &ctl,
						HASH_ELEM | HASH_BLOBS | HASH_CONTEXT);
	cache_glob = root->glob;
	cb = MemoryContextAlloc(cxt, sizeof(MemoryContextCallback));
	cb->func = cache_forget;
	cb->arg = NULL;
	MemoryContextRegisterResetCallback(cxt, cb);
	return cache;
}

/*
 * The btree index whose first key is the column attno with the type's
 * default btree family, without a predicate; NULL for none.
 */
static IndexOptInfo *
column_index(RelOptInfo *rel, AttrNumber attno, Oid type)
{
	TypeCacheEntry *tc = lookup_type_cache(type, TYPECACHE_BTREE_OPFAMILY);
	ListCell   *lc;

	if (!OidIsValid(tc->btree_opf))
		return NULL;
	foreach(lc, rel->indexlist)
	{
		IndexOptInfo *index = (IndexOptInfo *) lfirst(lc);

		if (index->relam == BTREE_AM_OID && !index->hypothetical &&
			index->indpred == NIL && index->ncolumns >= 1 &&
			index->indexkeys[0] == attno &&
			index->opfamily[0] == tc->btree_opf &&
			index->opcintype[0] == type)
			return index;
	}
	return NULL;
}

/*
 * One descent: the first non-null value in direction dir that the scan
 * keys admit and whose tuple is not dead to everyone.
 */
static bool
descend(Relation heap, Relation index, ScanKey key, ScanDirection dir,
		uint64 *value)
{
	SnapshotData snapshot;
	IndexScanDesc scan;
	TupleTableSlot *slot;
	Buffer		vmbuffer = InvalidBuffer;
	BlockNumber last_block = InvalidBlockNumber;
	int			pages = 0;
	ItemPointer tid;
	bool		found = false;

	InitNonVacuumableSnapshot(snapshot, GlobalVisTestFor(heap));
	scan = XID_INDEX_BEGINSCAN(heap, index, &snapshot, 1, 0);
	scan->xs_want_itup = true;
	index_rescan(scan, key, 1, NULL, 0);
	slot = table_slot_create(heap, NULL);
	while ((tid = index_getnext_tid(scan, dir)) != NULL)
	{
		BlockNumber block = ItemPointerGetBlockNumber(tid);
		Datum		values[INDEX_MAX_KEYS];
		bool		isnull[INDEX_MAX_KEYS];

		if (!VM_ALL_VISIBLE(heap, block, &vmbuffer))
		{
			if (!index_fetch_heap(scan, slot))
			{
				if (block != last_block && ++pages > XID_ACTUAL_PAGES_LIMIT)
					break;
				last_block = block;
				continue;
			}
			ExecClearTuple(slot);
		}
		if (scan->xs_itup == NULL)
			break;
		index_deform_tuple(scan->xs_itup, scan->xs_itupdesc, values, isnull);
		if (!isnull[0])
		{
			*value = DatumGetXidPayload(values[0]);
			found = true;
		}
		break;
	}
	if (vmbuffer != InvalidBuffer)
		ReleaseBuffer(vmbuffer);
	index_endscan(scan);
	ExecDropSingleTupleTableSlot(slot);
	return found;
}

/*
 * Read the ends (and, with have_past, the first value above past) from
 * the index.
 */
static void
read_index(Oid relid, IndexOptInfo *info, Oid type, ActualEntry *e,
		   bool ends, bool have_past, uint64 past)
{
	MemoryContext tmp = AllocSetContextCreate(CurrentMemoryContext,
											  "xid actual range",
											  ALLOCSET_SMALL_SIZES);
	MemoryContext old = MemoryContextSwitchTo(tmp);
	Relation	heap = table_open(relid, NoLock);
	Relation	index = index_open(info->indexoid, NoLock);
	ScanDirection first = info->reverse_sort[0] ?
		BackwardScanDirection : ForwardScanDirection;
	ScanDirection last = info->reverse_sort[0] ?
		ForwardScanDirection : BackwardScanDirection;
	ScanKeyData key;

	if (ends)
	{
		ScanKeyEntryInitialize(&key, SK_ISNULL | SK_SEARCHNOTNULL, 1,
							   InvalidStrategy, InvalidOid, InvalidOid,
							   InvalidOid, (Datum) 0);
		e->have = descend(heap, index, &key, first, &e->range.min) &&
			descend(heap, index, &key, last, &e->range.max);
	}
	if (have_past && e->have)
	{
		Oid			gt = get_opfamily_member(info->opfamily[0], type, type,
											 BTGreaterStrategyNumber);

		e->past = past;
		e->have_past = true;
		e->range.have_after = false;
		if (OidIsValid(gt) && past < e->range.max)
		{
			ScanKeyInit(&key, 1, BTGreaterStrategyNumber, get_opcode(gt),
						XidPayloadGetDatum(past));
			e->range.have_after = descend(heap, index, &key, first,
										  &e->range.after);
		}
	}
	index_close(index, NoLock);
	table_close(heap, NoLock);
	MemoryContextSwitchTo(old);
	MemoryContextDelete(tmp);
}

/* See xid_actual.h */
bool
xid_actual_range(PlannerInfo *root, VariableStatData *vardata, uint64 past,
				 XidActualRange *range)
{
	RelOptInfo *rel = vardata->rel;
	RangeTblEntry *rte;
	Var		   *var;
	Oid			type;
	IndexOptInfo *index;
	HTAB	   *htab;
	ActualKey	key;
	ActualEntry local;
	ActualEntry *e;
	bool		found = false;

	if (root == NULL || rel == NULL || vardata->var == NULL ||
		!IsA(vardata->var, Var) || rel->relid == 0 ||
		(int) rel->relid >= root->simple_rel_array_size ||
		rel->indexlist == NIL)
		return false;
	var = (Var *) vardata->var;
	if ((Index) var->varno != rel->relid || var->varlevelsup != 0 ||
		var->varattno <= 0)
		return false;
	rte = planner_rt_fetch(rel->relid, root);
	if (rte == NULL || rte->rtekind != RTE_RELATION || rte->inh)
		return false;
	type = getBaseType(var->vartype);
	index = column_index(rel, var->varattno, type);
	if (index == NULL)
		return false;

	memset(&key, 0, sizeof(key));
	key.relid = rte->relid;
	key.attno = var->varattno;
	htab = plan_cache(root);
	if (htab != NULL)
		e = hash_search(htab, &key, HASH_ENTER, &found);
	else
		e = &local;
	if (!found)
	{
		/* made whole before it is used: an error leaves "no answer" */
		e->have = false;
		e->have_past = false;
		read_index(rte->relid, index, type, e, true, true, past);
	}
	else if (e->have && (!e->have_past || e->past != past))
		read_index(rte->relid, index, type, e, false, true, past);
	if (!e->have)
		return false;
	*range = e->range;
	return true;
}
