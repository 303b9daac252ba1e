/*-------------------------------------------------------------------------
 *
 * xid_clock.c
 *	  The wall clock in milliseconds since the xid epoch, for xid_new().
 *
 * Reading CLOCK_REALTIME is most of what xid_new() costs: on x86-64 the
 * kernel's vDSO orders its time stamp counter (TSC) read behind every
 * instruction in flight, which costs 20 to 40 ns inside a busy executor.
 * An xid only needs the millisecond, so where it is safe a backend reads
 * the clock once and then, while the unordered TSC shows that the same
 * millisecond cannot yet have ended, reuses that millisecond.
 *
 * Safe means: the CPU reports an invariant TSC (constant rate, running in
 * every power state), the kernel itself keeps time with it, and the TSC's
 * rate has been measured against the clock over at least 10 ms.  The
 * window is computed from 3/4 of the measured rate, so it ends before the
 * millisecond does; the rate is measured again at every clock read, and a
 * counter that ran slower than assumed turns the shortcut off for the rest
 * of the session.  A counter that went backwards or jumped fails the
 * window test and just causes a clock read.  At most 256 ids reuse one
 * reading.  SET xid.fast_clock = off reads the clock for every id.
 *
 *-------------------------------------------------------------------------
 */
#include "xid.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

#include "utils/guc.h"

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <cpuid.h>
#include <x86intrin.h>
#define XID_HAVE_TSC 1
#endif

#define NS_PER_MS			INT64CONST(1000000)
#define MAX_REUSES			256
#define MIN_CALIBRATION_NS	(10 * NS_PER_MS)

static bool xid_fast_clock = true;

#ifdef XID_HAVE_TSC
typedef enum TscState
{
	TSC_UNCHECKED,
	TSC_USABLE,
	TSC_UNUSABLE
} TscState;

static struct
{
	TscState	state;
	uint64		tsc;			/* counter at the last clock read */
	uint64		window;			/* counter ticks the millisecond surely lasts
								 * after tsc; 0 until calibrated */
	int64		ms;				/* the millisecond read then */
	int			reuses_left;
	uint64		anchor_tsc;		/* calibration anchor */
	int64		anchor_ns;
	double		min_ticks_per_ns;	/* 3/4 of the measured rate */
}			tsc_clock;

/* Does the CPU say its TSC is invariant, and does the kernel use it? */
static bool
tsc_is_trustworthy(void)
{
	unsigned int a,
				b,
				c,
				d;
	char		source[32] = {0};
	FILE	   *f;

	if (!__get_cpuid(0x80000000, &a, &b, &c, &d) || a < 0x80000007)
		return false;
	__get_cpuid(0x80000007, &a, &b, &c, &d);
	if (!(d & (1u << 8)))
		return false;

	f = fopen("/sys/devices/system/clocksource/clocksource0/current_clocksource", "r");
	if (f == NULL)
		return false;
	if (fgets(source, sizeof(source), f) == NULL)
		source[0] = '\0';
	fclose(f);
	return strcmp(source, "tsc\n") == 0;
}

/*
 * Measure the counter's rate against a clock reading taken after it; turn
 * the shortcut off when the counter ran slower than the rate relied on.
 */
static void
tsc_calibrate(uint64 tsc, int64 ns)
{
	int64		dns = ns - tsc_clock.anchor_ns;
	double		rate;

	if (tsc_clock.anchor_ns != 0 && dns < MIN_CALIBRATION_NS && dns >= 0)
		return;					/* too soon to measure */
	if (tsc_clock.anchor_ns != 0 && dns >= MIN_CALIBRATION_NS &&
		tsc > tsc_clock.anchor_tsc)
	{
		rate = (double) (tsc - tsc_clock.anchor_tsc) / (double) dns;
		if (tsc_clock.min_ticks_per_ns == 0)
			tsc_clock.min_ticks_per_ns = rate * 0.75;
		else if (rate < tsc_clock.min_ticks_per_ns)
		{
			tsc_clock.state = TSC_UNUSABLE;
			return;
		}
	}
	/* first reading, a clock or counter step, or a measurement made */
	tsc_clock.anchor_tsc = tsc;
	tsc_clock.anchor_ns = ns;
}
#endif							/* XID_HAVE_TSC */

static inline int64
clock_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (int64) ts.tv_sec * INT64CONST(1000000000) + ts.tv_nsec;
}

/*
 * Milliseconds since the xid epoch, now (never later than the clock's).
 */
int64
xid_clock_now_ms(void)
{
	int64		ns;

#ifdef XID_HAVE_TSC
	if (xid_fast_clock && tsc_clock.state != TSC_UNUSABLE)
	{
		uint64		tsc;

		if (tsc_clock.state == TSC_USABLE && tsc_clock.reuses_left > 0 &&
			__rdtsc() - tsc_clock.tsc < tsc_clock.window)
		{
			tsc_clock.reuses_left--;
			return tsc_clock.ms;
		}
		if (tsc_clock.state == TSC_UNCHECKED)
			tsc_clock.state = tsc_is_trustworthy() ? TSC_USABLE : TSC_UNUSABLE;
		if (tsc_clock.state == TSC_USABLE)
		{
			/* the counter first: the clock reading is no earlier than it */
			tsc = __rdtsc();
			ns = clock_ns();
			tsc_calibrate(tsc, ns);
			tsc_clock.tsc = tsc;
			tsc_clock.ms = ns / NS_PER_MS - XID_EPOCH_UNIX_MS;
			tsc_clock.window = (uint64) (tsc_clock.min_ticks_per_ns *
										 (double) (NS_PER_MS - ns % NS_PER_MS));
			tsc_clock.reuses_left = MAX_REUSES;
			return tsc_clock.ms;
		}
	}
#endif
	ns = clock_ns();
	return ns / NS_PER_MS - XID_EPOCH_UNIX_MS;
}

void
xid_clock_define_guc(void)
{
	DefineCustomBoolVariable("xid.fast_clock",
							 "Lets xid_new() reuse a clock reading while the CPU's time stamp counter shows the millisecond has not ended.",
							 "Takes effect only on x86-64 with an invariant time stamp counter that the kernel keeps time with.",
							 &xid_fast_clock,
							 true,
							 PGC_USERSET,
							 0,
							 NULL, NULL, NULL);
}
