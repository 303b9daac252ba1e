//! The codec without a server: the vectors of docs/format.md, random payloads against
//! the plain definition, the server's errors, bounds, time, the generator.

use pgxid::{like_bounds, prefix_bounds, time_lower_bound, time_upper_bound, Generator, Xid, EPOCH_MS, MAX_MS};
use std::collections::HashSet;
use std::sync::Arc;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

// a small deterministic generator for test inputs (splitmix64)
pub struct Rng(u64);
impl Rng {
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
}

// the plain definition: base 58, most significant first, padded with '1'
fn ref_encode(mut v: u64) -> String {
    let mut b = [0u8; 11];
    for i in (0..11).rev() {
        b[i] = pgxid::ALPHABET[(v % 58) as usize];
        v /= 58;
    }
    String::from_utf8(b.to_vec()).unwrap()
}

fn x(s: &str) -> Xid {
    s.parse().unwrap()
}

#[test]
fn spec_vectors() {
    for (v, s) in [
        (0u64, "11111111111"),
        (0x400000, "1111111NVpb"),
        (0x0001_4997_0000_0000, "113q8KFkAEs"),
        (u64::MAX, "jpXCZedGfVQ"),
    ] {
        assert_eq!(Xid::from_u64(v).to_string(), s);
        assert_eq!(x(s).as_u64(), v);
    }
}

#[test]
fn random_payloads() {
    let mut r = Rng(1);
    for i in 0..300_000 {
        let v = r.next_u64() >> (i % 64);
        let s = ref_encode(v);
        assert_eq!(Xid::from_u64(v).to_string(), s);
        assert_eq!(Xid::parse(&s).unwrap().as_u64(), v);
        assert_eq!(Xid::from_bytes(Xid::from_u64(v).to_bytes()).as_u64(), v);
    }
    for v in [0, 1, 57, 58, (1 << 32) - 1, 1 << 32, (1 << 63) - 1, 1 << 63, u64::MAX - 1, u64::MAX] {
        assert_eq!(Xid::from_u64(v).to_string(), ref_encode(v));
        assert_eq!(x(&ref_encode(v)).as_u64(), v);
    }
}

#[test]
fn parse_errors() {
    let exactly = "An xid is written as exactly 11 Base58 symbols.";
    let largest = "The largest xid is \"jpXCZedGfVQ\".";
    for (input, code, msg, detail) in [
        ("5cnEkaefSd", "22P02", "invalid input syntax for type xid: \"5cnEkaefSd\"", exactly),
        ("", "22P02", "invalid input syntax for type xid: \"\"", exactly),
        (
            "5cnEk0efSdu",
            "22P02",
            "invalid input syntax for type xid: \"5cnEk0efSdu\"",
            "Character \"0\" at position 6 is not a Base58 symbol.",
        ),
        (
            "5cnEkaefSdé",
            "22P02",
            "invalid input syntax for type xid: \"5cnEkaefSdé\"",
            "Character \"é\" at position 11 is not a Base58 symbol.",
        ),
        ("jpXCZedGfVR", "22003", "value \"jpXCZedGfVR\" is out of range for type xid", largest),
        ("zzzzzzzzzzz", "22003", "value \"zzzzzzzzzzz\" is out of range for type xid", largest),
    ] {
        let e = Xid::parse(input).unwrap_err();
        assert_eq!((e.code(), e.message(), e.detail()), (code, msg, Some(detail)), "{input:?}");
        assert!(!Xid::is_valid(input));
    }
    let e = Xid::from_slice(&[1, 2, 3]).unwrap_err();
    assert_eq!((e.code(), e.message()), ("22026", "bytea of length 3 does not match type xid"));
}

