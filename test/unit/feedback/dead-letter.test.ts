import { describe, expect, it } from 'vitest';
import { DEAD_LETTER_MAX_BYTES, feedbackDeadLetter } from '../../../src/feedback/dead-letter.js';
import { isDeadLetterCode } from '../../../src/feedback/outcome.js';
import { source } from '../../fakes/feedback-fixtures.js';

const reason = { code: 'NOT_JSON' as const, field: '', message: 'invalid JSON' };

describe('feedbackDeadLetter', () => {
  it('keeps the original key, value and headers and adds the reason and where the record was', () => {
    const letter = feedbackDeadLetter(source(9, { headers: { 'tenant-id': 'bank-a' } }), reason, 'c-1');
    expect(letter).toMatchObject({
      kind: 'dead-letter',
      key: Buffer.from('k'),
      value: Buffer.from('{}'),
      correctionId: 'c-1',
    });
    expect(letter.headers).toEqual({
      'tenant-id': 'bank-a',
      'x-dlq-error-code': 'NOT_JSON',
      'x-dlq-error-field': '',
      'x-dlq-error-message': 'invalid JSON',
      'x-source-topic': 'feedback',
      'x-source-partition': '0',
      'x-source-offset': '9',
    });
  });

  it('cuts a 1 MB value to the limit and says how large it was (H4)', () => {
    const letter = feedbackDeadLetter(source(1, { value: Buffer.alloc(1_000_000, 0x61) }), reason, 'c-1');
    expect((letter.value as Buffer).length).toBe(DEAD_LETTER_MAX_BYTES);
    expect(letter.headers['x-dlq-value-truncated']).toBe('1000000');
  });

  it('bounds the reason, which may quote the input', () => {
    const letter = feedbackDeadLetter(source(1), { ...reason, message: 'x'.repeat(50_000) }, 'c-1');
    expect(String(letter.headers['x-dlq-error-message'])).toHaveLength(1_000);
  });

  it('takes data codes and PROCESSING_FAILED, nothing else', () => {
    expect(isDeadLetterCode('INVALID_CORRECTION')).toBe(true);
    expect(isDeadLetterCode('PROCESSING_FAILED')).toBe(true);
    expect(isDeadLetterCode('KAFKA_UNAVAILABLE')).toBe(false);
  });
});
