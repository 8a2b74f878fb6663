//! Keccak-f\[1600\] on eight independent states, one state per lane, generic over
//! [`Backend`].
//!
//! The state layout is the scalar one (`crate::keccak`): lane `(x, y)` of the state at
//! index `x + 5 * y`, sponge bytes little-endian within each 64-bit word. Here each of those
//! 25 entries is a vector whose lane `i` belongs to state `i`.
//!
//! Everything is `#[inline(always)]` and indexed by constants, so that it inlines into the
//! `#[target_feature]` entry points and LLVM keeps the 25 vectors in registers (32 ZMM
//! registers hold them all). On AVX-512 a round is 90 vector operations: θ's column parities
//! and the θ correction fold into `vpternlogq` (`xor3`), ρ is `vprolq`, χ is one
//! `vpternlogq` (`xor_andn`) per lane.

// Only the x86-64 paths use the multi-lane code outside the tests.
#![cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]

use super::{Backend, LANES};

/// Number of rounds of Keccak-f\[1600\].
const ROUNDS: usize = 24;

/// Round constants for ι (the scalar module derives the same table from the LFSR; a unit
/// test in `crate::keccak::batch` checks that they agree).
pub(crate) const RC: [u64; ROUNDS] = [
    0x0000_0000_0000_0001,
    0x0000_0000_0000_8082,
    0x8000_0000_0000_808A,
    0x8000_0000_8000_8000,
    0x0000_0000_0000_808B,
    0x0000_0000_8000_0001,
    0x8000_0000_8000_8081,
    0x8000_0000_0000_8009,
    0x0000_0000_0000_008A,
    0x0000_0000_0000_0088,
    0x0000_0000_8000_8009,
    0x0000_0000_8000_000A,
    0x0000_0000_8000_808B,
    0x8000_0000_0000_008B,
    0x8000_0000_0000_8089,
    0x8000_0000_0000_8003,
    0x8000_0000_0000_8002,
    0x8000_0000_0000_0080,
    0x0000_0000_0000_800A,
    0x8000_0000_8000_000A,
    0x8000_0000_8000_8081,
    0x8000_0000_0000_8080,
    0x0000_0000_8000_0001,
    0x8000_0000_8000_8008,
];

/// ρ rotation offsets, lane `(x, y)` at index `x + 5 * y` (same table as the scalar
/// module's, checked by the same test).
pub(crate) const RHO: [u32; 25] = [
    0, 1, 62, 28, 27, //
    36, 44, 6, 55, 20, //
    3, 10, 43, 25, 39, //
    41, 45, 15, 21, 8, //
    18, 2, 61, 56, 14,
];

/// Rate of Keccak-256 in 64-bit words.
const RATE_WORDS: usize = 17;

/// One round: θ, ρ, π, χ, ι.
///
/// π moves lane `(x, y)` to `(y, 2x + 3y)`, so output lane `(x', y')` comes from lane
/// `((x' + 3y') mod 5, x')`: the source indices per output plane are listed below.
#[inline(always)]
fn round<B: Backend>(a: &[B::V; 25], rc: u64) -> [B::V; 25] {
    // θ: column parities C[x], then lane (x, y) ^= C[x − 1] ^ rot(C[x + 1], 1).
    let c0 = B::xor3(B::xor3(a[0], a[5], a[10]), a[15], a[20]);
    let c1 = B::xor3(B::xor3(a[1], a[6], a[11]), a[16], a[21]);
    let c2 = B::xor3(B::xor3(a[2], a[7], a[12]), a[17], a[22]);
    let c3 = B::xor3(B::xor3(a[3], a[8], a[13]), a[18], a[23]);
    let c4 = B::xor3(B::xor3(a[4], a[9], a[14]), a[19], a[24]);
    // Indexed by the x of the lane being corrected.
    let left = [c4, c0, c1, c2, c3];
    let right = [
        B::rotl::<1>(c1),
        B::rotl::<1>(c2),
        B::rotl::<1>(c3),
        B::rotl::<1>(c4),
        B::rotl::<1>(c0),
    ];

    // θ correction and ρ rotation of source lane `$src`.
    macro_rules! lane {
        ($src:literal) => {
            B::rotl::<{ RHO[$src] as i32 }>(B::xor3(a[$src], left[$src % 5], right[$src % 5]))
        };
    }

    // χ on one output plane: b[x] ^ (!b[x + 1] & b[x + 2]).
    macro_rules! chi {
        ($out:ident, $y:literal, $b0:expr, $b1:expr, $b2:expr, $b3:expr, $b4:expr) => {{
            let (b0, b1, b2, b3, b4) = ($b0, $b1, $b2, $b3, $b4);
            $out[5 * $y] = B::xor_andn(b0, b1, b2);
            $out[5 * $y + 1] = B::xor_andn(b1, b2, b3);
            $out[5 * $y + 2] = B::xor_andn(b2, b3, b4);
            $out[5 * $y + 3] = B::xor_andn(b3, b4, b0);
            $out[5 * $y + 4] = B::xor_andn(b4, b0, b1);
        }};
    }

    let mut out = *a;
    // Lane (0, 0) has rotation 0.
    let b00 = B::xor3(a[0], left[0], right[0]);
    chi!(out, 0, b00, lane!(6), lane!(12), lane!(18), lane!(24));
    chi!(out, 1, lane!(3), lane!(9), lane!(10), lane!(16), lane!(22));
    chi!(out, 2, lane!(1), lane!(7), lane!(13), lane!(19), lane!(20));
    chi!(out, 3, lane!(4), lane!(5), lane!(11), lane!(17), lane!(23));
    chi!(out, 4, lane!(2), lane!(8), lane!(14), lane!(15), lane!(21));
    out[0] = B::xor(out[0], B::splat(rc));
    out
}

