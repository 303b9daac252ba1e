//! Against a live server with xid installed in schema public (PGHOST,
//! PGPORT, PGUSER, PGDATABASE): the codec cross-checked with the server on
//! random inputs through tokio-postgres, and every driver in text and
//! binary, arrays, COPY, and the time query.  Without PGHOST each test
//! returns at once (and says so).

#![cfg(all(feature = "postgres-types", feature = "sqlx", feature = "diesel"))]

use pgxid::postgres_ext::XidText;
use pgxid::{like_bounds, prefix_bounds, time_lower_bound, time_upper_bound, Generator, Xid, MAX_MS};
use std::time::{Duration, SystemTime, UNIX_EPOCH};
use tokio_postgres::types::Type;
use tokio_postgres::{Client, NoTls, SimpleQueryMessage};

struct Rng(u64);
impl Rng {
    fn new() -> Rng {
        let seed = SystemTime::now().duration_since(UNIX_EPOCH).unwrap().as_nanos() as u64;
        println!("seed {seed}");
        Rng(seed)
    }
    fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
}

fn env(name: &str, default: &str) -> String {
    std::env::var(name).unwrap_or_else(|_| default.to_string())
}

fn conninfo() -> Option<String> {
    std::env::var("PGHOST").ok()?;
    Some(format!(
        "host={} port={} user={} dbname={}",
        env("PGHOST", "localhost"),
        env("PGPORT", "5432"),
        env("PGUSER", "postgres"),
        env("PGDATABASE", "postgres")
    ))
}

fn url(db: Option<&str>) -> String {
    format!(
        "postgres://{}@{}:{}/{}",
        env("PGUSER", "postgres"),
        env("PGHOST", "localhost"),
        env("PGPORT", "5432"),
        db.map(str::to_string).unwrap_or_else(|| env("PGDATABASE", "postgres"))
    )
}

macro_rules! connect {
    () => {
        match conninfo() {
            None => {
                println!("no server: PGHOST is not set");
                return;
            }
            Some(c) => {
                let (client, conn) = tokio_postgres::connect(&c, NoTls).await.unwrap();
                tokio::spawn(conn);
                client
            }
        }
    };
}

// an error and its sources, as one text: tokio-postgres says "error
// serializing parameter 0" and puts the reason in the source
fn chain(e: &dyn std::error::Error) -> String {
    let mut s = e.to_string();
    let mut cur = e.source();
    while let Some(c) = cur {
        s.push_str(": ");
        s.push_str(&c.to_string());
        cur = c.source();
    }
    s
}

fn hex(v: u64) -> String {
    format!("{v:016x}")
}

fn opt(b: Option<(Xid, Xid)>) -> (Option<Xid>, Option<Xid>) {
    match b {
        Some((l, h)) => (Some(l), Some(h)),
        None => (None, None),
    }
}

#[tokio::test]
async fn oid_is_found_and_core_xid_refused() {
    let client = connect!();
    let stmt = client.prepare("SELECT $1::public.xid").await.unwrap();
    let ty = &stmt.params()[0];
    assert_eq!((ty.name(), ty.schema()), ("xid", "public"));
    assert_ne!(ty.oid(), 28);
    let oid: u32 = client.query_one("SELECT 'public.xid'::regtype::oid", &[]).await.unwrap().get(0);
    assert_eq!(ty.oid(), oid);
    assert!(pgxid::postgres_ext::is_xid_type(ty));
    assert!(!pgxid::postgres_ext::is_xid_type(&Type::XID));
    // core's transaction id, in a column and as a parameter: refused
    let row = client.query_one("SELECT '5'::xid", &[]).await.unwrap();
    let err = row.try_get::<_, Xid>(0).unwrap_err().to_string();
    assert!(err.contains("error deserializing column 0"), "{err}");
    let err = chain(&client.query_one("SELECT $1::xid", &[&Xid::MAX]).await.unwrap_err());
    assert!(err.contains("cannot convert"), "{err}");
}

#[tokio::test]
async fn format_same_as_server() {
    let client = connect!();
    let mut r = Rng::new();
    let mut payloads = vec![0, 1, 57, 58, (1 << 32) - 1, 1 << 32, (1 << 63) - 1, 1 << 63, u64::MAX - 1, u64::MAX];
    payloads.extend((0..100_000).map(|i| r.next_u64() >> (i % 64)));
    let hexes: Vec<String> = payloads.iter().map(|&v| hex(v)).collect();
    let rows = client
        .query(
            "SELECT decode(h, 'hex')::public.xid::text, decode(h, 'hex')::public.xid
             FROM unnest($1::text[]) WITH ORDINALITY u(h, n) ORDER BY n",
            &[&hexes],
        )
        .await
        .unwrap();
    assert_eq!(rows.len(), payloads.len());
    for (row, &v) in rows.iter().zip(&payloads) {
        let text: &str = row.get(0);
        let x: Xid = row.get(1);
        assert_eq!((Xid::from_u64(v).to_string().as_str(), x.as_u64()), (text, v));
    }
}

