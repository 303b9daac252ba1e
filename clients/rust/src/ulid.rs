//! An id as a ULID, and the id of a ULID or of a ulid-flake id, as the
//! extension's functions (1.2) make them.  A ULID is 128 bits: Unix
//! milliseconds in the first 48, then randomness; the id's 22 low bits lead
//! the randomness and the rest is zero, written as 26 symbols of Crockford's
//! Base32, so the ULID sorts as the id does.  From a ULID the id keeps its
//! time and the 22 bits after it, so only a ULID made by
//! [`Xid::to_ulid_string`] comes back exactly.  A ulid-flake id (a zero sign
//! bit, 43 bits of milliseconds since 2024-01-01T00:00:00Z, 20 bits)
//! converts whole: its 20 bits become the top 20 of the id's 22, so distinct
//! flakes give distinct ids in the same order.

use crate::{Error, Xid, RANDOM_BITS};
use alloc::format;
use alloc::string::String;

const CROCKFORD: &[u8; 32] = b"0123456789ABCDEFGHJKMNPQRSTVWXYZ";
/// ulid-flake's epoch, 2024-01-01T00:00:00Z, in Unix milliseconds.
const FLAKE_EPOCH_MS: i64 = 1_704_067_200_000;
const FLAKE_LOW_BITS: u32 = 20;
const SYMBOLS: &str = "A ulid is 26 symbols of Crockford's Base32.";

// the value of a symbol, either case
fn crockford_value(c: u8) -> Option<u8> {
    let c = c.to_ascii_uppercase();
    CROCKFORD.iter().position(|&s| s == c).map(|i| i as u8)
}

fn invalid(s: &str, detail: &'static str) -> Error {
    Error::new("22P02", format!("invalid input syntax for a ulid: \"{s}\""), Some(detail.into()))
}

// the id of a ULID's 128 bits: its time and the 22 bits after it
fn of_bits(v: u128) -> Result<Xid, Error> {
    Xid::from_unix_ms((v >> 80) as i64, ((v >> 58) & 0x3f_ffff) as u32)
}

impl Xid {
    /// The id as a ULID's 16 bytes, big-endian (what a uuid column holds for
    /// a ULID, as pgx_ulid casts it).
    pub fn to_ulid_bytes(self) -> [u8; 16] {
        ((self.unix_ms() as u128) << 80 | (self.random() as u128) << 58).to_be_bytes()
    }

    /// The id as a ULID's 26 symbols, uppercase, with its time
    /// (`xid_to_ulid`).
    pub fn to_ulid_string(self) -> String {
        let v = u128::from_be_bytes(self.to_ulid_bytes());
        // 26 symbols of 5 bits are 130 bits: the first symbol holds 3
        (0..26).rev().map(|i| CROCKFORD[((v >> (5 * i)) & 31) as usize] as char).collect()
    }

    /// The id of a ULID's 26 symbols, either case (`xid_from_ulid(text)`):
    /// its time and the first 22 bits of its randomness.  Text that is no
    /// ULID is the server's error, SQLSTATE 22P02; a time an xid cannot hold,
    /// 22008.
    pub fn parse_ulid(s: &str) -> Result<Xid, Error> {
        // the server reads the symbols in order: a first symbol above 7 is
        // named as such even when a later one is no symbol
        if s.len() != 26 {
            return Err(invalid(s, SYMBOLS));
        }
        let mut v: u128 = 0;
        for (i, &c) in s.as_bytes().iter().enumerate() {
            let d = crockford_value(c).ok_or_else(|| invalid(s, SYMBOLS))?;
            if i == 0 && d > 7 {
                return Err(invalid(s, "A ulid is at most 7ZZZZZZZZZZZZZZZZZZZZZZZZZ."));
            }
            v = v << 5 | d as u128;
        }
        of_bits(v)
    }

    /// The id of a ULID's 16 bytes, as a uuid column holds a ULID (pgx_ulid's
    /// cast; `xid_from_ulid(uuid)`): its time and the first 22 bits of its
    /// randomness.  A time an xid cannot hold is SQLSTATE 22008.
    pub fn from_ulid_bytes(u: [u8; 16]) -> Result<Xid, Error> {
        of_bits(u128::from_be_bytes(u))
    }

    /// The id of a ulid-flake id (`xid_from_ulid_flake`): its time, and its
    /// 20 bits as the top 20 of the id's 22.  A negative id is the server's
    /// error, SQLSTATE 22003; a time an xid cannot hold, 22008.
    pub fn from_ulid_flake(flake: i64) -> Result<Xid, Error> {
        if flake < 0 {
            return Err(Error::new(
                "22003",
                format!("ulid-flake id {flake} is out of range"),
                Some("A ulid-flake id has a zero sign bit.".into()),
            ));
        }
        let low = ((flake & ((1 << FLAKE_LOW_BITS) - 1)) as u32) << (RANDOM_BITS - FLAKE_LOW_BITS);
        Xid::from_unix_ms((flake >> FLAKE_LOW_BITS) + FLAKE_EPOCH_MS, low)
    }
}
