'use strict';
// The codec alone, no server: the vectors of docs/format.md, a bigint reference
// implementation on random payloads, errors, bounds, the generator.
const assert = require('node:assert/strict');
const crypto = require('node:crypto');
const { execFileSync } = require('node:child_process');
const { test, run, scaled } = require('./harness.js');
const {
  Xid, XidError, XidGenerator, xidNew, xidAt, prefixBounds, likeBounds,
  timeLowerBound, timeUpperBound, ALPHABET, EPOCH_MS, MAX_MS,
} = require('../index.js');

const U64_MAX = (1n << 64n) - 1n;

// the plain definition: base 58, most significant first, padded with '1'
function refEncode(v) {
  let s = '';
  for (let i = 0; i < 11; i++) {
    s = ALPHABET[Number(v % 58n)] + s;
    v /= 58n;
  }
  return s;
}

function randomPayload() {
  return crypto.randomBytes(8).readBigUInt64BE(0);
}

test('spec vectors: 0, +1 ms, +1 day, the largest id', () => {
  assert.equal(new Xid(0n).toString(), '11111111111');
  assert.equal(new Xid(0x400000n).toString(), '1111111NVpb');
  assert.equal(new Xid(0x0001499700000000n).toString(), '113q8KFkAEs');
  assert.equal(new Xid(U64_MAX).toString(), 'jpXCZedGfVQ');
  assert.equal(Xid.parse('113q8KFkAEs').ms, 86400000);
  assert.equal(Xid.MAX.toString(), 'jpXCZedGfVQ');
  assert.equal(Xid.MIN.payload, 0n);
});

test('format and parse agree with the bigint definition on 200,000 random payloads', () => {
  for (let i = 0; i < scaled(200000); i++) {
    // every bit width, not only 64-bit values
    const v = randomPayload() >> BigInt(i % 64);
    const s = refEncode(v);
    const x = new Xid(v);
    assert.equal(x.toString(), s);
    assert.equal(Xid.parse(s).payload, v);
    assert.ok(Xid.parse(s).equals(x));
  }
});

test('edge payloads: 0, 1, 2^32 +- 1, 2^53 +- 1, 2^63 - 1, 2^63, 2^64 - 1', () => {
  for (const v of [0n, 1n, 57n, 58n, (1n << 32n) - 1n, 1n << 32n, (1n << 32n) + 1n,
    (1n << 53n) - 1n, 1n << 53n, (1n << 53n) + 1n, (1n << 63n) - 1n, 1n << 63n, U64_MAX - 1n, U64_MAX]) {
    assert.equal(new Xid(v).toString(), refEncode(v), `payload ${v}`);
    assert.equal(Xid.parse(refEncode(v)).payload, v);
  }
});

test('bytes: 8 bytes big-endian both ways', () => {
  for (let i = 0; i < 1000; i++) {
    const v = randomPayload();
    const b = Buffer.alloc(8);
    b.writeBigUInt64BE(v);
    assert.equal(Xid.fromBytes(b).payload, v);
    assert.deepEqual(Buffer.from(new Xid(v).toBytes()), b);
  }
  assert.throws(() => Xid.fromBytes(Buffer.alloc(7)), { code: '22026', message: 'bytea of length 7 does not match type xid' });
});

