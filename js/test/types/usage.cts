// The declarations as a CommonJS user sees them (require).
import asmcrypto = require('asmcrypto');
import viem = require('asmcrypto/viem');

const address: Uint8Array = asmcrypto.recoverAddress(new Uint8Array(32), '0x00');
const pending: Promise<`0x${string}`> = viem.recoverAddress({ hash: '0x00', signature: '0x00' });

export = { address, pending };
