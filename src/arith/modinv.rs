//! Variable-time modular inversion by Bernstein–Yang "safegcd" divsteps.
//!
//! Numbers are held as five signed 62-bit limbs (value = Σ vᵢ·2⁶²ⁱ, limbs may be negative
//! in the intermediate steps). Each outer iteration performs 62 divsteps on the low bits
//! of f and g alone, collecting them in a 2×2 transition matrix scaled by 2⁶², then applies
//! the matrix to the full-width f, g (which shrink) and to d, e (the Bézout coefficients
//! tracked mod the modulus). The inner loop is the variable-time variant with the "η"
//! bookkeeping: runs of zero bits of g are skipped at once with a trailing-zero count, and
//! runs of non-swapping steps are collapsed with a small inverse of f mod 2⁴ or 2⁶.
//! See Bernstein & Yang, "Fast constant-time gcd computation and modular inversion" (2019)
//! for the divstep and its matrix form.
//!
//! The modulus is odd and below 2²⁵⁶; the input is below the modulus.

#![allow(dead_code)]

use super::wide::imul;

const M62: u64 = u64::MAX >> 2;

/// A signed-62 number.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Signed62(pub [i64; 5]);

/// A modulus in signed-62 form with its inverse mod 2⁶².
#[derive(Clone, Copy, Debug)]
pub struct ModInfo {
    modulus: Signed62,
    modulus_words: [u64; 4],
    /// modulus⁻¹ mod 2⁶².
    inv62: u64,
}

impl Signed62 {
    /// From a value below 2²⁵⁶ in little-endian 64-bit words.
    pub const fn from_u64x4(a: [u64; 4]) -> Self {
        Self([
            (a[0] & M62) as i64,
            ((a[0] >> 62 | a[1] << 2) & M62) as i64,
            ((a[1] >> 60 | a[2] << 4) & M62) as i64,
            ((a[2] >> 58 | a[3] << 6) & M62) as i64,
            (a[3] >> 56) as i64,
        ])
    }

    /// To little-endian 64-bit words. Requires limbs 0..3 in [0, 2⁶²) and limb 4 in [0, 2⁸).
    pub fn to_u64x4(self) -> [u64; 4] {
        let v = self.0.map(|x| x as u64);
        [
            v[0] | v[1] << 62,
            v[1] >> 2 | v[2] << 60,
            v[2] >> 4 | v[3] << 58,
            v[3] >> 6 | v[4] << 56,
        ]
    }
}

impl ModInfo {
    /// Builds the modulus description; `m` must be odd.
    pub const fn new(m: [u64; 4]) -> Self {
        // Newton iteration for m⁻¹ mod 2⁶⁴: x ← x·(2 − m·x) doubles the correct bits;
        // x = m is correct to 3 bits for odd m.
        let m0 = m[0];
        let mut x = m0;
        let mut i = 0;
        while i < 5 {
            x = x.wrapping_mul(2u64.wrapping_sub(m0.wrapping_mul(x)));
            i += 1;
        }
        Self {
            modulus: Signed62::from_u64x4(m),
            modulus_words: m,
            inv62: x & M62,
        }
    }
}

/// The transition matrix of 62 divsteps, scaled by 2⁶²: [u v; q r].
#[derive(Clone, Copy)]
struct Trans {
    u: i64,
    v: i64,
    q: i64,
    r: i64,
}

