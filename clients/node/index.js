'use strict';
// xid-pg: the xid codec (no database needed) for JavaScript and TypeScript.
//
// An xid is an unsigned 64-bit payload: 42 bits of milliseconds since
// 2011-11-11T11:11:11.111Z, then 22 bits the generator fills.  Its text is
// exactly 11 Base58 symbols, most significant first, padded with '1'; the
// alphabet is in ASCII order, so text order is payload order.  Everything
// here gives the same answers as the PostgreSQL extension (xid_in, xid_out,
// xid_prefix_lower_bound, xid_time_lower_bound, xid_like_lower_bound,
// xid_node, xid_new), which the tests check against a live server.
//
// The payload is kept as two 32-bit halves in plain numbers and turned into a
// bigint only when asked for: bigint arithmetic allocates, and parsing,
// formatting and generating are on every request's path.

const ALPHABET = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
const EPOCH_MS = 1321009871111; // 2011-11-11T11:11:11.111Z
const MAX_MS = 2 ** 42 - 1; // 2151-03-25T18:46:22.214Z
const RANDOM_BITS = 22;
const MAX_NODE_BITS = 12;
const MAX_TEXT = 'jpXCZedGfVQ';
const B58_5 = 656356768; // 58^5 < 2^30
const TWO32 = 4294967296;
const U64_MAX = (1n << 64n) - 1n;

// symbol value of each char code below 128, -1 outside the alphabet
const DECODE = new Int8Array(128).fill(-1);
for (let i = 0; i < 58; i++) DECODE[ALPHABET.charCodeAt(i)] = i;
// the two symbols of each value below 58^2
const PAIRS = [];
for (let i = 0; i < 58 * 58; i++) PAIRS.push(ALPHABET[(i / 58) | 0] + ALPHABET[i % 58]);
// 58^n for n = 0..10, as bigints (for prefix bounds)
const POW58 = [1n];
for (let i = 1; i <= 10; i++) POW58.push(POW58[i - 1] * 58n);

// the token of the internal constructor, from two 32-bit halves
const HALVES = Symbol('halves');

/** An error with the server's message and SQLSTATE (code), as pg's DatabaseError has them. */
class XidError extends Error {
  constructor(message, code, detail) {
    super(message);
    this.name = 'XidError';
    this.code = code;
    if (detail !== undefined) this.detail = detail;
  }
}

// five symbols of v < 58^5
function encode5(v) {
  const high = Math.floor(v / 195112); // 58^3
  const rest = v - high * 195112;
  const mid = Math.floor(rest / 58);
  return PAIRS[high] + PAIRS[mid] + ALPHABET[rest - mid * 58];
}

// the text of the payload hi * 2^32 + lo
function encode(hi, lo) {
  // (hi * 2^32 + lo) divided by 58^5, 16 bits at a time so that every
  // intermediate stays below 2^53
  const q1 = Math.floor(hi / B58_5);
  let r = hi - q1 * B58_5;
  let t = r * 65536 + (lo >>> 16);
  const q2 = Math.floor(t / B58_5);
  r = t - q2 * B58_5;
  t = r * 65536 + (lo & 0xffff);
  const q3 = Math.floor(t / B58_5);
  const low = t - q3 * B58_5;
  const high = q1 * TWO32 + q2 * 65536 + q3; // < 2^35
  const top = Math.floor(high / B58_5); // < 43
  return ALPHABET[top] + encode5(high - top * B58_5) + encode5(low);
}

function quote(s) {
  return '"' + s + '"';
}

// the server's error for text that is no xid
function parseError(text) {
  for (let i = 0, pos = 1; i < text.length; pos++) {
    const cp = text.codePointAt(i);
    if (cp >= 128 || DECODE[cp] < 0) {
      return new XidError(`invalid input syntax for type xid: ${quote(text)}`, '22P02',
        `Character ${quote(String.fromCodePoint(cp))} at position ${pos} is not a Base58 symbol.`);
    }
    i += cp > 0xffff ? 2 : 1;
  }
  return new XidError(`invalid input syntax for type xid: ${quote(text)}`, '22P02',
    'An xid is written as exactly 11 Base58 symbols.');
}

