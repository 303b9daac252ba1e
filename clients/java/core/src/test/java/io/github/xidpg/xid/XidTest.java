package io.github.xidpg.xid;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigInteger;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The codec alone, no server. */
class XidTest {
    static final SplittableRandom RND = new SplittableRandom();

    // the plain definition: base 58, most significant first, padded with '1'
    static String refEncode(long v) {
        BigInteger b = new BigInteger(Long.toUnsignedString(v));
        BigInteger b58 = BigInteger.valueOf(58);
        char[] out = new char[11];
        for (int i = 10; i >= 0; i--) {
            BigInteger[] qr = b.divideAndRemainder(b58);
            out[i] = Xid.ALPHABET.charAt(qr[1].intValue());
            b = qr[0];
        }
        return new String(out);
    }

    // the test vectors of docs/format.md (section 7)
    @Test
    void specVectors() {
        assertEquals("11111111111", Xid.ofPayload(0).toString());
        assertEquals("1111111NVpb", Xid.ofPayload(0x400000L).toString());
        assertEquals("113q8KFkAEs", Xid.ofPayload(0x0001499700000000L).toString());
        assertEquals("jpXCZedGfVQ", Xid.ofPayload(-1L).toString());
        assertEquals(Xid.MAX, Xid.parse("jpXCZedGfVQ"));
        assertEquals(86400000L, Xid.parse("113q8KFkAEs").ms());
    }

    @Test
    void randomPayloadsAgreeWithTheDefinition() {
        for (int i = 0; i < 200_000; i++) {
            long v = RND.nextLong() >>> (i % 64);
            String s = refEncode(v);
            assertEquals(s, Xid.ofPayload(v).toString());
            assertEquals(v, Xid.parse(s).payload());
        }
    }

    @Test
    void edgePayloads() {
        for (long v : new long[] {0, 1, 57, 58, (1L << 32) - 1, 1L << 32, Long.MAX_VALUE, Long.MIN_VALUE, -2, -1}) {
            assertEquals(refEncode(v), Xid.ofPayload(v).toString());
            assertEquals(v, Xid.parse(refEncode(v)).payload());
        }
    }

    @Test
    void parseErrors() {
        String[][] bad = {
            {"5cnEkaefSd", "22P02", "invalid input syntax for type xid: \"5cnEkaefSd\"", "An xid is written as exactly 11 Base58 symbols."},
            {"", "22P02", "invalid input syntax for type xid: \"\"", "An xid is written as exactly 11 Base58 symbols."},
            {"5cnEk0efSdu", "22P02", "invalid input syntax for type xid: \"5cnEk0efSdu\"", "Character \"0\" at position 6 is not a Base58 symbol."},
            {"5cnEkaefSdé", "22P02", "invalid input syntax for type xid: \"5cnEkaefSdé\"", "Character \"é\" at position 11 is not a Base58 symbol."},
            {"jpXCZedGfVR", "22003", "value \"jpXCZedGfVR\" is out of range for type xid", "The largest xid is \"jpXCZedGfVQ\"."},
            {"zzzzzzzzzzz", "22003", "value \"zzzzzzzzzzz\" is out of range for type xid", "The largest xid is \"jpXCZedGfVQ\"."},
        };
        for (String[] b : bad) {
            XidException e = assertThrows(XidException.class, () -> Xid.parse(b[0]));
            assertEquals(b[1], e.getSQLState(), b[0]);
            assertEquals(b[2], e.getMessage());
            assertEquals(b[3], e.getDetail());
            assertFalse(Xid.isValid(b[0]));
        }
        assertTrue(Xid.isValid("jpXCZedGfVQ"));
    }

    @Test
    void bytes() {
        for (int i = 0; i < 1000; i++) {
            Xid x = Xid.ofPayload(RND.nextLong());
            assertEquals(x, Xid.fromBytes(x.toBytes()));
            assertEquals(Long.toHexString(x.payload()), new BigInteger(1, x.toBytes()).toString(16));
        }
        XidException e = assertThrows(XidException.class, () -> Xid.fromBytes(new byte[7]));
        assertEquals("bytea of length 7 does not match type xid", e.getMessage());
    }

