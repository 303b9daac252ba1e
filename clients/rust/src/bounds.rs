//! The bounds of a prefix and of a `LIKE` pattern, as the server computes
//! them (`xid_prefix_lower_bound`, `xid_like_lower_bound` and their upper
//! twins).

use crate::{Error, Xid, DECODE, POW58};

/// The closed bounds of the ids whose text starts with `prefix`, as
/// `xid_prefix_lower_bound` and `xid_prefix_upper_bound`: the empty text
/// admits every id; `None` for a text no id starts with (more than 11
/// symbols, a character outside Base58, above the largest id).
///
/// ```
/// let (lo, hi) = pgxid::prefix_bounds("5cnrQT").unwrap();
/// assert_eq!((lo.to_string().as_str(), hi.to_string().as_str()), ("5cnrQT11111", "5cnrQTzzzzz"));
/// assert_eq!(pgxid::prefix_bounds("jq"), None);
/// ```
pub fn prefix_bounds(prefix: &str) -> Option<(Xid, Xid)> {
    let p = prefix.as_bytes();
    let n = p.len();
    if n == 0 {
        return Some((Xid::MIN, Xid::MAX));
    }
    if n > 11 {
        return None;
    }
    let mut v = 0u64;
    for (i, &c) in p.iter().enumerate() {
        let d = DECODE[c as usize];
        if d == 0xff {
            return None;
        }
        if i == 10 {
            let x = v.checked_mul(58)?.checked_add(d as u64)?;
            return Some((Xid(x), Xid(x)));
        }
        v = v * 58 + d as u64;
    }
    let scale = POW58[11 - n];
    // even the lowest id with this prefix may be above 2^64-1
    let lo = v.checked_mul(scale)?;
    let hi = lo.saturating_add(scale - 1);
    Some((Xid(lo), Xid(hi)))
}

/// The closed bounds of the ids that `id LIKE pattern` (default escape,
/// backslash) can match, as `xid_like_lower_bound` and
/// `xid_like_upper_bound`: the range of the pattern's fixed prefix; `None`
/// when no id can match.  A pattern that ends in a lone backslash is an
/// error, as `LIKE` makes it (SQLSTATE 22025).
///
/// ```
/// let (lo, _) = pgxid::like_bounds("5cnrQT%a").unwrap().unwrap();
/// assert_eq!(lo.to_string(), "5cnrQT11111");
/// assert_eq!(pgxid::like_bounds("abc\\").unwrap_err().code(), "22025");
/// ```
pub fn like_bounds(pattern: &str) -> Result<Option<(Xid, Xid)>, Error> {
    let p = pattern.as_bytes();
    // the escape rule first, whatever comes before it: UTF-8 continuation
    // bytes are never a backslash, so bytes will do
    let mut i = 0;
    while i < p.len() {
        if p[i] == b'\\' {
            i += 1;
            if i == p.len() {
                return Err(Error::new("22025", "LIKE pattern must not end with escape character", None));
            }
        }
        i += 1;
    }
    let mut prefix = [0u8; 11];
    let (mut n, mut i, mut underscores, mut rest) = (0usize, 0usize, 0usize, 0usize);
    let mut percent = false;
    while i < p.len() && p[i] != b'%' && p[i] != b'_' {
        if p[i] == b'\\' {
            i += 1;
        }
        if n == 11 {
            return Ok(None);
        }
        prefix[n] = p[i];
        n += 1;
        i += 1;
    }
    while i < p.len() {
        match p[i] {
            b'%' => percent = true,
            b'_' => underscores += 1,
            b'\\' => {
                i += 1;
                rest += 1;
            }
            _ => rest += 1,
        }
        i += 1;
    }
    if rest == 0 && ((percent && n + underscores > 11) || (!percent && n + underscores != 11)) {
        return Ok(None);
    }
    // a fixed prefix that is not valid UTF-8 (a character cut in two) holds
    // a byte outside Base58: no id starts with it
    match core::str::from_utf8(&prefix[..n]) {
        Ok(s) => Ok(prefix_bounds(s)),
        Err(_) => Ok(None),
    }
}
