//! The xid identifier of the PostgreSQL extension `xid` (the uid11/xid
//! profile) for Rust: parse, format, validate, the time of an id, the bounds
//! of a prefix, of a time and of a `LIKE` pattern, node numbers, uuid,
//! ULID and ulid-flake conversions, and a generator with the layout of the
//! server's `xid_new()`.
//!
//! An [`Xid`] is an unsigned 64-bit payload: 42 bits of milliseconds since
//! 2011-11-11T11:11:11.111Z, then 22 bits the generator fills.  Its text is
//! exactly 11 Base58 symbols, most significant first, padded with `1`; the
//! alphabet is in ASCII order, so text order is payload order.  Every
//! function gives the same answer as the extension's SQL function of the
//! same meaning (`xid_in`, `xid_out`, `xid_prefix_lower_bound`,
//! `xid_time_lower_bound`, `xid_like_lower_bound`, `xid_node`,
//! `xid_to_uuid`, `xid_to_ulid`, `xid_from_ulid_flake`), which the tests
//! check against a server.
//!
//! The codec needs no dependency and works without `std` (with `alloc`,
//! for the errors' text); the feature `std` (default) adds the clock, the
//! generator and [`std::time::SystemTime`].  Optional features:
//! `serde` (the text), `chrono`, `time`, `uuid` (conversions to
//! `uuid::Uuid`), and the drivers: `postgres-types` (tokio-postgres and
//! postgres, [`postgres_ext`]), `sqlx` ([`sqlx_ext`]) and `diesel`
//! ([`diesel_ext`]).
//!
//! ```
//! use pgxid::Xid;
//! let x: Xid = "5cnEkaefSdu".parse().unwrap();
//! assert_eq!(x.to_string(), "5cnEkaefSdu");
//! assert_eq!(x.unix_ms(), 1_795_219_200_000); // 2026-11-21T00:00:00Z
//! let err = "5cnEk0efSdu".parse::<Xid>().unwrap_err();
//! assert_eq!(err.code(), "22P02");
//! assert_eq!(err.detail(), Some("Character \"0\" at position 6 is not a Base58 symbol."));
//! ```
#![cfg_attr(not(feature = "std"), no_std)]
#![cfg_attr(docsrs, feature(doc_cfg))]
#![warn(missing_docs)]

extern crate alloc;

use alloc::borrow::Cow;
use alloc::format;
use alloc::string::String;
use core::fmt;
use core::str::FromStr;

mod bounds;
#[cfg(feature = "std")]
mod generate;
mod time;
mod ulid;
mod uuid;

#[cfg(feature = "serde")]
mod serde_impl;

#[cfg(feature = "diesel")]
pub mod diesel_ext;
#[cfg(feature = "postgres-types")]
pub mod postgres_ext;
#[cfg(feature = "sqlx")]
pub mod sqlx_ext;

pub use bounds::{like_bounds, prefix_bounds};
#[cfg(feature = "std")]
pub use generate::Generator;
pub use time::{time_lower_bound, time_upper_bound, Timestamp};

/// Bitcoin's Base58 alphabet, in ASCII order.
pub const ALPHABET: &[u8; 58] = b"123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";
/// 2011-11-11T11:11:11.111Z in milliseconds since 1970.
pub const EPOCH_MS: i64 = 1_321_009_871_111;
/// The largest millisecond field, 2^42-1 (2151-03-25T18:46:22.214Z).
pub const MAX_MS: i64 = (1 << 42) - 1;
/// The width of the field below the time.
pub const RANDOM_BITS: u32 = 22;
/// The largest number of node bits (`xid.node_bits`).
pub const MAX_NODE_BITS: u32 = 12;

const RANDOM_MASK: u64 = (1 << RANDOM_BITS) - 1;
const B58X5: u64 = 656_356_768; // 58^5

/// An id: 8 bytes, ordered as the server orders them (unsigned payload
/// order, which is also the order of the text).  It prints as its text
/// (`{:>13}` and the other width and alignment flags pad it as a string).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
#[cfg_attr(
    feature = "diesel",
    derive(diesel::expression::AsExpression, diesel::deserialize::FromSqlRow),
    diesel(sql_type = crate::diesel_ext::sql_types::Xid)
)]
pub struct Xid(u64);

/// An error of the server's: its primary message, SQLSTATE and DETAIL, as
/// the extension's SQL functions raise them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Error {
    code: &'static str,
    message: Cow<'static, str>,
    detail: Option<Cow<'static, str>>,
}

impl Error {
    pub(crate) fn new(
        code: &'static str,
        message: impl Into<Cow<'static, str>>,
        detail: Option<Cow<'static, str>>,
    ) -> Self {
        Error { code, message: message.into(), detail }
    }

