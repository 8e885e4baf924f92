/**
 * A URL as it may be logged: configured URLs can carry credentials (`https://user:key@host`,
 * `?api_key=...`), and log lines travel to places secrets must not (log drains, tickets).
 */

/** Query parameter names whose value is a credential (`api_key`, `X-Api-Key`, `access_token`, `sig`...), by their ending. */
const SECRET_PARAM = /(key|token|secret|passw(or)?d|pass|auth|sig|signature|credentials?)$/i;

const MASK = '***';

/**
 * `raw` with any user name, password and credential-like query values replaced by `***`; the
 * scheme, host, port and path stay readable. Something that does not parse as a URL is not
 * logged at all (it could be a secret pasted in the wrong variable).
 */
export function redactUrl(raw: string): string {
  const url = URL.parse(raw);
  if (!url) return '[unparseable URL]';
  if (url.username !== '') url.username = MASK;
  if (url.password !== '') url.password = MASK;
  for (const name of [...url.searchParams.keys()]) {
    if (SECRET_PARAM.test(name.replace(/[-_]/g, ''))) url.searchParams.set(name, MASK);
  }
  // URLSearchParams encodes `*` as `%2A`; the mask reads better as typed.
  return url.toString().replaceAll('%2A%2A%2A', MASK);
}
