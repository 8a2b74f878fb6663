//! 64 × 64 → 128-bit products, the one primitive the scalar core's u128 and i128 arithmetic
//! needs from the CPU.
//!
//! Everywhere but WebAssembly they are the plain u128 / i128 products, which every 64-bit
//! CPU computes in one or two instructions. WebAssembly's multiply keeps only the low 64
//! bits of a product, and LLVM lowers a 128-bit product to a call of compiler-builtins'
//! `__multi3` (a general 128 × 128-bit multiply): there the product is built inline from
//! four 32 × 32-bit products instead ([`mul_halves`], [`imul_halves`], which the tests run
//! on every host).

/// a · b, unsigned.
#[inline(always)]
pub(crate) fn mul(a: u64, b: u64) -> u128 {
    #[cfg(target_family = "wasm")]
    return mul_halves(a, b);
    #[cfg(not(target_family = "wasm"))]
    return a as u128 * b as u128;
}

/// a · b, signed.
#[inline(always)]
pub(crate) fn imul(a: i64, b: i64) -> i128 {
    #[cfg(target_family = "wasm")]
    return imul_halves(a, b);
    #[cfg(not(target_family = "wasm"))]
    return a as i128 * b as i128;
}

/// a · b, unsigned, from four 32 × 32 → 64-bit products.
#[cfg(any(target_family = "wasm", test))]
#[inline(always)]
fn mul_halves(a: u64, b: u64) -> u128 {
    const LO: u64 = 0xffff_ffff;
    let (a0, a1) = (a & LO, a >> 32);
    let (b0, b1) = (b & LO, b >> 32);
    let (p00, p01, p10, p11) = (a0 * b0, a0 * b1, a1 * b0, a1 * b1);
    // Below 3·2³²: no overflow.
    let mid = (p00 >> 32) + (p01 & LO) + (p10 & LO);
    let lo = (p00 & LO) | (mid << 32);
    let hi = p11 + (p01 >> 32) + (p10 >> 32) + (mid >> 32);
    (hi as u128) << 64 | lo as u128
}

/// a · b, signed: the unsigned product of the two's-complement words, whose high word is too
/// large by b for a negative a and by a for a negative b.
#[cfg(any(target_family = "wasm", test))]
#[inline(always)]
fn imul_halves(a: i64, b: i64) -> i128 {
    let p = mul_halves(a as u64, b as u64);
    let hi = ((p >> 64) as u64)
        .wrapping_sub(if a < 0 { b as u64 } else { 0 })
        .wrapping_sub(if b < 0 { a as u64 } else { 0 });
    ((hi as u128) << 64 | p as u64 as u128) as i128
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Values with long runs of equal bits and every sign, then seeded random ones.
    fn values() -> Vec<u64> {
        let mut v = vec![
            0,
            1,
            2,
            u64::MAX,
            u64::MAX - 1,
            1 << 63,
            (1 << 63) - 1,
            1 << 32,
        ];
        v.extend([
            (1 << 32) - 1,
            (1 << 32) + 1,
            0xffff_ffff_0000_0000,
            0x0000_ffff_ffff_0000,
        ]);
        let mut s = 0x2545_f491_4f6c_dd1du64;
        for _ in 0..300 {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            v.push(s);
            v.push(s >> (s % 64));
        }
        v
    }

    #[test]
    fn halves_match_the_wide_products() {
        let v = values();
        for &a in &v {
            for &b in &v {
                assert_eq!(mul_halves(a, b), a as u128 * b as u128, "{a:#x} · {b:#x}");
                let (sa, sb) = (a as i64, b as i64);
                assert_eq!(imul_halves(sa, sb), sa as i128 * sb as i128, "{sa} · {sb}");
                assert_eq!(mul(a, b), a as u128 * b as u128);
                assert_eq!(imul(sa, sb), sa as i128 * sb as i128);
            }
        }
    }
}