/// Runs 62 divsteps on the low bits `f0`, `g0` (f0 odd) starting from `eta` (= −δ); returns
/// the new eta and the scaled transition matrix.
#[inline]
fn divsteps_62(mut eta: i64, f0: u64, g0: u64) -> (i64, Trans) {
    let (mut u, mut v, mut q, mut r) = (1u64, 0u64, 0u64, 1u64);
    let (mut f, mut g) = (f0, g0);
    let mut i: u32 = 62;
    loop {
        // Skip the zero bits at the bottom of g (at most i of them).
        let zeros = (g | (u64::MAX << i)).trailing_zeros();
        g >>= zeros;
        u <<= zeros;
        v <<= zeros;
        eta -= zeros as i64;
        i -= zeros;
        if i == 0 {
            break;
        }
        // f and g are odd here.
        let w;
        let limit;
        if eta < 0 {
            // Swap step: (f, g) ← (g, −f).
            eta = -eta;
            let (tf, tu, tv) = (f, u, v);
            f = g;
            u = q;
            v = r;
            g = tf.wrapping_neg();
            q = tu.wrapping_neg();
            r = tv.wrapping_neg();
            limit = (eta as u32 + 1).min(i).min(6);
            // w = −g / f mod 2^limit using f⁻¹ ≡ f·(2 − f²) (mod 2⁶).
            let mask = (u64::MAX >> (64 - limit)) & 63;
            w = f
                .wrapping_mul(g)
                .wrapping_mul(f.wrapping_mul(f).wrapping_sub(2))
                & mask;
        } else {
            limit = (eta as u32 + 1).min(i).min(4);
            let mask = (u64::MAX >> (64 - limit)) & 15;
            // f⁻¹ mod 2⁴ = f + (((f + 1) & 4) << 1).
            let finv = f.wrapping_add(((f.wrapping_add(1)) & 4) << 1);
            w = finv.wrapping_mul(g).wrapping_neg() & mask;
        }
        g = g.wrapping_add(f.wrapping_mul(w));
        q = q.wrapping_add(u.wrapping_mul(w));
        r = r.wrapping_add(v.wrapping_mul(w));
        debug_assert_eq!(g & (u64::MAX >> (64 - limit)), 0);
    }
    (
        eta,
        Trans {
            u: u as i64,
            v: v as i64,
            q: q as i64,
            r: r as i64,
        },
    )
}

/// (d, e) ← (t·[d; e] + [md; me]·modulus) / 2⁶², keeping both in (−2·modulus, modulus).
#[inline]
fn update_de(d: &mut Signed62, e: &mut Signed62, t: &Trans, mi: &ModInfo) {
    let m = &mi.modulus.0;
    let (u, v, q, r) = (t.u, t.v, t.q, t.r);
    let (d4, e4) = (d.0[4], e.0[4]);
    // Start from the multiples of the modulus that bring a negative d or e back into range.
    let sd = d4 >> 63;
    let se = e4 >> 63;
    let mut md = (t.u & sd).wrapping_add(t.v & se);
    let mut me = (t.q & sd).wrapping_add(t.r & se);
    let mut cd = imul(u, d.0[0]) + imul(v, e.0[0]);
    let mut ce = imul(q, d.0[0]) + imul(r, e.0[0]);
    // Choose md, me so that the low 62 bits of cd, ce become zero.
    md = md.wrapping_sub((mi.inv62.wrapping_mul(cd as u64).wrapping_add(md as u64) & M62) as i64);
    me = me.wrapping_sub((mi.inv62.wrapping_mul(ce as u64).wrapping_add(me as u64) & M62) as i64);
    cd += imul(m[0], md);
    ce += imul(m[0], me);
    debug_assert_eq!(cd as u64 & M62, 0);
    debug_assert_eq!(ce as u64 & M62, 0);
    cd >>= 62;
    ce >>= 62;
    for (i, &mi_limb) in m.iter().enumerate().skip(1) {
        cd += imul(u, d.0[i]) + imul(v, e.0[i]) + imul(mi_limb, md);
        ce += imul(q, d.0[i]) + imul(r, e.0[i]) + imul(mi_limb, me);
        d.0[i - 1] = (cd as u64 & M62) as i64;
        e.0[i - 1] = (ce as u64 & M62) as i64;
        cd >>= 62;
        ce >>= 62;
    }
    d.0[4] = cd as i64;
    e.0[4] = ce as i64;
}

/// (f, g) ← t·[f; g] / 2⁶² on the low `len` limbs (the rest are sign extension).
#[inline]
fn update_fg(len: usize, f: &mut Signed62, g: &mut Signed62, t: &Trans) {
    let (u, v, q, r) = (t.u, t.v, t.q, t.r);
    let mut cf = imul(u, f.0[0]) + imul(v, g.0[0]);
    let mut cg = imul(q, f.0[0]) + imul(r, g.0[0]);
    debug_assert_eq!(cf as u64 & M62, 0);
    debug_assert_eq!(cg as u64 & M62, 0);
    cf >>= 62;
    cg >>= 62;
    for i in 1..len {
        cf += imul(u, f.0[i]) + imul(v, g.0[i]);
        cg += imul(q, f.0[i]) + imul(r, g.0[i]);
        f.0[i - 1] = (cf as u64 & M62) as i64;
        g.0[i - 1] = (cg as u64 & M62) as i64;
        cf >>= 62;
        cg >>= 62;
    }
    f.0[len - 1] = cf as i64;
    g.0[len - 1] = cg as i64;
}

