//! An id as a UUIDv7, as the extension's casts (1.2) make it: the id's
//! instant as Unix milliseconds in the first 48 bits, version 7, the top 12
//! of the 22 low bits (`rand_a`), variant 10, the bottom 10 bits, then 52
//! zero bits.  It sorts as the id does and converts back exactly.

use crate::{Error, Xid, EPOCH_MS};
use alloc::format;
use alloc::string::String;

const HEX: &[u8; 16] = b"0123456789abcdef";

fn uuid_text(u: &[u8; 16]) -> String {
    let mut s = String::with_capacity(36);
    for (i, b) in u.iter().enumerate() {
        if matches!(i, 4 | 6 | 8 | 10) {
            s.push('-');
        }
        s.push(HEX[(b >> 4) as usize] as char);
        s.push(HEX[(b & 15) as usize] as char);
    }
    s
}

impl Xid {
    /// The id as a version 7 uuid with its time (`id::uuid`), as 16 bytes.
    pub fn to_uuid_bytes(self) -> [u8; 16] {
        let unix_ms = self.unix_ms() as u64;
        let low = self.random() as u64;
        let hi = unix_ms << 16 | 0x7 << 12 | low >> 10;
        let lo = 0b10 << 62 | (low & 0x3ff) << 52;
        let mut u = [0u8; 16];
        u[..8].copy_from_slice(&hi.to_be_bytes());
        u[8..].copy_from_slice(&lo.to_be_bytes());
        u
    }

    /// The uuid's canonical text, lowercase, as `id::uuid::text`.
    pub fn to_uuid_string(self) -> String {
        uuid_text(&self.to_uuid_bytes())
    }

    /// The id a uuid made by [`Xid::to_uuid_bytes`] stands for (`uuid::xid`);
    /// any other uuid is the server's error, SQLSTATE 22023.
    pub fn from_uuid_bytes(u: [u8; 16]) -> Result<Xid, Error> {
        let mut h = [0u8; 8];
        h.copy_from_slice(&u[..8]);
        let hi = u64::from_be_bytes(h);
        h.copy_from_slice(&u[8..]);
        let lo = u64::from_be_bytes(h);
        if hi >> 12 & 0xf != 7 || lo >> 62 != 0b10 || lo & ((1 << 52) - 1) != 0 {
            return Err(Error::new(
                "22023",
                format!("uuid \"{}\" is not an xid", uuid_text(&u)),
                Some("An xid as a uuid is a version 7 uuid whose last 52 bits are zero.".into()),
            ));
        }
        Xid::from_xid_epoch_ms((hi >> 16) as i64 - EPOCH_MS, ((hi & 0xfff) << 10 | (lo >> 52 & 0x3ff)) as u32)
    }

    /// [`Xid::from_uuid_bytes`] of a uuid's text (with or without hyphens,
    /// either case).
    pub fn parse_uuid(s: &str) -> Result<Xid, Error> {
        let bad = || Error::new("22P02", format!("invalid input syntax for type uuid: \"{s}\""), None);
        let mut u = [0u8; 16];
        let mut n = 0;
        for c in s.bytes().filter(|&c| c != b'-') {
            let d = (c as char).to_digit(16).ok_or_else(bad)? as u8;
            if n == 32 {
                return Err(bad());
            }
            u[n / 2] |= if n % 2 == 0 { d << 4 } else { d };
            n += 1;
        }
        if n != 32 {
            return Err(bad());
        }
        Xid::from_uuid_bytes(u)
    }
}

#[cfg(feature = "uuid")]
impl From<Xid> for uuid::Uuid {
    fn from(x: Xid) -> uuid::Uuid {
        uuid::Uuid::from_bytes(x.to_uuid_bytes())
    }
}

#[cfg(feature = "uuid")]
impl TryFrom<uuid::Uuid> for Xid {
    type Error = Error;
    fn try_from(u: uuid::Uuid) -> Result<Xid, Error> {
        Xid::from_uuid_bytes(u.into_bytes())
    }
}