    @Test
    void fields() {
        Xid x = Xid.ofXidEpochMillis(86400000L, 0x2abcde);
        assertEquals(86400000L, x.ms());
        assertEquals(0x2abcde, x.random());
        assertEquals(Instant.parse("2011-11-12T11:11:11.111Z"), x.time());
        assertEquals(Instant.parse("2151-03-25T18:46:22.214Z"), Xid.MAX.time());
        assertEquals(0, x.node(0));
        assertEquals(0x2abcde >> 18, x.node(4));
        assertEquals("node bits 13 is out of range", assertThrows(XidException.class, () -> x.node(13)).getMessage());
    }

    @Test
    void orderEqualsTextOrder() {
        List<Xid> xs = new ArrayList<>();
        List<String> texts = new ArrayList<>();
        for (int i = 0; i < 2000; i++) {
            Xid x = Xid.ofPayload(RND.nextLong());
            xs.add(x);
            texts.add(x.toString());
        }
        Collections.sort(xs);
        Collections.sort(texts);
        for (int i = 0; i < xs.size(); i++) {
            assertEquals(texts.get(i), xs.get(i).toString());
        }
        assertEquals(Xid.parse("5cnEkaefSdu"), Xid.parse("5cnEkaefSdu"));
        assertEquals(Xid.parse("5cnEkaefSdu").hashCode(), Xid.parse("5cnEkaefSdu").hashCode());
        assertNotEquals(Xid.MIN, Xid.MAX);
        assertTrue(Xid.MAX.compareTo(Xid.ofPayload(Long.MAX_VALUE)) > 0);
    }

    @Test
    void prefixAndLikeBounds() {
        assertEquals(new XidRange(Xid.MIN, Xid.MAX), Xid.prefixBounds("").orElseThrow());
        assertEquals("5cnrQT11111", Xid.prefixBounds("5cnrQT").orElseThrow().lower().toString());
        assertEquals("5cnrQTzzzzz", Xid.prefixBounds("5cnrQT").orElseThrow().upper().toString());
        assertEquals(Xid.MAX, Xid.prefixBounds("jpXCZ").orElseThrow().upper());
        assertTrue(Xid.prefixBounds("jq").isEmpty());
        assertTrue(Xid.prefixBounds("jpXCZedGfVR").isEmpty());
        assertTrue(Xid.prefixBounds("5c0").isEmpty());
        assertEquals("5cnrQTzzzzz", Xid.likeBounds("5cnrQT%a").orElseThrow().upper().toString());
        assertTrue(Xid.likeBounds("5cnrQT____").isEmpty());
        assertTrue(Xid.likeBounds("abc\\\\").isEmpty()); // an escaped backslash, which no id holds
        assertEquals("5cnr1111111", Xid.likeBounds("5c\\nr%").orElseThrow().lower().toString());
    }

    @Test
    void timeBounds() {
        Instant t = Xid.EPOCH.plusMillis(1000);
        assertEquals(1000, Xid.timeLowerBound(t, true).orElseThrow().ms());
        assertEquals(1001, Xid.timeLowerBound(t, false).orElseThrow().ms());
        assertEquals(999, Xid.timeUpperBound(t, false).orElseThrow().ms());
        assertEquals((1 << 22) - 1, Xid.timeUpperBound(t, true).orElseThrow().random());
        Instant half = t.plusNanos(500_000);
        assertEquals(1001, Xid.timeLowerBound(half, true).orElseThrow().ms());
        assertEquals(1000, Xid.timeUpperBound(half, false).orElseThrow().ms());
        assertEquals(Xid.MIN, Xid.timeLowerBound(Instant.EPOCH, true).orElseThrow());
        assertTrue(Xid.timeUpperBound(Instant.EPOCH, true).isEmpty());
        assertTrue(Xid.timeLowerBound(Instant.parse("3000-01-01T00:00:00Z"), true).isEmpty());
        assertEquals(Xid.MAX, Xid.timeUpperBound(Instant.parse("3000-01-01T00:00:00Z"), true).orElseThrow());
        assertEquals(Xid.MAX, Xid.timeUpperBound(Instant.MAX, true).orElseThrow());
        assertEquals(Xid.MIN, Xid.timeLowerBound(Instant.MIN, true).orElseThrow());
    }

