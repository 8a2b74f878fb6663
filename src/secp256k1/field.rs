//! Arithmetic modulo the secp256k1 field prime p = 2²⁵⁶ − 2³² − 977.
//!
//! Representation: four little-endian 64-bit limbs holding any value below 2²⁵⁶ (so p..2²⁵⁶
//! are non-canonical forms of 0..2³²+977). Every operation accepts and returns this
//! "weakly reduced" form, using 2²⁵⁶ ≡ 2³² + 977 (mod p) to fold carries and borrows;
//! [`FieldElement::normalize`] gives the canonical value below p.
//!
//! Multiplications run on a [`FieldMul`]: the MULX/ADX assembly of `field_adx` (x86-64,
//! with its fused forms), the aarch64 assembly of `field_arm64` (likewise), the 29-bit limbs
//! of `field_wasm` (WebAssembly), the portable Rust, or [`Checked`], which tests the CPU at
//! every call. [`BASELINE`] is the one for a CPU without BMI2/ADX: the aarch64 assembly
//! there, the 29-bit limbs on WebAssembly, the portable Rust elsewhere. The u128 products
//! of the portable Rust and the linear operations go through `wide`, which builds them from
//! 32-bit halves on WebAssembly.
//!
//! Everything here is variable time; see the crate docs.

// `FieldElement` is also compiled into build.rs (to generate the ecmult tables), where much
// of it is unused.
#![allow(dead_code)]

use crate::arith::modinv::{self, ModInfo, Signed62};
use crate::arith::wide;

/// 2²⁵⁶ mod p.
const P_C: u64 = 0x1_0000_03D1;

/// Squarings between two calls of the side work in [`FieldElement::sqrt_beside`].
pub const SIDE_EVERY: u32 = 24;
/// p as little-endian words.
const P: [u64; 4] = [
    0xFFFF_FFFE_FFFF_FC2F,
    0xFFFF_FFFF_FFFF_FFFF,
    0xFFFF_FFFF_FFFF_FFFF,
    0xFFFF_FFFF_FFFF_FFFF,
];

/// p in the signed-62 form used by the safegcd inverse.
const P_MODINFO: ModInfo = ModInfo::new(P);

/// An element of GF(p): four 64-bit limbs, value below 2²⁵⁶, congruent to the element.
#[derive(Clone, Copy, Debug)]
pub struct FieldElement(pub(crate) [u64; 4]);

#[inline(always)]
fn adc(a: u64, b: u64, carry: u64) -> (u64, u64) {
    let t = a as u128 + b as u128 + carry as u128;
    (t as u64, (t >> 64) as u64)
}

#[inline(always)]
fn mac(acc: u64, a: u64, b: u64, carry: u64) -> (u64, u64) {
    let t = acc as u128 + wide::mul(a, b) + carry as u128;
    (t as u64, (t >> 64) as u64)
}

/// a + b + carry, and the carry out (written so that LLVM emits one `adc`).
#[inline(always)]
fn add_carry(a: u64, b: u64, carry: bool) -> (u64, bool) {
    let (s, c1) = a.overflowing_add(b);
    let (s, c2) = s.overflowing_add(carry as u64);
    (s, c1 | c2)
}

/// a − b − borrow, and the borrow out (one `sbb`).
#[inline(always)]
fn sub_borrow(a: u64, b: u64, borrow: bool) -> (u64, bool) {
    let (d, b1) = a.overflowing_sub(b);
    let (d, b2) = d.overflowing_sub(borrow as u64);
    (d, b1 | b2)
}

/// The rare tail of a fold that carried out of limb 1 (`UP`: r + 2¹²⁸, and P_C more if that
/// passes 2²⁵⁶; every fold adds less than 2⁹⁸, so the wrapped value is below 2⁹⁸ and cannot
/// wrap again), or of a subtraction whose P_C correction borrowed out of limb 1 (not `UP`:
/// r − 2¹²⁸, and P_C less if that passes below 0; the wrapped value is then above
/// 2²⁵⁶ − P_C, so it cannot borrow again).
#[cold]
#[inline(never)]
fn limb2_tail<const UP: bool>([r0, r1, r2, r3]: [u64; 4]) -> FieldElement {
    let step = if UP { add_carry } else { sub_borrow };
    let (r2, c) = step(r2, 1, false);
    let (r3, c) = step(r3, 0, c);
    if !c {
        return FieldElement([r0, r1, r2, r3]);
    }
    let (r0, c) = step(r0, P_C, false);
    let (r1, c) = step(r1, 0, c);
    let (r2, c) = step(r2, 0, c);
    let (r3, _) = step(r3, 0, c);
    FieldElement([r0, r1, r2, r3])
}

impl FieldElement {
    /// 0.
    pub const ZERO: Self = Self([0; 4]);
    /// 1.
    pub const ONE: Self = Self([1, 0, 0, 0]);
    /// 7, the constant b of y² = x³ + 7.
    pub const B: Self = Self([7, 0, 0, 0]);
    /// β, a primitive cube root of unity mod p: (x, y) ↦ (βx, y) is the endomorphism λ·P.
    pub const BETA: Self = Self([
        0xc139_6c28_7195_01ee,
        0x9cf0_4975_12f5_8995,
        0x6e64_479e_ac34_34e9,
        0x7ae9_6a2b_657c_0710,
    ]);

    /// From four little-endian 64-bit words (any value below 2²⁵⁶).
    pub const fn from_u64x4(w: [u64; 4]) -> Self {
        Self(w)
    }

    /// To four little-endian 64-bit words (of the weakly reduced form; normalize first for
    /// the canonical value).
    pub fn to_u64x4(self) -> [u64; 4] {
        self.0
    }

    /// Parses 32 big-endian bytes. Returns `None` if the value is not below p.
    pub fn from_bytes(b: &[u8; 32]) -> Option<Self> {
        let w = words_from_be(b);
        if is_ge_p(&w) { None } else { Some(Self(w)) }
    }

    /// 32 big-endian bytes of the canonical value.
    pub fn to_bytes(self) -> [u8; 32] {
        let w = self.normalize().0;
        let mut out = [0u8; 32];
        for i in 0..4 {
            out[8 * i..8 * i + 8].copy_from_slice(&w[3 - i].to_be_bytes());
        }
        out
    }

    /// True if the limbs hold the canonical value (below p).
    pub fn is_normalized(&self) -> bool {
        !is_ge_p(&self.0)
    }

    /// The canonical representative, below p.
    #[inline]
    pub fn normalize(&self) -> Self {
        if is_ge_p(&self.0) {
            // Subtract p = add 2²⁵⁶ − p and drop the carry out of bit 256.
            let (r0, c) = adc(self.0[0], P_C, 0);
            let (r1, c) = adc(self.0[1], 0, c);
            let (r2, c) = adc(self.0[2], 0, c);
            let (r3, _) = adc(self.0[3], 0, c);
            Self([r0, r1, r2, r3])
        } else {
            *self
        }
    }

