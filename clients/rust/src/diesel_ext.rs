//! diesel (PostgreSQL): the SQL types `public.xid` and `public.xidrange`,
//! [`Xid`] as their Rust value (binary, 8 bytes), and the extension's
//! operators in the query builder: `<@` (in a range), `^@` (starts with),
//! `LIKE`, and the comparisons with a time, which mean `xid_time(id) OP t`
//! and keep the primary key's index.
//!
//! ```no_run
//! use diesel::prelude::*;
//! use pgxid::diesel_ext::{sql_types, xid_prefix_range, At, XidExpressionMethods};
//!
//! diesel::table! {
//!     use diesel::sql_types::Text;
//!     use pgxid::diesel_ext::sql_types::Xid;
//!     orders (id) {
//!         id -> Xid,
//!         item -> Text,
//!     }
//! }
//!
//! # fn f(conn: &mut PgConnection) -> QueryResult<()> {
//! let hour_ago = std::time::SystemTime::now() - std::time::Duration::from_secs(3600);
//! let recent: Vec<(pgxid::Xid, String)> = orders::table
//!     .filter(orders::id.time_ge(At(hour_ago))) // id >= $1 with $1 a timestamptz
//!     .load(conn)?;
//! let in_prefix: i64 = orders::table
//!     .filter(orders::id.contained_in(xid_prefix_range("5cnrQT")))
//!     .count()
//!     .get_result(conn)?;
//! # Ok(()) }
//! ```
//!
//! The types are looked up by name in schema `public` (diesel asks the
//! catalog for `typname = 'xid' AND nspname = 'public'` once per
//! connection), never by the bare name, which is core's transaction id.
//! A time never binds where the SQL type is `Xid`: diesel refuses it at
//! compile time, and [`At`] binds a `SystemTime` as `timestamptz` for the
//! time comparisons.

use crate::Xid;
use diesel::deserialize::{self, FromSql};
use diesel::expression::AsExpression;
use diesel::pg::{Pg, PgValue};
use diesel::serialize::{self, IsNull, Output, ToSql};
use diesel::sql_types::{Text, Timestamptz};
use diesel::Expression;
use std::io::Write;

/// The SQL types, for `table!` and casts.
pub mod sql_types {
    /// `public.xid`, the extension's id.
    #[derive(diesel::sql_types::SqlType, diesel::query_builder::QueryId, Clone, Copy, Debug, Default)]
    #[diesel(postgres_type(name = "xid", schema = "public"))]
    pub struct Xid;

    /// `public.xidrange`, a closed range of ids (`xid_prefix_range()`,
    /// `xid_time_range()`).
    #[derive(diesel::sql_types::SqlType, diesel::query_builder::QueryId, Clone, Copy, Debug, Default)]
    #[diesel(postgres_type(name = "xidrange", schema = "public"))]
    pub struct XidRange;
}

impl FromSql<sql_types::Xid, Pg> for Xid {
    fn from_sql(value: PgValue<'_>) -> deserialize::Result<Self> {
        Ok(Xid::from_slice(value.as_bytes())?)
    }
}

impl ToSql<sql_types::Xid, Pg> for Xid {
    fn to_sql<'b>(&'b self, out: &mut Output<'b, '_, Pg>) -> serialize::Result {
        out.write_all(&self.to_bytes())?;
        Ok(IsNull::No)
    }
}

/// A `SystemTime` bound as `timestamptz` (diesel binds `SystemTime` only
/// as `timestamp`, which the server would read in its own time zone), for
/// the time comparisons: `orders::id.time_ge(At(t))`.
#[derive(AsExpression, Clone, Copy, Debug, PartialEq, Eq)]
#[diesel(sql_type = Timestamptz)]
pub struct At(pub std::time::SystemTime);

impl ToSql<Timestamptz, Pg> for At {
    fn to_sql<'b>(&'b self, out: &mut Output<'b, '_, Pg>) -> serialize::Result {
        use crate::Timestamp;
        // microseconds since 2000-01-01T00:00:00Z, rounded down
        let us = self.0.unix_nanos().div_euclid(1000) - 946_684_800_000_000;
        let us = i64::try_from(us).map_err(|_| "time out of range for timestamptz")?;
        out.write_all(&us.to_be_bytes())?;
        Ok(IsNull::No)
    }
}

diesel::infix_operator!(ContainedIn, " <@ ", backend: Pg);
diesel::infix_operator!(StartsWith, " ^@ ", backend: Pg);
diesel::infix_operator!(XidLike, " LIKE ", backend: Pg);
diesel::infix_operator!(TimeLt, " < ", backend: Pg);
diesel::infix_operator!(TimeLe, " <= ", backend: Pg);
diesel::infix_operator!(TimeGt, " > ", backend: Pg);
diesel::infix_operator!(TimeGe, " >= ", backend: Pg);

diesel::define_sql_function! {
    /// `xid_prefix_range(prefix)`: the range of the ids whose text starts
    /// with `prefix`.
    #[sql_name = "public.xid_prefix_range"]
    fn xid_prefix_range(prefix: Text) -> sql_types::XidRange;
}

diesel::define_sql_function! {
    /// `xid_time(id)`: the instant of an id.
    #[sql_name = "public.xid_time"]
    fn xid_time(id: sql_types::Xid) -> Timestamptz;
}

diesel::define_sql_function! {
    /// `xid_new()`: a new id from the server.
    #[sql_name = "public.xid_new"]
    fn xid_new() -> sql_types::Xid;
}

/// The extension's operators on an expression of type `public.xid`.
pub trait XidExpressionMethods: Expression<SqlType = sql_types::Xid> + Sized {
    /// `self <@ range`: the id is in a range of ids (e.g. `xid_prefix_range(p)`).
    fn contained_in<T: AsExpression<sql_types::XidRange>>(self, range: T) -> ContainedIn<Self, T::Expression> {
        ContainedIn::new(self, range.as_expression())
    }
    /// `self ^@ prefix`: the text of the id starts with `prefix`.
    fn starts_with<T: AsExpression<Text>>(self, prefix: T) -> StartsWith<Self, T::Expression> {
        StartsWith::new(self, prefix.as_expression())
    }
    /// `self LIKE pattern`: as `id::text LIKE pattern`, on the index.
    fn like<T: AsExpression<Text>>(self, pattern: T) -> XidLike<Self, T::Expression> {
        XidLike::new(self, pattern.as_expression())
    }
    /// `self < t`: `xid_time(self) < t`.
    fn time_lt<T: AsExpression<Timestamptz>>(self, t: T) -> TimeLt<Self, T::Expression> {
        TimeLt::new(self, t.as_expression())
    }
    /// `self <= t`: `xid_time(self) <= t`.
    fn time_le<T: AsExpression<Timestamptz>>(self, t: T) -> TimeLe<Self, T::Expression> {
        TimeLe::new(self, t.as_expression())
    }
    /// `self > t`: `xid_time(self) > t`.
    fn time_gt<T: AsExpression<Timestamptz>>(self, t: T) -> TimeGt<Self, T::Expression> {
        TimeGt::new(self, t.as_expression())
    }
    /// `self >= t`: `xid_time(self) >= t`.
    fn time_ge<T: AsExpression<Timestamptz>>(self, t: T) -> TimeGe<Self, T::Expression> {
        TimeGe::new(self, t.as_expression())
    }
}

impl<E: Expression<SqlType = sql_types::Xid>> XidExpressionMethods for E {}
