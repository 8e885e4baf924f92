/** A bad environment value: main() prints the message on one line and exits 1. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}
