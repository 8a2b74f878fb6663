//! Support for the crate's own tests and tools, compiled only for the tests and with the
//! feature `emu`: the glue that runs the engine's C-ABI leaf functions
//! (`crate::lanes::abi`) inside the AVX-512 emulator, and (tests only) the unit tests'
//! seeded generator. The emulator (BochsCPU) runs x86-64 code: its glue exists only there.

#[cfg(target_arch = "x86_64")]
pub(crate) mod emu;
#[cfg(test)]
pub(crate) mod rng;

/// What one emulated run of the 8-lane engine returned.
#[cfg(target_arch = "x86_64")]
#[derive(Debug)]
pub struct Emulated {
    /// Per group, per lane: exactly what `recover_address` returns (lanes the engine hands
    /// back to the scalar core are finished by it, outside the emulator).
    pub results: Vec<[Result<[u8; 20], crate::Error>; 8]>,
    /// Per group, per lane: whether the engine itself finished the lane in lockstep.
    pub finished: Vec<[bool; 8]>,
    /// Instructions the emulator executed, when counting was asked for.
    #[cfg_attr(not(feature = "emu"), allow(dead_code))] // read by the tools
    pub instructions: Option<u64>,
}
