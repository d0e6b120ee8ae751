/**
 * Kafka header names we write, in one place (documented in docs/pipeline.md).
 */
import type { IHeaders } from 'kafkajs';

export const HEADER = {
  /** Input: the record's tenant; copied to the output. */
  tenant: 'tenant-id',
  confidence: 'x-enrich-confidence',
  reasonBrand: 'x-enrich-reason-brand',
  reasonCategory: 'x-enrich-reason-category',
  reasonRecurring: 'x-enrich-reason-recurring',
  intermediary: 'x-enrich-intermediary',
  catalogVersion: 'x-enrich-catalog-version',
  engineVersion: 'x-enrich-engine-version',
  sourceTopic: 'x-source-topic',
  sourcePartition: 'x-source-partition',
  sourceOffset: 'x-source-offset',
  /** Position of the item in a `transactions` envelope. */
  sourceItem: 'x-source-item',
  errorCode: 'x-dlq-error-code',
  errorField: 'x-dlq-error-field',
  errorMessage: 'x-dlq-error-message',
} as const;

/** Reads a header as text (kafkajs gives Buffers, strings, arrays or undefined). */
export function headerText(headers: IHeaders | undefined, name: string): string | undefined {
  const value = headers?.[name];
  const one = Array.isArray(value) ? value[0] : value;
  if (one === undefined) return undefined;
  return Buffer.isBuffer(one) ? one.toString('utf8') : String(one);
}
