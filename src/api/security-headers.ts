/**
 * Headers every API response carries. Enrichment answers hold a tenant's data: no shared cache, proxy
 * or browser may keep them (`Cache-Control: no-store`), and no browser may sniff a JSON error into
 * HTML (`X-Content-Type-Options: nosniff`). A route that means to be cached — `GET /logos/{id}`,
 * whose URL changes with the logo — sets its own Cache-Control, which is kept. `/docs` (Swagger UI)
 * gets a Content-Security-Policy: its scripts and styles are served from here, so nothing else may
 * load or run.
 */
import type { FastifyReply } from 'fastify';

export const NOSNIFF = 'nosniff';
export const NO_STORE = 'no-store';

/**
 * The policy of /docs. Swagger UI needs no inline script (its initializer is a file); it sets style
 * attributes, hence 'unsafe-inline' for styles only. The validator badge, which would call an
 * outside service, is switched off in the UI's configuration and refused here.
 */
export const DOCS_CSP = [
  "default-src 'self'",
  "base-uri 'self'",
  "connect-src 'self'",
  "font-src 'self' data:",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "img-src 'self' data:",
  "object-src 'none'",
  "script-src 'self'",
  "script-src-attr 'none'",
  "style-src 'self' 'unsafe-inline'",
].join('; ');

/** For an onSend hook: adds the headers every response carries, keeping a route's own caching. */
export function addSecurityHeaders(reply: FastifyReply): void {
  reply.header('x-content-type-options', NOSNIFF);
  if (reply.getHeader('cache-control') === undefined) reply.header('cache-control', NO_STORE);
}
