//! sqlx with the extension in another schema (`sqlx_ext::set_schema`), in
//! a process of its own: the schema is chosen once per process.

#![cfg(feature = "sqlx")]

use pgxid::Xid;
use sqlx::postgres::{PgConnectOptions, PgConnection};
use sqlx::{Connection, Executor};

#[tokio::test]
async fn sqlx_other_schema() {
    if std::env::var("PGHOST").is_err() {
        println!("no server: PGHOST is not set");
        return;
    }
    let mut admin = PgConnection::connect_with(&PgConnectOptions::new()).await.unwrap();
    admin.execute("DROP DATABASE IF EXISTS xid_clients_rust_sqlx").await.unwrap();
    admin.execute("CREATE DATABASE xid_clients_rust_sqlx").await.unwrap();
    let mut conn =
        PgConnection::connect_with(&PgConnectOptions::new().database("xid_clients_rust_sqlx")).await.unwrap();
    conn.execute("CREATE SCHEMA ids; CREATE EXTENSION xid SCHEMA ids").await.unwrap();
    assert!(pgxid::sqlx_ext::set_schema("ids"));
    assert!(!pgxid::sqlx_ext::set_schema("public"), "the schema is set once");
    assert_eq!(sqlx::TypeInfo::name(&<Xid as sqlx::Type<sqlx::Postgres>>::type_info()), "ids.xid");
    let x: Xid = sqlx::query_scalar("SELECT ids.xid_new()").fetch_one(&mut conn).await.unwrap();
    let back: Xid = sqlx::query_scalar("SELECT $1").bind(x).fetch_one(&mut conn).await.unwrap();
    assert_eq!(back, x);
    let ids: Vec<Xid> =
        sqlx::query_scalar("SELECT ARRAY[$1, ids.xid_new()]").bind(x).fetch_one(&mut conn).await.unwrap();
    assert!(ids[0] == x && ids[1] > x);
    let n: i64 = sqlx::query_scalar("SELECT count(*) FROM unnest($1::ids.xid[]) u WHERE u OPERATOR(ids.>) $2")
        .bind(&ids)
        .bind(x)
        .fetch_one(&mut conn)
        .await
        .unwrap();
    assert_eq!(n, 1);
    conn.close().await.unwrap();
    admin.execute("DROP DATABASE xid_clients_rust_sqlx WITH (FORCE)").await.unwrap();
}