    /// True if the element is ≡ 0 mod p.
    #[inline]
    pub fn normalizes_to_zero(&self) -> bool {
        let [a0, a1, a2, a3] = self.0;
        (a0 | a1 | a2 | a3) == 0 || (a0 == P[0] && (a1 & a2 & a3) == u64::MAX)
    }

    /// True if `self ≡ other (mod p)`.
    pub fn equals(&self, other: &Self) -> bool {
        self.sub(other).normalizes_to_zero()
    }

    /// True if the element is ≡ 0.
    pub fn is_zero(&self) -> bool {
        self.normalizes_to_zero()
    }

    /// True if the canonical value is odd.
    pub fn is_odd(&self) -> bool {
        self.normalize().0[0] & 1 == 1
    }

    /// Folds a carry word `c` out of bit 256 back in: r + c·2²⁵⁶ ≡ r + c·P_C. The sum
    /// goes into limbs 0 and 1; a carry on into limb 2 (r₁ within 2³⁴ of 2⁶⁴: rare) takes
    /// the cold path.
    #[inline(always)]
    fn fold(r: [u64; 4], c: u64) -> Self {
        let t = wide::mul(c, P_C);
        Self::add_low(r, t as u64, (t >> 64) as u64)
    }

    /// r + lo + hi·2⁶⁴, for a sum below 2²⁵⁶ + 2¹²⁸: lo and hi go into limbs 0 and 1, a
    /// carry on into limb 2 (rare) takes the cold path.
    #[inline(always)]
    fn add_low(r: [u64; 4], lo: u64, hi: u64) -> Self {
        let (r0, k) = add_carry(r[0], lo, false);
        let (r1, k) = add_carry(r[1], hi, k);
        if k {
            limb2_tail::<true>([r0, r1, r[2], r[3]])
        } else {
            Self([r0, r1, r[2], r[3]])
        }
    }

    /// `self + other`.
    #[inline(always)]
    pub fn add(&self, other: &Self) -> Self {
        let (r0, c) = add_carry(self.0[0], other.0[0], false);
        let (r1, c) = add_carry(self.0[1], other.0[1], c);
        let (r2, c) = add_carry(self.0[2], other.0[2], c);
        let (r3, c) = add_carry(self.0[3], other.0[3], c);
        Self::fold_bit([r0, r1, r2, r3], c)
    }

    /// `self · 2^k` for 1 ≤ k ≤ 8, by shifting.
    #[inline(always)]
    pub fn shl(&self, k: u32) -> Self {
        debug_assert!((1..=8).contains(&k));
        let a = &self.0;
        // The bits shifted out, times P_C: below 2⁴¹, one word.
        let c = (a[3] >> (64 - k)) * P_C;
        let r = [
            a[0] << k,
            a[1] << k | a[0] >> (64 - k),
            a[2] << k | a[1] >> (64 - k),
            a[3] << k | a[2] >> (64 - k),
        ];
        Self::add_low(r, c, 0)
    }

    /// `2·self`.
    #[inline(always)]
    pub fn dbl(&self) -> Self {
        self.shl(1)
    }

    /// Folds a carry bit out of bit 256: r + c·P_C, into limbs 0 and 1 (a carry on into
    /// limb 2 takes the cold path).
    #[inline(always)]
    fn fold_bit(r: [u64; 4], c: bool) -> Self {
        Self::add_low(r, if c { P_C } else { 0 }, 0)
    }

    /// `self − other` (on aarch64, the assembly of `field_arm64`).
    #[inline(always)]
    pub fn sub(&self, other: &Self) -> Self {
        #[cfg(target_arch = "aarch64")]
        return Self(super::field_arm64::sub(&self.0, &other.0));
        #[cfg(not(target_arch = "aarch64"))]
        self.sub_portable(other)
    }

    /// `self − other`, portable Rust.
    #[inline(always)]
    pub fn sub_portable(&self, other: &Self) -> Self {
        let (r0, b) = sub_borrow(self.0[0], other.0[0], false);
        let (r1, b) = sub_borrow(self.0[1], other.0[1], b);
        let (r2, b) = sub_borrow(self.0[2], other.0[2], b);
        let (r3, b) = sub_borrow(self.0[3], other.0[3], b);
        // A borrow added 2²⁵⁶ ≡ P_C: take P_C away again, from limbs 0 and 1 (a borrow on
        // from limb 2 takes the cold path).
        let (r0, b) = sub_borrow(r0, if b { P_C } else { 0 }, false);
        let (r1, b) = sub_borrow(r1, 0, b);
        if b {
            limb2_tail::<false>([r0, r1, r2, r3])
        } else {
            Self([r0, r1, r2, r3])
        }
    }

    /// `−self`.
    #[inline(always)]
    pub fn neg(&self) -> Self {
        #[cfg(target_arch = "aarch64")]
        return Self(super::field_arm64::neg(&self.0));
        #[cfg(not(target_arch = "aarch64"))]
        Self::ZERO.sub(self)
    }

    /// `K · self` for a small constant K: a shift for 2, 4 and 8.
    #[inline(always)]
    pub fn scale<const K: u64>(&self) -> Self {
        match K {
            1 => *self,
            2 => self.shl(1),
            4 => self.shl(2),
            8 => self.shl(3),
            _ => self.mul_int(K),
        }
    }

    /// `self · k` for a small integer k.
    #[inline(always)]
    pub fn mul_int(&self, k: u64) -> Self {
        let (r0, c) = mac(0, self.0[0], k, 0);
        let (r1, c) = mac(0, self.0[1], k, c);
        let (r2, c) = mac(0, self.0[2], k, c);
        let (r3, c) = mac(0, self.0[3], k, c);
        Self::fold([r0, r1, r2, r3], c)
    }