test('parse errors: the server\'s messages and SQLSTATEs', () => {
  const bad = [
    ['5cnEkaefSd', '22P02', 'invalid input syntax for type xid: "5cnEkaefSd"'],
    ['5cnEkaefSdu1', '22P02', 'invalid input syntax for type xid: "5cnEkaefSdu1"'],
    ['', '22P02', 'invalid input syntax for type xid: ""'],
    ['5cnEk0efSdu', '22P02', 'invalid input syntax for type xid: "5cnEk0efSdu"'],
    [' 5cnEkaefSd', '22P02', 'invalid input syntax for type xid: " 5cnEkaefSd"'],
    ['5cnEkaefSdé', '22P02', 'invalid input syntax for type xid: "5cnEkaefSdé"'],
    ['jpXCZedGfVR', '22003', 'value "jpXCZedGfVR" is out of range for type xid'],
    ['zzzzzzzzzzz', '22003', 'value "zzzzzzzzzzz" is out of range for type xid'],
  ];
  for (const [s, code, message] of bad) {
    assert.throws(() => Xid.parse(s), (e) => e instanceof XidError && e.code === code && e.message === message, s);
    assert.equal(Xid.isValid(s), false);
  }
  assert.throws(() => Xid.parse('5cnEk0efSdu'), { detail: 'Character "0" at position 6 is not a Base58 symbol.' });
  assert.throws(() => new Xid(1n << 64n), { code: '22003' });
  assert.throws(() => new Xid(-1n), { code: '22003' });
  assert.equal(Xid.isValid('jpXCZedGfVQ'), true);
});

test('time, ms, random and node fields', () => {
  const x = Xid.fromXidEpochMs(86400000, 0x2abcde);
  assert.equal(x.ms, 86400000);
  assert.equal(x.random, 0x2abcde);
  assert.equal(x.time.toISOString(), '2011-11-12T11:11:11.111Z');
  assert.equal(Xid.MAX.time.toISOString(), '2151-03-25T18:46:22.214Z');
  assert.equal(x.node(0), 0);
  assert.equal(x.node(4), 0x2abcde >> 18);
  assert.equal(x.node(12), 0x2abcde >> 10);
  assert.throws(() => x.node(13), { code: '22023', message: 'node bits 13 is out of range' });
});

test('compare and sort follow the payload, and so the text', () => {
  const xs = Array.from({ length: 2000 }, () => new Xid(randomPayload()));
  const byId = [...xs].sort(Xid.compare).map(String);
  const byText = xs.map(String).sort();
  assert.deepEqual(byId, byText);
  assert.equal(new Xid(5n).compare(new Xid(5n)), 0);
  assert.ok(new Xid(1n << 32n).compare(new Xid((1n << 32n) - 1n)) > 0);
});

test('prefix bounds: empty, short, 11 symbols, invalid, above the largest id', () => {
  assert.deepEqual(prefixBounds('').lower.payload, 0n);
  assert.deepEqual(prefixBounds('').upper.payload, U64_MAX);
  assert.equal(prefixBounds('5cnrQT').lower.toString(), '5cnrQT11111');
  assert.equal(prefixBounds('5cnrQT').upper.toString(), '5cnrQTzzzzz');
  assert.equal(prefixBounds('jpXCZ').upper.toString(), 'jpXCZedGfVQ');
  assert.equal(prefixBounds('jq'), null);
  assert.equal(prefixBounds('jpXCZedGfVR'), null);
  assert.equal(prefixBounds('5cnrQT7y4za').lower.toString(), '5cnrQT7y4za');
  assert.equal(prefixBounds('5cnrQT7y4za1'), null);
  assert.equal(prefixBounds('5c0'), null);
});

test('LIKE bounds: fixed prefix, escapes, lengths', () => {
  assert.equal(likeBounds('5cnrQT%').lower.toString(), '5cnrQT11111');
  assert.equal(likeBounds('5cnrQT%a').upper.toString(), '5cnrQTzzzzz');
  assert.equal(likeBounds('5cnrQT_____').lower.toString(), '5cnrQT11111');
  assert.equal(likeBounds('5cnrQT____'), null);
  assert.equal(likeBounds('%').lower.payload, 0n);
  assert.equal(likeBounds('5c\\nr%').lower.toString(), '5cnr1111111');
  assert.equal(likeBounds('5cnrQT7y4za1%'), null);
});

test('LIKE: a pattern ending in a lone backslash is an error, also after a non-Base58 character', () => {
  for (const p of ['\u00e98Cdc9Wxaws%\\', '8Cdc9Wxaws%\\', 'abc\\', '%\\', '\\', '5cnrQT7y4za1\\', '5c\\\\\\']) {
    assert.throws(() => likeBounds(p),
      (e) => e instanceof XidError && e.code === '22025' && e.message === 'LIKE pattern must not end with escape character', p);
  }
  // an escaped backslash at the end is no lone one
  assert.equal(likeBounds('5c\\\\'), null);
  assert.equal(likeBounds('5cnrQT%\\%').lower.toString(), '5cnrQT11111');
});

