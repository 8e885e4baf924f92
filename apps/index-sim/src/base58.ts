// Solana addresses are 32-byte public keys written in Bitcoin's base58 alphabet (no 0, O, I, l).

const ALPHABET = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';

export function base58Encode(bytes: Uint8Array): string {
  let value = 0n;
  for (const b of bytes) value = value * 256n + BigInt(b);
  let out = '';
  while (value > 0n) {
    out = ALPHABET.charAt(Number(value % 58n)) + out;
    value /= 58n;
  }
  // Each leading zero byte is written as a leading '1', as in every base58check encoder.
  for (const b of bytes) {
    if (b !== 0) break;
    out = '1' + out;
  }
  return out;
}
