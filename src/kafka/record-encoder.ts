/**
 * A faster encoder for the records kafkajs produces, byte for byte the same as kafkajs' own.
 *
 * kafkajs 2.2.4 (its last release) encodes each produced record with one `Encoder` for the record
 * and one per header, each a fresh zero-filled 512-byte buffer, plus a small Buffer per varint and
 * a regrown buffer for records over 512 bytes. For an enriched record with three headers that cost
 * more CPU than the enrichment itself (docs/performance.md). `encodeRecord` computes the exact size
 * first and writes once into a pooled buffer.
 *
 * kafkajs offers no hook for this, so `installRecordEncoder` puts `encodeRecord` in the place of
 * kafkajs' record module in Node's module cache. That only works before kafkajs loads its produce
 * request (it does so lazily, on the first send) and is only done for the kafkajs version whose
 * bytes a unit test compares against; anything else leaves kafkajs as it is and says why.
 */
import { createRequire } from 'node:module';
import type { IHeaders } from 'kafkajs';

/** What kafkajs' produce request passes to its record encoder for each message. */
export interface RecordInput {
  readonly offsetDelta?: number;
  readonly timestampDelta?: number;
  readonly key?: unknown;
  readonly value?: unknown;
  readonly headers?: IHeaders;
}

/** The shape kafkajs reads back from an encoded record (a subset of its `Encoder`). */
export interface EncodedRecord {
  readonly buf: Buffer;
  readonly buffer: Buffer;
  readonly offset: number;
  size(): number;
}

type RecordEncoder = (record: RecordInput) => EncodedRecord;

/** The kafkajs version whose record bytes test/unit/kafka/record-encoder.test.ts compares. */
export const SUPPORTED_KAFKAJS_VERSION = '2.2.4';

/** Above this the zig-zag value no longer fits the 32-bit arithmetic below; kafkajs handles those. */
const MAX_FAST_DELTA = 2 ** 30;

/**
 * The record's bytes (Kafka record format v2: length, attributes, timestamp and offset deltas, key,
 * value, headers), or undefined when the input is outside what this encoder handles (key, value or
 * header values that are neither strings nor Buffers, or deltas beyond ±2^30): the caller then uses
 * kafkajs' encoder, which also raises kafkajs' own errors for bad input.
 */
export function encodeRecord(record: RecordInput): EncodedRecord | undefined {
  const { offsetDelta = 0, timestampDelta = 0, key, value, headers } = record;
  if (!isSmallInteger(offsetDelta) || !isSmallInteger(timestampDelta)) return undefined;
  const keySize = bytesSize(key);
  const valueSize = bytesSize(value);
  if (keySize === undefined || valueSize === undefined) return undefined;

  const headerKeys: string[] = [];
  const headerValues: (string | Buffer)[] = [];
  if (headers !== undefined && headers !== null) {
    for (const name of Object.keys(headers)) {
      const v: unknown = headers[name];
      if (Array.isArray(v)) {
        for (const item of v as unknown[])
          if (!pushHeader(headerKeys, headerValues, name, item)) return undefined;
      } else if (!pushHeader(headerKeys, headerValues, name, v)) return undefined;
    }
  }

  let body =
    1 + // attributes
    varIntSize(timestampDelta) +
    varIntSize(offsetDelta) +
    keySize +
    valueSize +
    varIntSize(headerKeys.length);
  const keyLengths: number[] = [];
  const valueLengths: number[] = [];
  for (let i = 0; i < headerKeys.length; i++) {
    const k = Buffer.byteLength(headerKeys[i] as string, 'utf8');
    const hv = headerValues[i] as string | Buffer;
    const v = typeof hv === 'string' ? Buffer.byteLength(hv, 'utf8') : hv.length;
    keyLengths.push(k);
    valueLengths.push(v);
    body += varIntSize(k) + k + varIntSize(v) + v;
  }
  const total = varIntSize(body) + body;
  // Pooled and uninitialised: every byte is written below.
  const buf = Buffer.allocUnsafe(total);
  let at = writeVarInt(buf, 0, body);
  buf[at++] = 0; // attributes: none used in record format v2
  at = writeVarInt(buf, at, timestampDelta);
  at = writeVarInt(buf, at, offsetDelta);
  at = writeBytes(buf, at, key);
  at = writeBytes(buf, at, value);
  at = writeVarInt(buf, at, headerKeys.length);
  for (let i = 0; i < headerKeys.length; i++) {
    at = writeVarInt(buf, at, keyLengths[i] as number);
    at += buf.write(headerKeys[i] as string, at, 'utf8');
    const hv = headerValues[i] as string | Buffer;
    at = writeVarInt(buf, at, valueLengths[i] as number);
    at += typeof hv === 'string' ? buf.write(hv, at, 'utf8') : hv.copy(buf, at);
  }
  if (at !== total) throw new Error(`record encoder wrote ${at} of ${total} bytes`);
  return { buf, buffer: buf, offset: total, size: () => total };
}