test('fromUnixMs, fromDate, fromXidEpochMs: the epochs, and whole numbers only', () => {
  const t = Date.UTC(2026, 10, 21);
  assert.equal(Xid.fromUnixMs(t).toString(), '5cnEkaefSdu');
  assert.equal(Xid.fromDate(new Date(t)).toString(), '5cnEkaefSdu');
  assert.equal(Xid.fromXidEpochMs(t - EPOCH_MS).toString(), '5cnEkaefSdu');
  assert.equal(Xid.fromUnixMs(t, 5).random, 5);
  assert.equal(Xid.fromUnixMs(EPOCH_MS).payload, 0n);
  assert.ok(Xid.fromUnixMs(EPOCH_MS + MAX_MS, 0x3fffff).equals(Xid.MAX));
  // Date.now() given where the xid epoch is meant lands in 2068: the names say which
  assert.equal(Xid.fromXidEpochMs(t).time.getUTCFullYear(), 2068);
  for (const [f, arg] of [[Xid.fromUnixMs, t + 0.5], [Xid.fromXidEpochMs, 1000.5], [Xid.fromXidEpochMs, 0.3],
    [Xid.fromUnixMs, NaN], [Xid.fromUnixMs, Infinity]]) {
    assert.throws(() => f(arg), RangeError, `${f.name}(${arg})`);
  }
  for (const [f, arg] of [[Xid.fromUnixMs, true], [Xid.fromXidEpochMs, false], [Xid.fromUnixMs, '1000'],
    [Xid.fromUnixMs, 1000n], [Xid.fromDate, t], [Xid.fromDate, new Date(NaN)], [Xid.fromDate, '2026-11-21']]) {
    assert.throws(() => f(arg), TypeError, `${f.name}(${String(arg)})`);
  }
  for (const low of [0.5, -1, 2 ** 22, NaN]) assert.throws(() => Xid.fromUnixMs(t, low), RangeError, `low ${low}`);
  assert.throws(() => Xid.fromUnixMs(t, true), TypeError);
  assert.throws(() => Xid.fromUnixMs(EPOCH_MS - 1), { code: '22008' });
  assert.throws(() => Xid.fromXidEpochMs(MAX_MS + 1), { code: '22008' });
  assert.throws(() => Xid.fromDate(new Date('2000-01-01')), { code: '22008' });
});

test('fromBytes takes bytes only: a string of 8 characters is an error', () => {
  assert.throws(() => Xid.fromBytes('12345678'), TypeError);
  assert.throws(() => Xid.fromBytes([1, 2, 3, 4, 5, 6, 7, 8]), TypeError);
  assert.throws(() => Xid.fromBytes(null), TypeError);
  assert.equal(Xid.fromBytes(new Uint8Array([0, 0, 0, 0, 0, 0, 0, 1])).payload, 1n);
});

test('generator: a clock with fractions of a millisecond makes whole-millisecond ids', () => {
  const clock = EPOCH_MS + 1000.3;
  const g = new XidGenerator({ clock: () => clock });
  let prev = null;
  for (let i = 0; i < 1000; i++) {
    const x = g.next();
    assert.equal(x.payload >> 22n, BigInt(x.ms));
    assert.ok(x.ms === 1000 || x.ms === 1001, `${x.ms}`);
    assert.equal(Xid.parse(x.toString()).payload, x.payload);
    if (prev) assert.ok(x.compare(prev) > 0);
    prev = x;
  }
  assert.throws(() => new XidGenerator({ clock: () => '1' }).next(), TypeError);
});

test('xidNew without globalThis.crypto (Node 18 without a flag)', () => {
  const index = require.resolve('../index.js');
  const out = execFileSync(process.execPath, ['-e',
    `Object.defineProperty(globalThis, 'crypto', { value: undefined, configurable: true });
     const { xidNew } = require(${JSON.stringify(index)});
     console.log(xidNew().toString().length, xidNew().compare(xidNew()))`], { encoding: 'utf8' });
  assert.equal(out.trim(), '11 -1');
});

