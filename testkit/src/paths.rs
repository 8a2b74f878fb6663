//! The batch paths of `recover_addresses`, for the suites and tools that run them all.

use asmcrypto::Error;
use asmcrypto::internals::{BatchPath, recover_addresses_on};

use crate::sig::Signed;

/// Every batch path: one of each variant of [`BatchPath`]. [`BatchPath::Avx512Lanes`] and
/// [`BatchPath::Avx512FLanes`] are in the list on every CPU ([`run`] says where they cannot
/// run). A new variant fails to compile here until it is listed.
pub fn every() -> Vec<BatchPath> {
    let one_of_each = [
        BatchPath::Dispatched,
        BatchPath::Scalar,
        BatchPath::PortableLanes,
        BatchPath::PortableLanes29,
        BatchPath::Avx512Lanes,
        BatchPath::Avx512FLanes,
    ];
    // The match lists every variant, so a new one must be added above.
    for p in one_of_each {
        match p {
            BatchPath::Dispatched
            | BatchPath::Scalar
            | BatchPath::PortableLanes
            | BatchPath::PortableLanes29
            | BatchPath::Avx512Lanes
            | BatchPath::Avx512FLanes => {}
        }
    }
    one_of_each.to_vec()
}

/// Whether `path` runs on this CPU.
pub fn available(path: BatchPath) -> bool {
    recover_addresses_on(path, &[]).is_some()
}

/// The paths of [`every`] that run on this CPU.
pub fn every_available() -> Vec<BatchPath> {
    every().into_iter().filter(|&p| available(p)).collect()
}

/// `path` on `inputs`; `None` where the CPU lacks what it needs.
pub fn run(path: BatchPath, inputs: &[Signed]) -> Option<Vec<Result<[u8; 20], Error>>> {
    recover_addresses_on(path, inputs)
}