/**
 * An xid: immutable, compared and sorted by payload, printing as its text.
 * new Xid(payload) takes a bigint from 0 to 2^64-1.
 */
class Xid {
  #hi;
  #lo;

  constructor(payload, hi, lo) {
    if (payload === HALVES) {
      // internal: the two 32-bit halves
      this.#hi = hi;
      this.#lo = lo;
      return;
    }
    if (typeof payload !== 'bigint') throw new TypeError('new Xid() takes a bigint payload');
    if (payload < 0n || payload > U64_MAX) {
      throw new XidError(`value ${payload} is out of range for type xid`, '22003');
    }
    this.#hi = Number(payload >> 32n);
    this.#lo = Number(payload & 0xffffffffn);
  }

  /** Strict parse of the 11-symbol text (as xid_in); throws XidError 22P02 or 22003. */
  static parse(text) {
    if (typeof text !== 'string') throw new TypeError('Xid.parse() takes a string');
    if (text.length !== 11) throw parseError(text);
    // the first six symbols and the last five, each exact in a double
    let a = 0;
    let b = 0;
    let seen = 0;
    for (let i = 0; i < 6; i++) {
      const d = DECODE[text.charCodeAt(i) & 0x7f] | (text.charCodeAt(i) >> 7 ? -1 : 0);
      seen |= d;
      a = a * 58 + d;
    }
    for (let i = 6; i < 11; i++) {
      const d = DECODE[text.charCodeAt(i) & 0x7f] | (text.charCodeAt(i) >> 7 ? -1 : 0);
      seen |= d;
      b = b * 58 + d;
    }
    if (seen < 0) throw parseError(text);
    // a * 58^5 + b as two 32-bit halves: a = ah * 2^18 + al
    const ah = Math.floor(a / 262144);
    const al = a - ah * 262144;
    const h = ah * B58_5; // < 2^48, worth h * 2^18
    const l = al * B58_5 + b; // < 2^49
    const hh = Math.floor(h / 16384);
    const x = (h - hh * 16384) * 262144 + l;
    const carry = Math.floor(x / TWO32);
    const hi = hh + carry;
    if (hi >= TWO32) {
      throw new XidError(`value ${quote(text)} is out of range for type xid`, '22003',
        `The largest xid is ${quote(MAX_TEXT)}.`);
    }
    return new Xid(HALVES, hi, x - carry * TWO32);
  }

  /** Is the text a valid xid (exactly what Xid.parse accepts)? */
  static isValid(text) {
    try {
      Xid.parse(text);
      return true;
    } catch (e) {
      return false;
    }
  }

  /** The xid of an 8-byte big-endian payload (the binary wire format, the bytea cast). */
  static fromBytes(bytes) {
    // a string or an array of numbers has a length too: only bytes are bytes
    if (!(bytes instanceof Uint8Array)) {
      throw new TypeError(`Xid.fromBytes() takes a Uint8Array or Buffer, not ${describe(bytes)}`);
    }
    if (bytes.length !== 8) {
      throw new XidError(`bytea of length ${bytes.length} does not match type xid`, '22026');
    }
    return new Xid(HALVES, ((bytes[0] << 24) | (bytes[1] << 16) | (bytes[2] << 8) | bytes[3]) >>> 0,
      ((bytes[4] << 24) | (bytes[5] << 16) | (bytes[6] << 8) | bytes[7]) >>> 0);
  }

  /**
   * The xid of a Unix time in whole milliseconds (Date.now()) with these 22
   * low bits: the id an application means by "an id for this time".
   */
  static fromUnixMs(ms, low = 0) {
    checkInteger(ms, 'Xid.fromUnixMs()', 'milliseconds');
    return fromXidMs(ms - EPOCH_MS, low, 'Xid.fromUnixMs()');
  }