#[test]
fn fields_and_time() {
    let v = Xid::from_xid_epoch_ms(86_400_000, 0x2abcde).unwrap();
    assert_eq!((v.ms(), v.random()), (86_400_000, 0x2abcde));
    assert_eq!(v.time(), UNIX_EPOCH + Duration::from_millis((EPOCH_MS + 86_400_000) as u64));
    assert_eq!(v.node(4).unwrap(), 0x2abcde >> 18);
    assert_eq!(v.node(0).unwrap(), 0);
    assert_eq!(v.node(13).unwrap_err().message(), "node bits 13 is out of range");
    assert_eq!(Xid::MAX.unix_ms(), EPOCH_MS + MAX_MS);
    // 2026-11-21T00:00:00Z
    let day = UNIX_EPOCH + Duration::from_millis(1_795_219_200_000);
    let want = x("5cnEkaefSdu");
    assert_eq!((want.time(), want.random()), (day, 0));
    assert_eq!(Xid::from_unix_ms(1_795_219_200_000, 0).unwrap(), want);
    assert_eq!(Xid::from_time(&(day + Duration::from_nanos(999_999)), 77).unwrap().as_u64(), want.as_u64() + 77);
    assert_eq!(Xid::from_unix_ms(EPOCH_MS, 0).unwrap(), Xid::MIN);
    assert_eq!(Xid::from_time(&Xid::MAX.time(), (1 << 22) - 1).unwrap(), Xid::MAX);
    for (what, e, code) in [
        ("unix 0", Xid::from_unix_ms(0, 0), "22008"),
        ("epoch - 1", Xid::from_unix_ms(EPOCH_MS - 1, 0), "22008"),
        ("last + 1", Xid::from_unix_ms(EPOCH_MS + MAX_MS + 1, 0), "22008"),
        ("i64::MIN", Xid::from_unix_ms(i64::MIN, 0), "22008"),
        ("1970", Xid::from_time(&UNIX_EPOCH, 0), "22008"),
        ("epoch - 1 ns", Xid::from_time(&(Xid::MIN.time() - Duration::from_nanos(1)), 0), "22008"),
        ("xid epoch -1", Xid::from_xid_epoch_ms(-1, 0), "22008"),
        ("2^42", Xid::from_xid_epoch_ms(MAX_MS + 1, 0), "22008"),
        ("low 2^22", Xid::from_unix_ms(1_795_219_200_000, 1 << 22), "22003"),
    ] {
        assert_eq!(e.unwrap_err().code(), code, "{what}");
    }
    assert_eq!(
        Xid::from_unix_ms(1_795_219_200_000, 1 << 22).unwrap_err().message(),
        "low bits 4194304 are out of range for type xid"
    );
}

#[test]
fn sort_text_and_format() {
    let mut r = Rng(2);
    let mut xs: Vec<Xid> = (0..2000).map(|_| Xid::from_u64(r.next_u64())).collect();
    let mut texts: Vec<String> = xs.iter().map(|x| x.to_string()).collect();
    xs.sort();
    texts.sort();
    assert!(xs.iter().zip(&texts).all(|(x, t)| x.to_string() == *t));
    let v = x("5cnEkaefSdu");
    assert_eq!(format!("{v:>13}|{v:<12}|{v:.5}|{v:?}"), "  5cnEkaefSdu|5cnEkaefSdu |5cnEk|Xid(\"5cnEkaefSdu\")");
    assert_eq!(String::from(v), "5cnEkaefSdu");
    assert_eq!(u64::from(v), 1_988_978_084_996_448_256);
}

#[test]
fn prefix_and_like() {
    let s = |b: Option<(Xid, Xid)>| b.map(|(l, h)| format!("{l} {h}"));
    assert_eq!(s(prefix_bounds("")).unwrap(), "11111111111 jpXCZedGfVQ");
    assert_eq!(s(prefix_bounds("5cnrQT")).unwrap(), "5cnrQT11111 5cnrQTzzzzz");
    assert_eq!(s(prefix_bounds("jpXCZ")).unwrap(), "jpXCZ111111 jpXCZedGfVQ");
    assert_eq!(prefix_bounds("jq"), None);
    assert_eq!(prefix_bounds("jpXCZedGfVR"), None);
    assert_eq!(s(like_bounds("5cnrQT%a").unwrap()).unwrap(), "5cnrQT11111 5cnrQTzzzzz");
    assert_eq!(like_bounds("5cnrQT____").unwrap(), None);
    assert_eq!(like_bounds("5cnrQT\\\\%").unwrap(), None);
    assert_eq!(s(like_bounds("5c\\nrQT%").unwrap()).unwrap(), "5cnrQT11111 5cnrQTzzzzz");
    for p in ["é8Cdc9Wxaws%\\", "8Cdc9Wxaws%\\", "\\", "abc\\", "%\\", "\\\\\\", "5cnrQT7y4za1zz\\", "é\\"] {
        let e = like_bounds(p).unwrap_err();
        assert_eq!((e.code(), e.message()), ("22025", "LIKE pattern must not end with escape character"));
    }
    for p in ["abc\\\\", "%\\\\", "\\\\\\\\", "é\\é"] {
        assert!(like_bounds(p).is_ok(), "{p}");
    }
}

