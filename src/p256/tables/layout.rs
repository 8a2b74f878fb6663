//! The layout of P-256's static table of odd multiples of G, owned here and derived
//! everywhere else: `build.rs` generates the table with it (through `generate.rs`, which
//! includes this file) and the verification's wNAF of u₁ uses width [`WINDOW_G`].

/// wNAF width for G: the table holds G, 3G, …, (2^(WINDOW_G−1) − 1)·G, every digit of a
/// width-`WINDOW_G` wNAF.
pub const WINDOW_G: u32 = 12;
/// Number of entries.
pub const LEN: usize = 1 << (WINDOW_G - 2);
/// Bytes per entry: x then y, each as four little-endian 64-bit words of the Montgomery
/// form (a·2²⁵⁶ mod p), fully reduced.
pub const ENTRY_BYTES: usize = 64;
