//! The batch paths of `recover_addresses`, for the suites and tools that run them all.

use asmcrypto::Error;
use asmcrypto::internals::{BatchPath, recover_addresses_on};

use crate::sig::Signed;

/// Every batch path: one of each variant of [`BatchPath`], with an interleaved path for
/// each group size in `groups`. [`BatchPath::Avx512Lanes`] and [`BatchPath::Avx512FLanes`]
/// are in the list on every CPU ([`run`] says where they cannot run). A new variant fails
/// to compile here until it is listed.
pub fn every(groups: &[usize]) -> Vec<BatchPath> {
    let one_of_each = [
        BatchPath::Dispatched,
        BatchPath::Affine,
        BatchPath::Interleaved { group: 1 },
        BatchPath::PortableLanes,
        BatchPath::PortableLanes29,
        BatchPath::Avx512Lanes,
        BatchPath::Avx512FLanes,
    ];
    let mut out = Vec::new();
    for p in one_of_each {
        match p {
            BatchPath::Interleaved { .. } => {
                out.extend(groups.iter().map(|&group| BatchPath::Interleaved { group }));
            }
            BatchPath::Dispatched
            | BatchPath::Affine
            | BatchPath::PortableLanes
            | BatchPath::PortableLanes29
            | BatchPath::Avx512Lanes
            | BatchPath::Avx512FLanes => out.push(p),
        }
    }
    out
}

/// Whether `path` runs on this CPU.
pub fn available(path: BatchPath) -> bool {
    recover_addresses_on(path, &[]).is_some()
}

/// The paths of [`every`] that run on this CPU.
pub fn every_available(groups: &[usize]) -> Vec<BatchPath> {
    every(groups)
        .into_iter()
        .filter(|&p| available(p))
        .collect()
}

/// `path` on `inputs`; `None` where the CPU lacks what it needs.
pub fn run(path: BatchPath, inputs: &[Signed]) -> Option<Vec<Result<[u8; 20], Error>>> {
    recover_addresses_on(path, inputs)
}
