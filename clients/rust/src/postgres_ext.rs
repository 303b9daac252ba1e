//! tokio-postgres and postgres (`postgres-types`): [`Xid`] is `FromSql` and
//! `ToSql` for the extension's type, in binary (8 bytes, big-endian), and
//! so are `Vec<Xid>`, `&[Xid]` and `Option<Xid>` for arrays and NULL;
//! binary `COPY` takes it through `BinaryCopyInWriter`.
//!
//! An extension's type has no fixed OID, so `accepts` cannot compare OIDs:
//! the drivers look the type of a parameter or a column up by its OID at
//! run time, and `accepts` takes the type whose name is `xid` in any schema
//! but `pg_catalog`, where core's 32-bit transaction id lives (OID 28,
//! which it refuses).  The type to give `BinaryCopyInWriter` is the
//! parameter type of a prepared `SELECT $1::public.xid`:
//!
//! ```no_run
//! # async fn f(client: &tokio_postgres::Client) -> Result<(), tokio_postgres::Error> {
//! let xid_type = client.prepare("SELECT $1::public.xid").await?.params()[0].clone();
//! # Ok(()) }
//! ```
//!
//! Text to an xid parameter: tokio-postgres checks each Rust type against
//! the parameter's type, and a `&str` or `String` goes only to text types
//! (`WrongType` for `id = $1`; the orphan rule keeps this crate from
//! changing that).  Wrap it in [`XidText`], which parses it (the server's
//! error, before anything is sent) and binds the id:
//!
//! ```no_run
//! # async fn f(client: &tokio_postgres::Client, text: &str) -> Result<(), tokio_postgres::Error> {
//! use pgxid::postgres_ext::XidText;
//! let row = client.query_opt("SELECT item FROM orders WHERE id = $1", &[&XidText(text)]).await?;
//! # Ok(()) }
//! ```
//!
//! A time is never read as an id: `id >= $1` types `$1` as `public.xid`,
//! and a `SystemTime` (or a chrono or time value) bound there is the
//! driver's `WrongType` error, never a silent comparison with an id from
//! 2011.  Write `id >= $1::timestamptz` (it means `xid_time(id) >= t` and
//! keeps the primary key's index), or pass [`crate::time_lower_bound`].

use crate::Xid;
use bytes::{BufMut, BytesMut};
use postgres_types::{FromSql, IsNull, ToSql, Type};
use std::error::Error as StdError;
use std::fmt;

/// Whether `ty` is the extension's `xid` (in any schema but `pg_catalog`).
pub fn is_xid_type(ty: &Type) -> bool {
    ty.name() == "xid" && ty.schema() != "pg_catalog" && *ty != Type::XID
}

impl<'a> FromSql<'a> for Xid {
    fn from_sql(_: &Type, raw: &'a [u8]) -> Result<Xid, Box<dyn StdError + Sync + Send>> {
        Ok(Xid::from_slice(raw)?)
    }

    fn accepts(ty: &Type) -> bool {
        is_xid_type(ty)
    }
}

impl ToSql for Xid {
    fn to_sql(&self, _: &Type, out: &mut BytesMut) -> Result<IsNull, Box<dyn StdError + Sync + Send>> {
        out.put_slice(&self.to_bytes());
        Ok(IsNull::No)
    }

    fn accepts(ty: &Type) -> bool {
        is_xid_type(ty)
    }

    postgres_types::to_sql_checked!();
}

/// The text of an id (`&str`, `String`, anything `AsRef<str>`), bound to an
/// xid parameter: `&XidText(s)` where `&s` would be `WrongType`.  The text
/// is parsed as the server parses it ([`Xid::parse`]) and sent as the id
/// (binary); text that is not an id fails the query before it is sent,
/// with the server's message and SQLSTATE in the error's source (a
/// [`crate::Error`]).  `Option<XidText<_>>` binds NULL and
/// `Vec<XidText<_>>` an array, as for [`Xid`].
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct XidText<T>(pub T);

impl<T: AsRef<str>> XidText<T> {
    /// The id the text is, or the server's error.
    pub fn parse(&self) -> Result<Xid, crate::Error> {
        Xid::parse(self.0.as_ref())
    }
}

impl<T: AsRef<str>> fmt::Debug for XidText<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("XidText").field(&self.0.as_ref()).finish()
    }
}

impl<T: AsRef<str>> ToSql for XidText<T> {
    fn to_sql(&self, ty: &Type, out: &mut BytesMut) -> Result<IsNull, Box<dyn StdError + Sync + Send>> {
        self.parse()?.to_sql(ty, out)
    }

    fn accepts(ty: &Type) -> bool {
        is_xid_type(ty)
    }

    postgres_types::to_sql_checked!();
}
