/**
 * Strict UTF-8: bytes that are not UTF-8 are the sender's fault and are refused (INVALID_ENCODING),
 * never decoded with U+FFFD in their place — that would silently change an id. Shared by every door
 * that reads text from bytes (the worker's JSON records, the HTTP API's bodies).
 */
// A byte-order mark is kept (and then fails JSON parsing), as at every door: JSON text has none.
const STRICT = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

export type Utf8Result =
  { readonly ok: true; readonly text: string } | { readonly ok: false; readonly validBytes: number };

/**
 * Decodes `bytes` as UTF-8, or says how many leading bytes are valid (where the first invalid
 * sequence starts).
 */
export function decodeUtf8(bytes: Uint8Array): Utf8Result {
  const text = strictUtf8(bytes);
  return text === undefined ? { ok: false, validBytes: brokenSequenceAt(bytes) } : { ok: true, text };
}

/** `bytes` as text, or undefined when they are not UTF-8 (the fast path: no position asked). */
export function strictUtf8(bytes: Uint8Array): string | undefined {
  try {
    return STRICT.decode(bytes);
  } catch {
    return undefined;
  }
}

/**
 * The length of the longest prefix that decodes as a stream — a prefix cut inside a sequence is
 * incomplete, not invalid, so it may end with the broken sequence's first bytes — found by
 * bisection, so a megabyte costs a few dozen decodes, not one per byte.
 */
export function validUtf8Prefix(bytes: Uint8Array): number {
  let valid = 0;
  let invalid = bytes.length;
  while (invalid - valid > 1) {
    const middle = (valid + invalid) >>> 1;
    try {
      new TextDecoder('utf-8', { fatal: true }).decode(bytes.subarray(0, middle), { stream: true });
      valid = middle;
    } catch {
      invalid = middle;
    }
  }
  return valid;
}

/**
 * Where the broken sequence starts: the longest valid prefix may end inside it (a lead byte alone
 * is merely incomplete), so back up over such bytes, at most three.
 */
function brokenSequenceAt(bytes: Uint8Array): number {
  let at = validUtf8Prefix(bytes);
  for (let back = 0; back < 3 && at > 0 && !decodesWhole(bytes.subarray(0, at)); back++) at--;
  return at;
}

function decodesWhole(bytes: Uint8Array): boolean {
  return strictUtf8(bytes) !== undefined;
}
