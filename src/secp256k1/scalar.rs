//! Arithmetic modulo the secp256k1 group order
//! n = 0xFFFFFFFF FFFFFFFF FFFFFFFF FFFFFFFE BAAEDCE6 AF48A03B BFD25E8C D0364141.
//!
//! Four little-endian 64-bit limbs, always fully reduced (value < n). Scalars are few per
//! recovery (r⁻¹, u₁, u₂ and the GLV split), so the code favours clarity over the last
//! cycle; reduction of a 512-bit product uses 2²⁵⁶ ≡ 2²⁵⁶ − n (a 129-bit constant).

#![allow(dead_code)]

use crate::arith::modinv::{self, ModInfo, Signed62};
use crate::arith::wide;

/// The group order n.
pub const N: [u64; 4] = [
    0xBFD2_5E8C_D036_4141,
    0xBAAE_DCE6_AF48_A03B,
    0xFFFF_FFFF_FFFF_FFFE,
    0xFFFF_FFFF_FFFF_FFFF,
];
/// 2²⁵⁶ − n.
const N_C: [u64; 3] = [0x402D_A173_2FC9_BEBF, 0x4551_2319_50B7_5FC4, 1];
/// ⌊n / 2⌋.
const N_HALF: [u64; 4] = [
    0xDFE9_2F46_681B_20A0,
    0x5D57_6E73_57A4_501D,
    0xFFFF_FFFF_FFFF_FFFF,
    0x7FFF_FFFF_FFFF_FFFF,
];

const N_MODINFO: ModInfo = ModInfo::new(N);

/// An integer mod n, fully reduced.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Scalar(pub(crate) [u64; 4]);

impl Scalar {
    /// 0.
    pub const ZERO: Self = Self([0; 4]);
    /// 1.
    pub const ONE: Self = Self([1, 0, 0, 0]);

    /// From little-endian words; the value must be below n.
    pub const fn from_words(w: [u64; 4]) -> Self {
        Self(w)
    }

    /// Parses 32 big-endian bytes; `None` if the value is ≥ n.
    pub fn from_bytes(b: &[u8; 32]) -> Option<Self> {
        let w = super::field::words_from_be(b);
        if ge(&w, &N) { None } else { Some(Self(w)) }
    }

    /// Parses 32 big-endian bytes, reducing mod n (as ECDSA does with the message hash).
    pub fn from_bytes_reduced(b: &[u8; 32]) -> Self {
        let w = super::field::words_from_be(b);
        // A 256-bit value is below 2n, so one conditional subtraction suffices.
        if ge(&w, &N) {
            Self(sub_words(&w, &N))
        } else {
            Self(w)
        }
    }

    /// 32 big-endian bytes.
    pub fn to_bytes(self) -> [u8; 32] {
        let mut out = [0u8; 32];
        for i in 0..4 {
            out[8 * i..8 * i + 8].copy_from_slice(&self.0[3 - i].to_be_bytes());
        }
        out
    }

    /// True for zero.
    pub fn is_zero(&self) -> bool {
        self.0 == [0; 4]
    }

    /// True if the value exceeds ⌊n/2⌋, i.e. its negation is shorter.
    pub fn is_high(&self) -> bool {
        gt(&self.0, &N_HALF)
    }

    /// `self + other mod n`.
    pub fn add(&self, other: &Self) -> Self {
        let (s, carry) = add_words(&self.0, &other.0);
        if carry || ge(&s, &N) {
            Self(sub_words(&s, &N))
        } else {
            Self(s)
        }
    }

    /// `−self mod n`.
    pub fn negate(&self) -> Self {
        if self.is_zero() {
            *self
        } else {
            Self(sub_words(&N, &self.0))
        }
    }

    /// `self · other mod n`.
    pub fn mul(&self, other: &Self) -> Self {
        reduce512(&mul_wide(&self.0, &other.0))
    }

