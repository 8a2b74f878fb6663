// Arguments as bytes: a Uint8Array (a Buffer is one) as it is, a 0x-prefixed hex string
// decoded. Every check names the argument: TypeError for a value of the wrong kind (or a
// string that is not hex), RangeError for the wrong length.

const HEX = '0123456789abcdef';
// The value of each hex digit's character code, 255 for any other character.
const DIGIT = new Uint8Array(256).fill(255);
for (let i = 0; i < 10; i++) DIGIT[48 + i] = i;
for (let i = 0; i < 6; i++) {
  DIGIT[65 + i] = 10 + i;
  DIGIT[97 + i] = 10 + i;
}

/** A hex digit's value from its character code, 255 for any other character. */
const digit = (code) => (code < 256 ? DIGIT[code] : 255);

/** A short description of a value for an error message: its type, never its contents. */
export function describe(value) {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string') return `a string of ${value.length} characters`;
  if (typeof value === 'object') return `an object (${value.constructor?.name ?? 'no prototype'})`;
  return `a ${typeof value}`;
}

/** The bytes of a 0x-prefixed hex string (even length, either case), or TypeError. */
export function hexToBytes(hex, name) {
  if (hex.length % 2 !== 0 || hex[0] !== '0' || (hex[1] !== 'x' && hex[1] !== 'X')) {
    throw new TypeError(
      `${name}: expected a 0x-prefixed hex string of whole bytes, got ${describe(hex)}`,
    );
  }
  const out = new Uint8Array((hex.length - 2) / 2);
  for (let i = 0, j = 2; i < out.length; i++, j += 2) {
    const hi = digit(hex.charCodeAt(j));
    const lo = digit(hex.charCodeAt(j + 1));
    if ((hi | lo) === 255) {
      const at = hi === 255 ? j : j + 1;
      throw new TypeError(`${name}: not a hex string: character ${at} is not a hex digit`);
    }
    out[i] = (hi << 4) | lo;
  }
  return out;
}

/** Lowercase hex of bytes, with the 0x prefix. */
export function bytesToHex(bytes) {
  let out = '0x';
  for (let i = 0; i < bytes.length; i++) out += HEX[bytes[i] >> 4] + HEX[bytes[i] & 15];
  return out;
}

/** The bytes of an argument: a Uint8Array as it is (no copy), a hex string decoded. */
export function toBytes(value, name) {
  if (value instanceof Uint8Array) return value;
  if (typeof value === 'string') return hexToBytes(value, name);
  throw new TypeError(
    `${name}: expected a Uint8Array, a Buffer or a 0x-prefixed hex string, got ${describe(value)}`,
  );
}

/** The bytes of an argument that must be exactly `length` bytes long. */
export function fixedBytes(value, name, length) {
  const bytes = toBytes(value, name);
  if (bytes.length !== length) {
    throw new RangeError(`${name}: expected ${length} bytes, got ${bytes.length}`);
  }
  return bytes;
}
