import { describe, expect, it } from 'vitest';
import { expectedKafkaWarning } from '../../../src/kafka/client.js';

const CONCURRENT =
  'The producer attempted to update a transaction while another concurrent operation on the same transaction was ongoing';

describe('expectedKafkaWarning (kafkajs lines not worth a warning)', () => {
  it('drops the bounded-retries notice of every idempotent producer', () => {
    expect(expectedKafkaWarning('Limiting retries for the idempotent producer to 5', undefined)).toBe(true);
  });

  it('drops CONCURRENT_TRANSACTIONS on AddPartitionsToTxn (a transaction right after a commit)', () => {
    expect(expectedKafkaWarning('Response AddPartitionsToTxn(key: 24, version: 1)', CONCURRENT)).toBe(true);
  });

  it('keeps the same error on other requests, and other errors on AddPartitionsToTxn', () => {
    expect(expectedKafkaWarning('Response EndTxn(key: 26, version: 1)', CONCURRENT)).toBe(false);
    expect(expectedKafkaWarning('Response InitProducerId(key: 22, version: 1)', CONCURRENT)).toBe(false);
    expect(
      expectedKafkaWarning(
        'Response AddPartitionsToTxn(key: 24, version: 1)',
        'Producer attempted an operation with an old epoch',
      ),
    ).toBe(false);
    expect(expectedKafkaWarning('Connection error: connect ECONNREFUSED 127.0.0.1:9092', undefined)).toBe(
      false,
    );
  });
});
