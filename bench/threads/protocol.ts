/** Messages between bench/threads/offload.ts and its worker thread (measurement prototype). */
export interface Job {
  readonly id: number;
  /** The chunk's values, end to end; value i ends at ends[i] (an empty value is a null one). */
  readonly values: ArrayBuffer;
  readonly ends: Int32Array;
  readonly offsets: string[];
  /** Each message's headers as text. */
  readonly headers: Record<string, string>[];
  readonly topic: string;
  readonly partition: number;
  readonly outputSchemaId: number;
  readonly defaultTenant: string;
  readonly logoBaseUrl: string;
  readonly now: number;
}

export type Done =
  | {
      readonly id: number;
      readonly ok: true;
      /** The buffers the values were encoded into, transferred; value i is slabs[where[3i]] from where[3i+1], where[3i+2] bytes. */
      readonly slabs: ArrayBuffer[];
      readonly where: Int32Array;
      readonly keys: string[];
      readonly headers: Record<string, string>[];
      /** Dead letters: the offset of the original message and the headers to give it. */
      readonly deadLetters: { offset: string; headers: Record<string, string> }[];
      readonly deadLetterCodes: string[];
    }
  | { readonly id: number; readonly ok: false; readonly error: string };
