//! OP-stack transactions (feature `op`): op-alloy-consensus's envelopes in the batch calls.

use alloy_consensus::crypto::RecoveryError;
use op_alloy_consensus::{OpPooledTransaction, OpTxEnvelope};

use super::recoverable::{BatchRecoverable, SignerSource};

/// As op-alloy's own `SignerRecoverable` for `OpTxEnvelope`: the four signed kinds (legacy,
/// EIP-2930, EIP-1559, EIP-7702) recover like Ethereum's; a deposit (type `0x7E`) states its
/// `from`, and a post-exec transaction (type `0x7D`, unsigned and synthetic) its canonical
/// signer, the zero address, for the checked and the unchecked form alike.
///
/// ```
/// use alloy_consensus::{Sealed, SignableTransaction, TxEip1559};
/// use alloy_primitives::{Address, Signature, U256, address};
/// use asmcrypto::adapters::alloy::{recover_signers, recover_signers_unchecked};
/// use op_alloy_consensus::{OpTxEnvelope, TxDeposit};
///
/// let depositor = address!("deaddeaddeaddeaddeaddeaddeaddeaddead0001");
/// let deposit = TxDeposit { from: depositor, ..Default::default() };
/// // r = 0 is no signature: alloy's recovery error, and the deposit beside it unharmed.
/// let unsigned = TxEip1559::default().into_signed(Signature::new(U256::ZERO, U256::from(1), false));
/// let block = [OpTxEnvelope::Deposit(Sealed::new(deposit)), OpTxEnvelope::Eip1559(unsigned)];
///
/// for senders in [recover_signers(&block), recover_signers_unchecked(&block)] {
///     assert_eq!(senders[0].as_ref().unwrap(), &depositor);
///     assert!(senders[1].is_err());
/// }
/// ```
#[cfg_attr(docsrs, doc(cfg(feature = "op")))]
impl BatchRecoverable for OpTxEnvelope {
    fn signer_source(&self, payload: &mut Vec<u8>) -> Result<SignerSource, RecoveryError> {
        match self {
            Self::Legacy(t) => t.signer_source(payload),
            Self::Eip2930(t) => t.signer_source(payload),
            Self::Eip1559(t) => t.signer_source(payload),
            Self::Eip7702(t) => t.signer_source(payload),
            Self::Deposit(t) => Ok(SignerSource::Stated(t.from)),
            Self::PostExec(t) => Ok(SignerSource::Stated(t.inner().signer_address())),
        }
    }
}

/// The transaction pool's OP-stack type: the four signed kinds, as op-alloy's own
/// `SignerRecoverable` for `OpPooledTransaction` recovers them.
#[cfg_attr(docsrs, doc(cfg(feature = "op")))]
impl BatchRecoverable for OpPooledTransaction {
    fn signer_source(&self, payload: &mut Vec<u8>) -> Result<SignerSource, RecoveryError> {
        match self {
            Self::Legacy(t) => t.signer_source(payload),
            Self::Eip2930(t) => t.signer_source(payload),
            Self::Eip1559(t) => t.signer_source(payload),
            Self::Eip7702(t) => t.signer_source(payload),
        }
    }
}
