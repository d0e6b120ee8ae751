// Guarantee: on the real broker, a kafkajs transaction commits its records and its consumer offsets
// together (send + sendOffsets + commit), and an aborted transaction's records are never returned to a
// read_committed consumer, nor are its offsets committed. This is the exactly-once building block of
// the enrichment pipeline.
import { afterAll, describe, expect, it } from 'vitest';
import { consumeMessages, createTopics, testKafka, uniqueName, withAdmin } from '../support/index.js';

describe('Kafka transactions (kafkajs on the real broker)', () => {
  const kafka = testKafka('kafka-transactions');
  const input = uniqueName('tx.in');
  const output = uniqueName('tx.out');
  const group = uniqueName('tx-group');

  afterAll(async () => {
    await withAdmin(kafka, (admin) => admin.deleteTopics({ topics: [input, output] })).catch(() => undefined);
  });

  it('commits records with offsets; read_committed never sees an aborted transaction', async () => {
    await createTopics(kafka, [input, output]);
    const committedOffset = async () =>
      withAdmin(kafka, async (admin) => {
        const [topic] = await admin.fetchOffsets({ groupId: group, topics: [input] });
        return topic?.partitions.find((p) => p.partition === 0)?.offset;
      });
    expect(await committedOffset()).toBe('-1');

    const producer = kafka.producer({
      transactionalId: uniqueName('tx-producer'),
      idempotent: true,
      maxInFlightRequests: 1,
    });
    await producer.connect();
    try {
      const offsets = (offset: string) => ({
        consumerGroupId: group,
        topics: [{ topic: input, partitions: [{ partition: 0, offset }] }],
      });

      // 1. Committed: three records and the input offset 3, atomically.
      const first = await producer.transaction();
      await first.send({
        topic: output,
        messages: ['committed-1', 'committed-2', 'committed-3'].map((value) => ({ key: 'k', value })),
      });
      await first.sendOffsets(offsets('3'));
      await first.commit();

      // 2. Aborted: two records and offset 5 must both vanish.
      const second = await producer.transaction();
      await second.send({
        topic: output,
        messages: ['aborted-1', 'aborted-2'].map((value) => ({ key: 'k', value })),
      });
      await second.sendOffsets(offsets('5'));
      await second.abort();

      // 3. Committed sentinel: it lies after the aborted records in the log, so reading it proves the
      //    read_committed consumer went past them.
      const third = await producer.transaction();
      await third.send({ topic: output, messages: [{ key: 'k', value: 'committed-4' }] });
      await third.commit();
    } finally {
      await producer.disconnect();
    }

    const committed = await consumeMessages(kafka, { topic: output, count: 4 });
    expect(committed.map((m) => m.value?.toString())).toEqual([
      'committed-1',
      'committed-2',
      'committed-3',
      'committed-4',
    ]);

    // The aborted records are in the log: a read_uncommitted consumer sees them.
    const everything = await consumeMessages(kafka, { topic: output, count: 6, readUncommitted: true });
    expect(everything.map((m) => m.value?.toString())).toEqual([
      'committed-1',
      'committed-2',
      'committed-3',
      'aborted-1',
      'aborted-2',
      'committed-4',
    ]);

    // The committed transaction moved the group's offset; the aborted one did not.
    expect(await committedOffset()).toBe('3');
  });
});
