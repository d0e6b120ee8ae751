/**
 * The schema registry adapter: decodes Confluent-framed Avro values (schemas resolved by id and
 * cached), registers our output schemas under `<topic>-value` with BACKWARD compatibility, and
 * encodes enriched records. It tells "this schema id does not exist" (a data error) apart from
 * "the registry is unreachable" (an infrastructure error, retried).
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { COMPATIBILITY, SchemaRegistry, SchemaType } from '@kafkajs/confluent-schema-registry';
import type { Schema } from '@kafkajs/confluent-schema-registry/dist/@types.js';
import { InfrastructureError, dataError, type DataError } from '../errors/catalog.js';
import { withDeadline } from '../errors/deadline.js';
import { AvroBoundsError, checkAvroBounds, hasCollections, type AvroTypeLike } from './avro-bounds.js';
import { compileFlatRecordWriter, type AvroType } from './avro-writer.js';

const SCHEMA_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'schemas');

export type SchemaName = 'raw-transaction' | 'enriched-transaction' | 'feedback-correction';

export function readSchema(name: SchemaName): string {
  return readFileSync(join(SCHEMA_DIR, `${name}.avsc`), 'utf8');
}

/** The wire format: magic byte 0, 4-byte big-endian schema id, Avro body. */
export const AVRO_MAGIC_BYTE = 0;
const HEADER_BYTES = 5;

/** Size of the shared buffers of `batchEncoder` (a few hundred records each). */
const SLAB_BYTES = 128 * 1024;

/** A frozen or overloaded registry must not stall a batch: give up on a call after this long. */
const REQUEST_TIMEOUT_MS = 5_000;

export type DecodeResult = { ok: true; value: unknown } | { ok: false; error: DataError };

/** What the worker's steps need of a codec (RegistryCodec, or an in-memory one in unit tests). */
export interface AvroCodec {
  /** A framed value decoded with a schema already fetched; undefined when it must be `load`ed first. */
  decodeCached(value: Buffer): DecodeResult | undefined;
  /** Fetches the schema of a framed value (an unknown id becomes a data error for its records). */
  load(value: Buffer): Promise<void>;
  /** Makes sure a schema id is fetched, for `batchEncoder`. */
  prepare(schemaId: number): Promise<void>;
  /** An encoder of many records with one prepared schema id, into shared buffers. */
  batchEncoder(schemaId: number): (record: unknown) => Buffer;
}

export class RegistryCodec implements AvroCodec {
  private readonly registry: SchemaRegistry;
  /** Subject → schema id, registered once per process. */
  private readonly registered = new Map<string, number>();
  /** Schema ids we were told do not exist: never asked for again. */
  private readonly unknown = new Set<number>();
  /**
   * Parsed schemas by id. Schema ids are immutable in a Confluent-compatible registry, so once
   * fetched a schema is used without asking again (and without a timer per record).
   */
  private readonly schemas = new Map<number, Schema>();
  /** Writers of prepared schemas, by id: our flat-record writer where it applies, else avsc's type. */
  private readonly writers = new Map<number, AvroType>();
  /** Schema ids whose bodies can announce array or map items: walked before decoding (avro-bounds.ts). */
  private readonly withCollections = new Set<number>();

  constructor(readonly url: string) {
    // The client's own retries would hide an outage behind long waits; our caller retries instead.
    this.registry = new SchemaRegistry({ host: url, retry: { retries: 0 } });
  }

  /** Registers `name` under `<topic>-value` (BACKWARD) and remembers its id. */
  async register(topic: string, name: SchemaName): Promise<number> {
    const subject = `${topic}-value`;
    const known = this.registered.get(subject);
    if (known !== undefined) return known;
    try {
      const { id } = await withTimeout(
        this.registry.register(
          { type: SchemaType.AVRO, schema: readSchema(name) },
          { subject, compatibility: COMPATIBILITY.BACKWARD },
        ),
        `registering ${subject}`,
      );
      this.registered.set(subject, id);
      return id;
    } catch (error) {
      throw classify(error, `registering ${subject}`);
    }
  }

  /**
   * Decodes one framed value. A data problem (unknown schema id, corrupt or truncated body) comes
   * back as a DataError; an unreachable registry throws InfrastructureError.
   */
  async decode(value: Buffer): Promise<DecodeResult> {
    const decoded = this.decodeCached(value);
    if (decoded !== undefined) return decoded;
    await this.load(value);
    return this.decodeCached(value) as DecodeResult;
  }

  /**
   * `decode` without waiting: the result, or undefined when the value's schema must first be fetched
   * (`load`). The pipeline decodes a whole batch this way, with no promise per record.
   */
  decodeCached(value: Buffer): DecodeResult | undefined {
    if (value.length < HEADER_BYTES) {
      return {
        ok: false,
        error: dataError(
          'AVRO_DECODE_FAILED',
          '',
          `value has ${value.length} bytes, shorter than the 5-byte Avro header`,
        ),
      };
    }
    const id = value.readInt32BE(1);
    const schema = this.schemas.get(id);
    if (!schema) return this.unknown.has(id) ? { ok: false, error: unknownSchema(id) } : undefined;
    const body = value.subarray(HEADER_BYTES);
    try {
      if (this.withCollections.has(id)) checkAvroBounds(schema as unknown as AvroTypeLike, body);
      return { ok: true, value: schema.fromBuffer(body) as unknown };
    } catch (error) {
      if (error instanceof AvroBoundsError) {
        return {
          ok: false,
          error: dataError('AVRO_DECODE_FAILED', error.path, `Avro body of schema ${id}: ${error.message}`),
        };
      }
      return {
        ok: false,
        error: dataError(
          'AVRO_DECODE_FAILED',
          '',
          `Avro body does not decode with schema ${id}: ${messageOf(error)}`,
        ),
      };
    }
  }