/// Keccak-f\[1600\] (24 rounds) on eight states at once: `a[x + 5y]` lane `i` is word
/// `(x, y)` of state `i`.
#[inline(always)]
pub(crate) fn keccak_f1600_x8<B: Backend>(a: &mut [B::V; 25]) {
    let mut s = *a;
    for rc in RC {
        s = round::<B>(&s, rc);
    }
    *a = s;
}

/// [`keccak_f1600_x8`] on eight states held in memory, word-major: `s[w][i]` is word `w`
/// of state `i` (loaded into vectors, permuted, stored back).
#[inline(always)]
pub(crate) fn keccak_f1600_x8_words<B: Backend>(s: &mut [[u64; LANES]; 25]) {
    let mut a = [B::splat(0); 25];
    for (v, w) in a.iter_mut().zip(s.iter()) {
        *v = B::load(w);
    }
    keccak_f1600_x8::<B>(&mut a);
    for (w, v) in s.iter_mut().zip(a) {
        *w = B::store(v);
    }
}

/// [`keccak256_64_x8`] on words in memory: `msg[k][i]` is word `k` of message `i`, and
/// word `k` of hash `i` is returned at `[k][i]`.
#[inline(always)]
pub(crate) fn keccak256_64_x8_words<B: Backend>(msg: &[[u64; LANES]; 8]) -> [[u64; LANES]; 4] {
    let mut v = [B::splat(0); 8];
    for (v, w) in v.iter_mut().zip(msg.iter()) {
        *v = B::load(w);
    }
    let h = keccak256_64_x8::<B>(&v);
    let mut out = [[0u64; LANES]; 4];
    for (o, h) in out.iter_mut().zip(h) {
        *o = B::store(h);
    }
    out
}

/// Keccak-256 of eight 64-byte messages (uncompressed public keys without the `0x04`
/// prefix): `msg[k]` lane `i` is the little-endian word `k` (bytes `8k..8k + 8`) of message
/// `i`. Returns the four hash words, lane `i` holding hash `i` (little-endian words, so
/// byte `j` of hash `i` is byte `j mod 8` of word `j / 8`, lane `i`).
///
/// A single padded block, so the sponge is one permutation. The first and last rounds are
/// outside the loop: once inlined, the 17 constant lanes of the block (padding and zeros)
/// fold into the first round and only the four squeezed lanes survive the last one.
#[inline(always)]
pub(crate) fn keccak256_64_x8<B: Backend>(msg: &[B::V; 8]) -> [B::V; 4] {
    let zero = B::splat(0);
    let mut a = [zero; 25];
    a[..8].copy_from_slice(msg);
    // Padding 0x01 ‖ 0…0 ‖ 0x80: byte 64 is the first of word 8, byte 135 the last of
    // word 16.
    a[8] = B::splat(0x01);
    a[RATE_WORDS - 1] = B::splat(0x80 << 56);
    let mut s = round::<B>(&a, RC[0]);
    for &rc in &RC[1..ROUNDS - 1] {
        s = round::<B>(&s, rc);
    }
    let s = round::<B>(&s, RC[ROUNDS - 1]);
    [s[0], s[1], s[2], s[3]]
}
