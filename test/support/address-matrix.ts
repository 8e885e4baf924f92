/** The address matrix of the alert tests (at save and at delivery). */
/** Every address a webhook may not reach, and the reason its owner is told. */
export const REFUSED_URLS: readonly [url: string, reason: RegExp][] = [
  ['http://127.0.0.1/hook', /a loopback address/],
  ['http://10.1.2.3/hook', /a private address/],
  ['http://172.16.0.1/hook', /a private address/],
  ['http://192.168.1.1/hook', /a private address/],
  ['http://169.254.169.254/latest/meta-data', /a link-local address \(cloud metadata included\)/],
  ['http://100.64.0.1/hook', /a carrier-grade NAT address/],
  ['http://[::1]/hook', /a loopback address/],
  ['http://[fc00::1]/hook', /a unique-local address/],
  ['http://[fd12:3456::1]/hook', /a unique-local address/],
  ['http://[fe80::1]/hook', /a link-local address/],
  ['http://[ff02::1]/hook', /a multicast address/],
  ['http://[::ffff:127.0.0.1]/hook', /an IPv4-mapped IPv6 address/],
  ['http://[::ffff:a9fe:a9fe]/hook', /an IPv4-mapped IPv6 address/],
  ['http://[::a9fe:a9fe]/hook', /an IPv4-compatible IPv6 address \(::\/96\)/],
  ['http://[::10.0.0.1]/hook', /an IPv4-compatible IPv6 address/],
  ['http://[::ffff:0:a00:1]/hook', /an IPv4-translated IPv6 address/],
  ['http://[64:ff9b::a9fe:a9fe]/hook', /a NAT64 address/],
  ['http://[64:ff9b:1::a00:1]/hook', /a NAT64 address/],
  ['http://[2002:a00:1::1]/hook', /a 6to4 address/],
  ['http://[2001:0:4136:e378::1]/hook', /a Teredo address/],
  ['http://[fec0::1]/hook', /a site-local address/],
  ['http://[100::1]/hook', /a discard-only address/],
  ['http://[2001:db8::1]/hook', /a reserved address/],
  ['http://[::]/hook', /an unspecified address/],
  ['http://0.0.0.0/hook', /an unspecified address/],
  ['http://0.1.2.3/hook', /an unspecified address/],
  ['http://198.18.0.1/hook', /a reserved address/],
  ['http://192.0.2.1/hook', /a reserved address/],
  ['http://240.0.0.1/hook', /a reserved address/],
  ['http://255.255.255.255/hook', /the broadcast address/],
  ['http://224.0.0.1/hook', /a multicast address/],
  // Other spellings of 127.0.0.1 the URL parser turns into it.
  ['http://2130706433/hook', /a loopback address/],
  ['http://0x7f.1/hook', /a loopback address/],
  ['http://localhost/hook', /host localhost resolves to a loopback address/],
];

/** No refusal may say where a name points: no address appears in a refusal's text (ranges such as `fc00::/7` may). */
export const ADDRESS_IN_TEXT = /(?<![\w:.])(\d{1,3}(\.\d{1,3}){3}|[0-9a-f]{0,4}(:[0-9a-f]{0,4}){2,7})(?![\w:./])/i;
