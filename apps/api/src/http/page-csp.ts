/** A page's Content-Security-Policy: scripts only from this origin, `styleSrc` for styles, and any `extra` directives. */
export const pageCsp = (styleSrc: string, ...extra: string[]): string =>
  [
    "default-src 'none'",
    "script-src 'self'",
    `style-src ${styleSrc}`,
    "img-src 'self' data:",
    ...extra,
    "connect-src 'self'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
