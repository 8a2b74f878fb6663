//! Arithmetic modulo the P-256 group order
//! n = 0xFFFFFFFF 00000000 FFFFFFFF FFFFFFFF BCE6FAAD A7179E84 F3B9CAC2 FC632551.
//!
//! A verification needs few scalars: s⁻¹, u₁ = z·s⁻¹ and u₂ = r·s⁻¹. They are computed
//! with Montgomery products (R = 2²⁵⁶, the generic word-by-word reduction with
//! −n⁻¹ mod 2⁶⁴) around one safegcd inversion ([`crate::arith::modinv`], shared with
//! secp256k1): with a = s·R⁻¹ (one product by 1), a⁻¹ = s⁻¹·R, and a Montgomery product of
//! z or r by that is z·s⁻¹ or r·s⁻¹ itself. Values are plain (not Montgomery) integers,
//! fully reduced.

use crate::arith::modinv::{self, ModInfo, Signed62};
use crate::arith::wide;
use crate::arith::words;

/// The group order n, little-endian words.
pub const N: [u64; 4] = [
    0xF3B9_CAC2_FC63_2551,
    0xBCE6_FAAD_A717_9E84,
    0xFFFF_FFFF_FFFF_FFFF,
    0xFFFF_FFFF_0000_0000,
];

/// −n⁻¹ mod 2⁶⁴, by Newton's iteration (each step doubles the correct low bits).
const N0: u64 = {
    let mut x = N[0];
    let mut i = 0;
    while i < 5 {
        x = x.wrapping_mul(2u64.wrapping_sub(N[0].wrapping_mul(x)));
        i += 1;
    }
    x.wrapping_neg()
};

const N_MODINFO: ModInfo = ModInfo::new(N);

/// An integer mod n, fully reduced.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Scalar(pub(crate) [u64; 4]);

impl Scalar {
    /// 0.
    #[cfg(test)]
    pub const ZERO: Self = Self([0; 4]);
    /// 1.
    #[cfg(test)]
    pub const ONE: Self = Self([1, 0, 0, 0]);

    /// Parses 32 big-endian bytes; `None` if the value is 0 or not below n (the range
    /// [1, n−1] that r and s must lie in).
    pub fn from_bytes_nonzero(b: &[u8; 32]) -> Option<Self> {
        let w = words::from_be(b);
        (!words::is_zero(&w) && !words::ge(&w, &N)).then_some(Self(w))
    }

    /// Parses 32 big-endian bytes, reducing mod n (the tests' scalars).
    #[cfg(test)]
    pub fn from_bytes_reduced(b: &[u8; 32]) -> Self {
        let w = words::from_be(b);
        // Below 2²⁵⁶ < 2n: one conditional subtraction.
        let (d, borrow) = words::sub(&w, &N);
        Self(if borrow { w } else { d })
    }

    /// 32 big-endian bytes.
    #[cfg(test)]
    pub fn to_bytes(self) -> [u8; 32] {
        words::to_be(&self.0)
    }

    /// a·b·R⁻¹ mod n (a Montgomery product).
    pub fn mont_mul(&self, b: &Self) -> Self {
        Self(mont_mul(&self.0, &b.0))
    }

    /// The factor x with x·R⁻¹ = s⁻¹, so that [`Scalar::mont_mul`] by it divides by s:
    /// s⁻¹·R mod n. `s` must be nonzero.
    pub fn inv_montgomery(&self) -> Self {
        let inv = modinv::inv(&Signed62::from_u64x4(self.0), &N_MODINFO).to_u64x4();
        Self(mont_mul(&inv, &R2))
    }

    /// [`Scalar::inv_montgomery`] of every element of `s` (all nonzero) with one inversion
    /// (Montgomery's trick): the words of each s, read as Montgomery representatives, are
    /// multiplied up, the product inverted, and the inverses peeled off backwards. Each
    /// result is the representative's inverse (s⁻¹·R²) times R⁻¹, which is s⁻¹·R.
    pub fn batch_inv_montgomery(s: &[Self]) -> Vec<Self> {
        let mut out = Vec::with_capacity(s.len());
        let Some(first) = s.first() else {
            return out;
        };
        // out[i] = s₀·…·sᵢ (Montgomery products).
        let mut acc = first.0;
        out.push(Self(acc));
        for x in &s[1..] {
            acc = mont_mul(&acc, &x.0);
            out.push(Self(acc));
        }
        let mut inv = Self(acc).inv_montgomery().0;
        for i in (1..s.len()).rev() {
            out[i] = Self(mont_mul(&inv, &out[i - 1].0));
            inv = mont_mul(&inv, &s[i].0);
        }
        out[0] = Self(inv);
        out
    }
}

/// R² mod n.
const R2: [u64; 4] = [
    0x8324_4C95_BE79_EEA2,
    0x4699_799C_49BD_6FA6,
    0x2845_B239_2B6B_EC59,
    0x66E1_2D94_F3D9_5620,
];

