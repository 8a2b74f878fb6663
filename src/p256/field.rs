//! The field of P-256, p = 2²⁵⁶ − 2²²⁴ + 2¹⁹² + 2⁹⁶ − 1, in Montgomery form.
//!
//! An element a is held as a·R mod p (R = 2²⁵⁶) in four little-endian 64-bit words, always
//! fully reduced (below p), so that equality is equality of words. p's shape makes the
//! Montgomery reduction cheap: its lowest word is 2⁶⁴ − 1, so the per-word factor
//! −p⁻¹ mod 2⁶⁴ is 1 (the quotient digit is the word itself), the next two words are
//! 2³² − 1 and 0 (a shift), and only the top word, 2⁶⁴ − 2³² + 1, needs a product. This is
//! the reduction of Gueron and Krasnov's P-256 ("nistz256", 2014).
//!
//! Products run on a [`FieldMul`]: the MULX/ADCX/ADOX assembly of `field_adx` on x86-64
//! CPUs with BMI2 and ADX, the portable Rust here everywhere else.

#![allow(dead_code)]

use crate::arith::modinv::{self, ModInfo, Signed62};
use crate::arith::wide;
use crate::arith::words;

// The assembly, a child of this file so that `build.rs` (which includes this file for the
// static tables) finds it too.
#[cfg(target_arch = "x86_64")]
#[path = "field_adx.rs"]
mod field_adx;
#[cfg(target_arch = "x86_64")]
#[path = "field_x86.rs"]
mod field_x86;

/// p, little-endian words.
pub const P: [u64; 4] = [
    0xFFFF_FFFF_FFFF_FFFF,
    0x0000_0000_FFFF_FFFF,
    0x0000_0000_0000_0000,
    0xFFFF_FFFF_0000_0001,
];
/// R² mod p: multiplying by it (in Montgomery form) converts into Montgomery form.
const R2: [u64; 4] = [
    0x0000_0000_0000_0003,
    0xFFFF_FFFB_FFFF_FFFF,
    0xFFFF_FFFF_FFFF_FFFE,
    0x0000_0004_FFFF_FFFD,
];
/// R³ mod p: the safegcd inverse of a·R is a⁻¹·R⁻¹; one product by R³ brings it to a⁻¹·R.
const R3: [u64; 4] = [
    0xFFFF_FFFD_0000_000A,
    0xFFFF_FFED_FFFF_FFF7,
    0x0000_0005_FFFF_FFFC,
    0x0000_0018_0000_0001,
];

const P_MODINFO: ModInfo = ModInfo::new(P);

/// An element of the field, a·R mod p, fully reduced.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Fe(pub(crate) [u64; 4]);

impl Fe {
    /// 0.
    pub const ZERO: Self = Self([0; 4]);
    /// 1 (R mod p).
    pub const ONE: Self = Self([
        0x0000_0000_0000_0001,
        0xFFFF_FFFF_0000_0000,
        0xFFFF_FFFF_FFFF_FFFF,
        0x0000_0000_FFFF_FFFE,
    ]);
    /// The curve's b, y² = x³ − 3x + b (b·R mod p).
    pub const B: Self = Self([
        0xD89C_DF62_29C4_BDDF,
        0xACF0_05CD_7884_3090,
        0xE5A2_20AB_F721_2ED6,
        0xDC30_061D_0487_4834,
    ]);

    /// An element from the words of its Montgomery form a·R mod p (below p), as the static
    /// tables store it.
    pub const fn from_montgomery(w: [u64; 4]) -> Self {
        Self(w)
    }

    /// Parses 32 big-endian bytes; `None` if the value is not below p.
    pub fn from_bytes(b: &[u8; 32]) -> Option<Self> {
        let w = words::from_be(b);
        if words::ge(&w, &P) {
            None
        } else {
            Some(Self::from_canonical(w))
        }
    }

    /// The element of canonical value `w` (below p).
    pub fn from_canonical(w: [u64; 4]) -> Self {
        debug_assert!(!words::ge(&w, &P));
        Portable.mul(&Self(w), &Self(R2))
    }

