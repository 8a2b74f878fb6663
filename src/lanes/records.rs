//! The 8-lane engine's input and output records: eight signatures' values word-major
//! (`x[k][i]` is 64-bit word k of lane i), as the batch layer fills them
//! (`crate::batch::lanes8`) and the recovery core reads and writes them
//! (`super::recover`), and the status each lane ends with. `repr(C)`: the emulator's
//! entry points (`super::abi`) take them as bytes.

use super::{Backend, LANES};

/// Status of a lane: key and hash are valid.
pub(crate) const OK: u64 = 0;
/// Status of a lane: x³ + 7 has no square root (r is not an x-coordinate). Only
/// `lift_recover` reports it; `super::recover::lift` returns the mask.
pub(crate) const NOT_ON_CURVE: u64 = 1;
/// Status of a lane: its schedule could not be built (a GLV half or the joint recoding's
/// remainder out of its bound, which the bounds in `secp256k1::glv` and
/// `secp256k1::eisenstein` exclude: never seen, for any input), or one of the additions
/// that build its table of R's multiples met two points with the same x (two small
/// combinations a + bλ ≡ 0 mod n: impossible for the entries' small a, b, handled all the
/// same); the caller recomputes it on the scalar path.
pub(crate) const RETRY_SCALAR: u64 = 2;
/// Status of a lane: the input was marked invalid; its output is meaningless.
pub(crate) const INVALID: u64 = 3;
/// Status of a lane: u₁·G + u₂·R is the point at infinity (no key).
pub(crate) const AT_INFINITY: u64 = 4;

/// Inputs of one batch, word-major (`x[k][i]` is 64-bit word k of lane i).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct Input8 {
    /// R's x-coordinate (r, or r + n), below p.
    pub x: [[u64; LANES]; 4],
    /// 1 where R's y must be odd.
    pub odd: [u64; LANES],
    /// R's y-coordinate, canonical: written by `super::recover::lift`, read by
    /// `super::recover::recover_groups`.
    pub y: [[u64; LANES]; 4],
    /// r, in [1, n).
    pub r: [[u64; LANES]; 4],
    /// s, in [1, n).
    pub s: [[u64; LANES]; 4],
    /// The message hash reduced mod n.
    pub m: [[u64; LANES]; 4],
    /// Bit i set where lane i holds a real input.
    pub valid: u64,
}

/// Outputs of one batch, word-major.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct Output8 {
    /// X (words 0..3) and Y (words 4..7) of each key, canonical little-endian words.
    pub key: [[u64; LANES]; 8],
    /// keccak256(X ‖ Y) as four little-endian words.
    pub hash: [[u64; LANES]; 4],
    /// One of [`OK`], [`NOT_ON_CURVE`], [`RETRY_SCALAR`], [`INVALID`], [`AT_INFINITY`] per
    /// lane.
    pub status: [u64; LANES],
}

#[cfg(all(target_arch = "x86_64", any(test, feature = "emu")))]
impl Input8 {
    /// The record as little-endian bytes in `repr(C)` order (for the emulator, which takes
    /// buffers as bytes).
    pub fn encode(&self) -> Vec<u8> {
        let mut w: Vec<u64> = Vec::with_capacity(169);
        w.extend(self.x.iter().flatten());
        w.extend(&self.odd);
        w.extend(self.y.iter().flatten());
        for v in [&self.r, &self.s, &self.m] {
            w.extend(v.iter().flatten());
        }
        w.push(self.valid);
        w.iter().flat_map(|x| x.to_le_bytes()).collect()
    }
}

#[cfg(all(target_arch = "x86_64", any(test, feature = "emu")))]
impl Output8 {
    /// Size of the record in bytes.
    pub const BYTES: usize = (8 + 4 + 1) * LANES * 8;