export type InstallOutcome =
  { readonly installed: true } | { readonly installed: false; readonly reason: string };

const INSTALLED = Symbol.for('tx-enrich.record-encoder');
/** kafkajs' record encoder module: the one `installRecordEncoder` replaces. */
const RECORD_MODULE = 'kafkajs/src/protocol/recordBatch/record/v0/index.js';

/**
 * Makes kafkajs produce with `encodeRecord` (falling back to its own encoder record by record where
 * `encodeRecord` does not apply). Idempotent; safe to call from every Kafka adapter at start-up.
 */
export function installRecordEncoder(): InstallOutcome {
  let require: NodeJS.Require;
  let version: string;
  let recordPath: string;
  let producePath: string;
  try {
    // Inside the try: in a CommonJS bundle import.meta.url is undefined and createRequire throws.
    require = createRequire(import.meta.url);
    version = (require('kafkajs/package.json') as { version: string }).version;
    recordPath = require.resolve(RECORD_MODULE);
    producePath = require.resolve('kafkajs/src/protocol/requests/produce/v3/request.js');
  } catch (error) {
    return { installed: false, reason: `kafkajs internals not found (${String(error)})` };
  }
  if (version !== SUPPORTED_KAFKAJS_VERSION) {
    return { installed: false, reason: `kafkajs ${version} is not ${SUPPORTED_KAFKAJS_VERSION}` };
  }
  const loaded = require(recordPath) as RecordEncoder & { [INSTALLED]?: true };
  if (loaded[INSTALLED]) return { installed: true };
  if (require.cache[producePath] !== undefined) {
    return { installed: false, reason: 'kafkajs had already loaded its produce request' };
  }
  const module = require.cache[recordPath];
  if (module === undefined) return { installed: false, reason: 'kafkajs record module not cached' };
  const replacement = Object.assign((record: RecordInput) => encodeRecord(record) ?? loaded(record), {
    [INSTALLED]: true as const,
  });
  module.exports = replacement;
  return { installed: true };
}

/** Whether kafkajs encodes produced records with `encodeRecord` in this process (installs nothing). */
export function recordEncoderInstalled(): boolean {
  try {
    const require = createRequire(import.meta.url);
    const path = require.resolve(RECORD_MODULE);
    const exported = require.cache[path]?.exports as { [INSTALLED]?: true } | undefined;
    return exported?.[INSTALLED] === true;
  } catch {
    return false;
  }
}

function isSmallInteger(n: unknown): n is number {
  return typeof n === 'number' && Number.isInteger(n) && n > -MAX_FAST_DELTA && n < MAX_FAST_DELTA;
}

function pushHeader(keys: string[], values: (string | Buffer)[], name: string, value: unknown): boolean {
  if (typeof value !== 'string' && !Buffer.isBuffer(value)) return false;
  keys.push(name);
  values.push(value);
  return true;
}

/** Encoded size of a nullable bytes field (varint length + bytes), or undefined if not bytes. */
function bytesSize(v: unknown): number | undefined {
  if (v === null || v === undefined) return 1; // varint -1
  if (typeof v === 'string') {
    const n = Buffer.byteLength(v, 'utf8');
    return varIntSize(n) + n;
  }
  if (Buffer.isBuffer(v)) return varIntSize(v.length) + v.length;
  return undefined;
}

function writeBytes(buf: Buffer, at: number, v: unknown): number {
  if (v === null || v === undefined) return writeVarInt(buf, at, -1);
  if (typeof v === 'string') {
    at = writeVarInt(buf, at, Buffer.byteLength(v, 'utf8'));
    return at + buf.write(v, at, 'utf8');
  }
  const b = v as Buffer;
  at = writeVarInt(buf, at, b.length);
  return at + b.copy(buf, at);
}

function varIntSize(n: number): number {
  let z = ((n << 1) ^ (n >> 31)) >>> 0;
  let size = 1;
  while (z >= 0x80) {
    size++;
    z >>>= 7;
  }
  return size;
}

/** Zig-zag varint, as Kafka's record format writes lengths and deltas. */
function writeVarInt(buf: Buffer, at: number, n: number): number {
  let z = ((n << 1) ^ (n >> 31)) >>> 0;
  while (z >= 0x80) {
    buf[at++] = (z & 0x7f) | 0x80;
    z >>>= 7;
  }
  buf[at++] = z;
  return at;
}
