// A basic CSRF guard for the viewer's writes: a request that changes something must come from the viewer's own
// page, i.e. name the viewer as its Host (no DNS rebinding) and as its Origin (no other site's form or script).
// The viewer listens on 127.0.0.1 only; `localhost` is the same place.

/** Why the request is refused, or null when it comes from the viewer's own page. */
export function sameOriginProblem(host: string | undefined, origin: string | undefined, port: number): string | null {
  const own = [`127.0.0.1:${port}`, `localhost:${port}`];
  if (!host || !own.includes(host)) return `Host ${host ?? '(none)'} is not this viewer (${own[0]})`;
  if (!origin) return 'no Origin header: writes are accepted from the viewer page only';
  if (!own.some((h) => origin === `http://${h}`)) return `Origin ${origin} is not this viewer (http://${own[0]})`;
  return null;
}
