/**
 * Kafka header names we write, in one place (documented in docs/pipeline.md).
 */
import type { IHeaders } from 'kafkajs';
import type { Enrichment } from '../engine/types.js';
import type { DataError } from '../errors/catalog.js';

export const HEADER = {
  /** Input: the record's tenant; copied to the output. */
  tenant: 'tenant-id',
  /**
   * On enriched records: how the engine decided, as one JSON object (see EnrichHeader). One header
   * rather than seven: kafkajs encodes every header of every record, and at stream rates seven
   * small headers cost more than the enrichment itself.
   */
  enrich: 'x-enrich',
  /** On enriched records: where the input was, as JSON (see SourceHeader). */
  source: 'x-source',
  // On dead letters, where the reason is the point and volume is low: one header per fact.
  sourceTopic: 'x-source-topic',
  sourcePartition: 'x-source-partition',
  sourceOffset: 'x-source-offset',
  /** Position of the item in a `transactions` envelope. */
  sourceItem: 'x-source-item',
  errorCode: 'x-dlq-error-code',
  errorField: 'x-dlq-error-field',
  errorMessage: 'x-dlq-error-message',
} as const;

export interface EnrichHeader {
  /** Engine confidence in [0, 1]. */
  readonly confidence: number;
  /** Which rule and alias decided the brand, the category and the recurring flag. */
  readonly brand: string;
  readonly category: string;
  readonly recurring: string;
  /** Processor, wallet or marketplace that prefixed the merchant (`square`, `paypal`), or null. */
  readonly intermediary: string | null;
  readonly catalog: string;
  readonly engine: string;
}

export interface SourceHeader {
  readonly topic: string;
  readonly partition: number;
  readonly offset: string;
  /** Position in a `transactions` envelope; absent for single records. */
  readonly item?: number;
}

/**
 * The x-enrich header of an enrichment: the JSON text of an EnrichHeader. Written by hand, key by key
 * in EnrichHeader's order (identical to `JSON.stringify` of one, which a unit test checks), because
 * it is made for every record of the stream.
 */
export function enrichHeader(e: Enrichment): string {
  return (
    '{"confidence":' +
    JSON.stringify(e.confidence) +
    ',"brand":' +
    JSON.stringify(e.reasons.brand) +
    ',"category":' +
    JSON.stringify(e.reasons.category) +
    ',"recurring":' +
    JSON.stringify(e.reasons.recurring) +
    ',"intermediary":' +
    JSON.stringify(e.intermediary?.id ?? null) +
    versions(e.catalog_version, e.engine_version)
  );
}

let lastVersions: { catalog: string; engine: string; text: string } | null = null;

/** `,"catalog":…,"engine":…}`: the same for every record of a snapshot, so made once per snapshot. */
function versions(catalog: string, engine: string): string {
  if (lastVersions === null || lastVersions.catalog !== catalog || lastVersions.engine !== engine) {
    const text = `,"catalog":${JSON.stringify(catalog)},"engine":${JSON.stringify(engine)}}`;
    lastVersions = { catalog, engine, text };
  }
  return lastVersions.text;
}

/**
 * The x-source header texts of one input partition: the JSON of a SourceHeader, with the topic and
 * partition part made once (a unit test holds it equal to `JSON.stringify`).
 */
export function sourceHeaderOf(
  topic: string,
  partition: number,
): (offset: string, item: number | null) => string {
  const head = `{"topic":${JSON.stringify(topic)},"partition":${JSON.stringify(partition)},"offset":`;
  return (offset, item) =>
    item === null
      ? head + JSON.stringify(offset) + '}'
      : head + JSON.stringify(offset) + ',"item":' + JSON.stringify(item) + '}';
}

/**
 * A dead letter's headers: the original ones untouched, plus the reason and where the record was
 * (`item` for a record of a `transactions` envelope). Used for raw transactions and corrections alike.
 */
export function deadLetterHeaders(
  original: IHeaders | undefined,
  error: Pick<DataError, 'field' | 'message'> & { readonly code: string },
  source: {
    readonly topic: string;
    readonly partition: number;
    readonly offset: string;
    readonly item?: number | null;
  },
): IHeaders {
  const headers: IHeaders = {
    ...(original ?? {}),
    [HEADER.errorCode]: error.code,
    [HEADER.errorField]: error.field,
    [HEADER.errorMessage]: error.message,
    [HEADER.sourceTopic]: source.topic,
    [HEADER.sourcePartition]: String(source.partition),
    [HEADER.sourceOffset]: source.offset,
  };
  if (source.item !== undefined && source.item !== null) headers[HEADER.sourceItem] = String(source.item);
  return headers;
}

/** Parses a JSON header written by enrichHeader or sourceHeaderOf; undefined when absent. */
export function jsonHeader<T>(headers: IHeaders | undefined, name: string): T | undefined {
  const text = headerText(headers, name);
  return text === undefined ? undefined : (JSON.parse(text) as T);
}

/** Reads a header as text (kafkajs gives Buffers, strings, arrays or undefined). */
export function headerText(headers: IHeaders | undefined, name: string): string | undefined {
  const value = headers?.[name];
  const one = Array.isArray(value) ? value[0] : value;
  if (one === undefined) return undefined;
  return Buffer.isBuffer(one) ? one.toString('utf8') : String(one);
}