    /// `self · other mod p`. On x86-64 this tests the CPU at every call (one load and a
    /// bit test) and keeps the portable fallback out of line, so that the code around it
    /// holds the assembly path alone; [`FieldMul`] implementations choose once instead.
    /// On aarch64 it is the assembly of `field_arm64` (every aarch64 CPU runs it).
    #[inline(always)]
    pub fn mul(&self, other: &Self) -> Self {
        #[cfg(target_arch = "x86_64")]
        {
            if has_adx() {
                return Self(super::field_adx::mul(&self.0, &other.0));
            }
            mul_out_of_line(self, other)
        }
        #[cfg(target_arch = "aarch64")]
        return Self(super::field_arm64::mul(&self.0, &other.0));
        #[cfg(target_family = "wasm")]
        return Wasm.mul(self, other);
        #[cfg(not(any(
            target_arch = "x86_64",
            target_arch = "aarch64",
            target_family = "wasm"
        )))]
        self.mul_portable(other)
    }

    /// `self²` mod p (see [`FieldElement::mul`] for the CPU test).
    #[inline(always)]
    pub fn sqr(&self) -> Self {
        #[cfg(target_arch = "x86_64")]
        {
            if has_adx() {
                return Self(super::field_adx::sqr(&self.0));
            }
            sqr_out_of_line(self)
        }
        #[cfg(target_arch = "aarch64")]
        return Self(super::field_arm64::sqr(&self.0));
        #[cfg(target_family = "wasm")]
        return Wasm.sqr(self);
        #[cfg(not(any(
            target_arch = "x86_64",
            target_arch = "aarch64",
            target_family = "wasm"
        )))]
        self.sqr_portable()
    }

    /// `self · other mod p`, portable Rust.
    #[inline(always)]
    pub fn mul_portable(&self, other: &Self) -> Self {
        let a = &self.0;
        let b = &other.0;
        let (r0, c) = mac(0, a[0], b[0], 0);
        let (r1, c) = mac(0, a[0], b[1], c);
        let (r2, c) = mac(0, a[0], b[2], c);
        let (r3, r4) = mac(0, a[0], b[3], c);

        let (r1, c) = mac(r1, a[1], b[0], 0);
        let (r2, c) = mac(r2, a[1], b[1], c);
        let (r3, c) = mac(r3, a[1], b[2], c);
        let (r4, r5) = mac(r4, a[1], b[3], c);

        let (r2, c) = mac(r2, a[2], b[0], 0);
        let (r3, c) = mac(r3, a[2], b[1], c);
        let (r4, c) = mac(r4, a[2], b[2], c);
        let (r5, r6) = mac(r5, a[2], b[3], c);

        let (r3, c) = mac(r3, a[3], b[0], 0);
        let (r4, c) = mac(r4, a[3], b[1], c);
        let (r5, c) = mac(r5, a[3], b[2], c);
        let (r6, r7) = mac(r6, a[3], b[3], c);
        reduce512([r0, r1, r2, r3, r4, r5, r6, r7])
    }

    /// `self² mod p`, portable Rust.
    #[inline(always)]
    pub fn sqr_portable(&self) -> Self {
        let a = &self.0;
        // Cross products aᵢ·aⱼ (i < j), doubled, plus the squares.
        let (r1, c) = mac(0, a[0], a[1], 0);
        let (r2, c) = mac(0, a[0], a[2], c);
        let (r3, r4) = mac(0, a[0], a[3], c);
        let (r3, c) = mac(r3, a[1], a[2], 0);
        let (r4, r5) = mac(r4, a[1], a[3], c);
        let (r5, r6) = mac(r5, a[2], a[3], 0);
        let r7 = r6 >> 63;
        let r6 = r6 << 1 | r5 >> 63;
        let r5 = r5 << 1 | r4 >> 63;
        let r4 = r4 << 1 | r3 >> 63;
        let r3 = r3 << 1 | r2 >> 63;
        let r2 = r2 << 1 | r1 >> 63;
        let r1 = r1 << 1;
        let (r0, h0) = mac(0, a[0], a[0], 0);
        let (r1, c) = adc(r1, h0, 0);
        let (s, h1) = mac(0, a[1], a[1], 0);
        let (r2, c) = adc(r2, s, c);
        let (r3, c) = adc(r3, h1, c);
        let (s, h2) = mac(0, a[2], a[2], 0);
        let (r4, c) = adc(r4, s, c);
        let (r5, c) = adc(r5, h2, c);
        let (s, h3) = mac(0, a[3], a[3], 0);
        let (r6, c) = adc(r6, s, c);
        let (r7, _) = adc(r7, h3, c);
        reduce512([r0, r1, r2, r3, r4, r5, r6, r7])
    }

    /// `self^(2^k)`.
    #[inline]
    pub fn sqr_n(&self, k: u32) -> Self {
        let mut r = *self;
        for _ in 0..k {
            r = r.sqr();
        }
        r
    }

    /// Square root: returns r with r² = self if self is a square, else `None`. Computes
    /// self^((p+1)/4) with an addition chain of 253 squarings and 13 multiplications, then
    /// checks the result.
    pub fn sqrt(&self) -> Option<Self> {
        self.sqrt_with(Checked)
    }

    /// [`FieldElement::sqrt`] on the multiply `m`.
    #[inline]
    pub fn sqrt_with<M: FieldMul>(&self, m: M) -> Option<Self> {
        self.sqrt_beside(m, &mut || {})
    }

    /// [`FieldElement::sqrt_with`] with `side` called between runs of at most
    /// [`SIDE_EVERY`] squarings: independent work that the core runs beside the chain of
    /// squarings, which on its own waits on the multiplier's latency.
    #[inline(always)]
    pub fn sqrt_beside<M: FieldMul>(&self, m: M, side: &mut impl FnMut()) -> Option<Self> {
        let mut sqr_n = |x: &Self, k: u32| {
            let mut x = *x;
            let mut left = k;
            while left > 0 {
                let run = left.min(SIDE_EVERY);
                x = m.sqr_n(&x, run);
                side();
                left -= run;
            }
            x
        };
        // (p+1)/4 in binary: 223 ones, 0, 22 ones, 0000, 11, 00.
        let a = self;
        let x2 = m.mul(&m.sqr(a), a);
        let x3 = m.mul(&m.sqr(&x2), a);
        let x6 = m.mul(&sqr_n(&x3, 3), &x3);
        let x9 = m.mul(&sqr_n(&x6, 3), &x3);
        let x11 = m.mul(&sqr_n(&x9, 2), &x2);
        let x22 = m.mul(&sqr_n(&x11, 11), &x11);
        let x44 = m.mul(&sqr_n(&x22, 22), &x22);
        let x88 = m.mul(&sqr_n(&x44, 44), &x44);
        let x176 = m.mul(&sqr_n(&x88, 88), &x88);
        let x220 = m.mul(&sqr_n(&x176, 44), &x44);
        let x223 = m.mul(&sqr_n(&x220, 3), &x3);
        let t = m.mul(&sqr_n(&x223, 23), &x22);
        let t = m.mul(&sqr_n(&t, 6), &x2);
        let r = sqr_n(&t, 2);
        if m.sqr(&r).equals(a) { Some(r) } else { None }
    }

    /// Square roots of several elements at once: the same addition chain as
    /// [`FieldElement::sqrt`], but each step runs across all elements before the
    /// next, so their independent squaring chains overlap in the pipeline instead of
    /// each waiting on its own multiplier latency.
    pub fn sqrt_many(xs: &[Self]) -> Vec<Option<Self>> {
        #[cfg(target_arch = "x86_64")]
        if let Some(m) = MulxAdx::detect() {
            return Self::sqrt_many_with(m, xs);
        }
        Self::sqrt_many_with(BASELINE, xs)
    }

    /// [`FieldElement::sqrt_many`] on the multiply `m`.
    #[inline(always)]
    pub(crate) fn sqrt_many_with<M: FieldMul>(m: M, xs: &[Self]) -> Vec<Option<Self>> {
        fn sqr_n<M: FieldMul>(m: M, v: &[FieldElement], k: u32) -> Vec<FieldElement> {
            let mut r = v.to_vec();
            for _ in 0..k {
                for x in r.iter_mut() {
                    *x = m.sqr(x);
                }
            }
            r
        }
        fn mul<M: FieldMul>(m: M, a: &[FieldElement], b: &[FieldElement]) -> Vec<FieldElement> {
            a.iter().zip(b).map(|(x, y)| m.mul(x, y)).collect()
        }
        let a = xs;
        let x2 = mul(m, &sqr_n(m, a, 1), a);
        let x3 = mul(m, &sqr_n(m, &x2, 1), a);
        let x6 = mul(m, &sqr_n(m, &x3, 3), &x3);
        let x9 = mul(m, &sqr_n(m, &x6, 3), &x3);
        let x11 = mul(m, &sqr_n(m, &x9, 2), &x2);
        let x22 = mul(m, &sqr_n(m, &x11, 11), &x11);
        let x44 = mul(m, &sqr_n(m, &x22, 22), &x22);
        let x88 = mul(m, &sqr_n(m, &x44, 44), &x44);
        let x176 = mul(m, &sqr_n(m, &x88, 88), &x88);
        let x220 = mul(m, &sqr_n(m, &x176, 44), &x44);
        let x223 = mul(m, &sqr_n(m, &x220, 3), &x3);
        let t = mul(m, &sqr_n(m, &x223, 23), &x22);
        let t = mul(m, &sqr_n(m, &t, 6), &x2);
        let r = sqr_n(m, &t, 2);
        r.iter()
            .zip(a)
            .map(|(r, a)| if m.sqr(r).equals(a) { Some(*r) } else { None })
            .collect()
    }

    /// Multiplicative inverse (0 maps to 0), by safegcd in variable time.
    pub fn inv(&self) -> Self {
        let s = Signed62::from_u64x4(self.normalize().0);
        Self(modinv::inv(&s, &P_MODINFO).to_u64x4())
    }
}