    /// The SQLSTATE: `22P02`, `22003`, `22023`, `22008`, `22025` or `22026`.
    pub fn code(&self) -> &'static str {
        self.code
    }

    /// The primary message, word for word the server's.
    pub fn message(&self) -> &str {
        &self.message
    }

    /// The DETAIL line, as the server gives it.
    pub fn detail(&self) -> Option<&str> {
        self.detail.as_deref()
    }

    pub(crate) fn time_range() -> Self {
        Error::new(
            "22008",
            "timestamp out of range for type xid",
            Some("An xid holds instants from 2011-11-11 11:11:11.111+00 to 2151-03-25 18:46:22.214+00.".into()),
        )
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

#[cfg(feature = "std")]
impl std::error::Error for Error {}

pub(crate) const DECODE: [u8; 256] = {
    let mut t = [0xffu8; 256];
    let mut i = 0;
    while i < 58 {
        t[ALPHABET[i] as usize] = i as u8;
        i += 1;
    }
    t
};

// the two symbols of every value below 58^2
const PAIRS: [[u8; 2]; 58 * 58] = {
    let mut p = [[0u8; 2]; 58 * 58];
    let mut i = 0;
    while i < 58 * 58 {
        p[i] = [ALPHABET[i / 58], ALPHABET[i % 58]];
        i += 1;
    }
    p
};

pub(crate) const POW58: [u64; 11] = {
    let mut p = [1u64; 11];
    let mut i = 1;
    while i < 11 {
        p[i] = p[i - 1] * 58;
        i += 1;
    }
    p
};

#[inline]
fn encode5(v: u32, out: &mut [u8]) {
    let high = v / 195_112; // 58^3: the first two symbols
    let rest = v - high * 195_112;
    let mid = rest / 58;
    out[0..2].copy_from_slice(&PAIRS[high as usize]);
    out[2..4].copy_from_slice(&PAIRS[mid as usize]);
    out[4] = ALPHABET[(rest - mid * 58) as usize];
}

impl Xid {
    /// The smallest id, `11111111111`.
    pub const MIN: Xid = Xid(0);
    /// The largest id, `jpXCZedGfVQ`.
    pub const MAX: Xid = Xid(u64::MAX);

    /// The id of a 64-bit payload (the `bigint` and `bytea` casts' value).
    pub const fn from_u64(payload: u64) -> Xid {
        Xid(payload)
    }

    /// The 64-bit payload.
    pub const fn as_u64(self) -> u64 {
        self.0
    }

    /// The 8 bytes, big-endian: the binary wire format and the `bytea` cast.
    pub const fn to_bytes(self) -> [u8; 8] {
        self.0.to_be_bytes()
    }

    /// The id of 8 bytes, big-endian.
    pub const fn from_bytes(b: [u8; 8]) -> Xid {
        Xid(u64::from_be_bytes(b))
    }

    /// The id of a slice of exactly 8 bytes (the binary format, the `bytea`
    /// cast); any other length is the server's error, SQLSTATE 22026.
    pub fn from_slice(b: &[u8]) -> Result<Xid, Error> {
        match <[u8; 8]>::try_from(b) {
            Ok(a) => Ok(Xid::from_bytes(a)),
            Err(_) => Err(Error::new(
                "22026",
                format!("bytea of length {} does not match type xid", b.len()),
                Some("An xid converts from exactly 8 bytes, most significant first.".into()),
            )),
        }
    }

    /// The 11 symbols of the text, as `xid_out`.
    #[inline]
    pub fn encode(self) -> [u8; 11] {
        let mut out = [0u8; 11];
        let v = self.0;
        let high = v / B58X5;
        let low = (v - high * B58X5) as u32;
        let top = high / B58X5; // < 43
        out[0] = ALPHABET[top as usize];
        encode5((high - top * B58X5) as u32, &mut out[1..6]);
        encode5(low, &mut out[6..11]);
        out
    }

    /// Reads exactly 11 Base58 symbols at most `jpXCZedGfVQ`, as `xid_in`;
    /// the error has the server's message, DETAIL and SQLSTATE.
    #[inline]
    pub fn parse(s: &str) -> Result<Xid, Error> {
        Xid::parse_bytes(s.as_bytes()).ok_or_else(|| parse_error(s))
    }

    /// Whether [`Xid::parse`] accepts `s`.
    pub fn is_valid(s: &str) -> bool {
        Xid::parse_bytes(s.as_bytes()).is_some()
    }

    /// The id of 11 symbols given as bytes, or `None`.
    #[inline]
    pub fn parse_bytes(s: &[u8]) -> Option<Xid> {
        let s: &[u8; 11] = s.try_into().ok()?;
        let mut v = 0u64;
        let mut seen = 0u8;
        for &c in &s[..10] {
            let d = DECODE[c as usize];
            seen |= d;
            v = v * 58 + d as u64;
        }
        let last = DECODE[s[10] as usize];
        if (seen | last) & 0x80 != 0 {
            return None;
        }
        v.checked_mul(58)?.checked_add(last as u64).map(Xid)
    }

    /// Milliseconds since the xid epoch (the top 42 bits).
    pub const fn ms(self) -> i64 {
        (self.0 >> RANDOM_BITS) as i64
    }

    /// Milliseconds since 1970 (Unix time) of the id.
    pub const fn unix_ms(self) -> i64 {
        self.ms() + EPOCH_MS
    }

    /// The 22 bits below the time (`xid_random`).
    pub const fn random(self) -> u32 {
        (self.0 & RANDOM_MASK) as u32
    }

    /// The node number under a layout of `node_bits` (0 to 12) node bits,
    /// as `xid_node`.
    pub fn node(self, node_bits: u32) -> Result<u32, Error> {
        if node_bits > MAX_NODE_BITS {
            return Err(Error::new(
                "22023",
                format!("node bits {node_bits} is out of range"),
                Some("An xid has from 0 to 12 node bits.".into()),
            ));
        }
        Ok(self.random() >> (RANDOM_BITS - node_bits))
    }

    /// The id of a millisecond counted from the xid epoch,
    /// 2011-11-11T11:11:11.111Z (not from 1970: see [`Xid::from_unix_ms`]),
    /// with the 22 low bits `low`: the two fields as they are stored.
    pub fn from_xid_epoch_ms(ms: i64, low: u32) -> Result<Xid, Error> {
        if !(0..=MAX_MS).contains(&ms) {
            return Err(Error::time_range());
        }
        if low as u64 > RANDOM_MASK {
            return Err(Error::new(
                "22003",
                format!("low bits {low} are out of range for type xid"),
                Some("The low bits of an xid go from 0 to 4194303.".into()),
            ));
        }
        Ok(Xid((ms as u64) << RANDOM_BITS | low as u64))
    }

    /// The id of a Unix time in milliseconds with the 22 low bits `low`:
    /// `from_unix_ms(now, 0)` is the first id of that millisecond.  A time
    /// outside 2011-11-11T11:11:11.111Z .. 2151-03-25T18:46:22.214Z is an
    /// error (22008), and so are low bits above 2^22-1 (22003).
    pub fn from_unix_ms(ms: i64, low: u32) -> Result<Xid, Error> {
        Xid::from_xid_epoch_ms(ms.saturating_sub(EPOCH_MS), low)
    }
}

#[cold]
fn parse_error(s: &str) -> Error {
    let message = format!("invalid input syntax for type xid: \"{s}\"");
    for (pos, (i, c)) in s.char_indices().enumerate() {
        if c.len_utf8() > 1 || DECODE[s.as_bytes()[i] as usize] == 0xff {
            return Error::new(
                "22P02",
                message,
                Some(format!("Character \"{c}\" at position {} is not a Base58 symbol.", pos + 1).into()),
            );
        }
    }
    if s.len() != 11 {
        return Error::new("22P02", message, Some("An xid is written as exactly 11 Base58 symbols.".into()));
    }
    Error::new(
        "22003",
        format!("value \"{s}\" is out of range for type xid"),
        Some("The largest xid is \"jpXCZedGfVQ\".".into()),
    )
}

impl FromStr for Xid {
    type Err = Error;
    fn from_str(s: &str) -> Result<Xid, Error> {
        Xid::parse(s)
    }
}

impl TryFrom<&str> for Xid {
    type Error = Error;
    fn try_from(s: &str) -> Result<Xid, Error> {
        Xid::parse(s)
    }
}

impl From<Xid> for u64 {
    fn from(x: Xid) -> u64 {
        x.0
    }
}

impl From<u64> for Xid {
    fn from(v: u64) -> Xid {
        Xid(v)
    }
}

impl From<Xid> for String {
    #[inline]
    fn from(x: Xid) -> String {
        // the alphabet is ASCII: the 11 bytes are the text, allocated once
        // at its size (cheaper than to_string's formatter)
        String::from_utf8(x.encode().to_vec()).unwrap_or_default()
    }
}

impl fmt::Display for Xid {
    #[inline]
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let b = self.encode();
        let s = core::str::from_utf8(&b).map_err(|_| fmt::Error)?;
        // the padding machinery only when a width or precision asks for it
        if f.width().is_none() && f.precision().is_none() {
            f.write_str(s)
        } else {
            f.pad(s)
        }
    }
}

impl fmt::Debug for Xid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Xid(\"{self}\")")
    }
}
