import { describe, expect, it } from 'vitest';
import {
  decodeOffsetFetchResponse,
  encodeOffsetFetchRequest,
  ERROR,
} from '../../../src/kafka/offset-fetch.js';

const hex = (s: string) => Buffer.from(s.replace(/\s+/g, ''), 'hex');

/** A v7 response body for topic "t": header tagged fields, then the partitions given. */
function response(partitions: string[], errorCode = '0000', headerTags = '00'): Buffer {
  const count = (partitions.length + 1).toString(16).padStart(2, '0');
  return hex(`${headerTags} 00000000 02 0274 ${count} ${partitions.join(' ')} 00 ${errorCode} 00`);
}

// partition 5, offset 7, leader epoch -1, metadata "", error, no tagged fields
const partition = (index: string, offset: string, error = '0000') =>
  `${index} ${offset} ffffffff 01 ${error} 00`;

describe('encodeOffsetFetchRequest (OffsetFetch v7)', () => {
  it('writes the header tagged fields, compact strings and arrays, and require_stable', () => {
    expect(encodeOffsetFetchRequest('g', [{ topic: 't', partitions: [5] }], true)).toEqual(
      hex('00 0267 02 0274 02 00000005 00 01 00'),
    );
  });

  it('writes require_stable false as 0 and several topics and partitions in order', () => {
    const bytes = encodeOffsetFetchRequest(
      'g',
      [
        { topic: 'a', partitions: [0, 1] },
        { topic: 'b', partitions: [] },
      ],
      false,
    );
    expect(bytes).toEqual(hex('00 0267 03 0261 03 00000000 00000001 00 0262 01 00 00 00'));
  });

  it('counts a group id and a topic by their UTF-8 bytes, not their characters', () => {
    const bytes = encodeOffsetFetchRequest('é', [{ topic: 'ب', partitions: [] }], true);
    expect(bytes).toEqual(hex('00 03c3a9 02 03d8a8 01 00 01 00'));
  });

  it('writes lengths of 128 bytes and more as multi-byte varints', () => {
    const bytes = encodeOffsetFetchRequest('x'.repeat(200), [], true);
    // 201 = 0xc9 → varint c9 01
    expect(bytes.subarray(0, 3)).toEqual(hex('00 c901'));
    expect(bytes.length).toBe(1 + 2 + 200 + 1 + 1 + 1);
  });
});

describe('decodeOffsetFetchResponse (OffsetFetch v7)', () => {
  it('reads offset, leader epoch, metadata and error per partition', () => {
    const decoded = decodeOffsetFetchResponse(response([partition('00000005', '0000000000000007')]));
    expect(decoded).toEqual({
      throttleTimeMs: 0,
      errorCode: 0,
      topics: [
        {
          topic: 't',
          partitions: [{ partition: 5, offset: 7n, leaderEpoch: -1, metadata: '', errorCode: 0 }],
        },
      ],
    });
  });

  it('reads -1 (no committed offset) and offsets beyond 2^53 exactly', () => {
    const decoded = decodeOffsetFetchResponse(
      response([partition('00000000', 'ffffffffffffffff'), partition('00000001', '0020000000000001')]),
    );
    expect(decoded.topics[0]?.partitions.map((p) => p.offset)).toEqual([-1n, 9007199254740993n]);
  });

  it('reads UNSTABLE_OFFSET_COMMIT on a partition and an error on the whole answer', () => {
    const unstable = decodeOffsetFetchResponse(response([partition('00000002', 'ffffffffffffffff', '0058')]));
    expect(unstable.topics[0]?.partitions[0]?.errorCode).toBe(ERROR.UNSTABLE_OFFSET_COMMIT);
    const moved = decodeOffsetFetchResponse(response([], '0010'));
    expect(moved.errorCode).toBe(ERROR.NOT_COORDINATOR);
  });

  it('skips tagged fields it does not know, in the header and in a partition', () => {
    const tagged = `00000003 0000000000000009 00000004 00 0000 01 05 03 aabbcc`;
    const decoded = decodeOffsetFetchResponse(response([tagged], '0000', '01 00 02 ffff'));
    expect(decoded.topics[0]?.partitions[0]).toMatchObject({ partition: 3, offset: 9n, metadata: null });
  });

  it('says where a cut-short answer ends instead of reading garbage', () => {
    const full = response([partition('00000005', '0000000000000007')]);
    expect(() => decodeOffsetFetchResponse(full.subarray(0, full.length - 6))).toThrow(/cut short at byte/);
    expect(() => decodeOffsetFetchResponse(hex('80 80 80 80 80 80'))).toThrow(/varint longer than 5 bytes/);
  });
});
