/**
 * OffsetFetch version 7 on the wire: the first version with `require_stable` (KIP-447), which kafkajs
 * 2.2.4 does not speak (it stops at version 4). With `require_stable`, a group coordinator that still
 * holds offsets of a transaction that is not settled yet answers UNSTABLE_OFFSET_COMMIT for that
 * partition instead of the offset from before the transaction, so a reader never mistakes a commit in
 * progress for no commit (committed-offsets.ts says why that matters to exactly-once).
 *
 * Pure bytes in and out. Version 7 is a "flexible" version (compact strings and arrays, tagged
 * fields), and its request and response headers carry tagged fields too; kafkajs writes the older
 * request header, so the body starts with the header's empty tagged fields, and the response body
 * starts with the response header's (kafkajs' own flexible requests do the same).
 *
 * Request v7: group_id topics[name partition_indexes[]] require_stable
 * Response v7: throttle_time_ms topics[name partitions[partition_index committed_offset
 *              committed_leader_epoch metadata error_code]] error_code
 */

export const OFFSET_FETCH_API_KEY = 9;
export const OFFSET_FETCH_STABLE_VERSION = 7;

/** The protocol's error codes this reader acts on (kafka.apache.org/protocol#protocol_error_codes). */
export const ERROR = {
  NONE: 0,
  COORDINATOR_LOAD_IN_PROGRESS: 14,
  COORDINATOR_NOT_AVAILABLE: 15,
  NOT_COORDINATOR: 16,
  UNSTABLE_OFFSET_COMMIT: 88,
} as const;

export interface OffsetFetchTopic {
  readonly topic: string;
  readonly partitions: readonly number[];
}

export interface FetchedPartition {
  readonly partition: number;
  /** -1 when the group has no committed offset for it. */
  readonly offset: bigint;
  readonly leaderEpoch: number;
  readonly metadata: string | null;
  readonly errorCode: number;
}

export interface OffsetFetchResponse {
  readonly throttleTimeMs: number;
  readonly errorCode: number;
  readonly topics: readonly { readonly topic: string; readonly partitions: readonly FetchedPartition[] }[];
}

export function encodeOffsetFetchRequest(
  groupId: string,
  topics: readonly OffsetFetchTopic[],
  requireStable: boolean,
): Buffer {
  const w = new Writer();
  w.uvarint(0); // the request header's tagged fields (header v2)
  w.compactString(groupId);
  w.uvarint(topics.length + 1);
  for (const t of topics) {
    w.compactString(t.topic);
    w.uvarint(t.partitions.length + 1);
    for (const p of t.partitions) w.int32(p);
    w.uvarint(0);
  }
  w.int8(requireStable ? 1 : 0);
  w.uvarint(0);
  return w.bytes();
}

/** Decodes a response body as kafkajs hands it over: after the correlation id. */
export function decodeOffsetFetchResponse(payload: Buffer): OffsetFetchResponse {
  const r = new Reader(payload);
  r.skipTaggedFields(); // the response header's (header v1)
  const throttleTimeMs = r.int32();
  const topics = r.compactArray(() => {
    const topic = r.compactString() ?? '';
    const partitions = r.compactArray((): FetchedPartition => {
      const partition = r.int32();
      const offset = r.int64();
      const leaderEpoch = r.int32();
      const metadata = r.compactString();
      const errorCode = r.int16();
      r.skipTaggedFields();
      return { partition, offset, leaderEpoch, metadata, errorCode };
    });
    r.skipTaggedFields();
    return { topic, partitions };
  });
  const errorCode = r.int16();
  r.skipTaggedFields();
  return { throttleTimeMs, errorCode, topics };
}

class Writer {
  private readonly parts: Buffer[] = [];

  int8(value: number): void {
    const b = Buffer.alloc(1);
    b.writeInt8(value);
    this.parts.push(b);
  }

  int32(value: number): void {
    const b = Buffer.alloc(4);
    b.writeInt32BE(value);
    this.parts.push(b);
  }

  uvarint(value: number): void {
    const out: number[] = [];
    let v = value >>> 0;
    while (v >= 0x80) {
      out.push((v & 0x7f) | 0x80);
      v >>>= 7;
    }
    out.push(v);
    this.parts.push(Buffer.from(out));
  }

  compactString(value: string): void {
    const b = Buffer.from(value, 'utf8');
    this.uvarint(b.length + 1);
    this.parts.push(b);
  }

  bytes(): Buffer {
    return Buffer.concat(this.parts);
  }
}

class Reader {
  private offset = 0;

  constructor(private readonly buf: Buffer) {}

  private need(n: number): void {
    if (this.offset + n > this.buf.length) {
      throw new RangeError(`OffsetFetch response cut short at byte ${this.offset} (needs ${n} more)`);
    }
  }

  int16(): number {
    this.need(2);
    const v = this.buf.readInt16BE(this.offset);
    this.offset += 2;
    return v;
  }

  int32(): number {
    this.need(4);
    const v = this.buf.readInt32BE(this.offset);
    this.offset += 4;
    return v;
  }

  int64(): bigint {
    this.need(8);
    const v = this.buf.readBigInt64BE(this.offset);
    this.offset += 8;
    return v;
  }

  uvarint(): number {
    let result = 0;
    for (let shift = 0; shift <= 28; shift += 7) {
      this.need(1);
      const byte = this.buf[this.offset++] as number;
      result |= (byte & 0x7f) << shift;
      if ((byte & 0x80) === 0) return result >>> 0;
    }
    throw new RangeError('OffsetFetch response has a varint longer than 5 bytes');
  }

  compactString(): string | null {
    const length = this.uvarint();
    if (length === 0) return null;
    this.need(length - 1);
    const value = this.buf.toString('utf8', this.offset, this.offset + length - 1);
    this.offset += length - 1;
    return value;
  }

  compactArray<T>(item: () => T): T[] {
    const length = this.uvarint();
    const items: T[] = [];
    for (let i = 0; i < length - 1; i++) items.push(item());
    return items;
  }

  skipTaggedFields(): void {
    const count = this.uvarint();
    for (let i = 0; i < count; i++) {
      this.uvarint(); // tag
      const size = this.uvarint();
      this.need(size);
      this.offset += size;
    }
  }
}
