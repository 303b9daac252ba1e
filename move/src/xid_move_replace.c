/*-------------------------------------------------------------------------
 *
 * xid_move_replace.c
 *	  The ids of the rows the current transaction deleted from a table
 *	  whose key moves, by their old key, so that a row inserted again with
 *	  the same key in the same transaction gets the id its referencing rows
 *	  already hold.
 *
 * A parent row replaced by key keeps its referencing rows only within one
 * transaction: WITH d AS (DELETE ... RETURNING ...) INSERT ..., which a NO
 * ACTION foreign key accepts at the statement's end, or a DELETE and an
 * INSERT under a deferred one.  Across transactions the delete alone must
 * satisfy the foreign key, so no referencing row is left to keep an id.
 * The key trigger (xid_move_trigger.c) remembers each deleted row's id
 * here BEFORE DELETE, which fires before the INSERT of the same statement
 * reads the row, and looks the key up BEFORE INSERT.  Nothing outlives the
 * transaction: the table lives in its memory and is forgotten at its end.
 * An entry of a delete that did not happen (another trigger skipped it, a
 * subtransaction rolled back) is harmless: its row, and so its key, is
 * still there, and an insert with that key fails on the key's unique
 * index.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/xact.h"
#include "utils/hsearch.h"
#include "utils/memutils.h"

#include "xid_move_replace.h"

/* The largest key kept: a uuid (int2, int4 and int8 keys are by value) */
#define REPLACE_KEY_BYTES 16

typedef struct ReplaceKey
{
	Oid			tbl;
	int16		len;
	uint8		bytes[REPLACE_KEY_BYTES];
} ReplaceKey;

typedef struct ReplaceEntry
{
	ReplaceKey	key;
	Datum		id;				/* an xid, 8 bytes by value */
} ReplaceEntry;

static HTAB *replaced = NULL;
static bool callback_registered = false;

/* the table goes with the transaction's memory */
static void
replace_xact_end(XactEvent event, void *arg)
{
	if (event == XACT_EVENT_COMMIT || event == XACT_EVENT_ABORT ||
		event == XACT_EVENT_PREPARE || event == XACT_EVENT_PARALLEL_COMMIT ||
		event == XACT_EVENT_PARALLEL_ABORT)
		replaced = NULL;
}

/* The hash key of (tbl, key), or false for a key not kept */
static bool
replace_key(ReplaceKey *k, Oid tbl, Datum key, int16 keylen, bool keybyval)
{
	memset(k, 0, sizeof(*k));
	k->tbl = tbl;
	k->len = keylen;
	if (keybyval)
		memcpy(k->bytes, &key, sizeof(Datum));
	else if (keylen > 0 && keylen <= REPLACE_KEY_BYTES)
		memcpy(k->bytes, DatumGetPointer(key), keylen);
	else
		return false;
	return true;
}

void
xid_move_replace_remember(Oid tbl, Datum key, int16 keylen, bool keybyval,
						  Datum id)
{
	ReplaceKey	k;
	ReplaceEntry *e;

	if (!replace_key(&k, tbl, key, keylen, keybyval))
		return;
	if (replaced == NULL)
	{
		HASHCTL		ctl;

		if (!callback_registered)
		{
			RegisterXactCallback(replace_xact_end, NULL);
			callback_registered = true;
		}
		ctl.keysize = sizeof(ReplaceKey);
		ctl.entrysize = sizeof(ReplaceEntry);
		ctl.hcxt = TopTransactionContext;
		replaced = hash_create("xid_move replaced rows", 16, &ctl,
							   HASH_ELEM | HASH_BLOBS | HASH_CONTEXT);
	}
	e = hash_search(replaced, &k, HASH_ENTER, NULL);
	e->id = id;
}

bool
xid_move_replace_pending(void)
{
	return replaced != NULL;
}

bool
xid_move_replace_find(Oid tbl, Datum key, int16 keylen, bool keybyval,
					  Datum *id)
{
	ReplaceKey	k;
	ReplaceEntry *e;

	if (replaced == NULL || !replace_key(&k, tbl, key, keylen, keybyval))
		return false;
	e = hash_search(replaced, &k, HASH_FIND, NULL);
	if (e == NULL)
		return false;
	*id = e->id;
	return true;
}
