/**
 * A writer of flat Avro records (fields of null, boolean, int, long and string, or a union of null
 * with one of them: the shape of our enriched record), for the output of every record of the stream.
 *
 * avsc writes each string character by character in JavaScript; most strings of an enriched record
 * are the same few thousand brand and category names over and over, many of them Arabic. This writer
 * keeps the UTF-8 bytes of a field's strings while the field's values repeat (a field whose values do
 * not, such as the transaction id, stops being kept after a few thousand records) and writes ASCII
 * strings without a native call. The bytes are the same as avsc's (a unit test holds them equal), and
 * a value that does not fit the schema throws, as with avsc. Any other schema shape gets no writer
 * (`compileFlatRecordWriter` returns null) and the caller keeps avsc.
 */

/** What writes a record's Avro body into a buffer (an avsc Type, or a writer compiled here). */
export interface AvroType {
  encode(value: unknown, buf: Buffer, pos: number): number;
}

type Primitive = 'boolean' | 'int' | 'long' | 'string';

interface Field {
  readonly name: string;
  readonly type: Primitive;
  /** A union of null and `type`: null is branch `nullBranch`, the value the other one. */
  readonly nullable: boolean;
  readonly nullBranch: 0 | 1;
  readonly strings: StringBytes | null;
}

/** Where a record that may not fit goes first (grown for larger records). */
let aside = Buffer.allocUnsafe(64 * 1024);
/** Records looked at before deciding whether a string field's values repeat enough to keep. */
const TRIAL_LOOKUPS = 4_096;
/** Kept only when at least this share of the trial lookups found the bytes already kept. */
const MIN_HIT_SHARE = 0.5;
/** Kept strings per field, at most; past it, new strings are written without being kept. */
const MAX_KEPT = 16_384;

/** The UTF-8 bytes of one field's strings, kept while they pay. */
class StringBytes {
  private readonly kept = new Map<string, Buffer>();
  private lookups = 0;
  private hits = 0;
  active = true;

  bytesOf(s: string): Buffer | undefined {
    const bytes = this.kept.get(s);
    if (this.lookups < TRIAL_LOOKUPS) {
      this.lookups++;
      if (bytes !== undefined) this.hits++;
      if (this.lookups === TRIAL_LOOKUPS && this.hits < MIN_HIT_SHARE * TRIAL_LOOKUPS) {
        this.active = false;
        this.kept.clear();
        return undefined;
      }
    }
    if (bytes !== undefined) return bytes;
    if (this.kept.size >= MAX_KEPT) return undefined;
    const fresh = Buffer.from(s, 'utf8');
    this.kept.set(s, fresh);
    return fresh;
  }
}

/**
 * The writer of a record schema (avsc's `schema()` JSON) with only fields this module handles, or
 * null. Its `encode(value, buf, pos)` follows avsc's: the end position, or, when the record does not
 * fit in `buf`, a negative number whose absolute value is the number of bytes missing.
 */
export function compileFlatRecordWriter(schema: unknown): AvroType | null {
  const fields = flatFields(schema);
  if (fields === null) return null;
  return {
    encode(value: unknown, buf: Buffer, pos: number): number {
      const record = value as Record<string, unknown>;
      const end = writeRecord(fields, record, buf, pos);
      if (end >= 0) return end;
      // Rare (the end of a shared buffer): the checks keep a margin, so learn the exact size by
      // writing the record aside, then copy it in if it fits after all.
      let size: number;
      while ((size = writeRecord(fields, record, aside, 0)) < 0) aside = Buffer.allocUnsafe(aside.length * 2);
      if (pos + size > buf.length) return buf.length - (pos + size);
      aside.copy(buf, pos, 0, size);
      return pos + size;
    },
  };
}

function flatFields(schema: unknown): Field[] | null {
  const s = schema as { type?: unknown; fields?: unknown } | null;
  if (s === null || typeof s !== 'object' || s.type !== 'record' || !Array.isArray(s.fields)) return null;
  const fields: Field[] = [];
  for (const f of s.fields as { name?: unknown; type?: unknown }[]) {
    if (typeof f.name !== 'string') return null;
    let nullable = false;
    let nullBranch: 0 | 1 = 0;
    let type = primitiveOf(f.type);
    if (type === null && Array.isArray(f.type) && f.type.length === 2) {
      const [a, b] = f.type as unknown[];
      nullable = true;
      if (a === 'null') type = primitiveOf(b);
      else if (b === 'null') {
        type = primitiveOf(a);
        nullBranch = 1;
      }
    }
    if (type === null) return null;
    fields.push({
      name: f.name,
      type,
      nullable,
      nullBranch,
      strings: type === 'string' ? new StringBytes() : null,
    });
  }
  return fields;
}

