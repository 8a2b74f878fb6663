// viem's recovery functions on the WebAssembly module, in Node.
import * as api from './node.mjs';
import { makeViem } from '../lib/viem.mjs';

export const { recoverAddress, recoverMessageAddress, recoverPublicKey } = makeViem(api);
