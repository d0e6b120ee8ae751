import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { extensionOf, findLogo } from '../../../src/logos/folder.js';

const dir = mkdtempSync(join(tmpdir(), 'tx-enrich-folder-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('logo folder', () => {
  it('finds <slug>.<ext>, SVG first, with its content type', () => {
    writeFileSync(join(dir, 'noon.png'), 'x');
    expect(findLogo(dir, 'noon')).toEqual({ path: join(dir, 'noon.png'), contentType: 'image/png' });
    writeFileSync(join(dir, 'noon.svg'), 'x');
    expect(findLogo(dir, 'noon')?.contentType).toBe('image/svg+xml');
    expect(findLogo(dir, 'talabat')).toBeNull();
  });

  it('never looks outside the folder', () => {
    expect(findLogo(dir, '../noon')).toBeNull();
    expect(findLogo(dir, 'NOON')).toBeNull();
  });

  it('keeps the extension of image files only', () => {
    expect(extensionOf('Careem logo.SVG')).toBe('svg');
    expect(extensionOf('Talabat.jpeg')).toBe('jpeg');
    expect(extensionOf('Brochure.pdf')).toBeNull();
    expect(extensionOf('no extension')).toBeNull();
  });
});
