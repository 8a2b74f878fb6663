// viem's recovery functions on the WebAssembly module.
import * as api from './index.mjs';
import { makeViem } from '../lib/viem.mjs';

export const { recoverAddress, recoverMessageAddress, recoverPublicKey } = makeViem(api);