/// The multiply and square that a formula runs on.
///
/// Code generic over this trait is compiled once per implementation, so a whole computation
/// (one recovery) chooses its multiply once and its loops hold that one alone:
/// `Checked` tests the CPU at every call (what [`FieldElement::mul`] does), `Portable`
/// is plain Rust on every CPU, `MulxAdx` (x86-64) is the BMI2/ADX assembly, which only
/// a CPU check can hand out, `Arm64` (aarch64) is the aarch64 assembly, which every
/// aarch64 CPU runs, and `Wasm` the 29-bit limbs for WebAssembly.
pub trait FieldMul: Copy {
    /// `a · b` mod p (weakly reduced).
    fn mul(self, a: &FieldElement, b: &FieldElement) -> FieldElement;
    /// `a²` mod p (weakly reduced).
    fn sqr(self, a: &FieldElement) -> FieldElement;
    /// `K · a · b` mod p for 1 ≤ K ≤ 8: a product and a small multiple that formulas need
    /// together (3X², 4·X·Y², 2·Y·Z), which an implementation may fuse into one reduction.
    #[inline(always)]
    fn mul_scaled<const K: u64>(self, a: &FieldElement, b: &FieldElement) -> FieldElement {
        self.mul(a, b).scale::<K>()
    }
    /// `K · a²` mod p for 1 ≤ K ≤ 8 (see [`FieldMul::mul_scaled`]).
    #[inline(always)]
    fn sqr_scaled<const K: u64>(self, a: &FieldElement) -> FieldElement {
        self.sqr(a).scale::<K>()
    }
    /// `a · b − c` mod p, which an implementation may fuse into the product's reduction.
    #[inline(always)]
    fn mul_sub(self, a: &FieldElement, b: &FieldElement, c: &FieldElement) -> FieldElement {
        self.mul(a, b).sub(c)
    }
    /// `a² − c` mod p (see [`FieldMul::mul_sub`]).
    #[inline(always)]
    fn sqr_sub(self, a: &FieldElement, c: &FieldElement) -> FieldElement {
        self.sqr(a).sub(c)
    }
    /// `a^(2^k)`.
    #[inline(always)]
    fn sqr_n(self, a: &FieldElement, k: u32) -> FieldElement {
        let mut r = *a;
        for _ in 0..k {
            r = self.sqr(&r);
        }
        r
    }
}

/// [`FieldMul`] with the CPU test at every call: [`FieldElement::mul`] and
/// [`FieldElement::sqr`], for code that is not worth compiling twice.
#[derive(Clone, Copy, Debug)]
pub struct Checked;

impl FieldMul for Checked {
    #[inline(always)]
    fn mul(self, a: &FieldElement, b: &FieldElement) -> FieldElement {
        a.mul(b)
    }
    #[inline(always)]
    fn sqr(self, a: &FieldElement) -> FieldElement {
        a.sqr()
    }
}

/// [`FieldMul`] in portable Rust (every CPU).
#[derive(Clone, Copy, Debug)]
pub struct Portable;

impl FieldMul for Portable {
    #[inline(always)]
    fn mul(self, a: &FieldElement, b: &FieldElement) -> FieldElement {
        a.mul_portable(b)
    }
    #[inline(always)]
    fn sqr(self, a: &FieldElement) -> FieldElement {
        a.sqr_portable()
    }
}

