// viem's recoverAddress, recoverMessageAddress and recoverPublicKey, with viem's argument
// shapes and results, on the native addon: change `from 'viem'` to `from 'asmcrypto/viem'`.

import * as api from './index.mjs';
import { makeViem } from './lib/viem.mjs';

export const { recoverAddress, recoverMessageAddress, recoverPublicKey } = makeViem(api);
