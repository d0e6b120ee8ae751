/**
 * Decoding a feedback record's value: Confluent-framed Avro (through the registry) or a JSON object
 * in strict UTF-8 — invalid bytes are the record's fault (INVALID_ENCODING), never replaced by
 * U+FFFD (which would change an id). A data problem comes back as a value; an unreachable registry
 * throws (InfrastructureError: retried by the caller).
 */
import { dataError, type DataError } from '../errors/catalog.js';
import { AVRO_MAGIC_BYTE } from '../schema-registry/codec.js';
import { strictUtf8 } from '../contract/utf8.js';

export type Decoded =
  { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly error: DataError };

/** What decoding needs from the registry codec (RegistryCodec; a fake in unit tests). */
export interface AvroDecoder {
  decode(value: Buffer): Promise<Decoded>;
}

export async function decodeCorrection(value: Buffer | null, codec: AvroDecoder): Promise<Decoded> {
  if (value === null || value.length === 0) {
    return { ok: false, error: dataError('EMPTY_VALUE', '', 'the message has no value') };
  }
  if (value[0] === AVRO_MAGIC_BYTE) return codec.decode(value);
  // trimStart also drops a byte-order mark, which the strict decoder keeps.
  const text = strictUtf8(value)?.trimStart();
  if (text === undefined) {
    return { ok: false, error: dataError('INVALID_ENCODING', '', 'the value is not valid UTF-8') };
  }
  if (!text.startsWith('{')) {
    return {
      ok: false,
      error: dataError('NOT_JSON', '', 'value is neither Confluent-framed Avro (0x00) nor a JSON object'),
    };
  }
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (error) {
    return { ok: false, error: dataError('NOT_JSON', '', `invalid JSON: ${(error as Error).message}`) };
  }
}