#[test]
fn time_bounds() {
    let e = Xid::MIN.time() + Duration::from_secs(1);
    assert_eq!(time_lower_bound(&e, true).unwrap().ms(), 1000);
    assert_eq!(time_lower_bound(&e, false).unwrap().ms(), 1001);
    let u = time_upper_bound(&e, false).unwrap();
    assert_eq!((u.ms(), u.random()), (999, (1 << 22) - 1));
    let half = e + Duration::from_micros(500);
    assert_eq!(time_lower_bound(&half, true).unwrap().ms(), 1001);
    assert_eq!(time_upper_bound(&half, false).unwrap().ms(), 1000);
    assert_eq!(time_lower_bound(&UNIX_EPOCH, true), Some(Xid::MIN));
    assert_eq!(time_upper_bound(&UNIX_EPOCH, true), None);
    let far = UNIX_EPOCH + Duration::from_secs(32_503_680_000); // 3000
    assert_eq!(time_lower_bound(&far, true), None);
    assert_eq!(time_upper_bound(&far, true), Some(Xid::MAX));
    let before = UNIX_EPOCH - Duration::from_secs(1000);
    assert_eq!(time_upper_bound(&before, true), None);
}

#[test]
fn generator_threads() {
    let g = Arc::new(Generator::new(0, 0).unwrap());
    let handles: Vec<_> = (0..8)
        .map(|_| {
            let g = g.clone();
            std::thread::spawn(move || {
                let mut out = Vec::with_capacity(50_000);
                let mut prev = Xid::MIN;
                for _ in 0..50_000 {
                    let v = g.next();
                    assert!(v > prev, "not increasing within a thread");
                    prev = v;
                    out.push(v);
                }
                out
            })
        })
        .collect();
    let mut seen = HashSet::new();
    for h in handles {
        for v in h.join().unwrap() {
            assert!(seen.insert(v), "duplicate {v}");
        }
    }
    let now = SystemTime::now();
    let last = seen.iter().max().unwrap().time();
    assert!(last <= now + Duration::from_secs(1) && last + Duration::from_secs(60) > now);
    // the process's generator, from threads
    let hs: Vec<_> =
        (0..4).map(|_| std::thread::spawn(|| (0..10_000).map(|_| Xid::new()).collect::<Vec<_>>())).collect();
    let mut all = HashSet::new();
    for h in hs {
        let v = h.join().unwrap();
        assert!(v.windows(2).all(|w| w[0] < w[1]));
        all.extend(v);
    }
    assert_eq!(all.len(), 40_000);
}

#[test]
fn generator_stopped_clock() {
    fn fixed() -> i64 {
        EPOCH_MS + 5000
    }
    let g = Generator::new(0, 0).unwrap().with_clock(fixed);
    let mut prev = g.next();
    let mut ms = HashSet::new();
    for _ in 0..400_000 {
        let v = g.next();
        assert!(v > prev);
        ms.insert(v.ms());
        prev = v;
    }
    assert!(ms.len() >= 2 && ms.len() <= 400_000 / 65_536 + 2, "{} milliseconds", ms.len());
    fn before() -> i64 {
        EPOCH_MS - 1
    }
    assert_eq!(Generator::new(0, 0).unwrap().with_clock(before).try_next().unwrap_err().code(), "22008");
}

#[test]
fn generator_nodes() {
    for (bits, id) in [(1, 1), (4, 3), (4, 15), (8, 200), (12, 4095)] {
        let g = Generator::new(bits, id).unwrap();
        let mut prev = Xid::MIN;
        for _ in 0..20_000 {
            let v = g.next();
            assert_eq!(v.node(bits).unwrap(), id);
            assert!(v > prev);
            prev = v;
        }
    }
    assert!(Generator::new(4, 16).is_err());
    assert!(Generator::new(13, 0).is_err());
    assert!(Generator::new(0, 1).is_err());
    let v = Xid::at(&(UNIX_EPOCH + Duration::from_nanos(1_767_225_600_123_456_789))).unwrap();
    assert_eq!(v.unix_ms(), 1_767_225_600_123);
    assert!(Xid::at(&(UNIX_EPOCH + Duration::from_secs(946_684_800))).is_err());
}