#[tokio::test]
async fn parse_same_as_server() {
    let client = connect!();
    let mut r = Rng::new();
    let xs: Vec<Xid> = (0..20_000).map(|_| Xid::from_u64(r.next_u64())).collect();
    let texts: Vec<String> = xs.iter().map(|x| x.to_string()).collect();
    let q =
        "SELECT array_agg(encode(x::bytea, 'hex') ORDER BY n) FROM unnest($1::public.xid[]) WITH ORDINALITY u(x, n)";
    let got: Vec<String> = client.query_one(q, &[&xs]).await.unwrap().get(0);
    let q = "SELECT array_agg(encode(x::public.xid::bytea, 'hex') ORDER BY n) FROM unnest($1::text[]) WITH ORDINALITY u(x, n)";
    let got_text: Vec<String> = client.query_one(q, &[&texts]).await.unwrap().get(0);
    for (i, x) in xs.iter().enumerate() {
        assert_eq!((&got[i], &got_text[i]), (&hex(x.as_u64()), &hex(x.as_u64())), "{x}");
    }
}

#[tokio::test]
async fn invalid_input_same_as_server() {
    let client = connect!();
    // the server's own error for the text cast to xid (pg_input_error_info()
    // would do on 16 and later; the crate is tested against 15 too)
    for s in [
        "",
        "5cnEkaefSd",
        "5cnEkaefSdu1",
        "5cnEk0efSdu",
        "5cnEkaefSdO",
        "I1111111111",
        "l1111111111",
        " 5cnEkaefSd",
        "5cnEkaefSd ",
        "5cnEkaefSdé",
        "2026-11-20",
        "jpXCZedGfVR",
        "jpXCZedGfWQ",
        "k1111111111",
        "zzzzzzzzzzz",
        "5cnEkae-Sdu",
        "5cnEkaéfSd",
    ] {
        let err = client.query_one("SELECT $1::text::public.xid", &[&s]).await.unwrap_err();
        let db = err.as_db_error().expect("a server error");
        let e = Xid::parse(s).unwrap_err();
        assert_eq!((e.message(), e.detail(), e.code()), (db.message(), db.detail(), db.code().code()), "{s:?}");
    }
}

