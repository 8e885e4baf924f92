/** The address matrix of the alert tests (at save and at delivery). */
/** Every address a webhook may not reach, and the reason its owner is told. */
export const REFUSED_URLS: readonly [url: string, reason: RegExp][] = [
  ['http://127.0.0.1/hook', /127\.0\.0\.1 is a loopback address/],
  ['http://10.1.2.3/hook', /10\.1\.2\.3 is a private address/],
  ['http://172.16.0.1/hook', /172\.16\.0\.1 is a private address/],
  ['http://192.168.1.1/hook', /192\.168\.1\.1 is a private address/],
  ['http://169.254.169.254/latest/meta-data', /169\.254\.169\.254 is a link-local address \(cloud metadata included\)/],
  ['http://100.64.0.1/hook', /100\.64\.0\.1 is a carrier-grade NAT address/],
  ['http://[::1]/hook', /::1 is a loopback address/],
  ['http://[fc00::1]/hook', /fc00::1 is a unique-local address/],
  ['http://[::ffff:127.0.0.1]/hook', /is an IPv4-mapped address \(of 127\.0\.0\.1\)/],
  ['http://0.0.0.0/hook', /0\.0\.0\.0 is the unspecified address/],
  ['http://224.0.0.1/hook', /224\.0\.0\.1 is a multicast address/],
  ['http://localhost/hook', /host localhost resolves to (127\.0\.0\.1|::1) is a loopback address/],
];