  /**
   * Fetches the schema of a framed value (at least 5 bytes) so that `decodeCached` can decode it: a
   * 404 marks the id unknown (a data error for its records), any other failure throws
   * InfrastructureError.
   */
  async load(value: Buffer): Promise<void> {
    const id = value.readInt32BE(1);
    if (this.schemas.has(id) || this.unknown.has(id)) return;
    try {
      await this.fetch(id);
    } catch (error) {
      if (statusOf(error) === 404) {
        this.unknown.add(id);
        return;
      }
      throw classify(error, `fetching schema ${id}`);
    }
  }

  /** Makes sure a schema id is parsed and cached, so encodeCached can use it. */
  async prepare(schemaId: number): Promise<void> {
    if (this.schemas.has(schemaId)) return;
    try {
      await this.fetch(schemaId);
    } catch (error) {
      throw classify(error, `fetching schema ${schemaId}`);
    }
  }

  /**
   * Encodes a record with a schema already prepared (no network, no await): magic byte, schema id,
   * Avro body. A record that does not fit the schema is a bug in our code and throws.
   */
  encodeCached(schemaId: number, record: unknown): Buffer {
    const schema = this.schemas.get(schemaId);
    if (!schema) throw new Error(`schema ${schemaId} is not prepared`);
    const body = schema.toBuffer(record as object);
    const framed = Buffer.allocUnsafe(HEADER_BYTES + body.length);
    framed[0] = AVRO_MAGIC_BYTE;
    framed.writeInt32BE(schemaId, 1);
    body.copy(framed, HEADER_BYTES);
    return framed;
  }

  /**
   * An encoder of many records with one prepared schema (see `prepare`), for a batch whose values
   * all live until the batch is sent: see `framedEncoder`.
   */
  batchEncoder(schemaId: number): (record: unknown) => Buffer {
    let writer = this.writers.get(schemaId);
    if (writer === undefined) {
      const schema = this.schemas.get(schemaId);
      if (!schema) throw new Error(`schema ${schemaId} is not prepared`);
      // Kept per schema id, so the writer's remembered strings outlive a batch.
      writer = compileFlatRecordWriter(avroSchemaOf(schema)) ?? (schema as unknown as AvroType);
      this.writers.set(schemaId, writer);
    }
    return framedEncoder(writer, schemaId);
  }

  /** Encodes a record with a registered schema id (fetches the schema the first time). */
  async encode(schemaId: number, record: unknown): Promise<Buffer> {
    await this.prepare(schemaId);
    return this.encodeCached(schemaId, record);
  }

  private async fetch(id: number): Promise<Schema> {
    const schema = (await withTimeout(this.registry.getSchema(id), `fetching schema ${id}`)) as Schema;
    if (hasCollections(schema as unknown as AvroTypeLike)) this.withCollections.add(id);
    this.schemas.set(id, schema);
    return schema;
  }
}

/**
 * Encodes records in the wire format (magic byte, schema id, Avro body) into shared buffers of
 * SLAB_BYTES: each value is a view of one, instead of two allocations and a copy per record
 * (`toBuffer`, then framing). The bytes are the same as `encodeCached`'s.
 */
export function framedEncoder(type: AvroType, schemaId: number): (record: unknown) => Buffer {
  let buf = Buffer.allocUnsafeSlow(0);
  let pos = 0;
  return function encodeFramed(record) {
    for (let need = SLAB_BYTES; ;) {
      const start = pos;
      if (buf.length - start > HEADER_BYTES) {
        // avsc writes nothing past the buffer's end; a negative result is the number of bytes
        // missing, and the record goes into a new buffer (this one's tail stays unused).
        const end = type.encode(record, buf, start + HEADER_BYTES);
        if (end >= 0) {
          buf[start] = AVRO_MAGIC_BYTE;
          buf.writeInt32BE(schemaId, start + 1);
          pos = end;
          return buf.subarray(start, end);
        }
        need = Math.max(SLAB_BYTES, buf.length - end - start);
      }
      buf = Buffer.allocUnsafeSlow(need);
      pos = 0;
    }
  };
}

/** The JSON schema of a parsed Avro schema (avsc's `schema()`), or null for another kind. */
function avroSchemaOf(schema: Schema): unknown {
  const avsc = schema as unknown as { schema?: () => unknown };
  return typeof avsc.schema === 'function' ? avsc.schema() : null;
}

function withTimeout<T>(promise: Promise<T>, what: string): Promise<T> {
  return withDeadline(promise, REQUEST_TIMEOUT_MS, 'REGISTRY_UNAVAILABLE', what);
}

function unknownSchema(id: number): DataError {
  return dataError('UNKNOWN_SCHEMA', '', `schema id ${id} is not in the registry`);
}

function statusOf(error: unknown): number | undefined {
  const status = (error as { status?: unknown } | null)?.status;
  return typeof status === 'number' ? status : undefined;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function classify(error: unknown, what: string): InfrastructureError {
  return new InfrastructureError('REGISTRY_UNAVAILABLE', `${what}: ${messageOf(error)}`, { cause: error });
}
