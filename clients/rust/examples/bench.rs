//! The crate's benchmark (its goals), as ratios measured in one run:
//! parse and format against the `uuid` crate, generation against
//! `Uuid::now_v7()`, and a tokio-postgres binary round trip of 10,000 rows
//! with an xid key against a uuid key (written with one `unnest($1)`
//! insert, read back with one select).  Best of several rounds each.
//!
//! `cargo run --release --locked --features postgres-types --example bench`
//! with PGHOST, PGPORT, PGUSER and PGDATABASE naming a database that has the
//! extension (without PGHOST the driver part is left out).

use pgxid::Xid;
use std::hint::black_box;
use std::time::{Duration, Instant};
use uuid::Uuid;

const N: usize = 1_000_000;
const ROUNDS: usize = 7;

fn best<F: FnMut() -> usize>(mut f: F) -> Duration {
    (0..ROUNDS)
        .map(|_| {
            let t = Instant::now();
            black_box(f());
            t.elapsed()
        })
        .min()
        .unwrap()
}

fn report(what: &str, ours: Duration, theirs: Duration, per: usize, rival: &str) {
    println!(
        "{what:<34} xid {:>8.1} ns  {rival:<14} {:>8.1} ns  ratio {:.2}x",
        ours.as_nanos() as f64 / per as f64,
        theirs.as_nanos() as f64 / per as f64,
        ours.as_secs_f64() / theirs.as_secs_f64()
    );
}

fn theirs_to_string(uuids: &[Uuid]) -> Duration {
    best(|| uuids.iter().map(|u| black_box(u).to_string().len()).sum())
}

fn codec() {
    let xids: Vec<Xid> = (0..N).map(|_| Xid::new()).collect();
    let uuids: Vec<Uuid> = (0..N).map(|_| Uuid::now_v7()).collect();
    let xtexts: Vec<String> = xids.iter().map(|x| x.to_string()).collect();
    let utexts: Vec<String> = uuids.iter().map(|u| u.to_string()).collect();

    let ours = best(|| xtexts.iter().map(|s| Xid::parse(black_box(s)).unwrap().as_u64() as usize).sum());
    let theirs = best(|| utexts.iter().map(|s| Uuid::parse_str(black_box(s)).unwrap().as_bytes()[15] as usize).sum());
    report("parse (text to value)", ours, theirs, N, "uuid");

    let ours = best(|| xids.iter().map(|x| black_box(x).encode()[10] as usize).sum());
    let theirs = best(|| {
        let mut buf = [0u8; 36];
        uuids.iter().map(|u| black_box(u).hyphenated().encode_lower(black_box(&mut buf)).as_bytes()[35] as usize).sum()
    });
    report("format (value to text, no alloc)", ours, theirs, N, "uuid");

    let ours = best(|| xids.iter().map(|x| String::from(*black_box(x)).len()).sum());
    report("format (String::from / to_string)", ours, theirs_to_string(&uuids), N, "uuid");

    let ours = best(|| xids.iter().map(|x| black_box(x).to_string().len()).sum());
    let theirs = best(|| uuids.iter().map(|u| black_box(u).to_string().len()).sum());
    report("format (to_string)", ours, theirs, N, "uuid");

    let ours = best(|| (0..N).map(|_| Xid::new().as_u64() as usize).sum());
    let theirs = best(|| (0..N).map(|_| Uuid::now_v7().as_bytes()[15] as usize).sum());
    report("generate", ours, theirs, N, "Uuid::now_v7()");
}

async fn driver() -> Result<(), tokio_postgres::Error> {
    let env = |k: &str, d: &str| std::env::var(k).unwrap_or_else(|_| d.to_string());
    let conninfo = format!(
        "host={} port={} user={} dbname={}",
        env("PGHOST", ""),
        env("PGPORT", "5432"),
        env("PGUSER", "postgres"),
        env("PGDATABASE", "postgres")
    );
    let (client, conn) = tokio_postgres::connect(&conninfo, tokio_postgres::NoTls).await?;
    tokio::spawn(conn);
    client
        .batch_execute(
            "CREATE TEMP TABLE bx (id public.xid PRIMARY KEY, n int);
             CREATE TEMP TABLE bu (id uuid PRIMARY KEY, n int)",
        )
        .await?;
    const ROWS: usize = 10_000;
    let ins_x =
        client.prepare("INSERT INTO bx SELECT id, n FROM unnest($1::public.xid[]) WITH ORDINALITY u(id, n)").await?;
    let ins_u = client.prepare("INSERT INTO bu SELECT id, n FROM unnest($1::uuid[]) WITH ORDINALITY u(id, n)").await?;
    let sel_x = client.prepare("SELECT id, n FROM bx").await?;
    let sel_u = client.prepare("SELECT id, n FROM bu").await?;
    let (mut wx, mut wu, mut rx, mut ru) = (Duration::MAX, Duration::MAX, Duration::MAX, Duration::MAX);
    for _ in 0..ROUNDS {
        client.batch_execute("TRUNCATE bx, bu").await?;
        let xs: Vec<Xid> = (0..ROWS).map(|_| Xid::new()).collect();
        let us: Vec<Uuid> = (0..ROWS).map(|_| Uuid::now_v7()).collect();
        let t = Instant::now();
        client.execute(&ins_x, &[&xs]).await?;
        wx = wx.min(t.elapsed());
        let t = Instant::now();
        client.execute(&ins_u, &[&us]).await?;
        wu = wu.min(t.elapsed());
        let t = Instant::now();
        let got: Vec<Xid> = client.query(&sel_x, &[]).await?.iter().map(|r| r.get(0)).collect();
        rx = rx.min(t.elapsed());
        assert_eq!(got.len(), ROWS);
        let t = Instant::now();
        let got: Vec<Uuid> = client.query(&sel_u, &[]).await?.iter().map(|r| r.get(0)).collect();
        ru = ru.min(t.elapsed());
        assert_eq!(got.len(), ROWS);
    }
    report("tokio-postgres insert 10,000 rows", wx, wu, ROWS, "uuid key");
    report("tokio-postgres select 10,000 rows", rx, ru, ROWS, "uuid key");
    report("tokio-postgres round trip", wx + rx, wu + ru, ROWS, "uuid key");
    Ok(())
}

fn main() {
    println!("best of {ROUNDS} rounds; per id (codec, {N} ids) or per row (driver)");
    codec();
    if std::env::var("PGHOST").is_ok() {
        let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
        rt.block_on(driver()).unwrap();
    } else {
        println!("driver: left out (PGHOST is not set)");
    }
}
