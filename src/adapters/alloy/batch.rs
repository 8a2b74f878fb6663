//! The pipeline shared by transactions and authorizations: signing payloads written back to
//! back into one buffer, hashed eight at a time, then recovered by the batch path.

use crate::Error;

/// One item's way into the batch, as its `prepare` step found it.
pub(super) enum Prepared {
    /// Recover the signer from this signature (r ‖ s ‖ y-parity) over the payload the item
    /// wrote.
    Signature([u8; 65]),
    /// The signer is known without recovery (an OP-stack deposit states its sender).
    Signer([u8; 20]),
}

/// For every item, in input order: the address that signed its payload, or its error.
///
/// `prepare` writes an item's signing payload at the end of the buffer it is given and
/// returns its signature, or states its signer, or refuses the item with an error, which
/// the item keeps. Whatever it wrote for an item that does not go on to recovery is
/// dropped. `failed` turns a recovery failure into the caller's error type.
///
/// With the feature `parallel`, long inputs are cut into chunks by the same rule as
/// [`recover_addresses`](crate::recover_addresses), and every chunk runs the whole pipeline
/// (payloads, hashes, recovery) on a thread of the rayon pool.
pub(super) fn recover_payloads<I, E>(
    items: &[I],
    prepare: impl Fn(&I, &mut Vec<u8>) -> Result<Prepared, E> + Sync,
    failed: impl Fn(Error) -> E + Sync,
) -> Vec<Result<[u8; 20], E>>
where
    I: Sync,
    E: Send,
{
    #[cfg(feature = "parallel")]
    if let Some(chunk) = crate::batch::parallel_chunk(items.len()) {
        use rayon::prelude::*;
        return items
            .par_chunks(chunk)
            .flat_map_iter(|c| recover_chunk(c, &prepare, &failed))
            .collect();
    }
    recover_chunk(items, &prepare, &failed)
}

/// [`recover_payloads`] on the calling thread.
fn recover_chunk<I, E>(
    items: &[I],
    prepare: &impl Fn(&I, &mut Vec<u8>) -> Result<Prepared, E>,
    failed: &impl Fn(Error) -> E,
) -> Vec<Result<[u8; 20], E>> {
    // One buffer for all payloads (typical signing payloads are 100–300 bytes), and one
    // entry per item that goes on to recovery: where its payload ends and its signature.
    // Each item writes into a scratch buffer of its own first, which is then appended: an
    // item (a user's `BatchRecoverable`) that also removed or changed bytes of the buffer
    // could otherwise spoil the payloads before it, or panic the slicing below. The copy
    // costs some nanoseconds against microseconds of recovery.
    let mut payloads = Vec::with_capacity(items.len() * 160);
    let mut scratch = Vec::with_capacity(512);
    let mut live = Vec::with_capacity(items.len());
    let mut results = Vec::with_capacity(items.len());
    for (i, item) in items.iter().enumerate() {
        scratch.clear();
        match prepare(item, &mut scratch) {
            Ok(Prepared::Signature(sig)) => {
                payloads.extend_from_slice(&scratch);
                live.push((i, payloads.len(), sig));
                // Overwritten below with the recovered address or the recovery error.
                results.push(Ok([0u8; 20]));
            }
            Ok(Prepared::Signer(address)) => results.push(Ok(address)),
            Err(e) => results.push(Err(e)),
        }
    }
    let mut start = 0;
    let slices: Vec<&[u8]> = live
        .iter()
        .map(|&(_, end, _)| {
            let s = &payloads[start..end];
            start = end;
            s
        })
        .collect();
    let mut hashes = Vec::with_capacity(live.len());
    crate::keccak::keccak256_many(&slices, &mut hashes);
    let jobs: Vec<([u8; 32], [u8; 65])> = hashes
        .into_iter()
        .zip(&live)
        .map(|(h, &(_, _, sig))| (h, sig))
        .collect();
    let recovered = crate::batch::recover_addresses_serial(&jobs);
    for (&(i, _, _), r) in live.iter().zip(recovered) {
        results[i] = r.map_err(failed);
    }
    results
}

/// r ‖ s ‖ y-parity as 65 bytes, r and s big-endian.
pub(super) fn sig65(r: &alloy_primitives::U256, s: &alloy_primitives::U256, odd: bool) -> [u8; 65] {
    let mut sig = [0u8; 65];
    sig[..32].copy_from_slice(&r.to_be_bytes::<32>());
    sig[32..64].copy_from_slice(&s.to_be_bytes::<32>());
    sig[64] = u8::from(odd);
    sig
}
