import { describe, expect, it } from 'vitest';
import { InfrastructureError } from '../../../src/errors/catalog.js';
import { outcomeOf } from '../../../src/kafka/committed-offsets.js';
import { ERROR, type OffsetFetchResponse } from '../../../src/kafka/offset-fetch.js';

function answer(errorCode: number, partitionError = 0, offset = 42n): OffsetFetchResponse {
  return {
    throttleTimeMs: 0,
    errorCode,
    topics: [
      {
        topic: 'raw',
        partitions: [{ partition: 3, offset, leaderEpoch: 0, metadata: null, errorCode: partitionError }],
      },
    ],
  };
}

describe('outcomeOf (what one OffsetFetch answer means)', () => {
  it('a stable answer is the offset, -1 included (the group never committed)', () => {
    expect(outcomeOf(answer(ERROR.NONE), 'raw', 3)).toBe(42n);
    expect(outcomeOf(answer(ERROR.NONE, ERROR.NONE, -1n), 'raw', 3)).toBe(-1n);
  });

  it('a transaction still settling the offset means: ask again', () => {
    expect(outcomeOf(answer(ERROR.NONE, ERROR.UNSTABLE_OFFSET_COMMIT), 'raw', 3)).toMatch(/still settling/);
  });

  it('a coordinator that moved, is loading or is missing means: ask again', () => {
    expect(outcomeOf(answer(ERROR.NOT_COORDINATOR), 'raw', 3)).toMatch(/moved/);
    expect(outcomeOf(answer(ERROR.COORDINATOR_LOAD_IN_PROGRESS), 'raw', 3)).toMatch(/loading/);
    expect(outcomeOf(answer(ERROR.COORDINATOR_NOT_AVAILABLE), 'raw', 3)).toMatch(/no group coordinator/);
  });

  it("any other error is kafkajs' protocol error, with its type", () => {
    expect(() => outcomeOf(answer(30), 'raw', 3)).toThrow(
      expect.objectContaining({ type: 'GROUP_AUTHORIZATION_FAILED' }),
    );
    expect(() => outcomeOf(answer(ERROR.NONE, 3), 'raw', 3)).toThrow(
      expect.objectContaining({ type: 'UNKNOWN_TOPIC_OR_PARTITION' }),
    );
  });

  it('an answer without the partition is an infrastructure error, never "no offset" (that would restart it)', () => {
    expect(() => outcomeOf(answer(ERROR.NONE), 'raw', 4)).toThrow(InfrastructureError);
    expect(() => outcomeOf(answer(ERROR.NONE), 'other', 3)).toThrow(/without other\[3\]/);
  });
});
