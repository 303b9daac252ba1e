//! serde: an id is its text (strictly parsed) in every format.

use crate::Xid;
use core::fmt;
use serde::de::{self, Visitor};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

impl Serialize for Xid {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let b = self.encode();
        s.serialize_str(core::str::from_utf8(&b).map_err(serde::ser::Error::custom)?)
    }
}

struct XidVisitor;

impl Visitor<'_> for XidVisitor {
    type Value = Xid;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an xid: 11 Base58 symbols")
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<Xid, E> {
        Xid::parse(v).map_err(E::custom)
    }
}

impl<'de> Deserialize<'de> for Xid {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Xid, D::Error> {
        d.deserialize_str(XidVisitor)
    }
}