    /// The canonical value, little-endian words.
    pub fn to_canonical(self) -> [u64; 4] {
        Portable.mul(&self, &Self([1, 0, 0, 0])).0
    }

    /// 32 big-endian bytes of the canonical value.
    pub fn to_bytes(self) -> [u8; 32] {
        words::to_be(&self.to_canonical())
    }

    /// Whether this is 0.
    #[inline(always)]
    pub fn is_zero(&self) -> bool {
        words::is_zero(&self.0)
    }

    /// a + b (the assembly of `field_x86` on x86-64, [`add_words`] elsewhere).
    #[inline(always)]
    pub fn add(&self, b: &Self) -> Self {
        #[cfg(target_arch = "x86_64")]
        return Self(field_x86::add(&self.0, &b.0));
        #[cfg(not(target_arch = "x86_64"))]
        return Self(add_words(&self.0, &b.0));
    }

    /// a − b (the assembly of `field_x86` on x86-64, [`sub_words`] elsewhere).
    #[inline(always)]
    pub fn sub(&self, b: &Self) -> Self {
        #[cfg(target_arch = "x86_64")]
        return Self(field_x86::sub(&self.0, &b.0));
        #[cfg(not(target_arch = "x86_64"))]
        return Self(sub_words(&self.0, &b.0));
    }

    /// a/2 (the assembly of `field_x86` on x86-64, [`half_words`] elsewhere).
    #[inline(always)]
    pub fn half(&self) -> Self {
        #[cfg(target_arch = "x86_64")]
        return Self(field_x86::half(&self.0));
        #[cfg(not(target_arch = "x86_64"))]
        return Self(half_words(&self.0));
    }

    /// 2a.
    #[inline(always)]
    pub fn dbl(&self) -> Self {
        self.add(self)
    }

    /// −a.
    #[inline(always)]
    pub fn neg(&self) -> Self {
        Self::ZERO.sub(self)
    }

    /// a · b (on the portable multiply; the hot paths take a [`FieldMul`]).
    pub fn mul(&self, b: &Self) -> Self {
        Portable.mul(self, b)
    }

    /// a².
    pub fn sqr(&self) -> Self {
        Portable.sqr(self)
    }

    /// a⁻¹ (0 ↦ 0), by safegcd in variable time.
    pub fn inv(&self) -> Self {
        self.inv_with(Portable)
    }

    /// [`Fe::inv`] with the multiply `m` for the one product that leaves safegcd's result.
    #[inline]
    pub fn inv_with<M: FieldMul>(&self, m: M) -> Self {
        // safegcd inverts the representative a·R, giving a⁻¹·R⁻¹; times R³ (one Montgomery
        // product) that is a⁻¹·R.
        let x = modinv::inv(&Signed62::from_u64x4(self.0), &P_MODINFO).to_u64x4();
        m.mul(&Self(x), &Self(R3))
    }
}

/// The field products, one implementation per instruction set: [`Portable`] everywhere,
/// [`MulxAdx`] on x86-64 CPUs with BMI2 and ADX.
pub trait FieldMul: Copy {
    /// a · b.
    fn mul(self, a: &Fe, b: &Fe) -> Fe;
    /// a².
    fn sqr(self, a: &Fe) -> Fe;
    /// a^(2^k) by k squarings.
    #[inline(always)]
    fn sqr_n(self, a: &Fe, k: u32) -> Fe {
        let mut r = *a;
        for _ in 0..k {
            r = self.sqr(&r);
        }
        r
    }
}

/// [`FieldMul`] in portable Rust (u128 products; every CPU).
#[derive(Clone, Copy, Debug)]
pub struct Portable;

impl FieldMul for Portable {
    #[inline(always)]
    fn mul(self, a: &Fe, b: &Fe) -> Fe {
        Fe(mont_reduce(&mul_wide(&a.0, &b.0)))
    }
    #[inline(always)]
    fn sqr(self, a: &Fe) -> Fe {
        Fe(mont_reduce(&sqr_wide(&a.0)))
    }
}