    /// ⌊self · other / 2^shift⌉ (rounded to nearest) for `shift` ≥ 256, as plain integers.
    /// Used by the GLV split.
    pub fn mul_shift(&self, other: &Self, shift: u32) -> Self {
        debug_assert!((256..512).contains(&shift));
        let l = mul_wide(&self.0, &other.0);
        let mut r = [0u64; 4];
        let word = (shift / 64) as usize;
        let bit = shift % 64;
        for (i, ri) in r.iter_mut().enumerate() {
            let lo = if word + i < 8 { l[word + i] } else { 0 };
            let hi = if word + i + 1 < 8 { l[word + i + 1] } else { 0 };
            *ri = if bit == 0 {
                lo
            } else {
                lo >> bit | hi << (64 - bit)
            };
        }
        // Round: add the bit just below the cut.
        let below = shift - 1;
        let round = (l[(below / 64) as usize] >> (below % 64)) & 1;
        let (r, _) = add_words(&r, &[round, 0, 0, 0]);
        Self(r)
    }

    /// Multiplicative inverse mod n (0 ↦ 0), by safegcd in variable time.
    pub fn inv(&self) -> Self {
        let r = modinv::inv(&Signed62::from_u64x4(self.0), &N_MODINFO);
        Self(r.to_u64x4())
    }

    /// [`Scalar::inv`] in steps ([`modinv::Inverter::step`]), for a caller that spreads it
    /// between the steps of other work; [`Scalar::from_inverter`] finishes it.
    pub(crate) fn inverter(&self) -> modinv::Inverter<'static> {
        modinv::Inverter::new(&Signed62::from_u64x4(self.0), &N_MODINFO)
    }

    /// The inverse an [`Scalar::inverter`] computes.
    pub(crate) fn from_inverter(inv: modinv::Inverter<'_>) -> Self {
        Self(inv.finish().to_u64x4())
    }

    /// `count` bits (≤ 32) starting at bit `offset`, for window recodings.
    #[inline]
    pub fn bits(&self, offset: u32, count: u32) -> u32 {
        debug_assert!((1..=32).contains(&count) && offset + count <= 256 + 32);
        let word = (offset / 64) as usize;
        let bit = offset % 64;
        let lo = if word < 4 { self.0[word] >> bit } else { 0 };
        let hi = if bit != 0 && word + 1 < 4 {
            self.0[word + 1] << (64 - bit)
        } else {
            0
        };
        ((lo | hi) & ((1u64 << count) - 1)) as u32
    }

    /// The number of significant bits.
    pub fn bit_len(&self) -> u32 {
        for i in (0..4).rev() {
            if self.0[i] != 0 {
                return 64 * i as u32 + 64 - self.0[i].leading_zeros();
            }
        }
        0
    }
}

/// a + b as 256-bit words: the sum mod 2²⁵⁶ and whether it carried out.
#[inline]
pub(crate) fn add_words(a: &[u64; 4], b: &[u64; 4]) -> ([u64; 4], bool) {
    let mut out = [0u64; 4];
    let mut carry = 0u128;
    for i in 0..4 {
        let s = a[i] as u128 + b[i] as u128 + carry;
        out[i] = s as u64;
        carry = s >> 64;
    }
    (out, carry != 0)
}

/// a − b mod 2²⁵⁶.
#[inline]
pub(crate) fn sub_words(a: &[u64; 4], b: &[u64; 4]) -> [u64; 4] {
    let mut out = [0u64; 4];
    let mut borrow = 0u64;
    for i in 0..4 {
        let (d1, b1) = a[i].overflowing_sub(b[i]);
        let (d2, b2) = d1.overflowing_sub(borrow);
        out[i] = d2;
        borrow = (b1 | b2) as u64;
    }
    out
}

fn ge(a: &[u64; 4], b: &[u64; 4]) -> bool {
    for i in (0..4).rev() {
        if a[i] != b[i] {
            return a[i] > b[i];
        }
    }
    true
}

fn gt(a: &[u64; 4], b: &[u64; 4]) -> bool {
    a != b && ge(a, b)
}

