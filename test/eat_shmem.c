/*-------------------------------------------------------------------------
 *
 * eat_shmem.c
 *	  For test/t/030_no_preload.pl: a function that takes all the shared
 *	  memory the server keeps spare, so that the test can see what
 *	  xid_new() does on 15 and 16 without shared_preload_libraries when
 *	  none is left.  Built by the test, loaded by its absolute path; never
 *	  installed.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "fmgr.h"
#include "storage/shmem.h"

PG_MODULE_MAGIC;

/*
 * eat_spare_shmem(): allocate from the spare shared memory until nothing is
 * left, in chunks from 64 kB down to 64 bytes; returns the bytes taken.
 */
PG_FUNCTION_INFO_V1(eat_spare_shmem);
Datum
eat_spare_shmem(PG_FUNCTION_ARGS)
{
	Size		chunk;
	int64		taken = 0;

	for (chunk = 65536; chunk >= 64; chunk /= 2)
	{
		while (ShmemAllocNoError(chunk) != NULL)
			taken += chunk;
	}
	PG_RETURN_INT64(taken);
}