/// [`FieldMul`] on the MULX/ADCX/ADOX assembly of `field_adx`. Only [`MulxAdx::detect`]
/// makes one, and only on a CPU with BMI2 and ADX, so holding one is the proof that the
/// assembly may run.
#[cfg(target_arch = "x86_64")]
#[derive(Clone, Copy, Debug)]
pub struct MulxAdx(());

#[cfg(target_arch = "x86_64")]
impl MulxAdx {
    /// The assembly multiply, if this CPU has BMI2 and ADX (detected once, by
    /// `crate::dispatch`).
    #[inline(always)]
    pub fn detect() -> Option<Self> {
        crate::dispatch::has_bmi2_adx().then_some(Self(()))
    }
}

#[cfg(target_arch = "x86_64")]
impl FieldMul for MulxAdx {
    #[inline(always)]
    fn mul(self, a: &Fe, b: &Fe) -> Fe {
        Fe(field_adx::mul(&a.0, &b.0))
    }
    #[inline(always)]
    fn sqr(self, a: &Fe) -> Fe {
        Fe(field_adx::sqr(&a.0))
    }
}

/// a + b mod p for a, b below p, in portable Rust: without a branch on the values, which
/// no predictor foresees.
#[inline(always)]
fn add_words(a: &[u64; 4], b: &[u64; 4]) -> [u64; 4] {
    let (s, carry) = words::add(a, b);
    let (d, borrow) = words::sub(&s, &P);
    // s < 2p: subtract p once when the sum carried out or is at least p.
    select(carry || !borrow, &d, &s)
}

/// a − b mod p for a, b below p, in portable Rust: p added back by a mask of the borrow.
#[inline(always)]
fn sub_words(a: &[u64; 4], b: &[u64; 4]) -> [u64; 4] {
    let (d, borrow) = words::sub(a, b);
    let m = (borrow as u64).wrapping_neg();
    words::add(&d, &[m, m & P[1], 0, m & P[3]]).0
}

/// a/2 mod p for a below p, in portable Rust: p added by a mask of a's parity (a + p is
/// even), then the 257-bit sum shifted right by one.
#[inline(always)]
fn half_words(a: &[u64; 4]) -> [u64; 4] {
    let m = (a[0] & 1).wrapping_neg();
    let (s, carry) = words::add(a, &[m, m & P[1], 0, m & P[3]]);
    [
        s[0] >> 1 | s[1] << 63,
        s[1] >> 1 | s[2] << 63,
        s[2] >> 1 | s[3] << 63,
        s[3] >> 1 | (carry as u64) << 63,
    ]
}

/// The 512-bit product of two 256-bit values (schoolbook, 16 word products).
#[inline(always)]
fn mul_wide(a: &[u64; 4], b: &[u64; 4]) -> [u64; 8] {
    let mut t = [0u64; 8];
    for i in 0..4 {
        let mut carry = 0u64;
        for j in 0..4 {
            let v = wide::mul(a[i], b[j]) + t[i + j] as u128 + carry as u128;
            t[i + j] = v as u64;
            carry = (v >> 64) as u64;
        }
        t[i + 4] = carry;
    }
    t
}

/// The 512-bit square (the 6 cross products once, doubled, then the 4 squares).
#[inline(always)]
fn sqr_wide(a: &[u64; 4]) -> [u64; 8] {
    let mut t = [0u64; 8];
    // Cross products aᵢ·aⱼ, i < j.
    for i in 0..3 {
        let mut carry = 0u64;
        for j in i + 1..4 {
            let v = wide::mul(a[i], a[j]) + t[i + j] as u128 + carry as u128;
            t[i + j] = v as u64;
            carry = (v >> 64) as u64;
        }
        t[i + 4] = carry;
    }
    // Doubled.
    let mut top = 0u64;
    for w in t.iter_mut() {
        let next = *w >> 63;
        *w = *w << 1 | top;
        top = next;
    }
    // Plus the squares aᵢ² at word 2i.
    let mut carry = 0u128;
    for i in 0..4 {
        let sq = wide::mul(a[i], a[i]);
        let v = t[2 * i] as u128 + (sq as u64) as u128 + carry;
        t[2 * i] = v as u64;
        let v = t[2 * i + 1] as u128 + (sq >> 64) + (v >> 64);
        t[2 * i + 1] = v as u64;
        carry = v >> 64;
    }
    t
}

