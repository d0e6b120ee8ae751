import { describe, expect, it } from 'vitest';
import { randomClusterId } from '../../../scripts/stack.js';

describe('randomClusterId', () => {
  it('is 22 base64url characters and never starts with "-" (StorageTool would read it as an option)', () => {
    for (let i = 0; i < 5000; i++) {
      const id = randomClusterId();
      expect(id).toMatch(/^[A-Za-z0-9_][A-Za-z0-9_-]{21}$/);
    }
  });
});