/// The full 512-bit product.
fn mul_wide(a: &[u64; 4], b: &[u64; 4]) -> [u64; 8] {
    let mut out = [0u64; 8];
    for i in 0..4 {
        let mut carry = 0u128;
        for j in 0..4 {
            let t = wide::mul(a[i], b[j]) + out[i + j] as u128 + carry;
            out[i + j] = t as u64;
            carry = t >> 64;
        }
        out[i + 4] = carry as u64;
    }
    out
}

/// Reduces a 512-bit value mod n by folding the high half with 2²⁵⁶ ≡ N_C.
fn reduce512(l: &[u64; 8]) -> Scalar {
    // Step 1: l = lo + hi·2²⁵⁶ ≡ lo + hi·N_C, at most 256 + 129 + 1 = 386 bits (7 words).
    let mut acc = [0u64; 7];
    acc[..4].copy_from_slice(&l[..4]);
    mul_add(&mut acc, &l[4..8], &N_C);
    // Step 2: fold words 4..6 (≤ 130 bits) again: result ≤ 256 + 130 bits... then ≤ 2²⁵⁷.
    let hi2 = [acc[4], acc[5], acc[6]];
    let mut acc2 = [0u64; 7];
    acc2[..4].copy_from_slice(&acc[..4]);
    mul_add(&mut acc2, &hi2, &N_C);
    // Step 3: acc2 < 2²⁵⁶ + 2²⁶⁰ at most; fold once more with the (tiny) high part.
    let hi3 = [acc2[4], acc2[5], acc2[6]];
    let mut acc3 = [0u64; 7];
    acc3[..4].copy_from_slice(&acc2[..4]);
    mul_add(&mut acc3, &hi3, &N_C);
    debug_assert!(acc3[5] == 0 && acc3[6] == 0 && acc3[4] <= 1);
    let mut r = [acc3[0], acc3[1], acc3[2], acc3[3]];
    // Value = r + acc3[4]·2²⁵⁶ < 2n: subtract n at most twice.
    if acc3[4] != 0 {
        let (s, _) = add_words(&r, &[N_C[0], N_C[1], N_C[2], 0]);
        r = s;
    }
    while ge(&r, &N) {
        r = sub_words(&r, &N);
    }
    Scalar(r)
}

