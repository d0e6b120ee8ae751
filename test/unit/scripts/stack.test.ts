import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { freePort, randomClusterId } from '../../../scripts/stack.js';

describe('randomClusterId', () => {
  it('is 22 base64url characters and never starts with "-" (StorageTool would read it as an option)', () => {
    for (let i = 0; i < 5000; i++) {
      const id = randomClusterId();
      expect(id).toMatch(/^[A-Za-z0-9_][A-Za-z0-9_-]{21}$/);
    }
  });
});

describe('freePort', () => {
  /** Where the kernel's ephemeral ports (outgoing connections' source ports) begin. */
  const ephemeralStart = (): number => {
    try {
      return Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]);
    } catch {
      return 32768;
    }
  };

  it('hands out distinct ports below the ephemeral range, where no outgoing connection can take them', async () => {
    const ports = await Promise.all(Array.from({ length: 20 }, () => freePort('127.0.0.1')));
    expect(new Set(ports).size).toBe(20);
    for (const port of ports) {
      expect(port).toBeGreaterThanOrEqual(1024);
      expect(port).toBeLessThan(ephemeralStart());
    }
  });

  it('hands out a port a server can bind at once', async () => {
    const port = await freePort('127.0.0.1');
    const server = createServer();
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => resolve());
    });
    await new Promise((r) => server.close(r));
  });
});
