//! Batch recovery: the public entry points, the size thresholds that pick a path, and
//! the spread over threads.
//!
//! - [`lanes8`]: eight signatures through the 8-lane engine (`crate::lanes`), on
//!   AVX-512 IFMA.
//! - [`scalar`]: the scalar core's batch paths for every other CPU: interleaved Strauss
//!   loops with shared inversions, and the batch-affine ladder for long inputs.
//!
//! Every path returns, for every input, exactly what [`recover_address`] returns.

pub(crate) mod lanes8;
pub(crate) mod scalar;

use crate::error::Error;
use crate::lanes::LANES;
use crate::recover::recover_address;
use scalar::recover_interleaved;

/// One (message hash, r ‖ s ‖ v signature) pair.
pub(crate) type Signed = ([u8; 32], [u8; 65]);

/// Recovers the addresses of eight signatures at once: on CPUs with AVX-512 IFMA the eight
/// run in lockstep in vector registers; elsewhere each goes through the scalar core.
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
/// root. With AVX-512 IFMA, the rest go through the 8-lane engine packed eight to a group
/// (a remainder of two or more as one group with idle lanes, a single one as below).
/// Elsewhere, when 192 or more have an R they run through the batch-affine ladder (up to
/// 256 at a time, one shared inversion per doubling or addition round), fewer through
/// interleaved Strauss loops with shared inversions, and a single input as
/// [`recover_address`](crate::recover_address) does. With the `parallel` feature, long inputs are split across the rayon thread
/// pool in chunks of 64 to 256 signatures.
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

/// With the `parallel` feature, how `n` inputs are split over the rayon thread pool: `None`
/// to run them on the calling thread, otherwise the length of each task's chunk.
///
/// Each thread gets an equal share, but never less than [`MIN_CHUNK`] signatures and never
/// more than [`AFFINE_CHUNK`](scalar::AFFINE_CHUNK), so the tasks balance across the pool and
/// the ladder's tables stay in cache. Inputs too short for two such chunks stay on the
/// calling thread.
#[cfg(feature = "parallel")]
pub(crate) fn parallel_chunk(n: usize) -> Option<usize> {
    let threads = rayon::current_num_threads();
    if threads < 2 || n < 2 * MIN_CHUNK {
        return None;
    }
    Some(
        n.div_ceil(threads)
            .next_multiple_of(LANES)
            .clamp(MIN_CHUNK, scalar::AFFINE_CHUNK),
    )
}

/// The shortest chunk [`recover_addresses`] hands a thread of the pool: from 64 signatures
/// on, every batch path runs at its best speed per signature (the 8-lane engine at every
/// multiple of eight; without AVX-512 the interleaved loops at 64 to 191 signatures are as
/// fast per signature as the batch-affine ladder from 192, measured on AMD Zen 5 after
/// issue 20's field code, `doc/benchmarks.md`). Until then the chunk was 192 without
/// AVX-512, so 256 signatures stayed on one thread of a two-thread pool.
#[cfg(feature = "parallel")]
pub(crate) const MIN_CHUNK: usize = 64;

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

/// Inputs too short for the batch paths' fixed costs to pay: one signature alone (the
/// interleaved path's bookkeeping makes it 3 % slower than [`recover_address`], measured),
/// two or more interleaved (their shared inversions and side-by-side loops make each
/// signature 5–9 % cheaper than alone, measured for 2 to 8).
pub(crate) fn recover_short(inputs: &[Signed]) -> Vec<Result<[u8; 20], Error>> {
    match inputs {
        [(hash, sig)] => vec![recover_address(hash, sig)],
        _ => recover_interleaved(inputs, LANES),
    }
}