/// acc += a · b (acc has room for the result).
fn mul_add(acc: &mut [u64; 7], a: &[u64], b: &[u64]) {
    for (i, &ai) in a.iter().enumerate() {
        let mut carry = 0u128;
        for (j, &bj) in b.iter().enumerate() {
            let t = wide::mul(ai, bj) + acc[i + j] as u128 + carry;
            acc[i + j] = t as u64;
            carry = t >> 64;
        }
        let mut k = i + b.len();
        while carry != 0 && k < acc.len() {
            let t = acc[k] as u128 + carry;
            acc[k] = t as u64;
            carry = t >> 64;
            k += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use num_bigint::BigUint;

    fn big(s: &[u64]) -> BigUint {
        let mut v = BigUint::from(0u8);
        for &w in s.iter().rev() {
            v = (v << 64u32) + BigUint::from(w);
        }
        v
    }
    fn n() -> BigUint {
        big(&N)
    }
    fn sc(v: &BigUint) -> Scalar {
        let d = v.to_u64_digits();
        let mut w = [0u64; 4];
        w[..d.len()].copy_from_slice(&d);
        Scalar(w)
    }

    use crate::test_support::rng::SplitMix64;

    fn edge() -> Vec<BigUint> {
        let n = n();
        let one = BigUint::from(1u8);
        vec![
            BigUint::from(0u8),
            one.clone(),
            BigUint::from(2u8),
            &n - 1u8,
            &n - 2u8,
            &n >> 1u32,
            (&n >> 1u32) + 1u8,
            (one.clone() << 128u32) - 1u8,
            one.clone() << 128u32,
            (one.clone() << 255u32) - 1u8,
        ]
    }

    #[test]
    fn constants() {
        let n = n();
        assert_eq!(big(&N_C), (BigUint::from(1u8) << 256u32) - &n);
        assert_eq!(big(&N_HALF), &n >> 1u32);
    }

    #[test]
    fn arithmetic_matches_bigint() {
        let n = n();
        let mut rng = SplitMix64(11);
        let mut vals = edge();
        for _ in 0..3000 {
            vals.push(big(&rng.words4()) % &n);
        }
        for (i, a) in vals.iter().enumerate() {
            let b = &vals[(i * 13 + 5) % vals.len()];
            let (sa, sb) = (sc(a), sc(b));
            assert_eq!(big(&sa.mul(&sb).0), (a * b) % &n);
            assert_eq!(big(&sa.add(&sb).0), (a + b) % &n);
            assert_eq!(big(&sa.negate().0), (&n - a) % &n);
            assert_eq!(sa.is_high(), a > &(&n >> 1u32));
            assert_eq!(sa.bit_len() as u64, a.bits());
            let inv = sa.inv();
            if a == &BigUint::from(0u8) {
                assert!(inv.is_zero());
            } else {
                assert_eq!((big(&inv.0) * a) % &n, BigUint::from(1u8));
            }
            // The same inversion in steps, some taken here and the rest by from_inverter.
            let mut stepped = sa.inverter();
            for _ in 0..i % 12 {
                stepped.step();
            }
            assert_eq!(Scalar::from_inverter(stepped), inv);
            for shift in [256u32, 300, 384, 400] {
                let prod = a * b;
                let want = (&prod >> shift) + ((&prod >> (shift - 1)) & BigUint::from(1u8));
                assert_eq!(big(&sa.mul_shift(&sb, shift).0), want);
            }
            for (off, cnt) in [
                (0u32, 5u32),
                (60, 8),
                (62, 15),
                (120, 9),
                (250, 6),
                (255, 1),
                (240, 32),
                (256, 32),
                (270, 18),
            ] {
                let want = (a >> off) & ((BigUint::from(1u8) << cnt) - 1u8);
                assert_eq!(BigUint::from(sa.bits(off, cnt)), want);
            }
        }
    }

    /// The reduction of 512-bit products on words that make every carry of its three
    /// folds happen (0, 1, 2⁶³, all ones and one less, next to random words): a carry
    /// that runs past the product's last word into the accumulator's upper words needs a
    /// word of 2⁶⁴ − 2 or more there (a few times in 2⁶⁴ random products), which only
    /// crafted words reach.
    #[test]
    fn reduction_propagates_every_carry() {
        let n = n();
        let mut rng = SplitMix64(0x00ca_77e5);
        let pick = |rng: &mut SplitMix64| match rng.next_u64() % 6 {
            0 => 0,
            1 => 1,
            2 => 1 << 63,
            3 => u64::MAX - 1,
            4 => rng.next_u64(),
            _ => u64::MAX,
        };
        let mut inputs = vec![[u64::MAX; 8], [0; 8]];
        let mut low_ones = [u64::MAX; 8];
        low_ones[4..].copy_from_slice(&[1, 0, 0, 0]);
        inputs.push(low_ones);
        for _ in 0..20_000 {
            inputs.push([0; 8].map(|_| pick(&mut rng)));
        }
        for l in &inputs {
            assert_eq!(big(&reduce512(l).0), big(l) % &n, "{l:x?}");
        }
    }

    #[test]
    fn parsing() {
        let n = n();
        let mut b = [0u8; 32];
        b.copy_from_slice(&n.to_bytes_be());
        assert!(Scalar::from_bytes(&b).is_none());
        assert_eq!(Scalar::from_bytes_reduced(&b), Scalar::ZERO);
        b[31] -= 1;
        assert_eq!(big(&Scalar::from_bytes(&b).unwrap().0), &n - 1u8);
        assert_eq!(Scalar::from_bytes(&b).unwrap().to_bytes(), b);
        let ff = [0xffu8; 32];
        assert!(Scalar::from_bytes(&ff).is_none());
        let want = (BigUint::from_bytes_be(&ff)) % &n;
        assert_eq!(big(&Scalar::from_bytes_reduced(&ff).0), want);
    }
}