    /// The record from little-endian bytes in `repr(C)` order.
    pub fn from_bytes(b: &[u8]) -> Self {
        let mut words = b.chunks_exact(8).map(|c| {
            let mut a = [0u8; 8];
            a.copy_from_slice(c);
            u64::from_le_bytes(a)
        });
        let mut next = || words.next().unwrap_or(0);
        let mut o = Output8::default();
        for row in o.key.iter_mut().chain(o.hash.iter_mut()) {
            row.iter_mut().for_each(|x| *x = next());
        }
        o.status.iter_mut().for_each(|x| *x = next());
        o
    }
}

/// Four vectors from four rows of words.
#[inline(always)]
pub(crate) fn load4<B: Backend>(w: &[[u64; LANES]; 4]) -> [B::V; 4] {
    [
        B::load(&w[0]),
        B::load(&w[1]),
        B::load(&w[2]),
        B::load(&w[3]),
    ]
}

#[cfg(test)]
#[cfg(target_arch = "x86_64")]
mod tests {
    //! The emulator's byte forms against the records' `repr(C)` layout as the compiler lays
    //! it out (`size_of`, `offset_of!`): the emulated engine reads what `encode` writes and
    //! `from_bytes` reads what it writes back.
    use super::{Input8, Output8};
    use crate::test_support::rng::SplitMix64;
    use core::mem::{offset_of, size_of};

    /// The little-endian word at byte `at` (a field's offset) plus word `j` of that field.
    fn word(bytes: &[u8], at: usize, j: usize) -> u64 {
        let mut w = [0u8; 8];
        w.copy_from_slice(&bytes[at + 8 * j..at + 8 * j + 8]);
        u64::from_le_bytes(w)
    }

    #[test]
    fn input_encode_is_the_repr_c_layout() {
        let mut rng = SplitMix64(1);
        let mut inp = Input8::default();
        for rows in [&mut inp.x, &mut inp.y, &mut inp.r, &mut inp.s, &mut inp.m] {
            rows.iter_mut().flatten().for_each(|x| *x = rng.next_u64());
        }
        inp.odd.iter_mut().for_each(|x| *x = rng.next_u64());
        inp.valid = rng.next_u64();

        let bytes = inp.encode();
        assert_eq!(bytes.len(), size_of::<Input8>());
        for (at, rows) in [
            (offset_of!(Input8, x), &inp.x),
            (offset_of!(Input8, y), &inp.y),
            (offset_of!(Input8, r), &inp.r),
            (offset_of!(Input8, s), &inp.s),
            (offset_of!(Input8, m), &inp.m),
        ] {
            for (j, &x) in rows.iter().flatten().enumerate() {
                assert_eq!(word(&bytes, at, j), x, "word {j} at offset {at}");
            }
        }
        for (j, &x) in inp.odd.iter().enumerate() {
            assert_eq!(word(&bytes, offset_of!(Input8, odd), j), x);
        }
        assert_eq!(word(&bytes, offset_of!(Input8, valid), 0), inp.valid);
    }

    #[test]
    fn output_from_bytes_is_the_repr_c_layout() {
        assert_eq!(Output8::BYTES, size_of::<Output8>());
        let bytes: Vec<u8> = SplitMix64(2)
            .words(Output8::BYTES / 8)
            .iter()
            .flat_map(|x| x.to_le_bytes())
            .collect();
        let out = Output8::from_bytes(&bytes);
        let key = offset_of!(Output8, key);
        let hash = offset_of!(Output8, hash);
        let status = offset_of!(Output8, status);
        for (j, &x) in out.key.iter().flatten().enumerate() {
            assert_eq!(word(&bytes, key, j), x, "key word {j}");
        }
        for (j, &x) in out.hash.iter().flatten().enumerate() {
            assert_eq!(word(&bytes, hash, j), x, "hash word {j}");
        }
        for (j, &x) in out.status.iter().enumerate() {
            assert_eq!(word(&bytes, status, j), x, "status {j}");
        }
        // A short buffer: the words it lacks read as zero.
        let short = Output8::from_bytes(&bytes[..16]);
        assert_eq!(short.key[0][..2], out.key[0][..2]);
        assert!(short.key[0][2..].iter().all(|&x| x == 0));
        assert!(short.status.iter().all(|&x| x == 0));
    }
}
