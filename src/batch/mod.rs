//! Batch recovery: the public entry points, the size thresholds that pick a path, and
//! the spread over threads.
//!
//! - [`lanes8`]: eight signatures through the 8-lane engine (`crate::lanes`), on
//!   AVX-512 IFMA (5×52 field) or on AVX-512 F without IFMA (9×29 field).
//! - [`scalar`]: the scalar core's batch path for every other CPU: the single path's
//!   Strauss loop per signature, with the parse, the lift, the inversions, R's tables
//!   (from 16 signatures on) and the hashing shared across the batch.
//!
//! Every path returns, for every input, exactly what [`recover_address`] returns.

pub(crate) mod lanes8;
pub(crate) mod p256;
pub(crate) mod scalar;

use crate::error::Error;
#[cfg(feature = "parallel")]
use crate::lanes::LANES;

/// One (message hash, r ‖ s ‖ v signature) pair.
pub(crate) type Signed = ([u8; 32], [u8; 65]);

/// Recovers the addresses of eight signatures at once: on CPUs with AVX-512 (F and BW, with
/// or without IFMA) the eight run in lockstep in vector registers; elsewhere each goes
/// through the scalar core.
///
/// Lane by lane, the result is exactly what [`recover_address`](crate::recover_address)
/// returns for that input: an invalid lane gets its own `Err` and never disturbs the others.
///
/// ```
/// # let (hash, sig) = ([0x11u8; 32], [0u8; 65]);
/// let inputs = [(hash, sig); 8];
/// let results = asmcrypto::recover_addresses_batch(&inputs);
/// for (r, (h, s)) in results.iter().zip(&inputs) {
///     assert_eq!(*r, asmcrypto::recover_address(h, s));
/// }
/// ```
pub fn recover_addresses_batch(inputs: &[([u8; 32], [u8; 65]); 8]) -> [Result<[u8; 20], Error>; 8] {
    recover_addresses_serial(inputs)
        .try_into()
        .unwrap_or_else(|_| unreachable!("every path returns one result per input"))
}

/// Recovers the addresses of any number of signatures; results are in input order and
/// equal [`recover_address`](crate::recover_address) on each input.
///
/// Every input is parsed first, and only those that can recover go on: a refused input
/// (bad v, r or s) costs its parse, one whose r is no x-coordinate its share of a square
/// root. With AVX-512, the rest go through the 8-lane engine packed eight to a group (a
/// remainder of two or more, six or more without IFMA, as one group with idle lanes, a
/// shorter one as below).
/// Elsewhere each runs the single-signature Strauss loop, with the square roots side by
/// side and r⁻¹, the final 1/Z and Keccak shared across the batch, and from 16 signatures
/// on R's tables built with shared inversions (a single input runs as
/// [`recover_address`](crate::recover_address) does). With the `parallel` feature, long
/// inputs are split across the rayon thread pool in chunks of 64 to 256 signatures.
///
/// ```
/// let results = asmcrypto::recover_addresses(&[]);
/// assert!(results.is_empty());
/// ```
pub fn recover_addresses(inputs: &[([u8; 32], [u8; 65])]) -> Vec<Result<[u8; 20], Error>> {
    #[cfg(feature = "parallel")]
    if let Some(chunk) = parallel_chunk(inputs.len()) {
        use rayon::prelude::*;
        return inputs
            .par_chunks(chunk)
            .flat_map_iter(recover_addresses_serial)
            .collect();
    }
    recover_addresses_serial(inputs)
}

