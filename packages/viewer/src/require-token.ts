// The viewer's access token. On 127.0.0.1 (and ::1, localhost) only this machine reaches the viewer and a token is
// optional; listening anywhere else, every request must carry one: `?token=` on the page load (answered with an
// HttpOnly cookie, so the page's own requests need not know it), that cookie, or `Authorization: Bearer`.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { MiddlewareHandler } from 'hono';
import { getCookie, setCookie } from 'hono/cookie';
import { messages } from './messages.js';

/** The cookie's name: one per port, since browsers share cookies across a host's ports (two viewers, one host). */
const tokenCookie = (port: number): string => `assay_view_token_${port}`;
const MIN_TOKEN_LENGTH = 16;
const LOOPBACK = new Set(['127.0.0.1', '::1', 'localhost']);

/** `[::1]` → `::1`, lower case: a listen address as given to `--host`. */
export const bareHost = (host: string): string => host.replace(/^\[(.*)\]$/, '$1').toLowerCase();

const isLoopbackHost = (host: string): boolean => LOOPBACK.has(bareHost(host));

/**
 * The token the viewer on `host` enforces: the one given (refused when shorter than MIN_TOKEN_LENGTH, `from` names
 * where it came from), else a fresh one off loopback, else none.
 */
export function viewerToken(host: string, token: string | null | undefined, from = '--token'): string | null {
  if (token !== undefined && token !== null) {
    if (token.length < MIN_TOKEN_LENGTH) throw new Error(messages.shortToken(from, token.length, MIN_TOKEN_LENGTH));
    return token;
  }
  return isLoopbackHost(host) ? null : randomBytes(24).toString('base64url');
}

const digest = (s: string): Buffer => createHash('sha256').update(s).digest();

/** Refuses (401) every request that carries no matching token; a matching `?token=` also sets the cookie. */
export function requireToken(token: string, port: () => number): MiddlewareHandler {
  const expected = digest(token);
  // Equal-length digests: the comparison takes as long whatever was sent.
  const matches = (given: string | undefined) => given !== undefined && timingSafeEqual(digest(given), expected);
  return async (c, next) => {
    if (matches(c.req.query('token'))) {
      setCookie(c, tokenCookie(port()), token, { httpOnly: true, sameSite: 'Strict', path: '/' });
      return next();
    }
    const bearer = /^Bearer\s+(.+)$/i.exec(c.req.header('authorization') ?? '')?.[1];
    if (matches(getCookie(c, tokenCookie(port()))) || matches(bearer)) return next();
    const error = messages.tokenRequired();
    c.header('www-authenticate', 'Bearer realm="assay view"');
    return c.req.path.startsWith('/api/') ? c.json({ error }, 401) : c.text(error, 401);
  };
}
