//! Real queries through tokio-postgres with pgxid from its packaged crate,
//! against the server (PGHOST, PGPORT, PGUSER, PGDATABASE).

use pgxid::postgres_ext::XidText;
use pgxid::{prefix_bounds, Xid};
use tokio_postgres::NoTls;

fn env(name: &str, default: &str) -> String {
    std::env::var(name).unwrap_or_else(|_| default.to_string())
}

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let conninfo = format!(
        "host={} port={} user={} dbname={}",
        env("PGHOST", "localhost"),
        env("PGPORT", "5432"),
        env("PGUSER", "postgres"),
        env("PGDATABASE", "postgres")
    );
    let (client, connection) = tokio_postgres::connect(&conninfo, NoTls).await?;
    tokio::spawn(connection);
    client
        .batch_execute(
            "DROP TABLE IF EXISTS app_orders;
             CREATE TABLE app_orders (id public.xid PRIMARY KEY DEFAULT xid_new(), item text)",
        )
        .await?;
    let made: Xid = client.query_one("INSERT INTO app_orders (item) VALUES ('pear') RETURNING id", &[]).await?.get(0);
    let item: String = client.query_one("SELECT item FROM app_orders WHERE id = $1", &[&made]).await?.get(0);
    assert_eq!(item, "pear");
    let text = made.to_string(); // an id's text, bound to an xid parameter
    let item: String = client.query_one("SELECT item FROM app_orders WHERE id = $1", &[&XidText(&text)]).await?.get(0);
    assert_eq!(item, "pear");
    let prefix = &made.to_string()[..7];
    let found: Vec<Xid> =
        client.query_one("SELECT array_agg(id) FROM app_orders WHERE id ^@ $1", &[&prefix]).await?.get(0);
    assert_eq!(found, vec![made]);
    let (lo, hi) = prefix_bounds(prefix).expect("a valid prefix");
    let n: i64 =
        client.query_one("SELECT count(*) FROM app_orders WHERE id BETWEEN $1 AND $2", &[&lo, &hi]).await?.get(0);
    assert_eq!(n, 1);
    println!("tokio-postgres: inserted {made}, selected by id, by its text and by prefix");
    Ok(())
}