#[test]
fn uuid() {
    for (id, u) in [
        ("jpXCZedGfVQ", "05339252-f906-7fff-bff0-000000000000"),
        ("11111111111", "01339252-f907-7000-8000-000000000000"),
        ("5cnE1111112", "01a1fb61-0ee6-718c-b810-000000000000"),
        ("5cnEzzzzzzz", "01a1fb69-173e-78b7-9ff0-000000000000"),
    ] {
        assert_eq!(x(id).to_uuid_string(), u);
        assert_eq!(Xid::parse_uuid(&u.to_uppercase()).unwrap(), x(id));
        assert_eq!(Xid::parse_uuid(&u.replace('-', "")).unwrap(), x(id));
    }
    let mut r = Rng(3);
    let mut ids: Vec<Xid> = (0..2000).map(|_| Xid::from_u64(r.next_u64())).collect();
    ids.extend([Xid::MIN, Xid::MAX]);
    for v in &ids {
        assert_eq!(Xid::from_uuid_bytes(v.to_uuid_bytes()).unwrap(), *v);
    }
    let mut by_uuid = ids.clone();
    by_uuid.sort_by_key(|v| v.to_uuid_string());
    ids.sort();
    assert_eq!(ids, by_uuid);
    for (u, code) in [
        ("01890a5d-ac96-774b-bcce-b302099a8057", "22023"),
        ("a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11", "22023"),
        ("00000000-0000-7000-8000-000000000000", "22008"),
        ("not a uuid", "22P02"),
    ] {
        assert_eq!(Xid::parse_uuid(u).unwrap_err().code(), code, "{u}");
    }
    let e = Xid::parse_uuid("01890a5d-ac96-774b-bcce-b302099a8057").unwrap_err();
    assert_eq!(e.message(), "uuid \"01890a5d-ac96-774b-bcce-b302099a8057\" is not an xid");
}

// An xid as a ULID and back, ulid-flake ids: the server's functions
// (expected/convert.out; these vectors from xid_to_ulid, xid_from_ulid and
// xid_from_ulid_flake on a server)
#[test]
fn ulid() {
    for (id, u) in [
        ("11111111111", "016E955Y870000000000000000"),
        ("11111111112", "016E955Y870000800000000000"),
        ("1111111NVpa", "016E955Y87ZZZZR00000000000"),
        ("jpXCZedGfVQ", "056E955Y86ZZZZR00000000000"),
        ("5cnEkaefSdu", "01M7XPE6000000000000000000"),
        ("EgStYr6K4Me", "02FAWM9EC0ZA86800000000000"),
        ("hjgP5681E9f", "0506ZH5TR9JDYPG00000000000"),
        ("UiL9JJc4g6N", "03S96Q2NRK3D0ER00000000000"),
        ("2T6BG6cdtfU", "01ARZ3NDEKTSV4R00000000000"),
    ] {
        assert_eq!(x(id).to_ulid_string(), u);
        assert_eq!(Xid::parse_ulid(u).unwrap(), x(id));
        assert_eq!(Xid::parse_ulid(&u.to_lowercase()).unwrap(), x(id));
        assert_eq!(Xid::from_ulid_bytes(x(id).to_ulid_bytes()).unwrap(), x(id));
    }
    // the ULID spec's example keeps its time and the 22 bits after it, as
    // text and as the 16 bytes of a uuid (pgx_ulid's cast)
    assert_eq!(Xid::parse_ulid("01ARZ3NDEKTSV4RRFFQ69G5FAV").unwrap(), x("2T6BG6cdtfU"));
    assert_eq!(Xid::parse_ulid("01arz3ndektsv4rrffq69g5fav").unwrap(), x("2T6BG6cdtfU"));
    let b = 0x0156_3e3a_b5d3_d676_4c61_efb9_9302_bd5b_u128.to_be_bytes();
    assert_eq!(Xid::from_ulid_bytes(b).unwrap(), x("2T6BG6cdtfU"));
    for (flake, id) in [
        (14_246_757_444_195_114, "4ryqEBY4ykb"),
        (0, "4jJqhYTcPVR"),
        (1, "4jJqhYTcPVV"),
        ((1 << 20) - 1, "4jJqhYTytJw"),
    ] {
        assert_eq!(Xid::from_ulid_flake(flake).unwrap(), x(id), "{flake}");
    }

    let mut r = Rng(4);
    let mut ids: Vec<Xid> = (0..2000).map(|_| Xid::from_u64(r.next_u64())).collect();
    ids.extend([Xid::MIN, Xid::MAX]);
    for v in &ids {
        assert_eq!(Xid::parse_ulid(&v.to_ulid_string()).unwrap(), *v);
    }
    let mut by_ulid = ids.clone();
    by_ulid.sort_by_key(|v| v.to_ulid_string());
    ids.sort();
    assert_eq!(ids, by_ulid);
    // distinct flakes, distinct ids in the same order
    let mut flakes: Vec<i64> = (0..2000).map(|_| (r.next_u64() >> 9) as i64).collect();
    flakes.sort();
    for w in flakes.windows(2) {
        let (a, b) = (Xid::from_ulid_flake(w[0]).unwrap(), Xid::from_ulid_flake(w[1]).unwrap());
        assert_eq!(w[0].cmp(&w[1]), a.cmp(&b), "{} {}", w[0], w[1]);
    }

    let symbols = "A ulid is 26 symbols of Crockford's Base32.";
    let at_most = "A ulid is at most 7ZZZZZZZZZZZZZZZZZZZZZZZZZ.";
    let times = "An xid holds instants from 2011-11-11 11:11:11.111+00 to 2151-03-25 18:46:22.214+00.";
    for (u, code, detail) in [
        ("8ZZZZZZZZZZZZZZZZZZZZZZZZZ".to_string(), "22P02", at_most),
        ("01ARZ3NDEKTSV4RRFFQ69G5FA".to_string(), "22P02", symbols),
        ("01ARZ3NDEKTSV4RRFFQ69G5FAU".to_string(), "22P02", symbols),
        (String::new(), "22P02", symbols),
        // the server counts bytes: 25 characters, 26 bytes, first symbol 8
        (format!("8\u{e9}{}", "0".repeat(23)), "22P02", at_most),
        (format!("8\u{e9}{}", "0".repeat(24)), "22P02", symbols),
        // before the epoch, after 2151
        ("00000000000000000000000000".to_string(), "22008", times),
        ("7ZZZZZZZZZZZZZZZZZZZZZZZZZ".to_string(), "22008", times),
    ] {
        let e = Xid::parse_ulid(&u).unwrap_err();
        let message = match code {
            "22P02" => format!("invalid input syntax for a ulid: \"{u}\""),
            _ => "timestamp out of range for type xid".to_string(),
        };
        assert_eq!((e.code(), e.message(), e.detail()), (code, message.as_str(), Some(detail)), "{u}");
    }
    assert_eq!(Xid::from_ulid_bytes([0; 16]).unwrap_err().code(), "22008");
    for f in [-1, i64::MIN] {
        let e = Xid::from_ulid_flake(f).unwrap_err();
        let message = format!("ulid-flake id {f} is out of range");
        assert_eq!(
            (e.code(), e.message(), e.detail()),
            ("22003", message.as_str(), Some("A ulid-flake id has a zero sign bit."))
        );
    }
    assert_eq!(Xid::from_ulid_flake(i64::MAX).unwrap_err().code(), "22008");
}

