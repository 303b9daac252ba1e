//! Time: the instant of an id, the id of an instant, and the bounds of a
//! time, as the server computes them (`xid_time_lower_bound`,
//! `xid_time_upper_bound`).

use crate::{Error, Xid, EPOCH_MS, MAX_MS, RANDOM_BITS, RANDOM_MASK};

mod sealed {
    pub trait Sealed {}
}

/// An instant the crate reads: [`std::time::SystemTime`] (feature `std`),
/// `chrono::DateTime<Tz>` (feature `chrono`), `time::OffsetDateTime`
/// (feature `time`).
pub trait Timestamp: sealed::Sealed {
    /// Nanoseconds since 1970-01-01T00:00:00Z.
    fn unix_nanos(&self) -> i128;
}

#[cfg(feature = "std")]
impl sealed::Sealed for std::time::SystemTime {}
#[cfg(feature = "std")]
impl Timestamp for std::time::SystemTime {
    fn unix_nanos(&self) -> i128 {
        match self.duration_since(std::time::UNIX_EPOCH) {
            Ok(d) => d.as_nanos() as i128,
            Err(e) => -(e.duration().as_nanos() as i128),
        }
    }
}

#[cfg(feature = "chrono")]
impl<Tz: chrono::TimeZone> sealed::Sealed for chrono::DateTime<Tz> {}
#[cfg(feature = "chrono")]
impl<Tz: chrono::TimeZone> Timestamp for chrono::DateTime<Tz> {
    fn unix_nanos(&self) -> i128 {
        self.timestamp() as i128 * 1_000_000_000 + self.timestamp_subsec_nanos() as i128
    }
}

#[cfg(feature = "time")]
impl sealed::Sealed for time::OffsetDateTime {}
#[cfg(feature = "time")]
impl Timestamp for time::OffsetDateTime {
    fn unix_nanos(&self) -> i128 {
        self.unix_timestamp_nanos()
    }
}

// floor and ceiling of t in milliseconds since the xid epoch, clamped far
// outside the 42-bit range (where only the side matters)
fn ms_of<T: Timestamp + ?Sized>(t: &T) -> (i64, i64) {
    const FAR: i128 = 1 << 50;
    let ns = t.unix_nanos() - EPOCH_MS as i128 * 1_000_000;
    let floor = ns.div_euclid(1_000_000).clamp(-FAR, FAR) as i64;
    let ceil = (ns + 999_999).div_euclid(1_000_000).clamp(-FAR, FAR) as i64;
    (floor, ceil)
}

/// The first id whose time is at or after `t` (`inclusive`) or after `t`,
/// as `xid_time_lower_bound(t, inclusive)`: `id >= time_lower_bound(t,
/// true)` is exactly `xid_time(id) >= t`.  `None` when no id is that late.
/// Exact to the nanosecond of `t` (the server sees `t` at microseconds).
pub fn time_lower_bound<T: Timestamp + ?Sized>(t: &T, inclusive: bool) -> Option<Xid> {
    let (floor, ceil) = ms_of(t);
    let m = if inclusive { ceil } else { floor + 1 };
    if m > MAX_MS {
        return None;
    }
    Some(Xid((m.max(0) as u64) << RANDOM_BITS))
}

/// The last id whose time is at or before `t` (`inclusive`) or before `t`,
/// as `xid_time_upper_bound(t, inclusive)`.  `None` when no id is that
/// early.
pub fn time_upper_bound<T: Timestamp + ?Sized>(t: &T, inclusive: bool) -> Option<Xid> {
    let (floor, ceil) = ms_of(t);
    let m = if inclusive { floor } else { ceil - 1 };
    if m < 0 {
        return None;
    }
    Some(Xid((m.min(MAX_MS) as u64) << RANDOM_BITS | RANDOM_MASK))
}

impl Xid {
    /// The id of the millisecond of `t` (rounded down, as
    /// `xid_new(timestamptz)` does) with the 22 low bits `low`; the errors
    /// are [`Xid::from_unix_ms`]'s.
    pub fn from_time<T: Timestamp + ?Sized>(t: &T, low: u32) -> Result<Xid, Error> {
        Xid::from_xid_epoch_ms(ms_of(t).0, low)
    }

    /// The instant of the id (`xid_time`).
    #[cfg(feature = "std")]
    pub fn time(self) -> std::time::SystemTime {
        std::time::UNIX_EPOCH + std::time::Duration::from_millis(self.unix_ms() as u64)
    }

    /// The instant of the id as a `chrono::DateTime<Utc>`.
    #[cfg(feature = "chrono")]
    pub fn chrono_time(self) -> chrono::DateTime<chrono::Utc> {
        chrono::DateTime::from_timestamp_millis(self.unix_ms()).unwrap_or_default()
    }

    /// The instant of the id as a `time::OffsetDateTime` in UTC.
    #[cfg(feature = "time")]
    pub fn offset_date_time(self) -> time::OffsetDateTime {
        time::OffsetDateTime::from_unix_timestamp_nanos(self.unix_ms() as i128 * 1_000_000)
            .unwrap_or(time::OffsetDateTime::UNIX_EPOCH)
    }
}
