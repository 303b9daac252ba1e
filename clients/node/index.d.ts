// Types of xid-pg: the xid codec for JavaScript and TypeScript.

/** An error with the server's message and SQLSTATE, as pg's DatabaseError has them. */
export declare class XidError extends Error {
  /** The server's SQLSTATE: 22P02 bad text, 22003 out of range, 22023 bad node bits, 22008 bad time, 22026 bad length, 22025 bad LIKE escape. */
  readonly code: string;
  /** The server's DETAIL, where it has one. */
  readonly detail?: string;
}

/** An xid: immutable, compared and sorted by payload, printing as its 11-symbol text. */
export declare class Xid {
  /** A payload from 0 to 2^64-1. */
  constructor(payload: bigint);
  /** The id 11111111111 (payload 0). */
  static readonly MIN: Xid;
  /** The id jpXCZedGfVQ (payload 2^64-1). */
  static readonly MAX: Xid;
  /** Strict parse of exactly 11 Base58 symbols (as xid_in); throws XidError. */
  static parse(text: string): Xid;
  /** Would Xid.parse accept it? */
  static isValid(text: string): boolean;
  /** From 8 bytes, big-endian (the binary wire format, the bytea cast); a Buffer is a Uint8Array. */
  static fromBytes(bytes: Uint8Array): Xid;
  /** From a Unix time in whole milliseconds (Date.now()) and the 22 low bits (default 0). */
  static fromUnixMs(ms: number, low?: number): Xid;
  /** From a Date and the 22 low bits (default 0). */
  static fromDate(date: Date, low?: number): Xid;
  /** From whole milliseconds since the xid epoch, 2011-11-11T11:11:11.111Z (not 1970), and the 22 low bits. */
  static fromXidEpochMs(ms: number, low?: number): Xid;
  /** For Array.prototype.sort. */
  static compare(a: Xid, b: Xid): number;
  /** The payload, 0 to 2^64-1. */
  readonly payload: bigint;
  /** Milliseconds since 2011-11-11T11:11:11.111Z (the top 42 bits). */
  readonly ms: number;
  /** The time of the id, as xid_time(). */
  readonly time: Date;
  /** The 22 bits below the time, as xid_random(). */
  readonly random: number;
  /** The node number under a layout of `bits` (0 to 12) node bits, as xid_node(). */
  node(bits: number): number;
  /** The payload as 8 bytes, big-endian. */
  toBytes(): Uint8Array;
  compare(other: Xid): number;
  equals(other: unknown): boolean;
  toString(): string;
  toJSON(): string;
  /** What node-postgres sends for it: the text. */
  toPostgres(): string;
}

/** Closed bounds of ids, both ends included. */
export interface XidBounds {
  lower: Xid;
  upper: Xid;
}

/** A time: a Date, or milliseconds since 1970 (a fraction is allowed). */
export type XidTime = Date | number;

export interface XidGeneratorOptions {
  /** Node bits, 0 (default) to 12, as xid.node_bits. */
  nodeBits?: number;
  /** This generator's node number, 0 to 2^nodeBits - 1, as xid.node_id. */
  nodeId?: number;
  /** Milliseconds since 1970 (a fraction is dropped); Date.now by default. */
  clock?: () => number;
}

/** Ids with the server's layout, strictly increasing. */
export declare class XidGenerator {
  constructor(options?: XidGeneratorOptions);
  next(): Xid;
}

/** A new id from this process's generator (as xid_new()). */
export declare function xidNew(): Xid;
/** An id for a given time with random low bits (as xid_new(timestamptz)). */
export declare function xidAt(t: XidTime): Xid;
/** The id as a version 7 uuid with its time (id::uuid), lowercase text. */
export declare function xidToUuid(id: Xid | string): string;
/** The id a uuid made by xidToUuid stands for (uuid::xid); XidError 22023 for any other uuid. */
export declare function xidFromUuid(uuid: string): Xid;
/** The id as a ULID's 26 symbols, uppercase, with its time (xid_to_ulid); it sorts as the id does. */
export declare function xidToUlid(id: Xid | string): string;
/**
 * The id of a ULID's 26 symbols, either case (xid_from_ulid): its time and the first 22 bits of its
 * randomness. XidError 22P02 for text that is no ULID, 22008 for a time an xid cannot hold.
 */
export declare function xidFromUlid(ulid: string): Xid;
/**
 * The id of a ulid-flake id (xid_from_ulid_flake), unique and in order as the flakes are: a bigint, or a
 * number up to 2^53 - 1 (RangeError above). XidError 22003 for a negative id, 22008 for a time an xid cannot hold.
 */
export declare function xidFromUlidFlake(flake: bigint | number): Xid;
/** Bounds of the ids whose text starts with the prefix (xid_prefix_lower_bound/upper_bound); null when none. */
export declare function prefixBounds(prefix: string): XidBounds | null;
/**
 * Bounds of the ids `id LIKE pattern` can match (xid_like_lower_bound/upper_bound); null when none.
 * A pattern ending in a lone backslash throws XidError 22025.
 */
export declare function likeBounds(pattern: string): XidBounds | null;
/** The first id at or after t (inclusive, default) or after t (xid_time_lower_bound); null when none. */
export declare function timeLowerBound(t: XidTime, inclusive?: boolean): Xid | null;
/** The last id at or before t (inclusive, default) or before t (xid_time_upper_bound); null when none. */
export declare function timeUpperBound(t: XidTime, inclusive?: boolean): Xid | null;

export declare const ALPHABET: string;
/** 2011-11-11T11:11:11.111Z in milliseconds since 1970. */
export declare const EPOCH_MS: number;
/** The largest millisecond field, 2^42 - 1. */
export declare const MAX_MS: number;