test('time bounds: inclusive and exclusive, fractions, outside the range', () => {
  const t = EPOCH_MS + 1000;
  assert.equal(timeLowerBound(new Date(t)).ms, 1000);
  assert.equal(timeLowerBound(new Date(t), false).ms, 1001);
  assert.equal(timeUpperBound(new Date(t)).ms, 1000);
  assert.equal(timeUpperBound(new Date(t)).random, 0x3fffff);
  assert.equal(timeUpperBound(new Date(t), false).ms, 999);
  assert.equal(timeLowerBound(t + 0.5).ms, 1001);
  assert.equal(timeLowerBound(t + 0.5, false).ms, 1001);
  assert.equal(timeUpperBound(t + 0.5).ms, 1000);
  assert.equal(timeUpperBound(t + 0.5, false).ms, 1000);
  assert.equal(timeLowerBound(new Date(0)).payload, 0n);
  assert.equal(timeUpperBound(new Date(0)), null);
  assert.equal(timeLowerBound(new Date(EPOCH_MS + MAX_MS + 1)), null);
  assert.equal(timeUpperBound(new Date(EPOCH_MS + MAX_MS + 1)).payload, U64_MAX);
});

test('generator: strictly increasing, in the clock\'s millisecond, 300,000 ids', () => {
  const g = new XidGenerator();
  let prev = g.next();
  for (let i = 0; i < scaled(300000); i++) {
    const before = Date.now();
    const x = g.next();
    assert.ok(x.compare(prev) > 0);
    assert.ok(x.ms + EPOCH_MS >= before - 1);
    prev = x;
  }
  assert.ok(Math.abs(prev.ms + EPOCH_MS - Date.now()) < 1000);
});

test('generator: a stopped clock borrows the next millisecond, a clock that goes back too', () => {
  let now = EPOCH_MS + 5000;
  const g = new XidGenerator({ clock: () => now });
  const seen = new Set();
  let prev = g.next();
  for (let i = 0; i < 400000; i++) {
    if (i === 200000) now -= 100; // the clock steps back
    const x = g.next();
    assert.ok(x.compare(prev) > 0);
    seen.add(x.ms);
    prev = x;
  }
  // a millisecond holds at least 2^21 / 32 = 65,536 ids
  assert.ok(seen.size >= 2 && seen.size <= 400000 / 65536 + 2, `${seen.size} milliseconds`);
});

test('generator: node bits put the node number in the top of the 22 bits', () => {
  for (const [bits, id] of [[1, 1], [4, 3], [4, 15], [8, 200], [12, 4095]]) {
    const g = new XidGenerator({ nodeBits: bits, nodeId: id });
    let prev = g.next();
    for (let i = 0; i < 20000; i++) {
      const x = g.next();
      assert.equal(x.node(bits), id);
      assert.ok(x.compare(prev) > 0);
      prev = x;
    }
  }
  assert.throws(() => new XidGenerator({ nodeBits: 4, nodeId: 16 }), RangeError);
  assert.throws(() => new XidGenerator({ nodeBits: 4 }), RangeError);
  assert.throws(() => new XidGenerator({ nodeBits: 13, nodeId: 0 }), RangeError);
});

test('xidNew and xidAt', () => {
  const a = xidNew();
  const b = xidNew();
  assert.ok(b.compare(a) > 0);
  const at = xidAt(new Date('2026-01-01T00:00:00.123Z'));
  assert.equal(at.time.toISOString(), '2026-01-01T00:00:00.123Z');
  assert.throws(() => xidAt(new Date('2000-01-01')), { code: '22008' });
});

test('an Xid is immutable and prints as its text', () => {
  const x = Xid.parse('5cnEkaefSdu');
  assert.equal(`${x}`, '5cnEkaefSdu');
  assert.equal(JSON.stringify({ x }), '{"x":"5cnEkaefSdu"}');
  assert.throws(() => { 'use strict'; x.payload = 1n; }, TypeError);
  assert.equal(x.toString(), '5cnEkaefSdu');
});

