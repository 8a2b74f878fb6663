// The package's TypeScript declarations, as an ES module user sees them: `tsc -p` on this
// file (test/module.test.mjs) must pass, and each `@ts-expect-error` line must be an error.
import {
  AsmcryptoError,
  InvalidRecoveryIdError,
  type BatchResult,
  backend,
  ecrecoverPrecompile,
  keccak256,
  recoverAddress,
  recoverAddresses,
  recoverAddressesAsync,
  recoverPublicKey,
} from 'asmcrypto';
import * as wasm from 'asmcrypto/wasm';
import { recoverAddress as viemRecoverAddress, recoverMessageAddress, type Hex } from 'asmcrypto/viem';
import { recoverPublicKey as wasmViemRecoverPublicKey } from 'asmcrypto/wasm/viem';

const hash: Uint8Array = keccak256('0x1234');
const address: Uint8Array = recoverAddress(hash, new Uint8Array(65));
const key: Uint8Array = recoverPublicKey('0x00', '0x00');
const word: Uint8Array = ecrecoverPrecompile(new Uint8Array(128));
const name: string = backend() + wasm.backend();
const batch: BatchResult = recoverAddresses([hash], [new Uint8Array(65)], { threads: 2 });
const later: Promise<BatchResult> = recoverAddressesAsync(new Uint8Array(32), new Uint8Array(65));
const fromWasm: Uint8Array = wasm.recoverAddress(hash, '0x00');

async function viemShapes(): Promise<Hex> {
  const a: Hex = await viemRecoverAddress({ hash: '0x00', signature: { r: '0x01', s: '0x02', yParity: 1 } });
  const b: Hex = await recoverMessageAddress({ message: { raw: hash }, signature: '0x00' });
  const c: Hex = await wasmViemRecoverPublicKey({ hash, signature: { r: '0x01', s: '0x02', v: 27n } });
  return `${a}${b.slice(2)}${c.slice(2)}`;
}

function codeOf(err: unknown): string | number | undefined {
  if (err instanceof InvalidRecoveryIdError) return err.v;
  if (err instanceof AsmcryptoError) return err.code;
  return undefined;
}

// @ts-expect-error: a number is no byte argument.
recoverAddress(5, hash);
// @ts-expect-error: a string without the 0x prefix is not hex.
keccak256('hello');
// @ts-expect-error: threads is a number.
recoverAddresses([hash], [hash], { threads: '2' });

export { address, key, word, name, batch, later, fromWasm, viemShapes, codeOf };