/// t·R⁻¹ mod p for t < p·R (a product of two reduced elements), fully reduced.
#[inline(always)]
fn mont_reduce(t: &[u64; 8]) -> [u64; 4] {
    let mut t = *t;
    let mut top = 0u64;
    for i in 0..4 {
        // The quotient digit is m = tᵢ (−p⁻¹ ≡ 1 mod 2⁶⁴). Adding m·p clears word i:
        // tᵢ + m·(2⁶⁴ − 1) = m·2⁶⁴, a carry of m into word i+1, where m·(2³² − 1) adds on:
        // together m·2³² across words i+1 and i+2. Word i+2 of p is 0, word i+3 needs
        // the product m·(2⁶⁴ − 2³² + 1).
        let m = t[i];
        let v = t[i + 1] as u128 + ((m as u128) << 32);
        t[i + 1] = v as u64;
        let v = t[i + 2] as u128 + (v >> 64);
        t[i + 2] = v as u64;
        let v = t[i + 3] as u128 + wide::mul(m, P[3]) + (v >> 64);
        t[i + 3] = v as u64;
        let mut c = (v >> 64) as u64;
        for w in t.iter_mut().skip(i + 4) {
            let (s, o) = w.overflowing_add(c);
            *w = s;
            c = o as u64;
        }
        top += c;
    }
    let r = [t[4], t[5], t[6], t[7]];
    // r + top·2²⁵⁶ < 2p: one conditional subtraction.
    let (d, borrow) = words::sub(&r, &P);
    select(top != 0 || !borrow, &d, &r)
}

/// `a` if `c`, else `b`, word by word (a conditional move each, where the values stay in
/// registers).
#[inline(always)]
fn select(c: bool, a: &[u64; 4], b: &[u64; 4]) -> [u64; 4] {
    core::array::from_fn(|i| core::hint::select_unpredictable(c, a[i], b[i]))
}

#[cfg(test)]
mod tests {
    use super::*;
    use num_bigint::BigUint;

    fn big(w: &[u64; 4]) -> BigUint {
        w.iter()
            .rev()
            .fold(BigUint::from(0u8), |v, &x| (v << 64u32) + BigUint::from(x))
    }

    fn words_of(v: &BigUint) -> [u64; 4] {
        let mut d = v.to_u64_digits();
        d.resize(4, 0);
        [d[0], d[1], d[2], d[3]]
    }

    fn p() -> BigUint {
        big(&P)
    }

    fn r() -> BigUint {
        BigUint::from(1u8) << 256u32
    }

    /// Values at the limb bounds: 0, 1, p − 1, p − 2, 2ᵏ and 2ᵏ − 1 for every word edge,
    /// words of all ones, then seeded random values below p.
    fn samples() -> Vec<[u64; 4]> {
        let p = p();
        let mut v: Vec<BigUint> = vec![
            BigUint::from(0u8),
            BigUint::from(1u8),
            &p - 1u8,
            &p - 2u8,
            (&p - 1u8) >> 1u32,
        ];
        for k in [32u32, 63, 64, 96, 128, 191, 192, 224, 255] {
            v.push(BigUint::from(1u8) << k);
            v.push((BigUint::from(1u8) << k) - 1u8);
        }
        let mut s = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = || {
            s = s
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            s ^ (s >> 31)
        };
        for _ in 0..400 {
            v.push(big(&[next(), next(), next(), next()]) % &p);
        }
        v.iter().map(|x| words_of(&(x % &p))).collect()
    }