/** A primitive we write: a name, or a long with a logical type (avsc writes those as plain longs). */
function primitiveOf(type: unknown): Primitive | null {
  if (type === 'boolean' || type === 'int' || type === 'long' || type === 'string') return type;
  const t = type as { type?: unknown } | null;
  if (t !== null && typeof t === 'object' && !Array.isArray(t)) {
    if (t.type === 'long' && 'logicalType' in t) return 'long';
    if (Object.keys(t).length === 1) return primitiveOf(t.type);
  }
  return null;
}

/**
 * Writes the record from `pos`; the end, or -1 when `buf` may be too short (the checks allow each
 * value a few bytes more than it needs, so a record that fits exactly can come back -1 too).
 */
function writeRecord(
  fields: readonly Field[],
  record: Record<string, unknown>,
  buf: Buffer,
  pos: number,
): number {
  const limit = buf.length;
  for (let i = 0; i < fields.length; i++) {
    const field = fields[i] as Field;
    const v = record[field.name];
    if (field.nullable) {
      if (pos + 1 > limit) return -1;
      // avsc writes undefined in a union with null as null.
      if (v === null || v === undefined) {
        buf[pos++] = field.nullBranch === 0 ? 0 : 2;
        continue;
      }
      buf[pos++] = field.nullBranch === 0 ? 2 : 0;
    }
    switch (field.type) {
      case 'string': {
        if (typeof v !== 'string') return invalid(field, v);
        pos = writeString(field.strings as StringBytes, v, buf, pos, limit);
        if (pos < 0) return -1;
        break;
      }
      case 'int':
        if (typeof v !== 'number' || v !== (v | 0)) return invalid(field, v);
        if (pos + 5 > limit) return -1;
        pos = writeLong(v, buf, pos);
        break;
      case 'long':
        if (typeof v !== 'number' || !isAvscSafeLong(v)) return invalid(field, v);
        if (pos + 10 > limit) return -1;
        pos = writeLong(v, buf, pos);
        break;
      case 'boolean':
        if (typeof v !== 'boolean') return invalid(field, v);
        if (pos + 1 > limit) return -1;
        buf[pos++] = v ? 1 : 0;
        break;
    }
  }
  return pos;
}

function writeString(strings: StringBytes, s: string, buf: Buffer, pos: number, limit: number): number {
  const kept = strings.active ? strings.bytesOf(s) : undefined;
  if (kept !== undefined) {
    const n = kept.length;
    if (pos + 10 + n > limit) return -1;
    pos = writeLong(n, buf, pos);
    if (n < 48) for (let i = 0; i < n; i++) buf[pos + i] = kept[i] as number;
    else buf.set(kept, pos);
    return pos + n;
  }
  // Most strings that are not kept (ids, references) are ASCII: one pass, no native call.
  const n = s.length;
  if (pos + 10 + n > limit) return -1;
  const start = writeLong(n, buf, pos);
  for (let i = 0; i < n; i++) {
    const c = s.charCodeAt(i);
    if (c > 0x7f) {
      const bytes = Buffer.byteLength(s, 'utf8');
      if (pos + 10 + bytes > limit) return -1;
      const at = writeLong(bytes, buf, pos);
      buf.write(s, at, bytes, 'utf8');
      return at + bytes;
    }
    buf[start + i] = c;
  }
  return start + n;
}

/** avsc's range for a long held in a JavaScript number (a little inside ±2^53). */
function isAvscSafeLong(n: number): boolean {
  return Number.isInteger(n) && n >= -9007199254740990 && n <= 9007199254740990;
}

/** Zig-zag varint, as Avro writes int and long (exact up to 2^53). */
function writeLong(n: number, buf: Buffer, pos: number): number {
  if (n >= -1073741824 && n < 1073741824) {
    let m = n >= 0 ? n << 1 : (~n << 1) | 1;
    while (m > 0x7f) {
      buf[pos++] = (m & 0x7f) | 0x80;
      m >>>= 7;
    }
    buf[pos++] = m;
    return pos;
  }
  let f = n >= 0 ? n * 2 : -n * 2 - 1;
  while (f >= 0x80) {
    buf[pos++] = (f % 0x80) | 0x80;
    f = Math.floor(f / 0x80);
  }
  buf[pos++] = f;
  return pos;
}

function invalid(field: Field, value: unknown): never {
  throw new Error(
    `invalid ${field.type} value for field ${field.name}: ${JSON.stringify(value) ?? String(value)}`,
  );
}
