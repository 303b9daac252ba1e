//! sqlx (PostgreSQL): [`Xid`] is `Type`, `Encode` and `Decode`, in binary
//! and text, and `PgHasArrayType` for `Vec<Xid>` and `&[Xid]`.
//!
//! The type is declared by its qualified name, `public.xid` (or the schema
//! given to [`set_schema`] before the first query), which sqlx resolves to
//! the OID with `to_regtype()` once per connection: never the bare name
//! `xid`, which resolves to core's 32-bit transaction id because
//! `pg_catalog` comes first on every search path.  A column of core's
//! `xid` (OID 28) is refused.
//!
//! A time compares as a time: sqlx sends each parameter with its type, so
//! `id >= $1` with a `chrono::DateTime<Utc>` bound is `xid >= timestamptz`,
//! which means `xid_time(id) >= t` and keeps the index (`$1::timestamptz`
//! says so in the SQL, and is what the other drivers need).
//!
//! The `query!` macros check a query against a live database at build
//! time, or against `.sqlx/` data saved by `cargo sqlx prepare` (`SQLX_OFFLINE=true`).
//! Either way they see the column's type by name: a `public.xid` column
//! needs an override, `SELECT id AS "id: pgxid::Xid" FROM orders`, and a
//! parameter `$1::public.xid` is bound with `id as pgxid::Xid` (or
//! `&ids as &[pgxid::Xid]` for an array).  The offline data records the
//! type's name (`public.xid`), not its OID, so it stays valid in another
//! database.

use crate::Xid;
use sqlx::encode::IsNull;
use sqlx::error::BoxDynError;
use sqlx::postgres::{PgArgumentBuffer, PgHasArrayType, PgTypeInfo, PgValueFormat, PgValueRef, Postgres};
use sqlx::{Decode, Encode, Type, TypeInfo};
use std::sync::OnceLock;

static NAMES: OnceLock<(&'static str, &'static str)> = OnceLock::new();

fn names() -> (&'static str, &'static str) {
    *NAMES.get_or_init(|| ("public.xid", "public.xid[]"))
}

/// Names the schema the extension is installed in (`CREATE EXTENSION xid
/// SCHEMA ids`), for every connection of the process; call it before the
/// first query that binds or reads an [`Xid`].  It returns `false` (and
/// changes nothing) once the names are in use or set.  The schema is
/// written as SQL would write it: `ids`, or `"My Ids"` quoted.
pub fn set_schema(schema: &str) -> bool {
    let name: &'static str = Box::leak(format!("{schema}.xid").into_boxed_str());
    let array: &'static str = Box::leak(format!("{schema}.xid[]").into_boxed_str());
    NAMES.set((name, array)).is_ok()
}

const CORE_XID_OID: u32 = 28;

fn not_core(ty: &PgTypeInfo) -> bool {
    ty.oid().map(|o| o.0) != Some(CORE_XID_OID) && !matches!(ty.name(), "xid" | "XID")
}

impl Type<Postgres> for Xid {
    fn type_info() -> PgTypeInfo {
        PgTypeInfo::with_name(names().0)
    }

    fn compatible(ty: &PgTypeInfo) -> bool {
        not_core(ty) && *ty == Self::type_info()
    }
}

impl PgHasArrayType for Xid {
    fn array_type_info() -> PgTypeInfo {
        PgTypeInfo::with_name(names().1)
    }
}

impl Encode<'_, Postgres> for Xid {
    fn encode_by_ref(&self, buf: &mut PgArgumentBuffer) -> Result<IsNull, BoxDynError> {
        buf.extend_from_slice(&self.to_bytes());
        Ok(IsNull::No)
    }
}

impl Decode<'_, Postgres> for Xid {
    fn decode(value: PgValueRef<'_>) -> Result<Xid, BoxDynError> {
        Ok(match value.format() {
            PgValueFormat::Binary => Xid::from_slice(value.as_bytes()?)?,
            PgValueFormat::Text => Xid::parse(value.as_str()?)?,
        })
    }
}