#[cfg(feature = "serde")]
#[test]
fn serde_text() {
    let v = x("5cnEkaefSdu");
    assert_eq!(serde_json::to_string(&v).unwrap(), "\"5cnEkaefSdu\"");
    assert_eq!(serde_json::from_str::<Xid>("\"5cnEkaefSd\\u0075\"").unwrap(), v);
    let m: std::collections::BTreeMap<String, Xid> = serde_json::from_str(r#"{"id":"jpXCZedGfVQ"}"#).unwrap();
    assert_eq!(m["id"], Xid::MAX);
    for bad in [r#""jpXCZedGfVR""#, "5", r#""5cnEkaef""#, "true"] {
        assert!(serde_json::from_str::<Xid>(bad).is_err(), "{bad}");
    }
    let e = serde_json::from_str::<Xid>(r#""jpXCZedGfVR""#).unwrap_err().to_string();
    assert!(e.contains("value \"jpXCZedGfVR\" is out of range for type xid"), "{e}");
}

#[cfg(all(feature = "chrono", feature = "time"))]
#[test]
fn chrono_and_time() {
    let v = x("5cnEkaefSdu");
    assert_eq!(v.chrono_time().timestamp(), 1_795_219_200);
    assert_eq!(v.offset_date_time().unix_timestamp(), 1_795_219_200);
    let t = v.chrono_time() + chrono::Duration::microseconds(500);
    assert_eq!(time_lower_bound(&t, true).unwrap().ms(), v.ms() + 1);
    assert_eq!(Xid::from_time(&v.offset_date_time(), 0).unwrap(), v);
    let u: uuid::Uuid = v.into();
    assert_eq!(Xid::try_from(u).unwrap(), v);
}
