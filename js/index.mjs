// asmcrypto for Node: Ethereum signature recovery and Keccak-256 on the native addon.
// The functions are documented in index.d.ts and README.md.

import { makeApi } from './lib/api.mjs';
import native from './lib/native.mjs';

export {
  AsmcryptoError,
  InvalidRError,
  InvalidRecoveryIdError,
  InvalidSError,
  NotOnCurveError,
  PointAtInfinityError,
} from './lib/errors.mjs';

export const {
  recoverAddress,
  recoverPublicKey,
  ecrecoverPrecompile,
  keccak256,
  recoverAddresses,
  recoverAddressesAsync,
  backend,
  backendDetails,
} = makeApi(native);
