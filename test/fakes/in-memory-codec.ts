/**
 * A schema registry codec without a registry: schemas registered in memory under ids, values in the
 * Confluent wire format (magic byte, 4-byte id, Avro body). Decoding goes through the same bounds
 * walk as RegistryCodec, so the steps see the same data errors.
 */
import avro from 'avsc';
import { dataError } from '../../src/errors/catalog.js';
import {
  AvroBoundsError,
  checkAvroBounds,
  type AvroTypeLike,
} from '../../src/schema-registry/avro-bounds.js';
import {
  framedEncoder,
  readSchema,
  type AvroCodec,
  type DecodeResult,
  type SchemaName,
} from '../../src/schema-registry/codec.js';

export class InMemoryCodec implements AvroCodec {
  private readonly types = new Map<number, avro.Type>();
  /** Ids `load` was asked for (a fetch, in the real codec). */
  readonly loads: number[] = [];

  register(id: number, schema: SchemaName | object): this {
    const json = typeof schema === 'string' ? (JSON.parse(readSchema(schema)) as object) : schema;
    this.types.set(id, avro.Type.forSchema(json as avro.Schema));
    return this;
  }

  /** A framed value, as a producer using this registry writes it. */
  frame(id: number, record: unknown): Buffer {
    const type = this.types.get(id);
    if (!type) throw new Error(`schema ${id} is not registered`);
    const body = type.toBuffer(record);
    const header = Buffer.alloc(5);
    header.writeInt32BE(id, 1);
    return Buffer.concat([header, body]);
  }

  decode(value: Buffer): unknown {
    const type = this.types.get(value.readInt32BE(1));
    if (!type) throw new Error('unknown schema');
    return type.fromBuffer(value.subarray(5));
  }

  decodeCached(value: Buffer): DecodeResult | undefined {
    if (value.length < 5) return { ok: false, error: dataError('AVRO_DECODE_FAILED', '', 'short') };
    const id = value.readInt32BE(1);
    const type = this.types.get(id);
    if (!type)
      return { ok: false, error: dataError('UNKNOWN_SCHEMA', '', `schema id ${id} is not in the registry`) };
    try {
      checkAvroBounds(type as unknown as AvroTypeLike, value.subarray(5));
      return { ok: true, value: type.fromBuffer(value.subarray(5)) as unknown };
    } catch (error) {
      const field = error instanceof AvroBoundsError ? error.path : '';
      return { ok: false, error: dataError('AVRO_DECODE_FAILED', field, (error as Error).message) };
    }
  }

  async load(value: Buffer): Promise<void> {
    this.loads.push(value.readInt32BE(1));
  }

  async prepare(schemaId: number): Promise<void> {
    if (!this.types.has(schemaId)) throw new Error(`schema ${schemaId} is not registered`);
  }

  batchEncoder(schemaId: number): (record: unknown) => Buffer {
    const type = this.types.get(schemaId);
    if (!type) throw new Error(`schema ${schemaId} is not registered`);
    return framedEncoder(type as unknown as Parameters<typeof framedEncoder>[0], schemaId);
  }
}
