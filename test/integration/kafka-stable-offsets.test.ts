// Guarantee: on the real broker, the worker's floor read (src/kafka/committed-offsets.ts, OffsetFetch v7
// with require_stable) never answers the offset from before a transaction that carries a newer one:
// while such a transaction is open it waits, and gives up with an error that says so; once the
// transaction commits it answers the new offset, once it aborts the old one. kafkajs' own fetch
// (OffsetFetch v4) answers the old offset meanwhile: the gap this read closes.
import { afterAll, describe, expect, it } from 'vitest';
import { CommittedOffsets } from '../../src/kafka/committed-offsets.js';
import { createTopics, sleep, testKafka, uniqueName, withAdmin } from '../support/index.js';

describe('committed offsets read with require_stable (real broker)', () => {
  const kafka = testKafka('stable-offsets');
  const input = uniqueName('stable.in');
  const output = uniqueName('stable.out');
  const twoPartitions = uniqueName('stable.two');
  const group = uniqueName('stable-group');
  const offsets = new CommittedOffsets(kafka);

  afterAll(async () => {
    await offsets.close();
    await withAdmin(kafka, (admin) => admin.deleteTopics({ topics: [input, output, twoPartitions] })).catch(
      () => undefined,
    );
  });

  it('waits for a transaction carrying the offset, then answers what it settled to', async () => {
    await createTopics(kafka, [input, output]);
    expect(await offsets.read(group, input, 0, 10_000)).toBe(-1n);

    const producer = kafka.producer({
      transactionalId: uniqueName('stable-producer'),
      idempotent: true,
      maxInFlightRequests: 1,
    });
    await producer.connect();
    const offsetsAt = (offset: string) => ({
      consumerGroupId: group,
      topics: [{ topic: input, partitions: [{ partition: 0, offset }] }],
    });
    const kafkajsFetch = () =>
      withAdmin(kafka, async (admin) => {
        const [topic] = await admin.fetchOffsets({ groupId: group, topics: [input] });
        return topic?.partitions.find((p) => p.partition === 0)?.offset;
      });
    try {
      const first = await producer.transaction();
      await first.send({ topic: output, messages: [{ key: 'k', value: 'one' }] });
      await first.sendOffsets(offsetsAt('3'));
      await first.commit();
      expect(await offsets.read(group, input, 0, 10_000)).toBe(3n);

      // Open: offset 7 is pending. kafkajs reads 3 as if nothing were under way; ours refuses.
      const second = await producer.transaction();
      await second.send({ topic: output, messages: [{ key: 'k', value: 'two' }] });
      await second.sendOffsets(offsetsAt('7'));
      expect(await kafkajsFetch()).toBe('3');
      await expect(offsets.read(group, input, 0, 1_500)).rejects.toThrow(/still settling for 1500 ms/);

      // A read waiting on it answers 7 once it commits.
      const waiting = offsets.read(group, input, 0, 20_000);
      await sleep(500);
      await second.commit();
      expect(await waiting).toBe(7n);

      // An aborted transaction leaves the offset where it was.
      const third = await producer.transaction();
      await third.send({ topic: output, messages: [{ key: 'k', value: 'three' }] });
      await third.sendOffsets(offsetsAt('9'));
      const waitingForAbort = offsets.read(group, input, 0, 20_000);
      await sleep(500);
      await third.abort();
      expect(await waitingForAbort).toBe(7n);
    } finally {
      await producer.disconnect();
    }
  });

  it('answers per partition: a pending offset on one partition does not hold up another', async () => {
    await createTopics(kafka, [twoPartitions], { numPartitions: 2 });
    const topic = twoPartitions;
    const producer = kafka.producer({
      transactionalId: uniqueName('stable-two'),
      idempotent: true,
      maxInFlightRequests: 1,
    });
    await producer.connect();
    try {
      const open = await producer.transaction();
      await open.sendOffsets({
        consumerGroupId: group,
        topics: [{ topic, partitions: [{ partition: 1, offset: '5' }] }],
      });
      expect(await offsets.read(group, topic, 0, 10_000)).toBe(-1n);
      await expect(offsets.read(group, topic, 1, 1_000)).rejects.toThrow(/still settling/);
      await open.commit();
      expect(await offsets.read(group, topic, 1, 10_000)).toBe(5n);
    } finally {
      await producer.disconnect();
    }
  });
});
