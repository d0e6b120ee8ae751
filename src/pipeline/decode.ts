/**
 * Decode and validate one Kafka message into transaction items: Confluent-framed Avro (first byte
 * 0) or JSON (first byte `{`); a JSON object carrying a `transactions` array is the spec's request
 * envelope and yields one item per element. Every failure is a value naming the field.
 */
import { validateTransaction, type Transaction } from '../contract/transaction.js';
import { dataError, type DataError } from '../errors/catalog.js';
import { AVRO_MAGIC_BYTE, type RegistryCodec } from './schema-registry.js';

export type DecodedItem =
  | { readonly ok: true; readonly index: number; readonly transaction: Transaction }
  | { readonly ok: false; readonly index: number; readonly error: DataError };

const OPEN_BRACE = 0x7b;
const JSON_WHITESPACE = new Set([0x20, 0x09, 0x0a, 0x0d]);

export interface DecodedMessage {
  /** True when the value was a `{"transactions": [...]}` envelope. */
  readonly envelope: boolean;
  /** One entry per transaction (index = position in the envelope, else 0), or one failed entry. */
  readonly items: DecodedItem[];
}

/**
 * Decodes one message without waiting: undefined when the value's Avro schema must first be fetched
 * (`codec.load(value)`, then call again), so a batch costs no promise per record.
 */
export function decodeMessageCached(value: Buffer | null, codec: RegistryCodec): DecodedMessage | undefined {
  const decoded = decodeValue(value, codec);
  return decoded === undefined || !Array.isArray(decoded) ? decoded : { envelope: false, items: decoded };
}

function decodeValue(value: Buffer | null, codec: RegistryCodec): DecodedItem[] | DecodedMessage | undefined {
  if (value === null || value.length === 0) {
    return [{ ok: false, index: 0, error: dataError('EMPTY_VALUE', '', 'the message has no value') }];
  }
  let first = 0;
  while (first < value.length && JSON_WHITESPACE.has(value[first] as number)) first++;
  const lead = value[first];
  if (first === 0 && lead === AVRO_MAGIC_BYTE) {
    const decoded = codec.decodeCached(value);
    if (decoded === undefined) return undefined;
    if (!decoded.ok) return [{ ok: false, index: 0, error: decoded.error }];
    return [validated(decoded.value, 0, '')];
  }
  if (lead !== OPEN_BRACE) {
    const shown = lead === undefined ? 'nothing' : `0x${lead.toString(16).padStart(2, '0')}`;
    return [
      {
        ok: false,
        index: 0,
        error: dataError(
          lead !== undefined && isPrintable(lead) ? 'NOT_JSON' : 'BAD_MAGIC_BYTE',
          '',
          `value starts with ${shown}: expected 0x00 (Confluent Avro) or "{" (JSON)`,
        ),
      },
    ];
  }
  let json: unknown;
  try {
    json = JSON.parse(value.toString('utf8'));
  } catch (error) {
    return [
      { ok: false, index: 0, error: dataError('NOT_JSON', '', `invalid JSON: ${(error as Error).message}`) },
    ];
  }
  const envelope = (json as { transactions?: unknown }).transactions;
  if (envelope === undefined) return [validated(json, 0, '')];
  if (!Array.isArray(envelope)) {
    return {
      envelope: true,
      items: [{ ok: false, index: 0, error: dataError('INVALID_FIELD', 'transactions', 'must be an array') }],
    };
  }
  if (envelope.length === 0) {
    return {
      envelope: true,
      items: [
        {
          ok: false,
          index: 0,
          error: dataError('EMPTY_ENVELOPE', 'transactions', 'must hold at least one transaction'),
        },
      ],
    };
  }
  return {
    envelope: true,
    items: envelope.map((item, index) => validated(item, index, `transactions[${index}].`)),
  };
}

function validated(value: unknown, index: number, prefix: string): DecodedItem {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return {
      ok: false,
      index,
      error: dataError('INVALID_FIELD', prefix.replace(/\.$/, ''), 'must be an object'),
    };
  }
  const result = validateTransaction(value);
  if (result.ok) return { ok: true, index, transaction: result.value };
  const [first] = result.errors;
  const more =
    result.errors.length > 1
      ? ` (and ${result.errors.length - 1} more: ${result.errors
          .slice(1)
          .map((e) => e.field)
          .join(', ')})`
      : '';
  return {
    ok: false,
    index,
    error: dataError(
      'INVALID_FIELD',
      `${prefix}${first?.field ?? ''}`,
      `${first?.message ?? 'invalid'}${more}`,
    ),
  };
}

function isPrintable(byte: number): boolean {
  return byte >= 0x20 && byte < 0x7f;
}
