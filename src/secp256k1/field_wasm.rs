//! The 4×64 field's multiply and square for WebAssembly, through 9 limbs of 29 bits.
//!
//! WebAssembly has a 64×64-bit multiply that keeps only the low word: LLVM turns each u128
//! product of the portable multiply into a call of compiler-builtins' `__multi3`. Here each
//! operand is cut into 9 limbs of 29 bits, so that the 81 products (45 for a square) are
//! 29×29 → 58-bit `i64.mul`s and a column of up to 9 of them sums below 2⁶² without a
//! carry; the 17 columns are folded into 9 limbs with 2²⁶¹ ≡ 2³⁷ + 31264 (mod p), the
//! 9 limbs packed back into four words, and what lies above bit 256 returned for the caller
//! to fold. `doc/internals.md` ("The field on WebAssembly") has the measurements that chose
//! this form over the u128 products and over 10 limbs of 26 bits.
//!
//! Plain Rust, compiled on every target (its tests run on the host), used on WebAssembly:
//! `field::Wasm` wraps it as a `FieldMul`; this file works on plain words.

/// The low 29 bits.
const M29: u64 = (1 << 29) - 1;
/// 2²⁶¹ mod p = 32 · 0x1000003D1 = 2³⁷ + FOLD: a limb of weight 2²⁶¹⁺²⁹ᵏ becomes FOLD times
/// itself at limb k and 2⁸ times itself at limb k + 1.
const FOLD: u64 = 31264;

/// Nine 29-bit limbs of a value below 2²⁵⁶ (the last limb has 24 bits).
#[inline(always)]
fn limbs(w: &[u64; 4]) -> [u64; 9] {
    [
        w[0] & M29,
        (w[0] >> 29) & M29,
        (w[0] >> 58 | w[1] << 6) & M29,
        (w[1] >> 23) & M29,
        (w[1] >> 52 | w[2] << 12) & M29,
        (w[2] >> 17) & M29,
        (w[2] >> 46 | w[3] << 18) & M29,
        (w[3] >> 11) & M29,
        w[3] >> 40,
    ]
}

/// The 17 columns of a product (each below 2⁶³) reduced: four words and the multiple of
/// 2²⁵⁶ above them, value ≡ the product (mod p).
#[inline(always)]
fn reduce(mut t: [u64; 17]) -> ([u64; 4], u64) {
    // Columns 8 to 16 into 29-bit limbs; what passes column 16 has weight 2⁴⁹³.
    for k in 8..16 {
        t[k + 1] += t[k] >> 29;
        t[k] &= M29;
    }
    let top = t[16] >> 29;
    t[16] &= M29;
    // Limbs 9 to 16 (weight 2²⁶¹⁺²⁹ᵏ) onto limbs k and k + 1. Each adds below 2⁴⁵.
    let mut l = [t[0], t[1], t[2], t[3], t[4], t[5], t[6], t[7], t[8]];
    for k in 0..8 {
        l[k] += t[9 + k] * FOLD;
        l[k + 1] += t[9 + k] << 8;
    }
    // top · 2⁴⁹³ ≡ top · (2³⁷ + FOLD) · 2²³²: FOLD·top at limb 8, and top · 2⁸ · 2²⁶¹ once
    // more around, at limbs 0 and 1 (top is below 2³⁴).
    l[8] += top * FOLD;
    l[0] += top * (FOLD << 8);
    l[1] += top << 16;
    // One carry pass; limb 8's bits from 24 on have weight 2²⁵⁶ and go back to the caller.
    for k in 0..8 {
        l[k + 1] += l[k] >> 29;
        l[k] &= M29;
    }
    let over = l[8] >> 24;
    let l8 = l[8] & ((1 << 24) - 1);
    let words = [
        l[0] | l[1] << 29 | l[2] << 58,
        l[2] >> 6 | l[3] << 23 | l[4] << 52,
        l[4] >> 12 | l[5] << 17 | l[6] << 46,
        l[6] >> 18 | l[7] << 11 | l8 << 40,
    ];
    (words, over)
}

/// `a · b`: four words and the multiple of 2²⁵⁶ above them (below 2⁴⁰).
#[inline(always)]
pub(super) fn mul(a: &[u64; 4], b: &[u64; 4]) -> ([u64; 4], u64) {
    let (a, b) = (limbs(a), limbs(b));
    let mut t = [0u64; 17];
    for i in 0..9 {
        for j in 0..9 {
            t[i + j] += a[i] * b[j];
        }
    }
    reduce(t)
}

/// `a²`, as [`mul`]: the cross products once, against the doubled limbs.
#[inline(always)]
pub(super) fn sqr(a: &[u64; 4]) -> ([u64; 4], u64) {
    let a = limbs(a);
    let mut t = [0u64; 17];
    for i in 0..9 {
        t[2 * i] += a[i] * a[i];
        let d = a[i] << 1;
        for j in i + 1..9 {
            t[i + j] += d * a[j];
        }
    }
    reduce(t)
}