  /** The xid of a Date (whole milliseconds) with these 22 low bits. */
  static fromDate(date, low = 0) {
    if (!(date instanceof Date) || Number.isNaN(date.getTime())) {
      throw new TypeError(`Xid.fromDate() takes a valid Date, not ${describe(date)}`);
    }
    return fromXidMs(date.getTime() - EPOCH_MS, low, 'Xid.fromDate()');
  }

  /**
   * The xid with these milliseconds since the xid epoch,
   * 2011-11-11T11:11:11.111Z (not since 1970: that is fromUnixMs), and these
   * 22 low bits.
   */
  static fromXidEpochMs(ms, low = 0) {
    checkInteger(ms, 'Xid.fromXidEpochMs()', 'milliseconds');
    return fromXidMs(ms, low, 'Xid.fromXidEpochMs()');
  }

  /** The payload, a bigint from 0 to 2^64-1. */
  get payload() {
    return (BigInt(this.#hi) << 32n) | BigInt(this.#lo);
  }

  /** The 8 bytes of the payload, big-endian. */
  toBytes() {
    const b = new Uint8Array(8);
    const v = new DataView(b.buffer);
    v.setUint32(0, this.#hi);
    v.setUint32(4, this.#lo);
    return b;
  }

  toString() {
    return encode(this.#hi, this.#lo);
  }

  toJSON() {
    return encode(this.#hi, this.#lo);
  }

  /** What node-postgres sends for an Xid parameter: its text. */
  toPostgres() {
    return encode(this.#hi, this.#lo);
  }

  [Symbol.for('nodejs.util.inspect.custom')]() {
    return `Xid(${encode(this.#hi, this.#lo)})`;
  }

  /** Milliseconds since the xid epoch (the top 42 bits). */
  get ms() {
    return this.#hi * 1024 + (this.#lo >>> 22);
  }

  /** The time of the id (xid_time), a Date at millisecond precision. */
  get time() {
    return new Date(EPOCH_MS + this.ms);
  }

  /** The 22 bits below the time (xid_random). */
  get random() {
    return this.#lo & 0x3fffff;
  }

  /** The node number under a layout of `bits` node bits, 0 to 12 (xid_node). */
  node(bits) {
    if (!Number.isInteger(bits) || bits < 0 || bits > MAX_NODE_BITS) {
      throw new XidError(`node bits ${bits} is out of range`, '22023',
        `An xid has from 0 to ${MAX_NODE_BITS} node bits.`);
    }
    return bits === 0 ? 0 : (this.#lo & 0x3fffff) >>> (RANDOM_BITS - bits);
  }

  /** Negative, zero or positive as this id sorts before, with or after the other. */
  compare(other) {
    if (this.#hi !== other.#hi) return this.#hi < other.#hi ? -1 : 1;
    if (this.#lo !== other.#lo) return this.#lo < other.#lo ? -1 : 1;
    return 0;
  }

  equals(other) {
    return other instanceof Xid && this.#hi === other.#hi && this.#lo === other.#lo;
  }

  /** For Array.prototype.sort: (a, b) => a.compare(b). */
  static compare(a, b) {
    return a.compare(b);
  }
}

function fromMs(ms, low) {
  // ms << 22 | low, in two halves: ms has 42 bits, the high half gets 32;
  // both are integers here, or the halves would hold fractions
  const hi = Math.floor(ms / 1024);
  return new Xid(HALVES, hi, (ms - hi * 1024) * 4194304 + low);
}

function describe(x) {
  if (typeof x === 'string') return `a string (${JSON.stringify(x.length > 20 ? x.slice(0, 20) + '...' : x)})`;
  if (typeof x === 'number' || typeof x === 'boolean' || typeof x === 'bigint') return `${typeof x} ${x}`;
  if (x === null || x === undefined) return String(x);
  return Object.prototype.toString.call(x);
}

// a number that is an integer: no boolean, bigint, string, fraction, NaN or infinity
function checkInteger(x, fn, what) {
  if (typeof x !== 'number') throw new TypeError(`${fn} takes ${what} as a number, not ${describe(x)}`);
  if (!Number.isInteger(x)) throw new RangeError(`${fn} takes whole ${what}, not ${x}`);
}

// the id of these ms since the xid epoch and these low bits, both checked
function fromXidMs(ms, low, fn) {
  checkInteger(low, fn, 'low bits');
  if (low < 0 || low >= 1 << RANDOM_BITS) {
    throw new RangeError(`${fn}: the low bits of an xid go from 0 to ${(1 << RANDOM_BITS) - 1}, not ${low}`);
  }
  checkMs(ms);
  return fromMs(ms, low);
}

function checkMs(ms) {
  if (!(ms >= 0 && ms <= MAX_MS)) {
    throw new XidError('timestamp out of range for type xid', '22008',
      'An xid holds instants from 2011-11-11 11:11:11.111+00 to 2151-03-25 18:46:22.214+00.');
  }
}

const MIN = new Xid(HALVES, 0, 0);
const MAX = new Xid(HALVES, TWO32 - 1, TWO32 - 1);
Object.defineProperty(Xid, 'MIN', { value: MIN });
Object.defineProperty(Xid, 'MAX', { value: MAX });

function fromBigint(v) {
  return new Xid(HALVES, Number(v >> 32n), Number(v & 0xffffffffn));
}

/**
 * Closed bounds of the ids whose text starts with the prefix, as
 * xid_prefix_lower_bound/xid_prefix_upper_bound: the empty text admits every
 * id; a text no id starts with (more than 11 symbols, a character outside
 * Base58, above the largest id) gives null.
 */
function prefixBounds(prefix) {
  const n = prefix.length;
  if (n === 0) return { lower: MIN, upper: MAX };
  if (n > 11) return null;
  let v = 0n;
  for (let i = 0; i < n; i++) {
    const c = prefix.charCodeAt(i);
    const d = c < 128 ? DECODE[c] : -1;
    if (d < 0) return null;
    v = v * 58n + BigInt(d);
  }
  if (n === 11) return v > U64_MAX ? null : { lower: fromBigint(v), upper: fromBigint(v) };
  const scale = POW58[11 - n];
  const lo = v * scale;
  if (lo > U64_MAX) return null;
  const hi = lo + scale - 1n;
  return { lower: fromBigint(lo), upper: fromBigint(hi > U64_MAX ? U64_MAX : hi) };
}

/**
 * Closed bounds of the ids that `id LIKE pattern` can match (default escape,
 * backslash), as xid_like_lower_bound/xid_like_upper_bound: the range of the
 * pattern's fixed prefix; null when no id can match.  A pattern that ends in
 * a lone backslash is an error (XidError 22025), as on the server.
 */
function likeBounds(pattern) {
  if (typeof pattern !== 'string') throw new TypeError(`likeBounds() takes a string, not ${describe(pattern)}`);
  const len = pattern.length;
  // a pattern that ends in a lone escape character matches nothing and is
  // an error, as the server says wherever it is
  for (let j = 0; j < len; j++) {
    if (pattern.charCodeAt(j) === 92 && ++j === len) {
      throw new XidError('LIKE pattern must not end with escape character', '22025');
    }
  }
  let prefix = '';
  let i = 0;
  let underscores = 0;
  let percent = false;
  let rest = 0;
  while (i < len && pattern[i] !== '%' && pattern[i] !== '_') {
    if (pattern[i] === '\\') i++;
    if (prefix.length === 11) return null;
    prefix += pattern[i++];
  }
  for (; i < len; i++) {
    if (pattern[i] === '%') percent = true;
    else if (pattern[i] === '_') underscores++;
    else {
      if (pattern[i] === '\\') i++;
      rest++;
    }
  }
  if (rest === 0 && (percent ? prefix.length + underscores > 11 : prefix.length + underscores !== 11)) {
    return null;
  }
  return prefixBounds(prefix);
}

function toMs(t) {
  // milliseconds since the unix epoch; a number may have a fraction
  const ms = t instanceof Date ? t.getTime() : t;
  if (typeof ms !== 'number' || Number.isNaN(ms)) throw new TypeError('a time is a valid Date or a number of milliseconds');
  return ms - EPOCH_MS;
}

/**
 * The first id whose time is at or after t (inclusive) or after t, as
 * xid_time_lower_bound(t, inclusive): `id >= Xid.timeLowerBound(t)` is
 * exactly `xid_time(id) >= t`.  null when no id is that late.
 */
function timeLowerBound(t, inclusive = true) {
  const x = toMs(t);
  let m = inclusive ? Math.ceil(x) : Math.floor(x) + 1;
  if (m > MAX_MS) return null;
  if (m < 0) m = 0;
  return fromMs(m, 0);
}

/**
 * The last id whose time is at or before t (inclusive) or before t, as
 * xid_time_upper_bound(t, inclusive).  null when no id is that early.
 */
function timeUpperBound(t, inclusive = true) {
  const x = toMs(t);
  let m = inclusive ? Math.floor(x) : Math.ceil(x) - 1;
  if (m < 0) return null;
  if (m > MAX_MS) m = MAX_MS;
  return fromMs(m, 0x3fffff);
}

// ---- generation

const POOL = new Uint32Array(512);
let poolPos = POOL.length;
// globalThis.crypto is Web Crypto from Node 19 on (and in browsers); Node
// 18 has it only behind a flag, and node:crypto everywhere
const webcrypto = globalThis.crypto && typeof globalThis.crypto.getRandomValues === 'function'
  ? globalThis.crypto
  : require('node:crypto').webcrypto;

function random32() {
  if (poolPos === POOL.length) {
    webcrypto.getRandomValues(POOL);
    poolPos = 0;
  }
  return POOL[poolPos++];
}

/**
 * A generator with the server's layout: the millisecond, then 22 bits.  In a
 * new millisecond the counter starts at a random value in the lower half of
 * its bits; within a millisecond it steps by 1 to 32 (32 >> nodeBits, at
 * least 1); when a millisecond is used up, or the clock went back, it borrows
 * the next one.  So its ids strictly increase.  With nodeBits > 0 the top
 * nodeBits of the 22 bits hold nodeId (as xid.node_bits / xid.node_id).
 *
 * JavaScript runs one thread per realm; each worker thread has its own
 * module and so its own generator: give workers different node ids when
 * their ids must never collide.
 */
class XidGenerator {
  #lastMs = -1;
  #lastLow = 0;
  #counterBits;
  #counterMax;
  #nodeField;
  #stepMask;
  #clock;

  constructor(options = {}) {
    const bits = options.nodeBits ?? 0;
    const id = options.nodeId ?? (bits > 0 ? -1 : 0);
    if (!Number.isInteger(bits) || bits < 0 || bits > MAX_NODE_BITS) {
      throw new RangeError(`nodeBits ${bits} is out of range (0 to ${MAX_NODE_BITS})`);
    }
    if (!Number.isInteger(id) || id < 0 || id >= 2 ** bits) {
      throw new RangeError(`nodeId ${id} does not fit in nodeBits ${bits}`);
    }
    this.#counterBits = RANDOM_BITS - bits;
    this.#counterMax = 2 ** this.#counterBits - 1;
    this.#nodeField = id * 2 ** this.#counterBits;
    this.#stepMask = (32 >> Math.min(bits, 5)) - 1;
    this.#clock = options.clock ?? Date.now;
  }

  /** A new id, above every id this generator made before. */
  next() {
    // a clock may give fractions (performance.timeOrigin + performance.now()):
    // the id holds the whole millisecond, as the server's does
    const clock = this.#clock();
    if (typeof clock !== 'number') throw new TypeError(`the clock of an XidGenerator returned ${describe(clock)}, not a number`);
    const now = Math.floor(clock) - EPOCH_MS;
    checkMs(now);
    const rnd = random32();
    let ms = this.#lastMs;
    let low;
    if (now > ms) {
      ms = now;
      low = this.#nodeField + (rnd & (this.#counterMax >>> 1));
    } else {
      const step = 1 + ((rnd >>> 27) & this.#stepMask);
      low = this.#lastLow + step;
      if (low - this.#nodeField > this.#counterMax) {
        ms++; // this millisecond is used up: borrow the next one
        checkMs(ms);
        low = this.#nodeField + (rnd & (this.#counterMax >>> 1));
      }
    }
    this.#lastMs = ms;
    this.#lastLow = low;
    return fromMs(ms, low);
  }
}

const defaultGenerator = new XidGenerator();

/** A new id from this process's generator (as xid_new()). */
function xidNew() {
  return defaultGenerator.next();
}

/** An id for a given time with random low bits (as xid_new(timestamptz)); not ordered. */
function xidAt(t) {
  const ms = Math.floor(toMs(t));
  checkMs(ms);
  return fromMs(ms, random32() & 0x3fffff);
}

// ---- uuid (the extension's casts, 1.2): the id as a UUIDv7 with its time:
// unix ms (48 bits), version 7, the top 12 of the 22 low bits, variant 10,
// the bottom 10, then 52 zero bits; it sorts as the id does.

const UUID_RE = /^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i;

/** The id as a version 7 uuid with its time (id::uuid), lowercase text. */
function xidToUuid(id) {
  const x = id instanceof Xid ? id : Xid.parse(String(id));
  const unixMs = BigInt(x.ms + EPOCH_MS);
  const low = BigInt(x.random);
  const v = (unixMs << 80n) | (7n << 76n) | ((low >> 10n) << 64n) | (2n << 62n) | ((low & 0x3ffn) << 52n);
  const h = v.toString(16).padStart(32, '0');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

/** The id a uuid made by xidToUuid stands for (uuid::xid); any other uuid is an error (22023). */
function xidFromUuid(u) {
  const text = String(u);
  if (!UUID_RE.test(text)) {
    throw new XidError(`invalid input syntax for type uuid: ${quote(text)}`, '22P02');
  }
  const v = BigInt('0x' + text.replace(/-/g, ''));
  if (((v >> 76n) & 0xfn) !== 7n || ((v >> 62n) & 3n) !== 2n || (v & ((1n << 52n) - 1n)) !== 0n) {
    throw new XidError(`uuid ${quote(text.toLowerCase())} is not an xid`, '22023',
      'An xid as a uuid is a version 7 uuid whose last 52 bits are zero.');
  }
  const ms = Number(v >> 80n) - EPOCH_MS;
  checkMs(ms);
  return fromMs(ms, Number((((v >> 64n) & 0xfffn) << 10n) | ((v >> 52n) & 0x3ffn)));
}

// ---- ULID and ulid-flake (the extension's functions, 1.2).  A ULID is
// unix ms (48 bits), then randomness: the id's 22 low bits lead it and the
// rest is zero, written as 26 symbols of Crockford's Base32, so it sorts as
// the id does.  From a ULID the id keeps its time and the 22 bits after it.
// A ulid-flake id (a zero sign bit, 43 bits of ms since 2024-01-01, 20 bits)
// converts whole: its 20 bits become the top 20 of the id's 22.

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
// symbol value of each char code below 128, either case, -1 outside the alphabet
const CROCKFORD_VALUE = new Int8Array(128).fill(-1);
for (let i = 0; i < 32; i++) {
  CROCKFORD_VALUE[CROCKFORD.charCodeAt(i)] = i;
  CROCKFORD_VALUE[CROCKFORD.toLowerCase().charCodeAt(i)] = i;
}
const FLAKE_EPOCH_MS = 1704067200000; // 2024-01-01T00:00:00Z
const I64_MAX = (1n << 63n) - 1n;
const UTF8 = new TextEncoder();
const ULID_SYMBOLS = 'A ulid is 26 symbols of Crockford\'s Base32.';

/** The id as a ULID's 26 symbols, uppercase, with its time (xid_to_ulid). */
function xidToUlid(id) {
  const x = id instanceof Xid ? id : Xid.parse(String(id));
  const v = (BigInt(x.ms + EPOCH_MS) << 80n) | (BigInt(x.random) << 58n);
  // 26 symbols of 5 bits are 130 bits: the first symbol holds 3
  let s = '';
  for (let shift = 125n; shift >= 0n; shift -= 5n) s += CROCKFORD[Number((v >> shift) & 31n)];
  return s;
}

function ulidError(text, detail) {
  return new XidError(`invalid input syntax for a ulid: ${quote(text)}`, '22P02', detail);
}

/**
 * The id of a ULID's 26 symbols, either case (xid_from_ulid): its time and
 * the first 22 bits of its randomness.  XidError 22P02 for text that is no
 * ULID, 22008 for a time an xid cannot hold.
 */
function xidFromUlid(u) {
  const text = String(u);
  // the server counts bytes, and reads the symbols in order: a first symbol
  // above 7 is named as such even when a later one is no symbol
  if (UTF8.encode(text).length !== 26) throw ulidError(text, ULID_SYMBOLS);
  let v = 0n;
  for (let i = 0; i < 26; i++) {
    const c = text.charCodeAt(i);
    const d = c < 128 ? CROCKFORD_VALUE[c] : -1;
    if (d < 0) throw ulidError(text, ULID_SYMBOLS);
    if (i === 0 && d > 7) throw ulidError(text, 'A ulid is at most 7ZZZZZZZZZZZZZZZZZZZZZZZZZ.');
    v = (v << 5n) | BigInt(d);
  }
  const ms = Number(v >> 80n) - EPOCH_MS;
  checkMs(ms);
  return fromMs(ms, Number((v >> 58n) & 0x3fffffn));
}

/**
 * The id of a ulid-flake id (xid_from_ulid_flake), unique and in order as
 * the flakes are: a bigint, or a number up to 2^53 - 1 (node-postgres
 * reads a bigint column as a string: BigInt(row.id)).  XidError 22003 for
 * a negative id, 22008 for a time an xid cannot hold.
 */
function xidFromUlidFlake(flake) {
  let f = flake;
  if (typeof flake === 'number') {
    if (!Number.isSafeInteger(flake)) {
      throw new RangeError(`xidFromUlidFlake() takes a whole number up to 2^53 - 1 (a larger id is a bigint), not ${flake}`);
    }
    f = BigInt(flake);
  } else if (typeof flake !== 'bigint') {
    throw new TypeError(`xidFromUlidFlake() takes a bigint or a number, not ${describe(flake)}`);
  }
  if (f < 0n || f > I64_MAX) {
    throw new XidError(`ulid-flake id ${f} is out of range`, '22003', 'A ulid-flake id has a zero sign bit.');
  }
  const ms = Number(f >> 20n) + FLAKE_EPOCH_MS - EPOCH_MS;
  checkMs(ms);
  return fromMs(ms, Number(f & 0xfffffn) * 4);
}

module.exports = {
  Xid,
  XidError,
  XidGenerator,
  xidNew,
  xidAt,
  prefixBounds,
  likeBounds,
  timeLowerBound,
  timeUpperBound,
  xidToUuid,
  xidFromUuid,
  xidToUlid,
  xidFromUlid,
  xidFromUlidFlake,
  ALPHABET,
  EPOCH_MS,
  MAX_MS,
};