    #[test]
    fn constants_are_what_they_claim() {
        let p = p();
        assert_eq!(big(&R2), (r() * r()) % &p);
        assert_eq!(big(&R3), (r() * r() * r()) % &p);
        assert_eq!(big(&Fe::ONE.0), r() % &p);
        let b = BigUint::parse_bytes(
            b"5ac635d8aa3a93e7b3ebbd55769886bc651d06b0cc53b0f63bce3c3e27d2604b",
            16,
        )
        .unwrap();
        assert_eq!(big(&Fe::B.0), (b * r()) % &p);
    }

    fn check_ops<M: FieldMul>(m: M) {
        let p = p();
        let s = samples();
        let rinv = r().modpow(&(&p - 2u8), &p);
        for (i, a) in s.iter().enumerate() {
            let b = &s[(i * 7 + 3) % s.len()];
            let (fa, fb) = (Fe::from_canonical(*a), Fe::from_canonical(*b));
            let (ba, bb) = (big(a), big(b));
            assert_eq!(big(&fa.0), (&ba * r()) % &p, "into Montgomery form");
            assert_eq!(fa.to_canonical(), *a, "round trip");
            assert_eq!(big(&m.mul(&fa, &fb).to_canonical()), (&ba * &bb) % &p);
            assert_eq!(big(&m.sqr(&fa).to_canonical()), (&ba * &ba) % &p);
            // The raw Montgomery products of the words as they stand.
            assert_eq!(big(&m.mul(&Fe(*a), &Fe(*b)).0), (&ba * &bb * &rinv) % &p);
            assert_eq!(big(&m.sqr(&Fe(*a)).0), (&ba * &ba * &rinv) % &p);
            assert_eq!(big(&fa.add(&fb).to_canonical()), (&ba + &bb) % &p);
            assert_eq!(big(&fa.sub(&fb).to_canonical()), (&ba + &p - &bb) % &p);
            // The portable sum and difference (which x86-64 does not use) on the same words.
            assert_eq!(add_words(&fa.0, &fb.0), fa.add(&fb).0);
            assert_eq!(sub_words(&fa.0, &fb.0), fa.sub(&fb).0);
            let half = fa.half();
            assert_eq!(half.add(&half), fa, "half");
            assert_eq!(half_words(&fa.0), half.0);
            assert_eq!(
                big(&Fe(*a).half().0) * 2u8 % &p,
                ba.clone(),
                "half of the raw words"
            );
            assert_eq!(big(&fa.neg().to_canonical()), (&p - &ba) % &p);
            let inv = fa.inv_with(m);
            if ba == BigUint::from(0u8) {
                assert!(inv.is_zero());
            } else {
                assert_eq!(big(&inv.to_canonical()), ba.modpow(&(&p - 2u8), &p));
            }
            assert_eq!(
                big(&m.sqr_n(&fa, 5).to_canonical()),
                ba.modpow(&BigUint::from(32u8), &p)
            );
        }
    }

    #[test]
    fn portable_matches_num_bigint() {
        check_ops(Portable);
    }

    #[cfg(target_arch = "x86_64")]
    #[test]
    fn assembly_matches_num_bigint() {
        match MulxAdx::detect() {
            Some(m) => check_ops(m),
            None => eprintln!("no BMI2/ADX on this CPU: the assembly is not run"),
        }
    }

    #[test]
    fn parsing_refuses_p_and_above() {
        let p_bytes = words::to_be(&P);
        assert!(Fe::from_bytes(&p_bytes).is_none());
        assert!(Fe::from_bytes(&[0xFF; 32]).is_none());
        let mut below = P;
        below[0] -= 1;
        let fe = Fe::from_bytes(&words::to_be(&below)).unwrap();
        assert_eq!(fe.to_bytes(), words::to_be(&below));
        assert_eq!(fe.add(&Fe::ONE), Fe::ZERO);
    }
}