    @Test
    void generatorAcrossThreads() throws Exception {
        XidGenerator g = new XidGenerator();
        Set<Xid> all = ConcurrentHashMap.newKeySet();
        Thread[] ts = new Thread[8];
        AtomicLong bad = new AtomicLong();
        for (int w = 0; w < ts.length; w++) {
            ts[w] = new Thread(() -> {
                Xid prev = Xid.MIN;
                for (int i = 0; i < 50_000; i++) {
                    Xid x = g.next();
                    if (x.compareTo(prev) <= 0 || !all.add(x)) {
                        bad.incrementAndGet();
                    }
                    prev = x;
                }
            });
            ts[w].start();
        }
        for (Thread t : ts) {
            t.join();
        }
        assertEquals(0, bad.get());
        assertEquals(400_000, all.size());
    }

    @Test
    void generatorStoppedClock() {
        long[] now = {Xid.EPOCH_MS + 5000};
        XidGenerator g = new XidGenerator(0, 0, () -> now[0]);
        Set<Long> ms = new HashSet<>();
        Xid prev = g.next();
        for (int i = 0; i < 400_000; i++) {
            if (i == 200_000) {
                now[0] -= 100;
            }
            Xid x = g.next();
            assertTrue(x.compareTo(prev) > 0);
            ms.add(x.ms());
            prev = x;
        }
        assertTrue(ms.size() >= 2 && ms.size() <= 400_000 / 65536 + 2, ms.size() + " milliseconds");
    }

    @Test
    void generatorNodes() {
        for (int[] c : new int[][] {{1, 1}, {4, 3}, {4, 15}, {8, 200}, {12, 4095}}) {
            XidGenerator g = new XidGenerator(c[0], c[1]);
            Xid prev = Xid.MIN;
            for (int i = 0; i < 20_000; i++) {
                Xid x = g.next();
                assertEquals(c[1], x.node(c[0]));
                assertTrue(x.compareTo(prev) > 0);
                prev = x;
            }
        }
        assertThrows(IllegalArgumentException.class, () -> new XidGenerator(4, 16));
        assertThrows(IllegalArgumentException.class, () -> new XidGenerator(13, 0));
    }

    @Test
    void newXidAndAt() {
        Xid a = Xid.newXid();
        Xid b = Xid.newXid();
        assertTrue(b.compareTo(a) > 0);
        assertTrue(Math.abs(b.time().toEpochMilli() - System.currentTimeMillis()) < 1000);
        assertEquals(Instant.parse("2026-01-01T00:00:00.123Z"), Xid.at(Instant.parse("2026-01-01T00:00:00.123456Z")).time());
        assertThrows(XidException.class, () -> Xid.at(Instant.parse("2000-01-01T00:00:00Z")));
        assertArrayEquals(new byte[] {0, 0, 0, 0, 0, 0, 0, 1}, Xid.ofPayload(1).toBytes());
        assertEquals("[11111111112]", Arrays.toString(new Xid[] {Xid.ofPayload(1)}));
    }