// An xid as a UUIDv7 and back: the server's casts (expected/convert.out)
test('xidToUuid and xidFromUuid: the server\'s vectors, round trip, order, errors', () => {
  const { xidToUuid, xidFromUuid } = require('../index.js');
  const vectors = [
    ['jpXCZedGfVQ', '05339252-f906-7fff-bff0-000000000000'],
    ['11111111111', '01339252-f907-7000-8000-000000000000'],
    ['5cnE1111112', '01a1fb61-0ee6-718c-b810-000000000000'],
    ['5cnEzzzzzzz', '01a1fb69-173e-78b7-9ff0-000000000000'],
  ];
  for (const [text, u] of vectors) {
    assert.equal(xidToUuid(text), u);
    assert.equal(xidToUuid(Xid.parse(text)), u);
    assert.equal(xidFromUuid(u).toString(), text);
    assert.equal(xidFromUuid(u.toUpperCase()).toString(), text);
  }
  const ids = [Xid.MIN, Xid.MAX];
  for (let i = 0; i < 2000; i++) ids.push(new Xid(randomPayload()));
  for (const x of ids) assert.ok(xidFromUuid(xidToUuid(x)).equals(x));
  const byId = [...ids].sort(Xid.compare).map(String);
  const byUuid = [...ids].sort((a, b) => (xidToUuid(a) < xidToUuid(b) ? -1 : xidToUuid(a) > xidToUuid(b) ? 1 : 0)).map(String);
  assert.deepEqual(byUuid, byId);
  for (const u of ['01890a5d-ac96-774b-bcce-b302099a8057', 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11']) {
    assert.throws(() => xidFromUuid(u), (e) => e instanceof XidError && e.code === '22023' && /is not an xid/.test(e.message));
  }
  assert.throws(() => xidFromUuid('00000000-0000-7000-8000-000000000000'), (e) => e.code === '22008');
  assert.throws(() => xidFromUuid('not a uuid'), (e) => e.code === '22P02');
});

// An xid as a ULID and back, ulid-flake ids: the server's functions
// (expected/convert.out; these vectors from xid_to_ulid, xid_from_ulid and
// xid_from_ulid_flake on a server)
test('xidToUlid, xidFromUlid, xidFromUlidFlake: the server\'s vectors, round trip, order, errors', () => {
  const { xidToUlid, xidFromUlid, xidFromUlidFlake } = require('../index.js');
  const vectors = [
    ['11111111111', '016E955Y870000000000000000'],
    ['11111111112', '016E955Y870000800000000000'],
    ['1111111NVpa', '016E955Y87ZZZZR00000000000'],
    ['jpXCZedGfVQ', '056E955Y86ZZZZR00000000000'],
    ['5cnEkaefSdu', '01M7XPE6000000000000000000'],
    ['EgStYr6K4Me', '02FAWM9EC0ZA86800000000000'],
    ['hjgP5681E9f', '0506ZH5TR9JDYPG00000000000'],
    ['UiL9JJc4g6N', '03S96Q2NRK3D0ER00000000000'],
    ['2T6BG6cdtfU', '01ARZ3NDEKTSV4R00000000000'],
  ];
  for (const [text, u] of vectors) {
    assert.equal(xidToUlid(text), u);
    assert.equal(xidToUlid(Xid.parse(text)), u);
    assert.equal(xidFromUlid(u).toString(), text);
    assert.equal(xidFromUlid(u.toLowerCase()).toString(), text);
  }
  // the ULID spec's example keeps its time and the 22 bits after it
  assert.equal(xidFromUlid('01ARZ3NDEKTSV4RRFFQ69G5FAV').toString(), '2T6BG6cdtfU');
  assert.equal(xidFromUlid('01arz3ndektsv4rrffq69g5fav').toString(), '2T6BG6cdtfU');
  for (const [flake, text] of [[14246757444195114n, '4ryqEBY4ykb'], [0n, '4jJqhYTcPVR'], [1n, '4jJqhYTcPVV'], [1048575n, '4jJqhYTytJw']]) {
    assert.equal(xidFromUlidFlake(flake).toString(), text);
    if (flake <= BigInt(Number.MAX_SAFE_INTEGER)) assert.equal(xidFromUlidFlake(Number(flake)).toString(), text);
  }
  const ids = [Xid.MIN, Xid.MAX];
  for (let i = 0; i < 2000; i++) ids.push(new Xid(randomPayload()));
  for (const x of ids) assert.ok(xidFromUlid(xidToUlid(x)).equals(x));
  const byId = [...ids].sort(Xid.compare).map(String);
  const byUlid = [...ids].sort((a, b) => (xidToUlid(a) < xidToUlid(b) ? -1 : xidToUlid(a) > xidToUlid(b) ? 1 : 0)).map(String);
  assert.deepEqual(byUlid, byId);
  // distinct flakes, distinct ids in the same order
  const flakes = Array.from({ length: 2000 }, () => randomPayload() >> 9n).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const fromFlakes = flakes.map((f) => xidFromUlidFlake(f));
  for (let i = 1; i < flakes.length; i++) assert.equal(fromFlakes[i - 1].compare(fromFlakes[i]), flakes[i - 1] < flakes[i] ? -1 : 0);

  const symbols = 'A ulid is 26 symbols of Crockford\'s Base32.';
  const atMost = 'A ulid is at most 7ZZZZZZZZZZZZZZZZZZZZZZZZZ.';
  const times = 'An xid holds instants from 2011-11-11 11:11:11.111+00 to 2151-03-25 18:46:22.214+00.';
  for (const [u, code, message, detail] of [
    ['8ZZZZZZZZZZZZZZZZZZZZZZZZZ', '22P02', 'invalid input syntax for a ulid: "8ZZZZZZZZZZZZZZZZZZZZZZZZZ"', atMost],
    ['01ARZ3NDEKTSV4RRFFQ69G5FA', '22P02', 'invalid input syntax for a ulid: "01ARZ3NDEKTSV4RRFFQ69G5FA"', symbols],
    ['01ARZ3NDEKTSV4RRFFQ69G5FAU', '22P02', 'invalid input syntax for a ulid: "01ARZ3NDEKTSV4RRFFQ69G5FAU"', symbols],
    ['', '22P02', 'invalid input syntax for a ulid: ""', symbols],
    // the server counts bytes: 25 characters, 26 bytes, first symbol 8
    ['8é' + '0'.repeat(23), '22P02', `invalid input syntax for a ulid: "8é${'0'.repeat(23)}"`, atMost],
    ['8é' + '0'.repeat(24), '22P02', `invalid input syntax for a ulid: "8é${'0'.repeat(24)}"`, symbols],
    // before the epoch, after 2151
    ['00000000000000000000000000', '22008', 'timestamp out of range for type xid', times],
    ['7ZZZZZZZZZZZZZZZZZZZZZZZZZ', '22008', 'timestamp out of range for type xid', times],
  ]) {
    assert.throws(() => xidFromUlid(u), (e) => e instanceof XidError && e.code === code && e.message === message && e.detail === detail, u);
  }
  for (const f of [-1n, -1, -(1n << 63n), 1n << 63n]) {
    assert.throws(() => xidFromUlidFlake(f), (e) => e instanceof XidError && e.code === '22003' &&
      e.message === `ulid-flake id ${f} is out of range` && e.detail === 'A ulid-flake id has a zero sign bit.', String(f));
  }
  assert.throws(() => xidFromUlidFlake((1n << 63n) - 1n), (e) => e.code === '22008' && e.detail === times);
  assert.throws(() => xidFromUlidFlake(2 ** 60), RangeError);
  assert.throws(() => xidFromUlidFlake(1.5), RangeError);
  assert.throws(() => xidFromUlidFlake('1'), TypeError);
});

run('codec: ').then((failed) => process.exit(failed ? 1 : 0));