/// a·b·R⁻¹ mod n for a below 2²⁵⁶ and b below n (then a·b < R·n and the result is below
/// 2n before the final subtraction), word-serial Montgomery (CIOS).
fn mont_mul(a: &[u64; 4], b: &[u64; 4]) -> [u64; 4] {
    // t stays below 2n, so t + ai·b < 2n + (2⁶⁴ − 1)·n < 2³²⁰ (n < 2²⁵⁶ − 2²²⁴): five
    // words hold it.
    let mut t = [0u64; 5];
    for &ai in a {
        // t += ai·b
        let mut carry = 0u128;
        for j in 0..4 {
            let v = wide::mul(ai, b[j]) + t[j] as u128 + carry;
            t[j] = v as u64;
            carry = v >> 64;
        }
        t[4] += carry as u64;
        // t += m·n with m making the low word 0, then shift down one word.
        let m = t[0].wrapping_mul(N0);
        let v = wide::mul(m, N[0]) + t[0] as u128;
        let mut carry = v >> 64;
        for j in 1..4 {
            let v = wide::mul(m, N[j]) + t[j] as u128 + carry;
            t[j - 1] = v as u64;
            carry = v >> 64;
        }
        let v = t[4] as u128 + carry;
        t[3] = v as u64;
        t[4] = (v >> 64) as u64;
    }
    let r = [t[0], t[1], t[2], t[3]];
    let (d, borrow) = words::sub(&r, &N);
    if t[4] != 0 || !borrow { d } else { r }
}

#[cfg(test)]
mod tests {
    use super::*;
    use num_bigint::BigUint;

    fn big(w: &[u64; 4]) -> BigUint {
        BigUint::from_bytes_be(&words::to_be(w))
    }

    #[test]
    fn constants_and_products_match_num_bigint() {
        let n = big(&N);
        let r = BigUint::from(1u8) << 256u32;
        assert_eq!(big(&R2), (&r * &r) % &n);
        assert_eq!(N0.wrapping_mul(N[0]), u64::MAX, "−n⁻¹ mod 2⁶⁴");
        let rinv = r.modpow(&(&n - 2u8), &n);
        let mut s = 7u64;
        let mut next = || {
            s = s
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            s ^ (s >> 29)
        };
        let edges = [
            [0u64; 4],
            [1, 0, 0, 0],
            [N[0] - 1, N[1], N[2], N[3]],
            [u64::MAX; 4],
            [0, 0, 0, 1 << 63],
        ];
        for i in 0..2000 {
            let a = if i < edges.len() {
                edges[i]
            } else {
                [next(), next(), next(), next()]
            };
            let braw = [next(), next(), next(), next()];
            let b = Scalar::from_bytes_reduced(&words::to_be(&braw));
            let (ba, bb) = (big(&a), big(&b.0));
            assert!(bb < n);
            assert_eq!(big(&braw) % &n, bb, "reduction");
            assert_eq!(big(&mont_mul(&a, &b.0)), (&ba * &bb * &rinv) % &n);
            if b != Scalar::ZERO {
                let x = b.inv_montgomery();
                // z·s⁻¹ for an unreduced z (a hash) below 2²⁵⁶.
                let u = Scalar(a).mont_mul(&x);
                assert_eq!(big(&u.0), (&ba * bb.modpow(&(&n - 2u8), &n)) % &n);
            }
        }
    }

    #[test]
    fn batch_inversion_matches_one_at_a_time() {
        let mut s = 11u64;
        let mut next = || {
            s = s
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            s ^ (s >> 29)
        };
        for len in [0usize, 1, 2, 3, 17, 64] {
            let xs: Vec<Scalar> = (0..len)
                .map(|i| match i {
                    0 => Scalar::ONE,
                    1 => Scalar([N[0] - 1, N[1], N[2], N[3]]),
                    _ => {
                        Scalar::from_bytes_reduced(&words::to_be(&[next(), next(), next(), next()]))
                    }
                })
                .collect();
            let batch = Scalar::batch_inv_montgomery(&xs);
            let single: Vec<Scalar> = xs.iter().map(Scalar::inv_montgomery).collect();
            assert_eq!(batch, single, "length {len}");
        }
    }

    #[test]
    fn range_checks() {
        assert!(Scalar::from_bytes_nonzero(&[0; 32]).is_none());
        assert!(Scalar::from_bytes_nonzero(&words::to_be(&N)).is_none());
        assert!(Scalar::from_bytes_nonzero(&[0xFF; 32]).is_none());
        let mut below = N;
        below[0] -= 1;
        assert_eq!(
            Scalar::from_bytes_nonzero(&words::to_be(&below)),
            Some(Scalar(below))
        );
        assert_eq!(Scalar::from_bytes_reduced(&words::to_be(&N)), Scalar::ZERO);
    }
}