/// [`FieldMul`] for `$ty` on the assembly module `$m` (`field_adx`, `field_arm64`): each
/// operation is the module's function of the same name over the elements' words.
#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
macro_rules! asm_field_mul {
    ($ty:ty, $m:ident) => {
        impl FieldMul for $ty {
            #[inline(always)]
            fn mul(self, a: &FieldElement, b: &FieldElement) -> FieldElement {
                FieldElement(super::$m::mul(&a.0, &b.0))
            }
            #[inline(always)]
            fn sqr(self, a: &FieldElement) -> FieldElement {
                FieldElement(super::$m::sqr(&a.0))
            }
            #[inline(always)]
            fn mul_scaled<const K: u64>(self, a: &FieldElement, b: &FieldElement) -> FieldElement {
                FieldElement(super::$m::mul_scaled::<K>(&a.0, &b.0))
            }
            #[inline(always)]
            fn sqr_scaled<const K: u64>(self, a: &FieldElement) -> FieldElement {
                FieldElement(super::$m::sqr_scaled::<K>(&a.0))
            }
            #[inline(always)]
            fn mul_sub(self, a: &FieldElement, b: &FieldElement, c: &FieldElement) -> FieldElement {
                FieldElement(super::$m::mul_sub(&a.0, &b.0, &c.0))
            }
            #[inline(always)]
            fn sqr_sub(self, a: &FieldElement, c: &FieldElement) -> FieldElement {
                FieldElement(super::$m::sqr_sub(&a.0, &c.0))
            }
            #[inline(always)]
            fn sqr_n(self, a: &FieldElement, k: u32) -> FieldElement {
                FieldElement(super::$m::sqr_n(&a.0, k))
            }
        }
    };
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
asm_field_mul!(MulxAdx, field_adx);

/// [`FieldMul`] on the aarch64 assembly of `field_arm64` (`mul`/`umulh` and one carry
/// chain; every aarch64 CPU has them), with the same fused forms as [`MulxAdx`].
#[cfg(target_arch = "aarch64")]
#[derive(Clone, Copy, Debug)]
pub struct Arm64;

#[cfg(target_arch = "aarch64")]
asm_field_mul!(Arm64, field_arm64);

/// [`FieldMul`] through 9 limbs of 29 bits (`field_wasm`): 29×29-bit products, for
/// WebAssembly, whose u128 products are library calls.
#[cfg(any(target_family = "wasm", test))]
#[derive(Clone, Copy, Debug)]
pub struct Wasm;

#[cfg(any(target_family = "wasm", test))]
impl FieldMul for Wasm {
    #[inline(always)]
    fn mul(self, a: &FieldElement, b: &FieldElement) -> FieldElement {
        let (words, over) = super::field_wasm::mul(&a.0, &b.0);
        FieldElement::fold(words, over)
    }
    #[inline(always)]
    fn sqr(self, a: &FieldElement) -> FieldElement {
        let (words, over) = super::field_wasm::sqr(&a.0);
        FieldElement::fold(words, over)
    }
}

/// The multiply of code that does not test the CPU for BMI2/ADX, or found them missing:
/// the aarch64 assembly on aarch64, the 29-bit limbs on WebAssembly, the portable Rust
/// elsewhere.
#[cfg(target_arch = "aarch64")]
pub(crate) const BASELINE: Arm64 = Arm64;
/// The multiply of code that does not test the CPU for BMI2/ADX, or found them missing:
/// the aarch64 assembly on aarch64, the 29-bit limbs on WebAssembly, the portable Rust
/// elsewhere.
#[cfg(target_family = "wasm")]
pub(crate) const BASELINE: Wasm = Wasm;
/// The multiply of code that does not test the CPU for BMI2/ADX, or found them missing:
/// the aarch64 assembly on aarch64, the 29-bit limbs on WebAssembly, the portable Rust
/// elsewhere.
#[cfg(not(any(target_arch = "aarch64", target_family = "wasm")))]
pub(crate) const BASELINE: Portable = Portable;

/// The portable multiply behind [`FieldElement::mul`]'s CPU test on x86-64 (CPUs without
/// BMI2 and ADX), kept out of line.
#[cfg(target_arch = "x86_64")]
#[inline(never)]
fn mul_out_of_line(a: &FieldElement, b: &FieldElement) -> FieldElement {
    a.mul_portable(b)
}

/// The portable square behind [`FieldElement::sqr`]'s CPU test on x86-64, out of line.
#[cfg(target_arch = "x86_64")]
#[inline(never)]
fn sqr_out_of_line(a: &FieldElement) -> FieldElement {
    a.sqr_portable()
}

/// True if the CPU has BMI2 and ADX (detected once, by `crate::dispatch`).
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn has_adx() -> bool {
    crate::dispatch::has_bmi2_adx()
}

/// Reduces a 512-bit product mod p (weakly: result below 2²⁵⁶).
#[inline(always)]
fn reduce512(r: [u64; 8]) -> FieldElement {
    // lo + hi·2²⁵⁶ ≡ lo + hi·P_C: a 256 + 34-bit value.
    let (l0, c) = mac(r[0], r[4], P_C, 0);
    let (l1, c) = mac(r[1], r[5], P_C, c);
    let (l2, c) = mac(r[2], r[6], P_C, c);
    let (l3, c) = mac(r[3], r[7], P_C, c);
    FieldElement::fold([l0, l1, l2, l3], c)
}

/// True if the 256-bit value is ≥ p.
#[inline(always)]
fn is_ge_p(w: &[u64; 4]) -> bool {
    (w[1] & w[2] & w[3]) == u64::MAX && w[0] >= P[0]
}

/// Four little-endian words from 32 big-endian bytes.
pub(crate) fn words_from_be(b: &[u8; 32]) -> [u64; 4] {
    let mut w = [0u64; 4];
    for (i, wi) in w.iter_mut().enumerate() {
        let mut chunk = [0u8; 8];
        chunk.copy_from_slice(&b[24 - 8 * i..32 - 8 * i]);
        *wi = u64::from_be_bytes(chunk);
    }
    w
}

#[cfg(test)]
mod tests {
    use super::*;
    use num_bigint::BigUint;

    fn p() -> BigUint {
        big(&P)
    }

    fn big(w: &[u64; 4]) -> BigUint {
        let mut v = BigUint::from(0u8);
        for &x in w.iter().rev() {
            v = (v << 64u32) + BigUint::from(x);
        }
        v
    }

    /// Raw limbs of any value below 2²⁵⁶.
    fn fe(v: &BigUint) -> FieldElement {
        let d = v.to_u64_digits();
        let mut w = [0u64; 4];
        w[..d.len()].copy_from_slice(&d);
        FieldElement(w)
    }

    /// The value an element stands for, reduced.
    fn val(f: &FieldElement) -> BigUint {
        big(&f.0) % p()
    }

    use crate::test_support::rng::SplitMix64;

    /// Limb-boundary values, both canonical and in the non-canonical band [p, 2²⁵⁶).
    fn edge_values() -> Vec<BigUint> {
        let p = p();
        let one = BigUint::from(1u8);
        let top = (one.clone() << 256u32) - 1u8;
        vec![
            BigUint::from(0u8),
            one.clone(),
            BigUint::from(2u8),
            &p - 1u8,
            &p - 2u8,
            p.clone(),
            &p + 1u8,
            top.clone(),
            &top - 1u8,
            &top - BigUint::from(P_C),
            one.clone() << 255u32,
            (one.clone() << 64u32) - 1u8,
            one.clone() << 64u32,
            (one.clone() << 192u32) - 1u8,
            BigUint::from(P_C),
            BigUint::from(P_C - 1),
            (one.clone() << 128u32) + 1u8,
        ]
    }

    fn values(seed: u64, random: usize) -> Vec<BigUint> {
        let mut rng = SplitMix64(seed);
        let mut v = edge_values();
        for _ in 0..random {
            // Any 256-bit value: canonical or not.
            v.push(big(&rng.words4()));
        }
        v
    }

    #[test]
    fn mul_sqr_match_bigint() {
        let p = p();
        let vals = values(1, 3000);
        for (i, a) in vals.iter().enumerate() {
            for b in [&vals[(i * 7 + 3) % vals.len()], &vals[i % 17]] {
                let r = fe(a).mul(&fe(b));
                assert_eq!(val(&r), (a * b) % &p, "{a:x} * {b:x}");
            }
            assert_eq!(val(&fe(a).sqr()), (a * a) % &p, "{a:x}^2");
            assert_eq!(val(&fe(a).sqr_portable()), (a * a) % &p, "{a:x}^2");
            let b = &vals[(i * 3 + 1) % vals.len()];
            assert_eq!(val(&fe(a).mul_portable(&fe(b))), (a * b) % &p);
        }
    }

    #[test]
    fn add_sub_neg_mul_int_match_bigint() {
        let p = p();
        let vals = values(2, 3000);
        for (i, a) in vals.iter().enumerate() {
            let b = &vals[(i * 5 + 1) % vals.len()];
            let (fa, fb) = (fe(a), fe(b));
            assert_eq!(val(&fa.add(&fb)), (a + b) % &p);
            assert_eq!(val(&fa.sub(&fb)), (a + &p * 2u8 - b % &p) % &p);
            assert_eq!(val(&fa.sub_portable(&fb)), (a + &p * 2u8 - b % &p) % &p);
            assert_eq!(val(&fa.neg()), (&p - a % &p) % &p);
            for k in [0u64, 1, 2, 3, 8, 255, 1 << 31, u32::MAX as u64] {
                assert_eq!(val(&fa.mul_int(k)), (a * k) % &p);
            }
            let n = fa.normalize();
            assert!(n.is_normalized());
            assert_eq!(big(&n.0), a % &p);
            assert_eq!(fa.normalizes_to_zero(), a % &p == BigUint::from(0u8));
            assert_eq!(fa.equals(&fb), a % &p == b % &p);
            assert!(fa.equals(&fe(&(a % &p))));
            assert_eq!(fa.is_odd(), (a % &p).bit(0));
        }
    }

    /// The square root with work beside it: the same roots (or `None`) as `sqrt`, checked
    /// by squaring against num-bigint, with the side work called between runs of squarings
    /// and a scalar inversion spread over it exact.
    #[test]
    fn sqrt_beside_matches_sqrt_and_runs_the_side_work() {
        let p = p();
        let mut s = 0x51de_u64;
        for (i, a) in values(11, 300).into_iter().enumerate() {
            let x = fe(&a);
            let scalar = crate::secp256k1::scalar::Scalar::from_words([
                crate::test_support::rng::splitmix64(&mut s) | 1,
                i as u64,
                0,
                0,
            ]);
            let mut inv = scalar.inverter();
            let mut calls = 0u32;
            let got = x.sqrt_beside(Checked, &mut || {
                calls += 1;
                inv.step();
            });
            assert!(calls >= 253 / SIDE_EVERY);
            let root = x.sqrt();
            assert_eq!(got.map(|r| val(&r)), root.map(|r| val(&r)));
            if let Some(r) = got {
                assert_eq!((val(&r) * val(&r)) % &p, &a % &p);
            }
            let r_inv = crate::secp256k1::scalar::Scalar::from_inverter(inv);
            assert_eq!(
                r_inv.mul(&scalar),
                crate::secp256k1::scalar::Scalar::ONE,
                "inverse #{i}"
            );
        }
    }

    #[test]
    fn shl_matches_bigint() {
        let p = p();
        for a in values(5, 2000) {
            for k in 1..=8u32 {
                assert_eq!(val(&fe(&a).shl(k)), (&a << k) % &p);
            }
        }
    }

    /// The rare tails of the linear operations: a fold that carries on into limb 2, a second
    /// wrap past 2²⁵⁶, a borrow on from limb 2, a second borrow.
    #[test]
    fn carry_and_borrow_tails_match_bigint() {
        let p = p();
        let m = u64::MAX;
        let cases: [([u64; 4], [u64; 4]); 6] = [
            // a + b = 2²⁵⁶ + [2⁶⁴−1, 2⁶⁴−1, 5, 7]: the fold carries into limb 2.
            ([m; 4], [0, 0, 6, 7]),
            // a + b = 2²⁵⁶ + 2²⁵⁶ − 2: the fold wraps past 2²⁵⁶ again.
            ([m; 4], [m; 4]),
            // a − b borrows, and r − P_C borrows from limb 2 (r₁ = 0, r₀ < P_C).
            ([5, 0, 0, 0], [6, 0, 0, 0]),
            ([0, 0, 3, 1], [1, 0, 0, 0]),
            // a − b borrows, and r − P_C passes below 0 again (r < P_C).
            ([0, 0, 0, 0], [m, m, m, m]),
            ([7, 0, 0, 0], [8, 0, 0, 0]),
        ];
        for (a, b) in cases {
            let (fa, fb) = (FieldElement(a), FieldElement(b));
            let (ba, bb) = (big(&a), big(&b));
            assert_eq!(val(&fa.add(&fb)), (&ba + &bb) % &p, "{a:x?} + {b:x?}");
            assert_eq!(val(&fb.add(&fa)), (&ba + &bb) % &p);
            assert_eq!(
                val(&fa.sub(&fb)),
                (&ba + &p * 2u8 - &bb % &p) % &p,
                "{a:x?} - {b:x?}"
            );
            assert_eq!(val(&fb.sub(&fa)), (&bb + &p * 2u8 - &ba % &p) % &p);
            assert_eq!(val(&fa.sub_portable(&fb)), (&ba + &p * 2u8 - &bb % &p) % &p);
            assert_eq!(val(&fa.neg()), (&p - &ba % &p) % &p);
        }
        // Shifts and small multiples whose fold carries into limb 2 or wraps again.
        for a in [
            [m, m, 1, 1 << 63],
            [m, m, m, m],
            [m - 1, m, m, m],
            [m, m, 0, m],
        ] {
            let fa = FieldElement(a);
            for k in 1..=8u32 {
                assert_eq!(val(&fa.shl(k)), (big(&a) << k) % &p);
            }
            for k in [2u64, 3, 1 << 40, m] {
                assert_eq!(val(&fa.mul_int(k)), (big(&a) * k) % &p);
            }
        }
    }

    /// An operand whose product by 2¹²⁸ makes the multiply's last fold carry out of limb 1
    /// (about 2⁻⁶⁰ of random products do), for every [`FieldMul`].
    #[test]
    fn product_fold_carrying_into_limb2() {
        let p = p();
        let inv = {
            // P_C⁻¹ mod 2⁶⁴ by Newton's iteration (P_C is odd).
            let mut x = 1u64;
            for _ in 0..6 {
                x = x.wrapping_mul(2u64.wrapping_sub(P_C.wrapping_mul(x)));
            }
            x
        };
        // With b = 2¹²⁸ the product's halves are L = [0, 0, a0, a1], H = [a2, a3]; the first
        // fold L + H·P_C is then [2⁶⁴−1, 2⁶⁴−1, ·, 0] plus one 2²⁵⁶.
        let a2 = u64::MAX.wrapping_mul(inv);
        let h = ((a2 as u128 * P_C as u128) >> 64) as u64;
        let a3 = (u64::MAX - h).wrapping_mul(inv);
        let a = [u64::MAX, u64::MAX, a2, a3];
        let b = [0, 0, 1, 0];
        let want = big(&a) * big(&b) % &p;
        let (fa, fb) = (FieldElement(a), FieldElement(b));
        assert_eq!(val(&fa.mul(&fb)), want);
        assert_eq!(val(&fa.mul_portable(&fb)), want);
        assert_eq!(val(&Checked.mul(&fa, &fb)), want);
        assert_eq!(val(&Portable.mul(&fa, &fb)), want);
        assert_eq!(val(&Wasm.mul(&fa, &fb)), want);
        assert_eq!(val(&Wasm.mul(&fb, &fa)), want);
        #[cfg(target_arch = "x86_64")]
        if let Some(adx) = super::MulxAdx::detect() {
            assert_eq!(val(&adx.mul(&fa, &fb)), want);
            assert_eq!(val(&adx.mul(&fb, &fa)), want);
        }
        #[cfg(target_arch = "aarch64")]
        {
            assert_eq!(val(&Arm64.mul(&fa, &fb)), want);
            assert_eq!(val(&Arm64.mul(&fb, &fa)), want);
            assert_eq!(Arm64.mul(&fa, &fb).0, fa.mul_portable(&fb).0);
        }
    }

    /// `a·b − c` and `a² − c` on every [`FieldMul`], including the fused assembly's rare
    /// tails: a product with no high half minus a larger c (a negative result, once and
    /// twice below 0 after the correction).
    #[test]
    fn fused_subtractions_match_bigint() {
        let p = p();
        let m = u64::MAX;
        let mut cases: Vec<([u64; 4], [u64; 4], [u64; 4])> = vec![
            ([1, 0, 0, 0], [5, 0, 0, 0], [7, 0, 0, 0]),
            ([1, 0, 0, 0], [5, 0, 0, 0], [m; 4]),
            ([0; 4], [0; 4], [1, 0, 0, 0]),
            ([2, 0, 0, 0], [3, 0, 0, 0], [6, 0, 0, 0]),
            ([m; 4], [m; 4], [m; 4]),
            ([1 << 32, 0, 0, 0], [1 << 32, 0, 0, 0], [0, 2, 0, 0]),
        ];
        let mut rng = SplitMix64(9);
        for _ in 0..2000 {
            cases.push((rng.words4(), rng.words4(), rng.words4()));
        }
        for (a, b, c) in cases {
            let (fa, fb, fc) = (FieldElement(a), FieldElement(b), FieldElement(c));
            let (ba, bb, bc) = (big(&a), big(&b), big(&c));
            let want = (&ba * &bb + &p * 4u8 - &bc % &p) % &p;
            let want_sq = (&ba * &ba + &p * 4u8 - &bc % &p) % &p;
            assert_eq!(val(&Portable.mul_sub(&fa, &fb, &fc)), want);
            assert_eq!(val(&Checked.sqr_sub(&fa, &fc)), want_sq);
            assert_eq!(val(&Wasm.mul_sub(&fa, &fb, &fc)), want);
            assert_eq!(val(&Wasm.sqr_sub(&fa, &fc)), want_sq);
            #[cfg(target_arch = "x86_64")]
            if let Some(adx) = super::MulxAdx::detect() {
                assert_eq!(
                    val(&adx.mul_sub(&fa, &fb, &fc)),
                    want,
                    "{a:x?} {b:x?} {c:x?}"
                );
                assert_eq!(val(&adx.sqr_sub(&fa, &fc)), want_sq, "{a:x?} {c:x?}");
            }
            #[cfg(target_arch = "aarch64")]
            {
                let got = Arm64.mul_sub(&fa, &fb, &fc);
                assert_eq!(val(&got), want, "{a:x?} {b:x?} {c:x?}");
                assert_eq!(val(&Arm64.sqr_sub(&fa, &fc)), want_sq, "{a:x?} {c:x?}");
            }
        }
    }

    /// Every [`FieldMul`] computes the same products, squares and square roots.
    #[test]
    fn field_muls_agree() {
        let p = p();
        let vals = values(8, 500);
        for (i, a) in vals.iter().enumerate() {
            let b = &vals[(i * 11 + 5) % vals.len()];
            let (fa, fb) = (fe(a), fe(b));
            let want = (a * b) % &p;
            assert_eq!(val(&Checked.mul(&fa, &fb)), want);
            assert_eq!(val(&Portable.mul(&fa, &fb)), want);
            assert_eq!(val(&Portable.sqr_n(&fa, 3)), val(&fa.sqr().sqr().sqr()));
            for (k, got) in [
                (2u8, Portable.mul_scaled::<2>(&fa, &fb)),
                (3, Checked.mul_scaled::<3>(&fa, &fb)),
                (4, Portable.mul_scaled::<4>(&fa, &fb)),
                (8, Checked.mul_scaled::<8>(&fa, &fb)),
                (5, Portable.mul_scaled::<5>(&fa, &fb)),
            ] {
                assert_eq!(val(&got), (&want * k) % &p);
            }
            assert_eq!(val(&Portable.sqr_scaled::<3>(&fa)), (a * a * 3u8) % &p);
            let root = fa.sqrt_with(Portable).map(|r| val(&r));
            assert_eq!(root, fa.sqrt().map(|r| val(&r)));
            assert_eq!(val(&Wasm.mul(&fa, &fb)), want);
            assert_eq!(val(&Wasm.sqr(&fa)), (a * a) % &p);
            assert_eq!(val(&Wasm.mul_scaled::<3>(&fa, &fb)), (&want * 3u8) % &p);
            assert_eq!(fa.sqrt_with(Wasm).map(|r| val(&r)), root);
            #[cfg(target_arch = "x86_64")]
            if let Some(adx) = super::MulxAdx::detect() {
                assert_eq!(val(&adx.mul(&fa, &fb)), want);
                assert_eq!(val(&adx.sqr(&fa)), (a * a) % &p);
                for k in [1, 2, 3, 11, 23] {
                    assert_eq!(val(&adx.sqr_n(&fa, k)), val(&Portable.sqr_n(&fa, k)));
                }
                assert_eq!(val(&adx.mul_scaled::<2>(&fa, &fb)), (&want * 2u8) % &p);
                assert_eq!(val(&adx.mul_scaled::<3>(&fa, &fb)), (&want * 3u8) % &p);
                assert_eq!(val(&adx.mul_scaled::<4>(&fa, &fb)), (&want * 4u8) % &p);
                assert_eq!(val(&adx.mul_scaled::<8>(&fa, &fb)), (&want * 8u8) % &p);
                assert_eq!(val(&adx.sqr_scaled::<3>(&fa)), (a * a * 3u8) % &p);
                assert_eq!(val(&adx.sqr_scaled::<8>(&fa)), (a * a * 8u8) % &p);
                assert_eq!(fa.sqrt_with(adx).map(|r| val(&r)), root);
            }
            #[cfg(target_arch = "aarch64")]
            {
                assert_eq!(val(&Arm64.mul(&fa, &fb)), want);
                assert_eq!(val(&Arm64.sqr(&fa)), (a * a) % &p);
                for k in [0, 1, 2, 3, 11, 23] {
                    assert_eq!(val(&Arm64.sqr_n(&fa, k)), val(&Portable.sqr_n(&fa, k)));
                }
                assert_eq!(val(&Arm64.mul_scaled::<2>(&fa, &fb)), (&want * 2u8) % &p);
                assert_eq!(val(&Arm64.mul_scaled::<3>(&fa, &fb)), (&want * 3u8) % &p);
                assert_eq!(val(&Arm64.mul_scaled::<4>(&fa, &fb)), (&want * 4u8) % &p);
                assert_eq!(val(&Arm64.mul_scaled::<6>(&fa, &fb)), (&want * 6u8) % &p);
                assert_eq!(val(&Arm64.mul_scaled::<8>(&fa, &fb)), (&want * 8u8) % &p);
                assert_eq!(val(&Arm64.sqr_scaled::<3>(&fa)), (a * a * 3u8) % &p);
                assert_eq!(val(&Arm64.sqr_scaled::<5>(&fa)), (a * a * 5u8) % &p);
                assert_eq!(val(&Arm64.sqr_scaled::<8>(&fa)), (a * a * 8u8) % &p);
                assert_eq!(fa.sqrt_with(Arm64).map(|r| val(&r)), root);
                assert_eq!(fa.sqrt_with(BASELINE).map(|r| val(&r)), root);
            }
        }
    }

    /// The 29-bit-limb multiply and square of `field_wasm` at its own bounds: every limb of
    /// an operand at 0, 1, 2²⁸ or 2²⁹ − 1 (the columns at their largest), values whose
    /// reduction leaves bits above 2²⁵⁶ (the returned multiple, folded by the caller), and
    /// thousands of random pairs, against num-bigint: the words and the multiple before the
    /// fold, and the element after it.
    #[test]
    fn wasm_limbs_match_bigint() {
        let p = p();
        let one = BigUint::from(1u8);
        let m29 = (1u64 << 29) - 1;
        let mut vals = values(21, 3000);
        // Every 29-bit limb set to one value, the top limb (24 bits) clipped to 2²⁵⁶.
        for limb in [0, 1, 1 << 28, m29] {
            let mut v = BigUint::from(0u8);
            for k in 0..9u32 {
                v |= BigUint::from(limb) << (29 * k);
            }
            vals.push(v & ((one.clone() << 256u32) - 1u8));
        }
        // One limb at its maximum, the others zero, and alternating limbs.
        for k in 0..9u32 {
            vals.push((BigUint::from(m29) << (29 * k)) & ((one.clone() << 256u32) - 1u8));
        }
        vals.push(BigUint::parse_bytes(b"1fffffff00000000".repeat(4).as_slice(), 16).unwrap());
        for (i, a) in vals.iter().enumerate() {
            let (fa, fb) = (fe(a), fe(&vals[(i * 13 + 7) % vals.len()]));
            let b = big(&fb.0);
            let got = Wasm.mul(&fa, &fb);
            assert_eq!(val(&got), (a * &b) % &p, "{a:x} * {b:x}");
            let got = Wasm.sqr(&fa);
            assert_eq!(val(&got), (a * a) % &p, "{a:x}^2");
            for c in [&fa, &fb] {
                let (w, over) = super::super::field_wasm::mul(&fa.0, &c.0);
                assert_eq!(
                    (big(&w) + (BigUint::from(over) << 256u32)) % &p,
                    (a * big(&c.0)) % &p
                );
            }
            let (w, over) = super::super::field_wasm::sqr(&fa.0);
            assert_eq!(
                (big(&w) + (BigUint::from(over) << 256u32)) % &p,
                (a * a) % &p
            );
        }
    }

    /// The aarch64 assembly against the portable Rust, limb for limb: the product's and the
    /// square's reductions are the same arithmetic, so the weakly reduced results agree
    /// exactly, not only mod p.
    #[cfg(target_arch = "aarch64")]
    #[test]
    fn arm64_matches_portable() {
        let vals = values(16, 20000);
        for (i, a) in vals.iter().enumerate() {
            let fa = fe(a);
            let fb = fe(&vals[(i * 7 + 5) % vals.len()]);
            let fc = FieldElement([a.bit(3) as u64, u64::MAX, 0, fa.0[0]]);
            for b in [fb, fc, fa] {
                assert_eq!(Arm64.mul(&fa, &b).0, fa.mul_portable(&b).0);
                assert_eq!(fa.mul(&b).0, fa.mul_portable(&b).0);
            }
            assert_eq!(Arm64.sqr(&fa).0, fa.sqr_portable().0);
            assert_eq!(fa.sqr().0, fa.sqr_portable().0);
        }
    }

    /// The BMI2/ADX assembly against the portable Rust, where the CPU has them.
    #[cfg(target_arch = "x86_64")]
    #[test]
    fn adx_matches_portable() {
        if !has_adx() {
            eprintln!("skipped: no BMI2/ADX");
            return;
        }
        for (i, a) in values(6, 20000).iter().enumerate() {
            let fa = fe(a);
            let fb = fe(&values(7, 0)[i % 17]);
            let fc = FieldElement([a.bit(3) as u64, u64::MAX, 0, fa.0[0]]);
            for b in [fb, fc, fa] {
                assert_eq!(
                    super::super::field_adx::mul(&fa.0, &b.0),
                    fa.mul_portable(&b).0
                );
            }
            assert_eq!(super::super::field_adx::sqr(&fa.0), fa.sqr_portable().0);
        }
    }

    #[test]
    fn bytes_round_trip_and_range() {
        let p = p();
        let mut b = [0u8; 32];
        b.copy_from_slice(&p.to_bytes_be());
        assert!(
            FieldElement::from_bytes(&b).is_none(),
            "p itself is rejected"
        );
        b[31] -= 1;
        let f = FieldElement::from_bytes(&b).expect("p-1 accepted");
        assert_eq!(f.to_bytes(), b);
        assert!(FieldElement::from_bytes(&[0xff; 32]).is_none());
        for v in values(3, 300) {
            let f = fe(&v);
            let bytes = f.to_bytes();
            assert_eq!(BigUint::from_bytes_be(&bytes), &v % &p);
            if v < p {
                assert_eq!(FieldElement::from_bytes(&bytes).unwrap().0, f.0);
            }
        }
    }

    #[test]
    fn inverse_and_sqrt_match_bigint() {
        let p = p();
        for a in values(4, 400) {
            let fa = fe(&a);
            let ar = &a % &p;
            let inv = fa.inv();
            assert!(inv.is_normalized());
            let want = if ar == BigUint::from(0u8) {
                BigUint::from(0u8)
            } else {
                ar.modpow(&(&p - 2u8), &p)
            };
            assert_eq!(big(&inv.0), want);
            let is_square = ar.modpow(&((&p - 1u8) >> 1u32), &p) != &p - 1u8;
            match fa.sqrt() {
                Some(r) => {
                    assert!(is_square);
                    let r = val(&r);
                    assert_eq!((&r * &r) % &p, ar);
                }
                None => assert!(!is_square),
            }
        }
    }

    #[test]
    fn beta_is_cube_root_of_unity() {
        let p = p();
        let b = val(&FieldElement::BETA);
        assert_ne!(b, BigUint::from(1u8));
        assert_eq!(b.modpow(&BigUint::from(3u8), &p), BigUint::from(1u8));
    }
}