/// x⁻¹ mod the modulus (0 ↦ 0). `x` must be below the modulus, limbs in canonical range.
pub fn inv(x: &Signed62, mi: &ModInfo) -> Signed62 {
    Inverter::new(x, mi).finish()
}

/// An inversion that runs in steps of 62 divsteps ([`Inverter::step`]), so that a caller
/// can spread it between the steps of other work (about ten steps for a 256-bit input).
pub struct Inverter<'a> {
    d: Signed62,
    e: Signed62,
    f: Signed62,
    g: Signed62,
    eta: i64,
    len: usize,
    done: bool,
    mi: &'a ModInfo,
}

impl<'a> Inverter<'a> {
    /// Starts inverting `x` (below the modulus, limbs in canonical range).
    pub fn new(x: &Signed62, mi: &'a ModInfo) -> Self {
        Self {
            d: Signed62([0; 5]),
            e: Signed62([1, 0, 0, 0, 0]),
            f: mi.modulus,
            g: *x,
            eta: -1,
            len: 5,
            done: false,
            mi,
        }
    }

    /// 62 more divsteps, unless the inversion is finished.
    #[inline]
    pub fn step(&mut self) {
        if self.done {
            return;
        }
        let len = self.len;
        let (f, g) = (&mut self.f, &mut self.g);
        let (new_eta, t) = divsteps_62(self.eta, f.0[0] as u64, g.0[0] as u64);
        self.eta = new_eta;
        update_de(&mut self.d, &mut self.e, &t, self.mi);
        update_fg(len, f, g, &t);
        if g.0[0] == 0 && g.0[1..len].iter().all(|&x| x == 0) {
            self.done = true;
            return;
        }
        // Shorten when the top limbs of both f and g are pure sign extension.
        let fl = f.0[len - 1];
        let gl = g.0[len - 1];
        if len > 1 && (fl ^ (fl >> 63)) == 0 && (gl ^ (gl >> 63)) == 0 {
            f.0[len - 2] |= ((fl as u64) << 62) as i64;
            g.0[len - 2] |= ((gl as u64) << 62) as i64;
            self.len = len - 1;
        }
    }

    /// The remaining steps, then the inverse.
    pub fn finish(mut self) -> Signed62 {
        while !self.done {
            self.step();
        }
        // Now f = ±gcd = ±1 (or ±modulus when x = 0, where d = 0 gives the answer 0).
        let negative = self.f.0[self.len - 1] < 0;
        normalize(&self.d, negative, self.mi)
    }
}

/// Maps d ∈ (−2·modulus, modulus), negated if `negate`, into [0, modulus).
fn normalize(d: &Signed62, negate: bool, mi: &ModInfo) -> Signed62 {
    // Work with a 320-bit two's-complement integer in five u64 words.
    let mut w = to_twos_complement(d);
    if negate {
        w = neg320(&w);
    }
    let m = {
        let mw = mi.modulus_words;
        [mw[0], mw[1], mw[2], mw[3], 0]
    };
    // w ∈ (−2m, 2m): add m while negative, subtract m while ≥ m.
    while (w[4] as i64) < 0 {
        w = add320(&w, &m);
    }
    while ge320(&w, &m) {
        w = sub320(&w, &m);
    }
    Signed62::from_u64x4([w[0], w[1], w[2], w[3]])
}

fn to_twos_complement(d: &Signed62) -> [u64; 5] {
    // Σ dᵢ·2⁶²ⁱ evaluated with signed carries.
    let mut out = [0u64; 5];
    let mut acc: i128 = 0;
    let mut bits = 0u32;
    let mut idx = 0;
    for &limb in &d.0 {
        acc += (limb as i128) << bits;
        bits += 62;
        while bits >= 64 && idx < 5 {
            out[idx] = acc as u64;
            acc >>= 64;
            bits -= 64;
            idx += 1;
        }
    }
    while idx < 5 {
        out[idx] = acc as u64;
        acc >>= 64;
        idx += 1;
    }
    out
}

