/**
 * A bound on what an Avro body may make the decoder build. Avro spells an array or a map as a count
 * followed by its items, and an item of type `null` takes no bytes: five bytes can announce thirty
 * million items, and avsc builds every one (333 MB of heap from a 5-byte body, seen). Before such a
 * body is decoded, this walks it along its schema without building anything and refuses it when its
 * collections announce more items than `maxItems`, a count or length runs past the end, or
 * schemas nest deeper than `maxDepth`. Schemas without arrays or maps cannot do this and are not walked.
 */
export interface AvroBounds {
  /** Items across all arrays and maps of one body. */
  readonly maxItems: number;
  /** Nesting of records, arrays, maps and unions. */
  readonly maxDepth: number;
}

export const DEFAULT_AVRO_BOUNDS: AvroBounds = { maxItems: 10_000, maxDepth: 32 };

/** The parts of an avsc Type the walk reads. */
export interface AvroTypeLike {
  readonly typeName: string;
  readonly fields?: readonly { readonly name: string; readonly type: AvroTypeLike }[];
  readonly itemsType?: AvroTypeLike;
  readonly valuesType?: AvroTypeLike;
  readonly types?: readonly AvroTypeLike[];
  readonly size?: number;
  readonly symbols?: readonly string[];
}

/** Why a body was refused, and where (a dotted path into the record). */
export class AvroBoundsError extends Error {
  constructor(
    readonly path: string,
    message: string,
  ) {
    super(message);
    this.name = 'AvroBoundsError';
  }
}

/** Whether bodies of this schema can announce items (an array or a map anywhere in it). */
export function hasCollections(type: AvroTypeLike, seen = new Set<AvroTypeLike>()): boolean {
  if (seen.has(type)) return false;
  seen.add(type);
  if (type.typeName === 'array' || type.typeName === 'map') return true;
  return [...(type.fields?.map((f) => f.type) ?? []), ...(type.types ?? [])].some((t) =>
    hasCollections(t, seen),
  );
}

/** Walks `body` along `type`; throws AvroBoundsError when it breaks a bound. */
export function checkAvroBounds(
  type: AvroTypeLike,
  body: Buffer,
  bounds: AvroBounds = DEFAULT_AVRO_BOUNDS,
): void {
  new Walk(body, bounds).value(type, '', 0);
}

class Walk {
  private pos = 0;
  private items = 0;

  constructor(
    private readonly buf: Buffer,
    private readonly bounds: AvroBounds,
  ) {}

  value(type: AvroTypeLike, path: string, depth: number): void {
    if (depth > this.bounds.maxDepth) {
      throw new AvroBoundsError(path, `nests deeper than ${this.bounds.maxDepth} levels`);
    }
    switch (type.typeName) {
      case 'null':
        return;
      case 'boolean':
        return this.skip(1, path);
      case 'int':
      case 'long':
        this.long(path);
        return;
      case 'float':
        return this.skip(4, path);
      case 'double':
        return this.skip(8, path);
      case 'bytes':
      case 'string':
        return this.skip(this.length(path), path);
      case 'fixed':
        return this.skip(type.size ?? 0, path);
      case 'enum': {
        const index = this.long(path);
        if (index < 0 || index >= (type.symbols?.length ?? 0))
          throw new AvroBoundsError(path, `enum index ${index} out of range`);
        return;
      }
      case 'record':
      case 'error':
        for (const field of type.fields ?? []) this.value(field.type, join(path, field.name), depth + 1);
        return;
      case 'array':
      case 'map':
        return this.collection(type, path, depth);
      default:
        if (type.typeName.startsWith('union')) {
          const branches = type.types ?? [];
          const index = this.long(path);
          const branch = branches[index];
          if (branch === undefined) throw new AvroBoundsError(path, `union branch ${index} out of range`);
          return this.value(branch, path, depth + 1);
        }
        // A type we do not know (a logical type avsc resolved otherwise): let avsc decide.
        throw new AvroBoundsError(path, `cannot check Avro type ${type.typeName}`);
    }
  }

  private collection(type: AvroTypeLike, path: string, depth: number): void {
    const inner = type.typeName === 'array' ? type.itemsType : type.valuesType;
    if (inner === undefined) throw new AvroBoundsError(path, `${type.typeName} without an item type`);
    for (let block = 0; ; block++) {
      let count = this.long(path);
      if (count === 0) return;
      if (count < 0) {
        // A negative count is followed by the block's size in bytes.
        count = -count;
        this.long(path);
      }
      this.items += count;
      if (this.items > this.bounds.maxItems) {
        throw new AvroBoundsError(path, `announces more than ${this.bounds.maxItems} array or map items`);
      }
      for (let i = 0; i < count; i++) {
        const at = `${path}[${i}]`;
        if (type.typeName === 'map') this.skip(this.length(at), at);
        this.value(inner, at, depth + 1);
      }
    }
  }

  /** A zig-zag varint long; at most 10 bytes, within 2^53. */
  private long(path: string): number {
    let result = 0;
    let shift = 1;
    for (let i = 0; i < 10; i++) {
      if (this.pos >= this.buf.length) throw new AvroBoundsError(path, 'ends inside a number');
      const byte = this.buf[this.pos++] as number;
      result += (byte & 0x7f) * shift;
      if ((byte & 0x80) === 0) {
        if (!Number.isSafeInteger(result)) throw new AvroBoundsError(path, 'number out of range');
        return result % 2 === 0 ? result / 2 : -(result + 1) / 2;
      }
      shift *= 128;
    }
    throw new AvroBoundsError(path, 'number longer than 10 bytes');
  }

  private length(path: string): number {
    const n = this.long(path);
    if (n < 0) throw new AvroBoundsError(path, `negative length ${n}`);
    return n;
  }

  private skip(n: number, path: string): void {
    if (this.pos + n > this.buf.length) {
      throw new AvroBoundsError(path, `needs ${n} bytes, ${this.buf.length - this.pos} left`);
    }
    this.pos += n;
  }
}

function join(path: string, name: string): string {
  return path === '' ? name : `${path}.${name}`;
}