    @Test
    void likeBoundsOfALoneTrailingBackslashAreAnError() {
        // LIKE rejects the pattern whatever comes before the backslash: so do the bounds
        for (String p : new String[] {"\u00e98Cdc9Wxaws%\\", "8Cdc9Wxaws%\\", "abc\\", "%\\", "\\", "\\\\\\",
            "123456789012a\\"}) {
            XidException e = assertThrows(XidException.class, () -> Xid.likeBounds(p), p);
            assertEquals("22025", e.getSQLState(), p);
            assertEquals("LIKE pattern must not end with escape character", e.getMessage());
        }
        // two backslashes are one escaped backslash, which no id holds
        assertTrue(Xid.likeBounds("8Cdc9Wxaws%\\\\").isPresent());
        assertTrue(Xid.likeBounds("\\\\%").isEmpty());
    }

    @Test
    void idsOfATime() {
        long now = 1_790_000_000_123L; // 2026-09-21T14:13:20.123Z
        Xid x = Xid.ofUnixMillis(now, 5);
        assertEquals(Instant.ofEpochMilli(now), x.time());
        assertEquals(5, x.random());
        assertEquals(x, Xid.ofInstant(Instant.ofEpochMilli(now).plusNanos(999_999), 5));
        assertEquals(x, Xid.ofXidEpochMillis(now - Xid.EPOCH_MS, 5));
        assertEquals(Xid.MIN, Xid.ofUnixMillis(Xid.EPOCH_MS, 0));
        assertEquals(Xid.MAX, Xid.ofInstant(Instant.parse("2151-03-25T18:46:22.214Z"), (1 << 22) - 1));
        // the xid-epoch constructor says so in its name: a Unix time there is 2068
        assertEquals(2068, Xid.ofXidEpochMillis(now, 0).time().atZone(java.time.ZoneOffset.UTC).getYear());
        for (long bad : new long[] {Xid.EPOCH_MS - 1, 0, -1, Long.MIN_VALUE, Xid.EPOCH_MS + Xid.MAX_MS + 1, Long.MAX_VALUE}) {
            assertEquals("22008", assertThrows(XidException.class, () -> Xid.ofUnixMillis(bad, 0)).getSQLState());
        }
        assertEquals("22008", assertThrows(XidException.class,
                () -> Xid.ofInstant(Instant.parse("2011-11-11T11:11:11.110999Z"), 0)).getSQLState());
        assertEquals("22008", assertThrows(XidException.class, () -> Xid.ofInstant(Instant.MAX, 0)).getSQLState());
        assertEquals("22008", assertThrows(XidException.class, () -> Xid.ofXidEpochMillis(-1, 0)).getSQLState());
        for (int low : new int[] {-1, 1 << 22, Integer.MIN_VALUE}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Xid.ofUnixMillis(now, low));
            assertEquals("the low bits of an xid go from 0 to 4194303, not " + low, e.getMessage());
        }
        assertEquals(Xid.ofPayload(5), Xid.ofXidEpochMillis(0, 5));
    }

    @Test
    void valueOfIsParse() throws Exception {
        assertEquals(Xid.parse("5cnEkaefSdu"), Xid.valueOf("5cnEkaefSdu"));
        assertEquals("22P02", assertThrows(XidException.class, () -> Xid.valueOf("5cnEk0efSdu")).getSQLState());
        // the signature Spring's ObjectToObjectConverter and Jackson look for
        java.lang.reflect.Method m = Xid.class.getMethod("valueOf", String.class);
        assertTrue(java.lang.reflect.Modifier.isStatic(m.getModifiers()));
        assertEquals(Xid.class, m.getReturnType());
    }

    // An xid as a UUIDv7 and back: the server's casts (expected/convert.out)
    @Test
    void uuid() {
        String[][] vectors = {
            {"jpXCZedGfVQ", "05339252-f906-7fff-bff0-000000000000"},
            {"11111111111", "01339252-f907-7000-8000-000000000000"},
            {"5cnE1111112", "01a1fb61-0ee6-718c-b810-000000000000"},
            {"5cnEzzzzzzz", "01a1fb69-173e-78b7-9ff0-000000000000"},
        };
        for (String[] v : vectors) {
            assertEquals(v[1], XidUuid.toUuid(Xid.parse(v[0])).toString());
            assertEquals(7, XidUuid.toUuid(Xid.parse(v[0])).version());
            assertEquals(Xid.parse(v[0]), XidUuid.fromUuid(java.util.UUID.fromString(v[1])));
        }
        List<Xid> ids = new ArrayList<>(List.of(Xid.MIN, Xid.MAX));
        for (int i = 0; i < 2000; i++) {
            ids.add(Xid.ofPayload(RND.nextLong()));
        }
        for (Xid x : ids) {
            assertEquals(x, XidUuid.fromUuid(XidUuid.toUuid(x)));
        }
        List<Xid> byId = new ArrayList<>(ids);
        Collections.sort(byId);
        List<Xid> byUuid = new ArrayList<>(ids);
        byUuid.sort((a, b) -> XidUuid.toUuid(a).compareTo(XidUuid.toUuid(b)));
        assertEquals(byId, byUuid);
        for (String u : new String[] {"01890a5d-ac96-774b-bcce-b302099a8057", "a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11"}) {
            XidException e = assertThrows(XidException.class, () -> XidUuid.fromUuid(java.util.UUID.fromString(u)));
            assertEquals("22023", e.getSQLState());
            assertEquals("uuid \"" + u + "\" is not an xid", e.getMessage());
        }
        XidException e = assertThrows(XidException.class,
                () -> XidUuid.fromUuid(java.util.UUID.fromString("00000000-0000-7000-8000-000000000000")));
        assertEquals("22008", e.getSQLState());
    }

    // An xid as a ULID and back, ulid-flake ids: the server's functions
    // (expected/convert.out; these vectors from xid_to_ulid, xid_from_ulid and
    // xid_from_ulid_flake on a server)
    @Test
    void ulid() {
        String[][] vectors = {
            {"11111111111", "016E955Y870000000000000000"},
            {"11111111112", "016E955Y870000800000000000"},
            {"1111111NVpa", "016E955Y87ZZZZR00000000000"},
            {"jpXCZedGfVQ", "056E955Y86ZZZZR00000000000"},
            {"5cnEkaefSdu", "01M7XPE6000000000000000000"},
            {"EgStYr6K4Me", "02FAWM9EC0ZA86800000000000"},
            {"hjgP5681E9f", "0506ZH5TR9JDYPG00000000000"},
            {"UiL9JJc4g6N", "03S96Q2NRK3D0ER00000000000"},
            {"2T6BG6cdtfU", "01ARZ3NDEKTSV4R00000000000"},
        };
        for (String[] v : vectors) {
            assertEquals(v[1], XidUlid.toUlid(Xid.parse(v[0])));
            assertEquals(Xid.parse(v[0]), XidUlid.fromUlid(v[1]));
            assertEquals(Xid.parse(v[0]), XidUlid.fromUlid(v[1].toLowerCase(java.util.Locale.ROOT)));
        }
        // the ULID spec's example keeps its time and the 22 bits after it, as
        // text and as the 16 bytes of a uuid (pgx_ulid's cast)
        assertEquals("2T6BG6cdtfU", XidUlid.fromUlid("01ARZ3NDEKTSV4RRFFQ69G5FAV").toString());
        assertEquals("2T6BG6cdtfU", XidUlid.fromUlid("01arz3ndektsv4rrffq69g5fav").toString());
        assertEquals("2T6BG6cdtfU", XidUlid.fromUlid(java.util.UUID.fromString("01563e3a-b5d3-d676-4c61-efb99302bd5b")).toString());
        long[] flakes = {14246757444195114L, 0, 1, (1 << 20) - 1};
        String[] fromFlakes = {"4ryqEBY4ykb", "4jJqhYTcPVR", "4jJqhYTcPVV", "4jJqhYTytJw"};
        for (int i = 0; i < flakes.length; i++) {
            assertEquals(fromFlakes[i], XidUlid.fromUlidFlake(flakes[i]).toString());
        }

        List<Xid> ids = new ArrayList<>(List.of(Xid.MIN, Xid.MAX));
        for (int i = 0; i < 2000; i++) {
            ids.add(Xid.ofPayload(RND.nextLong()));
        }
        for (Xid x : ids) {
            assertEquals(x, XidUlid.fromUlid(XidUlid.toUlid(x)));
        }
        List<Xid> byId = new ArrayList<>(ids);
        Collections.sort(byId);
        List<Xid> byUlid = new ArrayList<>(ids);
        byUlid.sort((a, b) -> XidUlid.toUlid(a).compareTo(XidUlid.toUlid(b)));
        assertEquals(byId, byUlid);
        // distinct flakes, distinct ids in the same order
        long[] many = RND.longs(2000, 0, 1L << 55).sorted().toArray();
        for (int i = 1; i < many.length; i++) {
            int want = Long.compare(many[i - 1], many[i]);
            assertEquals(want, Integer.signum(XidUlid.fromUlidFlake(many[i - 1]).compareTo(XidUlid.fromUlidFlake(many[i]))));
        }

        String symbols = "A ulid is 26 symbols of Crockford's Base32.";
        String atMost = "A ulid is at most 7ZZZZZZZZZZZZZZZZZZZZZZZZZ.";
        String times = "An xid holds instants from 2011-11-11 11:11:11.111+00 to 2151-03-25 18:46:22.214+00.";
        String[][] bad = {
            {"8ZZZZZZZZZZZZZZZZZZZZZZZZZ", "22P02", "invalid input syntax for a ulid: \"8ZZZZZZZZZZZZZZZZZZZZZZZZZ\"", atMost},
            {"01ARZ3NDEKTSV4RRFFQ69G5FA", "22P02", "invalid input syntax for a ulid: \"01ARZ3NDEKTSV4RRFFQ69G5FA\"", symbols},
            {"01ARZ3NDEKTSV4RRFFQ69G5FAU", "22P02", "invalid input syntax for a ulid: \"01ARZ3NDEKTSV4RRFFQ69G5FAU\"", symbols},
            {"", "22P02", "invalid input syntax for a ulid: \"\"", symbols},
            // the server counts bytes: 25 characters, 26 bytes, first symbol 8
            {"8\u00e9" + "0".repeat(23), "22P02", "invalid input syntax for a ulid: \"8\u00e9" + "0".repeat(23) + "\"", atMost},
            {"8\u00e9" + "0".repeat(24), "22P02", "invalid input syntax for a ulid: \"8\u00e9" + "0".repeat(24) + "\"", symbols},
            // before the epoch, after 2151
            {"00000000000000000000000000", "22008", "timestamp out of range for type xid", times},
            {"7ZZZZZZZZZZZZZZZZZZZZZZZZZ", "22008", "timestamp out of range for type xid", times},
        };
        for (String[] b : bad) {
            XidException e = assertThrows(XidException.class, () -> XidUlid.fromUlid(b[0]), b[0]);
            assertEquals(List.of(b[1], b[2], b[3]), List.of(e.getSQLState(), e.getMessage(), e.getDetail()), b[0]);
        }
        XidException e = assertThrows(XidException.class, () -> XidUlid.fromUlid(new java.util.UUID(0, 0)));
        assertEquals("22008", e.getSQLState());
        for (long f : new long[] {-1, Long.MIN_VALUE}) {
            e = assertThrows(XidException.class, () -> XidUlid.fromUlidFlake(f));
            assertEquals(List.of("22003", "ulid-flake id " + f + " is out of range", "A ulid-flake id has a zero sign bit."),
                    List.of(e.getSQLState(), e.getMessage(), e.getDetail()));
        }
        e = assertThrows(XidException.class, () -> XidUlid.fromUlidFlake(Long.MAX_VALUE));
        assertEquals("22008", e.getSQLState());
    }
}
