/**
 * Kafka messages as the consumer hands them to the worker, and the transactions they carry.
 */
import type { IHeaders, KafkaMessage } from 'kafkajs';

let nextOffset = 0;

export function kafkaMessage(
  value: Buffer | string | null,
  options: { headers?: IHeaders; offset?: number; key?: string } = {},
): KafkaMessage {
  const offset = options.offset ?? nextOffset++;
  return {
    key: options.key === undefined ? null : Buffer.from(options.key),
    value: typeof value === 'string' ? Buffer.from(value) : value,
    timestamp: '1700000000000',
    attributes: 0,
    offset: String(offset),
    headers: options.headers ?? {},
  } as KafkaMessage;
}

/** A valid raw transaction (JSON object), with any field overridden. */
export function rawTransaction(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    raw_description: 'CARREFOUR CITY CENTRE DUBAI',
    amount: 120.5,
    transaction_id: `t-${Math.random().toString(36).slice(2)}`,
    customer_id: 'c-1',
    account_id: 'a-1',
    card_id: '',
    merchant_name: '',
    merchant_id: '',
    mcc: '5411',
    direction: 'DEBIT',
    is_transfer: false,
    iso_currency_cd: 'AED',
    occurred_at: '2024-03-12T10:00:00Z',
    location: { iso_country_cd: 'AE' },
    ...overrides,
  };
}

/** Consecutive messages (offsets from `first`), one JSON transaction each. */
export function jsonMessages(transactions: readonly Record<string, unknown>[], first = 0): KafkaMessage[] {
  return transactions.map((t, i) =>
    kafkaMessage(JSON.stringify(t), { offset: first + i, key: String(t.customer_id) }),
  );
}
