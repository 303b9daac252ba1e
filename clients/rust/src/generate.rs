//! The generator: `xid_new()`'s layout, strictly increasing in a process.

use crate::time::Timestamp;
use crate::{Error, Xid, EPOCH_MS, MAX_MS, MAX_NODE_BITS, RANDOM_BITS, RANDOM_MASK};
use std::cell::Cell;
use std::collections::hash_map::RandomState;
use std::hash::{BuildHasher, Hasher};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{SystemTime, UNIX_EPOCH};

/// Makes ids with the layout of the server's `xid_new()`: the millisecond,
/// then 22 bits.  In a new millisecond the counter starts at a random value
/// in the lower half of its bits; within a millisecond it steps by 1 to 32
/// (`32 >> node_bits`, at least 1); when a millisecond is used up, or the
/// clock went back, it borrows the next one.  So its ids strictly increase,
/// across threads too: the last id is one atomic 64-bit word updated with
/// compare-and-swap, as the server does, never a lock.  With `node_bits >
/// 0` the top `node_bits` of the 22 bits hold the node number
/// (`xid.node_bits`, `xid.node_id`), and generators with different node
/// numbers never make the same id.
///
/// The low bits are a tie-breaker, not a secret: they come from a fast
/// per-thread generator seeded from the operating system's randomness.
#[derive(Debug)]
pub struct Generator {
    last: AtomicU64,
    counter_bits: u32,
    counter_max: u64,
    node_field: u64,
    step_mask: u64,
    clock: fn() -> i64,
}

fn now_unix_ms() -> i64 {
    match SystemTime::now().duration_since(UNIX_EPOCH) {
        Ok(d) => d.as_millis() as i64,
        Err(_) => 0,
    }
}

thread_local! {
    static RNG: Cell<u64> = Cell::new({
        let mut h = RandomState::new().build_hasher();
        h.write_u64(now_unix_ms() as u64);
        h.finish() | 1
    });
}

// wyrand: one multiply, good enough for a tie-breaker
fn random_u64() -> u64 {
    RNG.with(|s| {
        let v = s.get().wrapping_add(0xa076_1d64_78bd_642f);
        s.set(v);
        let t = (v as u128).wrapping_mul((v ^ 0xe703_7ed1_a0b4_28db) as u128);
        (t >> 64) as u64 ^ t as u64
    })
}

static DEFAULT: Generator = Generator::plain();

impl Generator {
    const fn plain() -> Generator {
        Generator {
            last: AtomicU64::new(0),
            counter_bits: RANDOM_BITS,
            counter_max: RANDOM_MASK,
            node_field: 0,
            step_mask: 31,
            clock: now_unix_ms,
        }
    }

    /// A generator for a node layout; `new(0, 0)` is no node number.
    pub fn new(node_bits: u32, node_id: u32) -> Result<Generator, Error> {
        if node_bits > MAX_NODE_BITS {
            return Err(Error::new(
                "22023",
                alloc::format!("node bits {node_bits} is out of range"),
                Some("An xid has from 0 to 12 node bits.".into()),
            ));
        }
        if node_id >= 1 << node_bits {
            return Err(Error::new(
                "22023",
                alloc::format!("node id {node_id} does not fit in {node_bits} node bits"),
                Some(
                    alloc::format!(
                        "With {node_bits} node bits, node numbers go from 0 to {}.",
                        (1u32 << node_bits) - 1
                    )
                    .into(),
                ),
            ));
        }
        let counter_bits = RANDOM_BITS - node_bits;
        Ok(Generator {
            last: AtomicU64::new(0),
            counter_bits,
            counter_max: (1 << counter_bits) - 1,
            node_field: (node_id as u64) << counter_bits,
            step_mask: (32u64 >> node_bits.min(5)) - 1,
            clock: now_unix_ms,
        })
    }

    /// Replaces the clock (milliseconds since 1970), for tests.
    pub fn with_clock(mut self, clock: fn() -> i64) -> Generator {
        self.clock = clock;
        self
    }

    /// A new id, above every id this generator made before.  It panics
    /// only when the clock is outside 2011..2151; [`Generator::try_next`]
    /// returns the error.
    #[allow(clippy::should_implement_trait)]
    pub fn next(&self) -> Xid {
        match self.try_next() {
            Ok(x) => x,
            Err(e) => panic!("{e}"),
        }
    }

    /// [`Generator::next`] returning the error for a clock outside
    /// 2011..2151.
    pub fn try_next(&self) -> Result<Xid, Error> {
        let now = (self.clock)() - EPOCH_MS;
        if !(0..=MAX_MS).contains(&now) {
            return Err(Error::time_range());
        }
        let rnd = random_u64();
        let start = self.node_field | (rnd & (self.counter_max >> 1));
        let step = 1 + ((rnd >> 32) & self.step_mask);
        let mut old = self.last.load(Ordering::Relaxed);
        loop {
            let old_ms = (old >> RANDOM_BITS) as i64;
            let low = old & RANDOM_MASK;
            let next = if old_ms < now {
                (now as u64) << RANDOM_BITS | start // a new millisecond
            } else if low & self.counter_max <= self.counter_max - step
                && low >> self.counter_bits == self.node_field >> self.counter_bits
            {
                old + step
            } else {
                // this millisecond is used up (or has another node's
                // layout): borrow the next one
                if old_ms + 1 > MAX_MS {
                    return Err(Error::time_range());
                }
                ((old_ms + 1) as u64) << RANDOM_BITS | start
            };
            match self.last.compare_exchange_weak(old, next, Ordering::Relaxed, Ordering::Relaxed) {
                Ok(_) => return Ok(Xid(next)),
                Err(cur) => old = cur,
            }
        }
    }
}

impl Xid {
    /// A new id from the process's generator (as `xid_new()`), safe from
    /// any thread.  It panics only when the clock is outside 2011..2151.
    #[allow(clippy::new_without_default)]
    pub fn new() -> Xid {
        DEFAULT.next()
    }

    /// An id for a given time with random low bits, as
    /// `xid_new(timestamptz)`, for backfills; it takes no part in the
    /// ordering of [`Xid::new`].
    pub fn at<T: Timestamp + ?Sized>(t: &T) -> Result<Xid, Error> {
        Xid::from_time(t, (random_u64() & RANDOM_MASK) as u32)
    }
}
