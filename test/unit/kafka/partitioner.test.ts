// Guarantee: the worker's partitioner sends every keyed record to the partition kafkajs'
// DefaultPartitioner (the Java client's murmur2) would choose, so a customer's records keep going to
// the same output partition whichever client wrote them.
import { Partitioners, type PartitionerArgs } from 'kafkajs';
import { describe, expect, it } from 'vitest';
import { KeyPartitioner } from '../../../src/kafka/partitioner.js';

function args(key: Buffer | string | null, partitions: number, partition?: number): PartitionerArgs {
  return {
    topic: 'out',
    partitionMetadata: Array.from({ length: partitions }, (_, p) => ({
      partitionId: p,
      leader: 0,
      partitionErrorCode: 0,
      replicas: [0],
      isr: [0],
    })),
    message: { key, value: null, ...(partition === undefined ? {} : { partition }) },
  };
}

/** Keys of every length 0-40, ASCII, Arabic and astral characters, and customer ids. */
function keys(): (string | Buffer)[] {
  const out: (string | Buffer)[] = [];
  for (let i = 0; i < 3_000; i++) {
    let s = '';
    for (let j = 0; j < i % 41; j++) {
      const kind = (i + j) % 3;
      s +=
        kind === 0
          ? String.fromCharCode(32 + ((i * 7 + j * 13) % 95))
          : kind === 1
            ? String.fromCharCode(0x600 + ((i + j) % 200))
            : String.fromCodePoint(0x1f600 + ((i * j) % 50));
    }
    out.push(s, Buffer.from(s), `cust-${i}`);
  }
  return out;
}

describe('KeyPartitioner', () => {
  it('chooses the DefaultPartitioner’s partition for every keyed record', () => {
    const ours = KeyPartitioner();
    const theirs = Partitioners.DefaultPartitioner();
    for (const partitions of [1, 2, 6, 7, 64]) {
      for (const key of keys()) expect(ours(args(key, partitions))).toBe(theirs(args(key, partitions)));
    }
  });

  it('keeps an explicit partition, and spreads records without a key over the partitions', () => {
    const ours = KeyPartitioner();
    expect(ours(args('cust-1', 6, 4))).toBe(4);
    const seen = new Set<number>();
    for (let i = 0; i < 60; i++) seen.add(ours(args(null, 6)));
    expect([...seen].every((p) => p >= 0 && p < 6)).toBe(true);
    expect(seen.size).toBeGreaterThan(1);
  });
});
