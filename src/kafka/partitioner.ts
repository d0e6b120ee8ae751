/**
 * The output partitioner: the same partition for a keyed record as kafkajs' DefaultPartitioner (the
 * Java client's murmur2, so every client agrees on where a customer's records go), computed with
 * 32-bit integer arithmetic instead of kafkajs' 64-bit Long objects, and without the per-record
 * scan of the partition metadata. Records without a key go to kafkajs' own DefaultPartitioner.
 * A unit test checks it against kafkajs' on many keys.
 */
import type { ICustomPartitioner } from 'kafkajs';
import { Partitioners } from './kafkajs.js';

const SEED = 0x9747b28c;
const M = 0x5bd1e995;

/** MurmurHash2 (32-bit) of the key's bytes, as the Java client's `Utils.murmur2`. */
export function murmur2(data: Uint8Array): number {
  const length = data.length;
  let h = SEED ^ length;
  const whole = length & ~3;
  for (let i = 0; i < whole; i += 4) {
    let k =
      (data[i] as number) |
      ((data[i + 1] as number) << 8) |
      ((data[i + 2] as number) << 16) |
      ((data[i + 3] as number) << 24);
    k = Math.imul(k, M);
    k ^= k >>> 24;
    k = Math.imul(k, M);
    h = Math.imul(h, M) ^ k;
  }
  const rest = length & 3;
  if (rest > 0) {
    if (rest === 3) h ^= (data[whole + 2] as number) << 16;
    if (rest >= 2) h ^= (data[whole + 1] as number) << 8;
    h ^= data[whole] as number;
    h = Math.imul(h, M);
  }
  h ^= h >>> 13;
  h = Math.imul(h, M);
  h ^= h >>> 15;
  return h | 0;
}

export const KeyPartitioner: ICustomPartitioner = () => {
  const fallback = Partitioners.DefaultPartitioner();
  return (args) => {
    const { message, partitionMetadata } = args;
    if (message.partition !== null && message.partition !== undefined) return message.partition;
    const key = message.key;
    if (key === null || key === undefined) return fallback(args);
    const bytes = Buffer.isBuffer(key) ? key : Buffer.from(String(key));
    return (murmur2(bytes) & 0x7fffffff) % partitionMetadata.length;
  };
};
