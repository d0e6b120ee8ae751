import { describe, expect, it } from 'vitest';
import type { FastifyReply } from 'fastify';
import { addSecurityHeaders, DOCS_CSP } from '../../../src/api/security-headers.js';

/** The two methods addSecurityHeaders uses, over a plain header map. */
function fakeReply(initial: Record<string, string> = {}): {
  reply: FastifyReply;
  headers: Record<string, string>;
} {
  const headers: Record<string, string> = { ...initial };
  const reply = {
    header(name: string, value: string) {
      headers[name] = value;
      return reply;
    },
    getHeader(name: string) {
      return headers[name];
    },
  };
  return { reply: reply as unknown as FastifyReply, headers };
}

describe('addSecurityHeaders', () => {
  it('adds nosniff and no-store to a response that sets no caching', () => {
    const { reply, headers } = fakeReply();
    addSecurityHeaders(reply);
    expect(headers).toEqual({ 'x-content-type-options': 'nosniff', 'cache-control': 'no-store' });
  });

  it("keeps a route's own Cache-Control (a versioned logo URL)", () => {
    const { reply, headers } = fakeReply({ 'cache-control': 'public, max-age=86400' });
    addSecurityHeaders(reply);
    expect(headers['cache-control']).toBe('public, max-age=86400');
    expect(headers['x-content-type-options']).toBe('nosniff');
  });
});

describe('DOCS_CSP', () => {
  it('allows only this origin, no framing, no plugins, no inline or evaluated script', () => {
    const directives = new Map(
      DOCS_CSP.split('; ').map((d) => {
        const [name = '', ...values] = d.split(' ');
        return [name, values] as const;
      }),
    );
    expect(directives.get('default-src')).toEqual(["'self'"]);
    expect(directives.get('script-src')).toEqual(["'self'"]);
    expect(directives.get('object-src')).toEqual(["'none'"]);
    expect(directives.get('frame-ancestors')).toEqual(["'none'"]);
    expect(DOCS_CSP).not.toMatch(/https?:|\*|'unsafe-eval'/);
  });
});