/// [`recover_addresses`] spread over `threads` threads of its own: the calling thread and
/// `threads − 1` started for this call (scoped: all have finished when it returns), each
/// taking one contiguous run of whole groups of eight and at least
/// [`MIN_THREAD_SHARE`] signatures, so a short input stays on the calling thread. `0` means
/// one thread per CPU. Results are in input order and equal
/// [`recover_address`](crate::recover_address) on each input, as on one thread.
///
/// For callers that manage their own threads (a language binding, a program without
/// rayon); with the `parallel` feature, [`recover_addresses`] itself spreads long inputs
/// over rayon's pool instead. Where no thread can be started (`wasm32-unknown-unknown`, a
/// process at its limit), that share runs on the calling thread.
///
/// ```
/// # let (hash, sig) = ([0x11u8; 32], [0u8; 65]);
/// let inputs = vec![(hash, sig); 1000];
/// assert_eq!(
///     asmcrypto::recover_addresses_on_threads(&inputs, 2),
///     asmcrypto::recover_addresses(&inputs),
/// );
/// ```
pub fn recover_addresses_on_threads(
    inputs: &[([u8; 32], [u8; 65])],
    threads: usize,
) -> Vec<Result<[u8; 20], Error>> {
    let threads = match threads {
        0 => std::thread::available_parallelism().map_or(1, usize::from),
        k => k,
    };
    let threads = threads.min(inputs.len() / MIN_THREAD_SHARE).max(1);
    if threads == 1 {
        return recover_addresses(inputs);
    }
    // Whole groups of eight per thread: the 8-lane engine's unit.
    let chunk = inputs.len().div_ceil(threads).next_multiple_of(8);
    std::thread::scope(|scope| {
        let mut chunks = inputs.chunks(chunk);
        let first = chunks.next().unwrap_or_default();
        let others: Vec<_> = chunks
            .map(|part| {
                let handle = std::thread::Builder::new()
                    .name("asmcrypto".into())
                    .spawn_scoped(scope, move || recover_addresses(part));
                (part, handle)
            })
            .collect();
        let mut results = recover_addresses(first);
        for (part, handle) in others {
            match handle {
                Ok(handle) => match handle.join() {
                    Ok(part_results) => results.extend(part_results),
                    Err(panic) => std::panic::resume_unwind(panic),
                },
                // No thread to be had: this part runs here.
                Err(_) => results.extend(recover_addresses(part)),
            }
        }
        results
    })
}

/// The fewest signatures [`recover_addresses_on_threads`] gives one thread: below it,
/// starting a thread costs more than its share of the work saves.
pub const MIN_THREAD_SHARE: usize = 256;

/// With the `parallel` feature, how `n` inputs are split over the rayon thread pool: `None`
/// to run them on the calling thread, otherwise the length of each task's chunk.
///
/// Each thread gets an equal share, but never less than [`MIN_CHUNK`] signatures and never
/// more than [`MAX_CHUNK`], so the tasks balance across the pool. Inputs too short for two
/// such chunks stay on the calling thread.
#[cfg(feature = "parallel")]
pub(crate) fn parallel_chunk(n: usize) -> Option<usize> {
    let threads = rayon::current_num_threads();
    if threads < 2 || n < 2 * MIN_CHUNK {
        return None;
    }
    Some(
        n.div_ceil(threads)
            .next_multiple_of(LANES)
            .clamp(MIN_CHUNK, MAX_CHUNK),
    )
}

/// The shortest chunk [`recover_addresses`] hands a thread of the pool: from 64 signatures
/// on, every batch path runs at its best speed per signature (the 8-lane engine at every
/// multiple of eight; the scalar path from two signatures on, `doc/benchmarks.md`).
#[cfg(feature = "parallel")]
pub(crate) const MIN_CHUNK: usize = 64;

/// The longest chunk [`recover_addresses`] hands a thread of the pool: longer inputs gain
/// nothing per signature, and more chunks balance the pool.
#[cfg(feature = "parallel")]
pub(crate) const MAX_CHUNK: usize = 256;

/// [`recover_addresses`] on the calling thread.
pub(crate) fn recover_addresses_serial(inputs: &[Signed]) -> Vec<Result<[u8; 20], Error>> {
    #[cfg(target_arch = "x86_64")]
    if let Some(cpu) = crate::dispatch::avx512() {
        return lanes8::recover_many(&lanes8::Avx512Engine(cpu), inputs);
    }
    #[cfg(target_arch = "x86_64")]
    if let Some(cpu) = crate::dispatch::avx512f() {
        return lanes8::recover_many(&lanes8::Avx512FEngine(cpu), inputs);
    }
    scalar::recover_many(inputs)
}
