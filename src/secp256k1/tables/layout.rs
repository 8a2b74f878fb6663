//! The layout of the static tables of odd multiples of G and 2¹²⁸·G, owned here and
//! derived everywhere else: `build.rs` generates the tables with it (it includes this
//! file), the scalar core's wNAF uses width [`WINDOW_G`], and the lockstep engines' signed
//! odd fixed windows use width `WINDOW_G − 1` (`super::super::recode`).

/// wNAF width for G and 2¹²⁸·G: the tables hold the odd multiples B, 3B, …,
/// (2^(WINDOW_G−1) − 1)·B, every digit of a width-`WINDOW_G` wNAF.
pub const WINDOW_G: u32 = 15;
/// Number of entries per table.
pub const LEN: usize = 1 << (WINDOW_G - 2);
/// Bytes per entry: x then y, each as four little-endian 64-bit words, fully reduced.
pub const ENTRY_BYTES: usize = 64;