fn add320(a: &[u64; 5], b: &[u64; 5]) -> [u64; 5] {
    let mut out = [0u64; 5];
    let mut carry = 0u128;
    for i in 0..5 {
        let s = a[i] as u128 + b[i] as u128 + carry;
        out[i] = s as u64;
        carry = s >> 64;
    }
    out
}

fn sub320(a: &[u64; 5], b: &[u64; 5]) -> [u64; 5] {
    add320(a, &neg320(b))
}

fn neg320(a: &[u64; 5]) -> [u64; 5] {
    let inv = a.map(|x| !x);
    add320(&inv, &[1, 0, 0, 0, 0])
}

/// a ≥ b for non-negative 320-bit values.
fn ge320(a: &[u64; 5], b: &[u64; 5]) -> bool {
    for i in (0..5).rev() {
        if a[i] != b[i] {
            return a[i] > b[i];
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use num_bigint::BigUint;

    fn big(w: [u64; 4]) -> BigUint {
        let mut v = BigUint::from(0u8);
        for i in (0..4).rev() {
            v = (v << 64u32) + BigUint::from(w[i]);
        }
        v
    }

    fn words(v: &BigUint) -> [u64; 4] {
        let d = v.to_u64_digits();
        let mut w = [0u64; 4];
        w[..d.len()].copy_from_slice(&d);
        w
    }

    const P: [u64; 4] = [
        0xFFFF_FFFE_FFFF_FC2F,
        0xFFFF_FFFF_FFFF_FFFF,
        0xFFFF_FFFF_FFFF_FFFF,
        0xFFFF_FFFF_FFFF_FFFF,
    ];
    const N: [u64; 4] = [
        0xBFD2_5E8C_D036_4141,
        0xBAAE_DCE6_AF48_A03B,
        0xFFFF_FFFF_FFFF_FFFE,
        0xFFFF_FFFF_FFFF_FFFF,
    ];

    #[test]
    fn inv62_is_inverse() {
        for m in [P, N, [3, 0, 0, 0], [0xFFFF_FFFF_FFFF_FFFF; 4]] {
            let mi = ModInfo::new(m);
            assert_eq!(m[0].wrapping_mul(mi.inv62) & M62, 1);
        }
    }

    #[test]
    fn signed62_round_trip() {
        let mut s = 0x1234_5678_9abc_def0u64;
        for _ in 0..100 {
            let w = [0, 1, 2, 3].map(|i: u64| {
                s = s
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407 + i);
                s
            });
            assert_eq!(Signed62::from_u64x4(w).to_u64x4(), w);
        }
    }

    #[test]
    fn inverse_matches_bigint_for_both_moduli() {
        let mut s = 7u64;
        let mut next = || {
            s = s
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            s ^ (s >> 29)
        };
        for m in [P, N] {
            let mb = big(m);
            let mi = ModInfo::new(m);
            let mut cases: Vec<BigUint> = vec![
                BigUint::from(0u8),
                BigUint::from(1u8),
                BigUint::from(2u8),
                &mb - 1u8,
                &mb - 2u8,
                (&mb - 1u8) >> 1u32,
                BigUint::from(1u8) << 255u32,
                BigUint::from(u64::MAX),
            ];
            for _ in 0..3000 {
                let v = big([next(), next(), next(), next()]) % &mb;
                cases.push(v);
            }
            // Small values and values with few bits produce long runs of zeros.
            for k in 0..256u32 {
                cases.push((BigUint::from(1u8) << k) % &mb);
            }
            for x in cases {
                let r = inv(&Signed62::from_u64x4(words(&x)), &mi);
                let got = big(r.to_u64x4());
                if x == BigUint::from(0u8) {
                    assert_eq!(got, BigUint::from(0u8));
                } else {
                    assert!(got < mb);
                    assert_eq!((&got * &x) % &mb, BigUint::from(1u8), "x = {x:x}");
                }
            }
        }
    }
}