#[tokio::test]
async fn prefix_and_like_bounds_same_as_server() {
    let client = connect!();
    let mut r = Rng::new();
    let mut prefixes: Vec<String> = [
        "",
        "j",
        "jp",
        "jq",
        "k",
        "z",
        "zz",
        "jpXCZedGfVQ",
        "jpXCZedGfVR",
        "jpXCZedGfV",
        "jpXCZedGfW",
        "5c0",
        "0",
        "l",
        " ",
        "5cnrQT7y4za1",
        "111111111111",
        "é",
        "%",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    for i in 0..3000 {
        let s = Xid::from_u64(r.next_u64() >> (i % 8)).to_string();
        prefixes.push(s[..i % 12].to_string());
    }
    let rows = client
        .query(
            "SELECT xid_prefix_lower_bound(p), xid_prefix_upper_bound(p) FROM unnest($1::text[]) WITH ORDINALITY u(p, n) ORDER BY n",
            &[&prefixes],
        )
        .await
        .unwrap();
    for (row, p) in rows.iter().zip(&prefixes) {
        assert_eq!((row.get(0), row.get(1)), opt(prefix_bounds(p)), "{p:?}");
    }
    let mut patterns: Vec<String> = [
        "",
        "%",
        "_",
        "5cnrQT%",
        "5cnrQT%a",
        "5cnrQT_____",
        "5cnrQT____",
        "5cnrQT______",
        "5cnrQT_%",
        "5c\\nr%",
        "5c\\%",
        "abc\\\\",
        "%\\\\",
        "5cnrQT7y4za",
        "5cnrQT7y4za%",
        "5cnrQT7y4za1%",
        "jpXCZedGfVR%",
        "jq%",
        "5c0%",
        "___________",
        "__________",
        "%%%%",
        "5\\_%",
        "é%",
        "5cnrQT%\\%",
        "\\5cnrQT%",
        "jpXCZedGfV_",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    for i in 0..500 {
        let s = Xid::from_u64(r.next_u64()).to_string();
        let n = i % 12;
        let tails = ["%".to_string(), "_".repeat(11 - n), format!("%{}", &s[9..]), "_%".to_string()];
        patterns.push(format!("{}{}", &s[..n], tails[i % 4]));
    }
    let rows = client
        .query(
            "SELECT xid_like_lower_bound(p), xid_like_upper_bound(p) FROM unnest($1::text[]) WITH ORDINALITY u(p, n) ORDER BY n",
            &[&patterns],
        )
        .await
        .unwrap();
    for (row, p) in rows.iter().zip(&patterns) {
        assert_eq!((row.get(0), row.get(1)), opt(like_bounds(p).unwrap()), "{p:?}");
    }
    // a lone escape at the end: the server's error, word for word
    for p in ["é8Cdc9Wxaws%\\", "8Cdc9Wxaws%\\", "abc\\", "%\\", "\\"] {
        let ours = like_bounds(p).unwrap_err();
        for q in ["SELECT xid_like_lower_bound($1)::text", "SELECT xid_like_upper_bound($1)::text"] {
            let e = client.query_one(q, &[&p]).await.unwrap_err();
            let db = e.as_db_error().unwrap();
            assert_eq!((db.code().code(), db.message()), (ours.code(), ours.message()), "{q} {p:?}");
        }
    }
}

#[tokio::test]
async fn time_bounds_same_as_server() {
    let client = connect!();
    let mut r = Rng::new();
    let epoch = Xid::MIN.time();
    let last = Xid::MAX.time();
    let us = Duration::from_micros(1);
    let mut times = vec![epoch, epoch - us, epoch + us, UNIX_EPOCH, last, last + us, last + Duration::from_millis(1)];
    let now_us = SystemTime::now().duration_since(UNIX_EPOCH).unwrap().as_micros() as u64;
    times.push(UNIX_EPOCH + Duration::from_micros(now_us));
    for _ in 0..2000 {
        times.push(epoch + Duration::from_micros(r.next_u64() % (MAX_MS as u64 * 1000)));
    }
    let rows = client
        .query(
            "SELECT xid_time_lower_bound(t, true), xid_time_lower_bound(t, false),
                    xid_time_upper_bound(t, true), xid_time_upper_bound(t, false)
             FROM unnest($1::timestamptz[]) WITH ORDINALITY u(t, n) ORDER BY n",
            &[&times],
        )
        .await
        .unwrap();
    for (row, t) in rows.iter().zip(&times) {
        let ours = (
            time_lower_bound(t, true),
            time_lower_bound(t, false),
            time_upper_bound(t, true),
            time_upper_bound(t, false),
        );
        assert_eq!((row.get(0), row.get(1), row.get(2), row.get(3)), ours, "{t:?}");
    }
}

#[tokio::test]
async fn fields_and_uuid_same_as_server() {
    let client = connect!();
    let mut r = Rng::new();
    let xs: Vec<Xid> = (0..2000).map(|_| Xid::from_u64(r.next_u64())).collect();
    let rows = client
        .query(
            "SELECT xid_time(x), xid_random(x), array(SELECT xid_node(x, b) FROM generate_series(0, 12) b), x::uuid::text
             FROM unnest($1::public.xid[]) WITH ORDINALITY u(x, n) ORDER BY n",
            &[&xs],
        )
        .await
        .unwrap();
    for (row, x) in rows.iter().zip(&xs) {
        let t: SystemTime = row.get(0);
        let random: i32 = row.get(1);
        let nodes: Vec<i32> = row.get(2);
        let u: String = row.get(3);
        assert_eq!((t, random as u32, u), (x.time(), x.random(), x.to_uuid_string()), "{x}");
        for (b, n) in nodes.iter().enumerate() {
            assert_eq!(x.node(b as u32).unwrap() as i32, *n);
        }
    }
    let e = client.query_one("SELECT xid_node(xid_new(), 13)", &[]).await.unwrap_err();
    let ours = xs[0].node(13).unwrap_err();
    let db = e.as_db_error().unwrap();
    assert_eq!((db.code().code(), db.message()), (ours.code(), ours.message()));
    for u in ["01890a5d-ac96-774b-bcce-b302099a8057", "00000000-0000-7000-8000-000000000000"] {
        let e = client.query_one(&format!("SELECT '{u}'::uuid::public.xid"), &[]).await.unwrap_err();
        let ours = Xid::parse_uuid(u).unwrap_err();
        let db = e.as_db_error().unwrap();
        assert_eq!((db.code().code(), db.message()), (ours.code(), ours.message()), "{u}");
    }
}

#[tokio::test]
async fn ulid_same_as_server() {
    let client = connect!();
    let mut r = Rng::new();
    let mut xs: Vec<Xid> = [0, 1, (1 << 22) - 1, 1 << 22, u64::MAX >> 1, 1 << 63, u64::MAX - 1, u64::MAX]
        .into_iter()
        .map(Xid::from_u64)
        .collect();
    xs.extend((0..20000).map(|i| Xid::from_u64(r.next_u64() >> (i % 64))));
    let rows = client
        .query(
            "SELECT xid_to_ulid(x), xid_from_ulid(xid_to_ulid(x))::text, xid_from_ulid(lower(xid_to_ulid(x)))::text
             FROM unnest($1::public.xid[]) WITH ORDINALITY u(x, n) ORDER BY n",
            &[&xs],
        )
        .await
        .unwrap();
    assert_eq!(rows.len(), xs.len());
    for (row, x) in rows.iter().zip(&xs) {
        let (u, back, lower): (String, String, String) = (row.get(0), row.get(1), row.get(2));
        assert_eq!((x.to_ulid_string(), x.to_string(), x.to_string()), (u.clone(), back, lower), "{x}");
        assert_eq!(Xid::parse_ulid(&u).unwrap(), *x);
    }

    // ULIDs of another maker, any randomness: the 26 symbols, and the 16
    // bytes as a uuid (pgx_ulid's cast)
    const CROCKFORD: &[u8; 32] = b"0123456789ABCDEFGHJKMNPQRSTVWXYZ";
    let ulids: Vec<u128> = (0..5000)
        .map(|_| {
            let ms = (pgxid::EPOCH_MS + (r.next_u64() % (MAX_MS as u64 + 1)) as i64) as u128;
            ms << 80 | (r.next_u64() as u128) << 16 | (r.next_u64() & 0xffff) as u128
        })
        .collect();
    let mut texts = Vec::new();
    for v in &ulids {
        texts.push((0..26).rev().map(|i| CROCKFORD[((v >> (5 * i)) & 31) as usize] as char).collect::<String>());
    }
    let uuids: Vec<uuid::Uuid> = ulids.iter().map(|&v| uuid::Uuid::from_u128(v)).collect();
    let rows = client
        .query(
            "SELECT xid_from_ulid(t)::text, xid_from_ulid(u)::text
             FROM unnest($1::text[], $2::uuid[]) WITH ORDINALITY a(t, u, n) ORDER BY n",
            &[&texts, &uuids],
        )
        .await
        .unwrap();
    assert_eq!(rows.len(), texts.len());
    for ((row, t), v) in rows.iter().zip(&texts).zip(&ulids) {
        let (from_text, from_uuid): (String, String) = (row.get(0), row.get(1));
        let from_bytes = Xid::from_ulid_bytes(v.to_be_bytes()).unwrap();
        assert_eq!((Xid::parse_ulid(t).unwrap().to_string(), from_bytes.to_string()), (from_text, from_uuid), "{t}");
    }

    // flakes: every time an xid holds, and the edges of the 20 bits
    let top = (pgxid::EPOCH_MS + MAX_MS - 1_704_067_200_000) << 20 | ((1 << 20) - 1);
    let mut flakes: Vec<i64> = vec![0, 1, (1 << 20) - 1, top];
    flakes.extend((0..10000).map(|_| (r.next_u64() % (top as u64 + 1)) as i64));
    let rows = client
        .query(
            "SELECT xid_from_ulid_flake(f)::text FROM unnest($1::bigint[]) WITH ORDINALITY u(f, n) ORDER BY n",
            &[&flakes],
        )
        .await
        .unwrap();
    assert_eq!(rows.len(), flakes.len());
    for (row, f) in rows.iter().zip(&flakes) {
        assert_eq!(Xid::from_ulid_flake(*f).unwrap().to_string(), row.get::<_, String>(0), "{f}");
    }

    // what the server refuses: bad text, a first symbol above 7, a time an
    // xid cannot hold, a negative flake
    let bad = [
        String::new(),
        "8ZZZZZZZZZZZZZZZZZZZZZZZZZ".into(),
        "01ARZ3NDEKTSV4RRFFQ69G5FA".into(),
        "01ARZ3NDEKTSV4RRFFQ69G5FAVX".into(),
        "01ARZ3NDEKTSV4RRFFQ69G5FAU".into(),
        "01arz3ndektsv4rrffq69g5fai".into(),
        format!("8\u{e9}{}", "0".repeat(23)),
        format!("8\u{e9}{}", "0".repeat(24)),
        "00000000000000000000000000".into(),
        "7ZZZZZZZZZZZZZZZZZZZZZZZZZ".into(),
    ];
    for u in &bad {
        let e = client.query_one("SELECT xid_from_ulid($1::text)", &[u]).await.unwrap_err();
        let ours = Xid::parse_ulid(u).unwrap_err();
        let db = e.as_db_error().unwrap();
        assert_eq!((db.code().code(), db.message(), db.detail()), (ours.code(), ours.message(), ours.detail()), "{u}");
    }
    for f in [-1, i64::MIN, top + 1, i64::MAX] {
        let e = client.query_one("SELECT xid_from_ulid_flake($1::bigint)", &[&f]).await.unwrap_err();
        let ours = Xid::from_ulid_flake(f).unwrap_err();
        let db = e.as_db_error().unwrap();
        assert_eq!((db.code().code(), db.message(), db.detail()), (ours.code(), ours.message(), ours.detail()), "{f}");
    }
}

// waits until the clock is in a later millisecond
fn next_ms() {
    let t = SystemTime::now().duration_since(UNIX_EPOCH).unwrap().as_millis();
    while SystemTime::now().duration_since(UNIX_EPOCH).unwrap().as_millis() <= t {}
}

#[tokio::test]
async fn generator_interleaved_with_server() {
    let client = connect!();
    client.batch_execute("CREATE TEMP TABLE gen (id public.xid PRIMARY KEY, seq int NOT NULL)").await.unwrap();
    let g = Generator::new(0, 0).unwrap();
    for i in 0..400i32 {
        next_ms();
        if i % 2 == 0 {
            client.execute("INSERT INTO gen VALUES ($1, $2)", &[&g.next(), &i]).await.unwrap();
        } else {
            client.execute("INSERT INTO gen VALUES (xid_new(), $1)", &[&i]).await.unwrap();
        }
    }
    let seqs: Vec<i32> = client.query_one("SELECT array_agg(seq ORDER BY id) FROM gen", &[]).await.unwrap().get(0);
    assert_eq!(seqs, (0..400).collect::<Vec<i32>>());
    let ng = Generator::new(4, 11).unwrap();
    let ids: Vec<Xid> = (0..1000).map(|_| ng.next()).collect();
    let nodes: Vec<i32> = client
        .query_one("SELECT array_agg(DISTINCT xid_node(x, 4)) FROM unnest($1::public.xid[]) x", &[&ids])
        .await
        .unwrap()
        .get(0);
    assert_eq!(nodes, vec![11]);
}

// orders: 2,880 ids over ten days; returns the count since `since` that the
// server computes with xid_time
async fn orders(client: &Client, since: SystemTime) -> i64 {
    client
        .batch_execute(
            "CREATE TEMP TABLE orders (id public.xid PRIMARY KEY DEFAULT xid_new(), item text NOT NULL);
             INSERT INTO orders SELECT xid_new(now() - interval '10 days' + g * interval '5 minutes' + random() * interval '1 minute'), 'o' || g
             FROM generate_series(1, 2880) g; ANALYZE orders",
        )
        .await
        .unwrap();
    let want: i64 =
        client.query_one("SELECT count(*) FROM orders WHERE xid_time(id) >= $1", &[&since]).await.unwrap().get(0);
    assert!(want > 0 && want < 2880, "{want}");
    want
}

#[tokio::test]
async fn time_query_tokio_postgres() {
    let client = connect!();
    let since = SystemTime::now() - Duration::from_secs(72 * 3600) - Duration::from_micros(12345);
    let want = orders(&client, since).await;
    // the trap: a time bound to `id >= $1`, where $1 is an xid
    let e = chain(&client.query_one("SELECT count(*) FROM orders WHERE id >= $1", &[&since]).await.unwrap_err());
    assert!(
        e.contains("cannot convert between the Rust type `std::time::SystemTime` and the Postgres type `xid`"),
        "{e}"
    );
    // what to write: the time as timestamptz, or the bound computed here
    let n: i64 =
        client.query_one("SELECT count(*) FROM orders WHERE id >= $1::timestamptz", &[&since]).await.unwrap().get(0);
    assert_eq!(n, want);
    let lo = time_lower_bound(&since, true).unwrap();
    let n: i64 = client.query_one("SELECT count(*) FROM orders WHERE id >= $1", &[&lo]).await.unwrap().get(0);
    assert_eq!(n, want);
    // query_typed: the parameter's type given, the server compares a time
    let n: i64 =
        client.query_typed("SELECT count(*) FROM orders WHERE id >= $1", &[(&since, Type::TIMESTAMPTZ)]).await.unwrap()
            [0]
        .get(0);
    assert_eq!(n, want);
    // the primary key's index serves it
    let plan = explain(&client, "SELECT count(*) FROM orders WHERE id >= $1::timestamptz").await;
    assert!(plan.contains("orders_pkey"), "{plan}");
}

/// The generic plan of q, which takes one parameter.
async fn explain(client: &Client, q: &str) -> String {
    let version: i32 = client.query_one("SELECT current_setting('server_version_num')::int", &[]).await.unwrap().get(0);
    let sql = if version >= 160000 {
        format!("SET enable_seqscan = off; EXPLAIN (COSTS OFF, GENERIC_PLAN) {q}; RESET enable_seqscan")
    } else {
        // EXPLAIN's GENERIC_PLAN is 16 and later: a prepared statement's
        format!(
            "SET enable_seqscan = off; SET plan_cache_mode = force_generic_plan; PREPARE xid_explain AS {q}; \
             EXPLAIN (COSTS OFF) EXECUTE xid_explain(NULL); DEALLOCATE xid_explain; RESET plan_cache_mode; \
             RESET enable_seqscan"
        )
    };
    let mut plan = String::new();
    let msgs = client.simple_query(&sql).await.unwrap();
    for m in msgs {
        if let SimpleQueryMessage::Row(r) = m {
            plan.push_str(r.get(0).unwrap());
            plan.push('\n');
        }
    }
    plan
}

#[tokio::test]
async fn text_and_binary_tokio_postgres() {
    let client = connect!();
    orders(&client, SystemTime::now()).await;
    // binary: every query's results
    let row = client.query_one("SELECT id, id::text AS t FROM orders ORDER BY id LIMIT 1", &[]).await.unwrap();
    let (first, text): (Xid, String) = (row.get(0), row.get(1));
    assert_eq!(first.to_string(), text);
    let got: Option<Xid> = client.query_one("SELECT id FROM orders WHERE id = $1", &[&first]).await.unwrap().get(0);
    assert_eq!(got, Some(first));
    let null: Option<Xid> = client.query_one("SELECT NULL::public.xid", &[]).await.unwrap().get(0);
    assert_eq!(null, None);
    assert!(client.query_one("SELECT NULL::public.xid", &[]).await.unwrap().try_get::<_, Xid>(0).is_err());
    // text: the simple protocol's results
    for m in client.simple_query(&format!("SELECT id FROM orders WHERE id = '{first}'")).await.unwrap() {
        if let SimpleQueryMessage::Row(r) = m {
            assert_eq!(r.get(0).unwrap().parse::<Xid>().unwrap(), first);
        }
    }
    // a text parameter: the server reads it
    let got: Xid = client.query_one("SELECT $1::text::public.xid", &[&text]).await.unwrap().get(0);
    assert_eq!(got, first);
    let got: Xid = client
        .query_one("SELECT id FROM orders WHERE id = $1::text::public.xid", &[&text.as_str()])
        .await
        .unwrap()
        .get(0);
    assert_eq!(got, first);
    // text bound to an xid parameter: the driver's WrongType (README), before anything is sent
    let e = client.query_one("SELECT id FROM orders WHERE id = $1", &[&text.as_str()]).await.unwrap_err();
    assert!(format!("{e:?}").contains("WrongType") && e.code().is_none(), "{e:?}");
    // ... and wrapped in XidText, the id
    let got: Xid =
        client.query_one("SELECT id FROM orders WHERE id = $1", &[&XidText(text.as_str())]).await.unwrap().get(0);
    assert_eq!(got, first);
    // a 7-byte binary value is refused
    let e = client.query_one("SELECT '\\x01020304050607'::bytea", &[]).await.unwrap().try_get::<_, Xid>(0);
    assert!(e.is_err());
}

#[tokio::test]
async fn text_parameters_tokio_postgres() {
    let client = connect!();
    orders(&client, SystemTime::now()).await;
    let ids: Vec<Xid> = client.query_one("SELECT array_agg(id ORDER BY id) FROM orders", &[]).await.unwrap().get(0);
    let (first, text) = (ids[0], ids[0].to_string());
    // &str, String, &String: the id
    for p in
        [&XidText(text.as_str()) as &(dyn tokio_postgres::types::ToSql + Sync), &XidText(text.clone()), &XidText(&text)]
    {
        let got: Xid = client.query_one("SELECT id FROM orders WHERE id = $1", &[p]).await.unwrap().get(0);
        assert_eq!(got, first);
    }
    // the time comparison and prefix operators take ids as they do
    let n: i64 = client
        .query_one(
            "SELECT count(*) FROM orders WHERE id >= $1 AND id <= $2",
            &[&XidText(&text), &XidText(ids[9].to_string())],
        )
        .await
        .unwrap()
        .get(0);
    assert_eq!(n, 10);
    // NULL and arrays
    let none: Option<Xid> = client.query_one("SELECT $1::public.xid", &[&None::<XidText<&str>>]).await.unwrap().get(0);
    assert_eq!(none, None);
    let texts: Vec<XidText<String>> = ids[..5].iter().map(|x| XidText(x.to_string())).collect();
    let found: Vec<Xid> = client
        .query_one("SELECT array_agg(id ORDER BY id) FROM orders WHERE id = ANY($1)", &[&texts])
        .await
        .unwrap()
        .get(0);
    assert_eq!(found, ids[..5]);
    // text that is no id: the server's message and SQLSTATE, before anything is sent
    for bad in ["5cnEk0efSdu", "5cnEkaefSd", "zzzzzzzzzzz", ""] {
        let e = client.query_one("SELECT id FROM orders WHERE id = $1", &[&XidText(bad)]).await.unwrap_err();
        assert!(e.code().is_none(), "{e:?}");
        let source =
            std::error::Error::source(&e).and_then(|s| s.downcast_ref::<pgxid::Error>()).expect("a pgxid::Error");
        let server = client.query_one(&format!("SELECT '{bad}'::public.xid"), &[]).await.unwrap_err();
        let db = server.as_db_error().unwrap();
        assert_eq!((source.message(), source.code()), (db.message(), db.code().code()), "{bad:?}");
        assert!(chain(&e).contains(db.message()), "{}", chain(&e));
    }
    // XidText is for xid parameters only
    let e = client.query_one("SELECT $1::text", &[&XidText(text.as_str())]).await.unwrap_err();
    assert!(format!("{e:?}").contains("WrongType"), "{e:?}");
    assert_eq!(format!("{:?}", XidText(text.clone())), format!("XidText({text:?})"));
}

#[tokio::test]
async fn arrays_tokio_postgres() {
    let client = connect!();
    orders(&client, SystemTime::now()).await;
    let ids: Vec<Xid> = client.query_one("SELECT array_agg(id ORDER BY id) FROM orders", &[]).await.unwrap().get(0);
    assert_eq!(ids.len(), 2880);
    assert!(ids.windows(2).all(|w| w[0] < w[1]));
    let with_null: Vec<Option<Xid>> =
        client.query_one("SELECT ARRAY['11111111111', NULL, 'jpXCZedGfVQ']::public.xid[]", &[]).await.unwrap().get(0);
    assert_eq!(with_null, vec![Some(Xid::MIN), None, Some(Xid::MAX)]);
    let found: Vec<Xid> = client
        .query_one("SELECT array_agg(id ORDER BY id) FROM orders WHERE id = ANY($1)", &[&&ids[..5]])
        .await
        .unwrap()
        .get(0);
    assert_eq!(found, ids[..5]);
}

#[tokio::test]
async fn binary_copy_tokio_postgres() {
    use futures_util::pin_mut;
    use tokio_postgres::binary_copy::{BinaryCopyInWriter, BinaryCopyOutStream};
    let client = connect!();
    client.batch_execute("CREATE TEMP TABLE copied (id public.xid PRIMARY KEY, n int)").await.unwrap();
    let xid_type = client.prepare("SELECT $1::public.xid").await.unwrap().params()[0].clone();
    let g = Generator::new(0, 0).unwrap();
    let want: Vec<Xid> = (0..5000).map(|_| g.next()).collect();
    let sink = client.copy_in("COPY copied (id, n) FROM STDIN (FORMAT binary)").await.unwrap();
    let writer = BinaryCopyInWriter::new(sink, &[xid_type.clone(), Type::INT4]);
    pin_mut!(writer);
    for (i, x) in want.iter().enumerate() {
        writer.as_mut().write(&[x, &(i as i32)]).await.unwrap();
    }
    assert_eq!(writer.finish().await.unwrap(), 5000);
    let got: Vec<Xid> = client.query_one("SELECT array_agg(id ORDER BY id) FROM copied", &[]).await.unwrap().get(0);
    assert_eq!(got, want);
    // and out, in binary
    let stream = client.copy_out("COPY (SELECT id FROM copied ORDER BY id) TO STDOUT (FORMAT binary)").await.unwrap();
    let rows = BinaryCopyOutStream::new(stream, std::slice::from_ref(&xid_type));
    pin_mut!(rows);
    let mut out = Vec::new();
    while let Some(row) = futures_util::StreamExt::next(&mut rows).await {
        out.push(row.unwrap().get::<Xid>(0));
    }
    assert_eq!(out, want);
    // a time in an xid column is refused, not copied as an id from 2011
    let sink = client.copy_in("COPY copied (id, n) FROM STDIN (FORMAT binary)").await.unwrap();
    let writer = BinaryCopyInWriter::new(sink, &[xid_type, Type::INT4]);
    pin_mut!(writer);
    let e = chain(&writer.as_mut().write(&[&SystemTime::now(), &1i32]).await.unwrap_err());
    assert!(
        e.contains("cannot convert between the Rust type `std::time::SystemTime` and the Postgres type `xid`"),
        "{e}"
    );
}

#[test]
fn postgres_sync_client() {
    let Some(c) = conninfo() else {
        println!("no server: PGHOST is not set");
        return;
    };
    let mut client = postgres::Client::connect(&c, postgres::NoTls).unwrap();
    let x = Xid::new();
    let row = client.query_one("SELECT $1::public.xid, ARRAY[$1, xid_new()]::public.xid[]", &[&x]).unwrap();
    let (y, ids): (Xid, Vec<Xid>) = (row.get(0), row.get(1));
    assert_eq!(y, x);
    assert!(ids[1] > ids[0]);
}

#[tokio::test]
async fn other_schema_tokio_postgres() {
    let client = connect!();
    client.batch_execute("DROP DATABASE IF EXISTS xid_clients_rust_schema").await.unwrap();
    client.batch_execute("CREATE DATABASE xid_clients_rust_schema").await.unwrap();
    let c = format!("{} dbname=xid_clients_rust_schema", conninfo().unwrap());
    let (other, conn) = tokio_postgres::connect(&c, NoTls).await.unwrap();
    let task = tokio::spawn(conn);
    other.batch_execute("CREATE SCHEMA ids; CREATE EXTENSION xid SCHEMA ids").await.unwrap();
    let x: Xid = other.query_one("SELECT ids.xid_new()", &[]).await.unwrap().get(0);
    assert!(x.time() > SystemTime::now() - Duration::from_secs(60));
    assert!(other.prepare("SELECT $1::public.xid").await.is_err());
    drop(other);
    let _ = task.await;
    client.batch_execute("DROP DATABASE xid_clients_rust_schema WITH (FORCE)").await.unwrap();
}

// ---- sqlx

mod sqlx_tests {
    use super::*;
    use sqlx::postgres::{PgConnectOptions, PgConnection};
    use sqlx::{Connection, Row};

    async fn connect() -> Option<PgConnection> {
        std::env::var("PGHOST").ok()?;
        Some(PgConnection::connect_with(&PgConnectOptions::new()).await.unwrap())
    }

    #[tokio::test]
    async fn sqlx_text_binary_arrays_and_time() {
        let Some(mut conn) = connect().await else {
            println!("no server: PGHOST is not set");
            return;
        };
        assert_eq!(sqlx::TypeInfo::name(&<Xid as sqlx::Type<sqlx::Postgres>>::type_info()), "public.xid");
        sqlx::raw_sql(
            "CREATE TEMP TABLE orders (id public.xid PRIMARY KEY DEFAULT xid_new(), item text NOT NULL);
             INSERT INTO orders SELECT xid_new(now() - interval '10 days' + g * interval '5 minutes'), 'o' || g
             FROM generate_series(1, 2880) g; ANALYZE orders",
        )
        .execute(&mut conn)
        .await
        .unwrap();
        // binary (prepared statements)
        let first: Xid =
            sqlx::query_scalar("SELECT id FROM orders ORDER BY id LIMIT 1").fetch_one(&mut conn).await.unwrap();
        let (id, text): (Xid, String) = sqlx::query_as("SELECT id, id::text FROM orders WHERE id = $1")
            .bind(first)
            .fetch_one(&mut conn)
            .await
            .unwrap();
        assert_eq!((id, text), (first, first.to_string()));
        let null: Option<Xid> = sqlx::query_scalar("SELECT NULL::public.xid").fetch_one(&mut conn).await.unwrap();
        assert_eq!(null, None);
        // text (the simple protocol)
        let row = sqlx::raw_sql("SELECT 'jpXCZedGfVQ'::public.xid").fetch_one(&mut conn).await.unwrap();
        assert_eq!(row.try_get::<Xid, _>(0).unwrap(), Xid::MAX);
        // arrays, ANY
        let ids: Vec<Xid> =
            sqlx::query_scalar("SELECT array_agg(id ORDER BY id) FROM orders").fetch_one(&mut conn).await.unwrap();
        assert_eq!(ids.len(), 2880);
        let n: i64 = sqlx::query_scalar("SELECT count(*) FROM orders WHERE id = ANY($1)")
            .bind(&ids[..7])
            .fetch_one(&mut conn)
            .await
            .unwrap();
        assert_eq!(n, 7);
        let back: Vec<Xid> =
            sqlx::query_scalar("SELECT $1::public.xid[]").bind(ids.clone()).fetch_one(&mut conn).await.unwrap();
        assert_eq!(back, ids);
        // core's xid is refused
        let e = sqlx::query_scalar::<_, Xid>("SELECT '5'::xid").fetch_one(&mut conn).await.unwrap_err();
        assert!(e.to_string().contains("mismatched types"), "{e}");
        // time: a time bound to `id >= $1` goes as timestamptz, so it
        // compares as a time, as `$1::timestamptz` does
        let since = time::OffsetDateTime::now_utc() - time::Duration::hours(72);
        let want: i64 = sqlx::query_scalar("SELECT count(*) FROM orders WHERE xid_time(id) >= $1")
            .bind(since)
            .fetch_one(&mut conn)
            .await
            .unwrap();
        assert!(want > 0 && want < 2880);
        for q in
            ["SELECT count(*) FROM orders WHERE id >= $1", "SELECT count(*) FROM orders WHERE id >= $1::timestamptz"]
        {
            let n: i64 = sqlx::query_scalar(q).bind(since).fetch_one(&mut conn).await.unwrap();
            assert_eq!(n, want, "{q}");
        }
        let lo = time_lower_bound(&since, true).unwrap();
        let n: i64 = sqlx::query_scalar("SELECT count(*) FROM orders WHERE id >= $1 -- an xid")
            .bind(lo)
            .fetch_one(&mut conn)
            .await
            .unwrap();
        assert_eq!(n, want);
        // sqlx caches a statement by its text alone (sqlx issue 2885), also
        // with .persistent(false): the text prepared above with a time as $1
        // reads the 8 bytes of an Xid as a time, silently (README: one text,
        // one set of parameter types)
        let n: i64 = sqlx::query_scalar("SELECT count(*) FROM orders WHERE id >= $1")
            .bind(lo)
            .fetch_one(&mut conn)
            .await
            .unwrap();
        assert_eq!(n, 0, "sqlx no longer reuses a statement prepared for other types: README can say so");
        // an xid column never takes a time
        let e = sqlx::query("INSERT INTO orders (id, item) VALUES ($1, 'x')")
            .bind(since)
            .execute(&mut conn)
            .await
            .unwrap_err();
        assert!(
            e.to_string().contains("is of type public.xid but expression is of type timestamp with time zone"),
            "{e}"
        );
    }
}

// ---- diesel

mod diesel_tests {
    use super::*;
    use diesel::connection::SimpleConnection;
    use diesel::prelude::*;
    use diesel::sql_types::{Array, BigInt};
    use pgxid::diesel_ext::{sql_types, xid_new, xid_prefix_range, xid_time, At, XidExpressionMethods};

    diesel::table! {
        use diesel::sql_types::Text;
        use pgxid::diesel_ext::sql_types::Xid;
        d_orders (id) {
            id -> Xid,
            item -> Text,
        }
    }

    #[derive(Queryable, Insertable, Selectable, Debug, PartialEq)]
    #[diesel(table_name = d_orders)]
    struct Order {
        id: Xid,
        item: String,
    }

    #[test]
    fn diesel_query_builder() {
        if conninfo().is_none() {
            println!("no server: PGHOST is not set");
            return;
        }
        let mut conn = PgConnection::establish(&url(None)).unwrap();
        conn.batch_execute(
            "CREATE TEMP TABLE d_orders (id public.xid PRIMARY KEY, item text NOT NULL);
             INSERT INTO d_orders SELECT xid_new(now() - interval '10 days' + g * interval '5 minutes'), 'o' || g
             FROM generate_series(1, 2880) g; ANALYZE d_orders",
        )
        .unwrap();
        let x = Xid::new();
        diesel::insert_into(d_orders::table).values(&Order { id: x, item: "fig".into() }).execute(&mut conn).unwrap();
        let got: Order =
            d_orders::table.filter(d_orders::id.eq(x)).select(Order::as_select()).first(&mut conn).unwrap();
        assert_eq!(got, Order { id: x, item: "fig".into() });
        // the time comparisons: `id >= $1` with $1 a timestamptz
        let since = SystemTime::now() - Duration::from_secs(72 * 3600);
        let want: i64 =
            d_orders::table.filter(xid_time(d_orders::id).ge(At(since))).count().get_result(&mut conn).unwrap();
        assert!(want > 1 && want < 2881);
        let q = d_orders::table.filter(d_orders::id.time_ge(At(since))).count();
        let sql = diesel::debug_query::<diesel::pg::Pg, _>(&q).to_string();
        assert!(sql.contains("\"d_orders\".\"id\" >= $1"), "{sql}");
        assert_eq!(q.get_result::<i64>(&mut conn).unwrap(), want);
        let lt: i64 = d_orders::table.filter(d_orders::id.time_lt(At(since))).count().get_result(&mut conn).unwrap();
        assert_eq!(lt + want, 2881);
        let le: i64 = d_orders::table.filter(d_orders::id.time_le(At(since))).count().get_result(&mut conn).unwrap();
        let gt: i64 = d_orders::table.filter(d_orders::id.time_gt(At(since))).count().get_result(&mut conn).unwrap();
        assert_eq!(le + gt, 2881);
        let lo = time_lower_bound(&since, true).unwrap();
        let n: i64 = d_orders::table.filter(d_orders::id.ge(lo)).count().get_result(&mut conn).unwrap();
        assert_eq!(n, want);
        // prefix: <@ xid_prefix_range(p), ^@ p, LIKE
        let p = &x.to_string()[..6];
        let in_range: Vec<Xid> = d_orders::table
            .filter(d_orders::id.contained_in(xid_prefix_range(p)))
            .select(d_orders::id)
            .load(&mut conn)
            .unwrap();
        let starts: Vec<Xid> =
            d_orders::table.filter(d_orders::id.starts_with(p)).select(d_orders::id).load(&mut conn).unwrap();
        let like: Vec<Xid> =
            d_orders::table.filter(d_orders::id.like(format!("{p}%"))).select(d_orders::id).load(&mut conn).unwrap();
        assert!(in_range.contains(&x));
        assert_eq!((&in_range, &in_range), (&starts, &like));
        // arrays and = ANY
        let ids: Vec<Xid> = d_orders::table.select(d_orders::id).order(d_orders::id).limit(5).load(&mut conn).unwrap();
        let n: i64 = d_orders::table.filter(d_orders::id.eq_any(&ids)).count().get_result(&mut conn).unwrap();
        assert_eq!(n, 5);
        let back: Vec<Xid> =
            diesel::select(ids.clone().into_sql::<Array<sql_types::Xid>>()).get_result(&mut conn).unwrap();
        assert_eq!(back, ids);
        let fresh: Xid = diesel::select(xid_new()).get_result(&mut conn).unwrap();
        assert!(fresh > x);
        let _: i64 = diesel::select(0i64.into_sql::<BigInt>()).get_result(&mut conn).unwrap();
    }
}
