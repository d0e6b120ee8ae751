/**
 * Steps 1 and 2 of a record's way, decode and validate: one Kafka message into transaction items.
 * Confluent-framed Avro (first byte 0) or JSON (first byte `{`, strict UTF-8); a JSON object carrying
 * a `transactions` array is the spec's request envelope and yields one item per element. The tenant
 * comes from the `tenant-id` header. Every failure is a value naming the field, never an exception.
 */
import type { KafkaMessage } from 'kafkajs';
import { isTenantId, TENANT_ID_RULE } from '../contract/tenant.js';
import { validateTransaction } from '../contract/transaction.js';
import { strictUtf8, validUtf8Prefix } from '../contract/utf8.js';
import type { EngineTransaction } from '../engine/types.js';
import { dataError, type DataError } from '../errors/catalog.js';
import { HEADER, headerText } from '../kafka/headers.js';
import { AVRO_MAGIC_BYTE, type AvroCodec } from '../schema-registry/codec.js';

export type DecodedItem =
  | { readonly ok: true; readonly index: number; readonly transaction: EngineTransaction }
  | { readonly ok: false; readonly index: number; readonly error: DataError };

export interface DecodedMessage {
  /** True when the value was a `{"transactions": [...]}` envelope. */
  readonly envelope: boolean;
  /** One entry per transaction (index = position in the envelope, else 0), or one failed entry. */
  readonly items: DecodedItem[];
}

const OPEN_BRACE = 0x7b;
const JSON_WHITESPACE = new Set([0x20, 0x09, 0x0a, 0x0d]);

/**
 * Decodes one message without waiting: undefined when its Avro schema must first be fetched
 * (`codec.load(value)`, then call again), so a micro-batch costs no promise per record.
 */
export function decodeMessage(
  message: Pick<KafkaMessage, 'value' | 'headers'>,
  codec: AvroCodec,
  defaultTenant: string,
): DecodedMessage | undefined {
  const tenant = tenantOf(message, defaultTenant);
  if (typeof tenant !== 'string') return single(tenant);
  const decoded = decodeValue(message.value, codec);
  if (decoded === undefined) return undefined;
  if ('error' in decoded) return single(decoded.error);
  const { json, envelope } = decoded;
  if (!envelope) return { envelope: false, items: [validated(json, 0, '', tenant)] };
  const list = (json as { transactions: unknown }).transactions;
  if (!Array.isArray(list)) {
    return {
      envelope: true,
      items: [failed(0, dataError('INVALID_FIELD', 'transactions', 'must be an array'))],
    };
  }
  if (list.length === 0) {
    return {
      envelope: true,
      items: [failed(0, dataError('EMPTY_ENVELOPE', 'transactions', 'must hold at least one transaction'))],
    };
  }
  return {
    envelope: true,
    items: list.map((item, index) => validated(item, index, `transactions[${index}].`, tenant)),
  };
}

/** The record's tenant: its `tenant-id` header by the tenant rule, else the default tenant. */
function tenantOf(message: Pick<KafkaMessage, 'headers'>, defaultTenant: string): string | DataError {
  const value = headerText(message.headers, HEADER.tenant);
  if (value === undefined) return defaultTenant;
  if (isTenantId(value)) return value;
  const shown = value.length > 64 ? `${value.slice(0, 64)}…` : value;
  return dataError(
    'INVALID_HEADER',
    `headers.${HEADER.tenant}`,
    `${TENANT_ID_RULE} (got ${JSON.stringify(shown)})`,
  );
}

function decodeValue(
  value: Buffer | null,
  codec: AvroCodec,
): { json: unknown; envelope: boolean } | { error: DataError } | undefined {
  if (value === null || value.length === 0)
    return { error: dataError('EMPTY_VALUE', '', 'the message has no value') };
  let first = 0;
  while (first < value.length && JSON_WHITESPACE.has(value[first] as number)) first++;
  const lead = value[first];
  if (first === 0 && lead === AVRO_MAGIC_BYTE) {
    const decoded = codec.decodeCached(value);
    if (decoded === undefined) return undefined;
    return decoded.ok ? { json: decoded.value, envelope: false } : { error: decoded.error };
  }
  if (lead !== OPEN_BRACE) {
    const shown = lead === undefined ? 'nothing' : `0x${lead.toString(16).padStart(2, '0')}`;
    const code = lead !== undefined && lead >= 0x20 && lead < 0x7f ? 'NOT_JSON' : 'BAD_MAGIC_BYTE';
    return {
      error: dataError(code, '', `value starts with ${shown}: expected 0x00 (Confluent Avro) or "{" (JSON)`),
    };
  }
  // Bytes that are not UTF-8 are refused, never replaced by U+FFFD (which would change an id).
  const text = strictUtf8(value);
  if (text === undefined) {
    return {
      error: dataError('INVALID_ENCODING', '', `the value is not valid UTF-8 (${invalidUtf8At(value)})`),
    };
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    return { error: dataError('NOT_JSON', '', `invalid JSON: ${(error as Error).message}`) };
  }
  return { json, envelope: (json as { transactions?: unknown }).transactions !== undefined };
}

function validated(value: unknown, index: number, prefix: string, tenant: string): DecodedItem {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return failed(index, dataError('INVALID_FIELD', prefix.replace(/\.$/, ''), 'must be an object'));
  }
  const result = validateTransaction(value);
  if (result.ok) {
    // The validated value is a fresh object, ours alone: the tenant goes onto it, no copy.
    const transaction = result.value as EngineTransaction & { tenant?: string };
    transaction.tenant = tenant;
    return { ok: true, index, transaction };
  }
  const [first] = result.errors;
  const more =
    result.errors.length > 1
      ? ` (and ${result.errors.length - 1} more: ${result.errors
          .slice(1)
          .map((e) => e.field)
          .join(', ')})`
      : '';
  return failed(
    index,
    dataError('INVALID_FIELD', `${prefix}${first?.field ?? ''}`, `${first?.message ?? 'invalid'}${more}`),
  );
}

function failed(index: number, error: DataError): DecodedItem {
  return { ok: false, index, error };
}

function single(error: DataError): DecodedMessage {
  return { envelope: false, items: [failed(0, error)] };
}

/** Where the first invalid UTF-8 sequence starts, for the dead letter's message. */
function invalidUtf8At(value: Buffer): string {
  return `near byte ${validUtf8Prefix(value)}`;
}
