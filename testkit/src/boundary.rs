//! Boundary scalars of the recovery's recodings, and signatures crafted to reach them.
//!
//! Recovery computes Q = u₁·G + u₂·R with u₁ = −z·r⁻¹ and u₂ = s·r⁻¹ (mod n). For R = k·G
//! with r = x(R) below n, any chosen (u₁, u₂) with u₂ ≠ 0 is reached by s = u₂·r and
//! z = −u₁·r (mod n); the key is then (u₁ + u₂·k′)·G, where k′ = k if v names R's own
//! parity and −k otherwise ([`craft`]). So a test can put u₂ where its GLV split and its
//! recodings are at their edges, and u₁ where its 128-bit halves are:
//!
//! - [`u2_values`]: the GLV rounding's ties (c₁ or c₂ at a half-integer: the edges of the
//!   rounding region), its corners (both at once: the largest |k₁|, |k₂| and the largest
//!   Eisenstein integer κ = k₁ + k₂·ω), the scalars whose joint (Eisenstein) recoding ends
//!   in the largest top digit ([`eisenstein_extremes`]), 2ⁱ ± 1, n − 2ⁱ, multiples of λ,
//!   halves of all ones (k₁, k₂ ∈ {±(2¹²⁸ − 1), …});
//! - [`u1_values`]: 128-bit halves at 0, 1, 2¹²⁷, 2¹²⁸ − 1, even and odd, window-sized
//!   runs of ones, and 2ⁱ ± 1, n − 2ⁱ;
//! - [`bit_runs`]: 256-bit values made of long runs of zeros and ones (the idea of
//!   libsecp256k1's `testrand256_test`), for the field and scalar arithmetic.
//!
//! Everything here is computed with `num-bigint` from the published constants of
//! secp256k1's GLV endomorphism (λ and the short lattice basis); nothing calls asmcrypto.
//! The keys come from libsecp256k1 ([`public_key_of`]).

use std::sync::LazyLock;

use asmcrypto::Error;
use num_bigint::{BigInt, BigUint, Sign};

use crate::curve::{B32, from_be, n, to_be32};
use crate::oracle::public_key_of;
use crate::rng::SplitMix64;
use crate::sig::{Signed, sig65};

fn hex_int(s: &str) -> BigInt {
    BigInt::parse_bytes(s.as_bytes(), 16).expect("hex")
}

/// λ, the cube root of unity mod n with λ·(x, y) = (β·x, y).
pub fn lambda() -> BigInt {
    hex_int("5363ad4cc05c30e0a5261c028812645a122e22ea20816678df02967c1b23bd72")
}

/// The short basis v₁ = (a₁, b₁), v₂ = (a₂, b₂) of the lattice {(x, y) : x + y·λ ≡ 0
/// (mod n)} (Gallant, Lambert and Vanstone; the values libsecp256k1 publishes). a₁·b₂ −
/// a₂·b₁ = n.
pub fn basis() -> [(BigInt, BigInt); 2] {
    let a1 = hex_int("3086d221a7d46bcde86c90e49284eb15");
    let b1 = -hex_int("e4437ed6010e88286f547fa90abfe4c3");
    let a2 = hex_int("114ca50f7a8e2f3f657c1108d9d44cfd8");
    [(a1.clone(), b1), (a2, a1)]
}

fn n_int() -> BigInt {
    BigInt::from_biguint(Sign::Plus, n())
}

/// ⌊a / b⌋ for b > 0.
fn div_floor(a: &BigInt, b: &BigInt) -> BigInt {
    let q = a / b;
    if (a % b).sign() == Sign::Minus {
        q - 1
    } else {
        q
    }
}

/// a mod n, in [0, n).
pub fn mod_n(a: &BigInt) -> BigUint {
    let n = n_int();
    let r = ((a % &n) + &n) % &n;
    r.to_biguint().expect("non-negative")
}

/// k₁ + k₂·λ mod n: the scalar whose split is (k₁, k₂) when (k₁, k₂) lies in the
/// rounding region.
pub fn from_halves(k1: &BigInt, k2: &BigInt) -> BigUint {
    mod_n(&(k1 + k2 * lambda()))
}

/// The GLV split of u with exact rounding: c₁ = round(u·b₂/n), c₂ = round(−u·b₁/n),
/// k₁ = u − c₁·a₁ − c₂·a₂, k₂ = −c₁·b₁ − c₂·b₂ (halves rounded up). The library rounds
/// with 384-bit approximations of b₂/n and −b₁/n, so the two may differ where a rounding
/// is within about 2⁻¹²⁹ of a tie; both are valid splits.
pub fn split(u: &BigUint) -> (BigInt, BigInt) {
    let [(a1, b1), (a2, b2)] = basis();
    let n = n_int();
    let u = BigInt::from_biguint(Sign::Plus, u.clone());
    let round = |num: BigInt| div_floor(&(2 * num + &n), &(2 * &n));
    let c1 = round(&u * &b2);
    let c2 = round(-&u * &b1);
    let k1 = &u - &c1 * &a1 - &c2 * &a2;
    let k2 = -&c1 * &b1 - &c2 * &b2;
    (k1, k2)
}

/// x·v₁ + y·v₂ for x = X/2¹²⁸, y = Y/2¹²⁸, rounded to integers: a point of the rounding
/// region {x·v₁ + y·v₂ : |x|, |y| ≤ 1/2} when |X|, |Y| ≤ 2¹²⁷.
fn lattice_point(x: &BigInt, y: &BigInt) -> (BigInt, BigInt) {
    let [(a1, b1), (a2, b2)] = basis();
    let s = BigInt::from(1) << 128u32;
    let half = BigInt::from(1) << 127u32;
    let r = |v: BigInt| div_floor(&(v + &half), &s);
    (r(x * &a1 + y * &a2), r(x * &b1 + y * &b2))
}

/// A signed random value below 2ᵇⁱᵗˢ in magnitude.
fn signed_random(rng: &mut SplitMix64, bits: u32) -> BigInt {
    let mut v = BigInt::from(0);
    for _ in 0..bits.div_ceil(64) {
        v = (v << 64u32) + BigInt::from(rng.next_u64());
    }
    v >>= bits.div_ceil(64) * 64 - bits;
    if rng.coin() { -v } else { v }
}

/// The four exact corners of the rounding region, ±v₁/2 ± v₂/2, each with the nine
/// integer points around it: scalars whose two roundings c₁ and c₂ are both within about
/// 2⁻¹²⁷ of a tie (36 of them). Their halves are the largest the split gives.
pub fn corners() -> Vec<BigUint> {
    let [(a1, b1), (a2, b2)] = basis();
    let two = BigInt::from(2);
    let mut out = Vec::new();
    for sx in [1, -1] {
        for sy in [1, -1] {
            let c1 = div_floor(&(sx * &a1 + sy * &a2), &two);
            let c2 = div_floor(&(sx * &b1 + sy * &b2), &two);
            for d1 in -1..=1 {
                for d2 in -1..=1 {
                    out.push(from_halves(&(&c1 + d1), &(&c2 + d2)));
                }
            }
        }
    }
    out
}

/// A scalar near a corner of the rounding region: x = ±(1/2 − ε₁), y = ±(1/2 − ε₂) with
/// random ε below 2⁻⁴⁰ (of any size down to 0).
pub fn near_corner(rng: &mut SplitMix64) -> BigUint {
    let half = BigInt::from(1) << 127u32;
    // ε·2¹²⁸ below 2⁸⁸, of any size down to 0.
    let coord = |rng: &mut SplitMix64| {
        let shift = rng.below(64) as u32;
        let v = &half - (BigInt::from(rng.next_u64() >> shift) << 24u32);
        if rng.coin() { -v } else { v }
    };
    let (x, y) = (coord(rng), coord(rng));
    let (k1, k2) = lattice_point(&x, &y);
    from_halves(&k1, &k2)
}

/// A scalar on an edge of the rounding region: one rounding exactly at a tie (x or y =
/// ±1/2, to within the integer rounding of the halves, about 2⁻¹²⁷), the other random.
pub fn on_edge(rng: &mut SplitMix64) -> BigUint {
    let half = BigInt::from(1) << 127u32;
    let tie = if rng.coin() { half.clone() } else { -half };
    let other = signed_random(rng, 127);
    let (x, y) = if rng.coin() {
        (tie, other)
    } else {
        (other, tie)
    };
    let (k1, k2) = lattice_point(&x, &y);
    from_halves(&k1, &k2)
}

/// The digit of each residue class (a mod 8, b mod 8) of the joint recoding: an element
/// a + b·ω of smallest norm a² − ab + b² in the class, and whether another element of the
/// class has the same norm (a tie, where the library may pick the other one).
fn digit_table() -> [[((i64, i64), bool); 8]; 8] {
    let mut t = [[((0, 0), false); 8]; 8];
    let norm = |a: i64, b: i64| a * a - a * b + b * b;
    for ra in 0..8i64 {
        for rb in 0..8i64 {
            let mut best: Option<((i64, i64), bool)> = None;
            for a in -8i64..=8 {
                for b in -8i64..=8 {
                    if a.rem_euclid(8) != ra || b.rem_euclid(8) != rb {
                        continue;
                    }
                    best = match best {
                        None => Some(((a, b), false)),
                        Some((d, tie)) => {
                            let (m, m0) = (norm(a, b), norm(d.0, d.1));
                            if m < m0 {
                                Some(((a, b), false))
                            } else {
                                Some((d, tie || m == m0))
                            }
                        }
                    };
                }
            }
            t[ra as usize][rb as usize] = best.expect("every class has elements");
        }
    }
    t
}

/// Columns of the joint recoding: digits at bits 0, 3, …, 126.
const COLUMNS: usize = 43;

/// The last digit of the joint recoding of κ = k₁ + k₂·ω (base 8, each digit the smallest
/// element of its class, [`COLUMNS`] − 1 steps): the remainder the top column must add,
/// as (a, b) = a + b·ω. Where a class is a tie this may pick the other smallest element
/// than the library does; the remainder's norm is what the bound concerns.
pub fn eisenstein_top(k1: &BigInt, k2: &BigInt) -> (i64, i64) {
    let table = digit_table();
    let eight = BigInt::from(8);
    let (mut a, mut b) = (k1.clone(), k2.clone());
    for _ in 0..COLUMNS - 1 {
        let ra = ((&a % 8i32 + 8i32) % 8i32)
            .to_u64_digits()
            .1
            .first()
            .copied();
        let rb = ((&b % 8i32 + 8i32) % 8i32)
            .to_u64_digits()
            .1
            .first()
            .copied();
        let ((da, db), _) = table[ra.unwrap_or(0) as usize][rb.unwrap_or(0) as usize];
        a = div_floor(&(a - da), &eight);
        b = div_floor(&(b - db), &eight);
    }
    let small = |v: &BigInt| i64::try_from(v.clone()).unwrap_or(i64::MAX);
    (small(&a), small(&b))
}

/// The norm a² − ab + b² of a + b·ω.
pub fn eisenstein_norm((a, b): (i64, i64)) -> i64 {
    a.saturating_mul(a) - a.saturating_mul(b) + b.saturating_mul(b)
}

/// Scalars whose joint recoding ends in the largest top digits: κ = T·8⁴² + Σ dᵢ·8ⁱ for
/// every T of norm 1..=19, with the lower digits dᵢ (smallest in their classes) pointing
/// away from T so that κ stays inside the rounding region, the top three varied. (Where a
/// digit's class is a tie the library may recode it with the other smallest element; the
/// scalar is a boundary case all the same.)
/// Each κ is mapped to u = κ₁ + κ₂·λ mod n and split again ([`split`]); returned are the
/// scalars whose top remainder has norm 9 or more, largest first, with that norm.
pub fn eisenstein_extremes() -> Vec<(BigUint, i64)> {
    let table = digit_table();
    let digits: Vec<(i64, i64)> = table
        .iter()
        .flatten()
        .filter(|(d, _)| *d != (0, 0))
        .map(|(d, _)| *d)
        .collect();
    // a + b·ω in the plane, times 2: (2a − b, b·√3).
    let dot = |(a, b): (i64, i64), (c, d): (i64, i64)| {
        ((2 * a - b) * (2 * c - d)) as f64 + 3.0 * (b * d) as f64
    };
    let pow8 = |i: usize| BigInt::from(1) << (3 * i as u32);
    let mut out = Vec::new();
    for ta in -6i64..=6 {
        for tb in -6i64..=6 {
            let t = (ta, tb);
            let norm = eisenstein_norm(t);
            if norm == 0 || norm > 19 {
                continue;
            }
            let mut away = digits.clone();
            away.sort_by(|x, y| dot(*x, t).total_cmp(&dot(*y, t)));
            for variant in 0..27usize {
                let pick = [variant % 3, variant / 3 % 3, variant / 9];
                let (mut k1, mut k2) = (BigInt::from(ta) * pow8(42), BigInt::from(tb) * pow8(42));
                for i in 0..42usize {
                    let d = if i >= 39 { away[pick[41 - i]] } else { away[0] };
                    k1 += BigInt::from(d.0) * pow8(i);
                    k2 += BigInt::from(d.1) * pow8(i);
                }
                let u = from_halves(&k1, &k2);
                let (s1, s2) = split(&u);
                let top = eisenstein_norm(eisenstein_top(&s1, &s2));
                if top >= 9 {
                    out.push((u, top));
                }
            }
        }
    }
    out.sort_by(|x, y| y.1.cmp(&x.1).then_with(|| x.0.cmp(&y.0)));
    out.dedup_by(|x, y| x.0 == y.0);
    out
}

/// 2ⁱ as a big integer.
fn pow2(i: u32) -> BigUint {
    BigUint::from(1u8) << i
}

/// The boundary values of u₂, each with what it is, in a fixed order: everything
/// deterministic, then `random` each of scalars near a corner and on an edge of the
/// rounding region (seeded).
pub fn u2_values(seed: u64, random: usize) -> Vec<(String, BigUint)> {
    let n = n();
    let lam = lambda();
    let mut out: Vec<(String, BigUint)> = Vec::new();
    let mut push = |what: &str, v: BigUint| {
        let v = v % &n;
        if v != BigUint::from(0u8) {
            out.push((what.to_owned(), v));
        }
    };
    for k in [1u32, 2, 3, 4, 7, 8, 9, 15, 16, 17, 31, 32, 33] {
        push("small", BigUint::from(k));
    }
    for i in 1..256u32 {
        push("2^i - 1", pow2(i) - 1u8);
        push("2^i", pow2(i));
        push("2^i + 1", pow2(i) + 1u8);
        push("n - 2^i", &n - pow2(i));
    }
    push("n - 1", &n - 1u8);
    push("(n - 1)/2", (&n - 1u8) >> 1u32);
    push("(n + 1)/2", (&n + 1u8) >> 1u32);
    // Multiples of λ and of λ² = −1 − λ, and λ times halves of all ones.
    let ones128: BigInt = BigInt::from(pow2(128)) - 1;
    let ones127: BigInt = BigInt::from(pow2(127)) - 1;
    for m in [
        BigInt::from(1),
        BigInt::from(2),
        BigInt::from(3),
        BigInt::from(-1),
        BigInt::from(-2),
        BigInt::from(1u64 << 63),
        BigInt::from(pow2(64)),
        ones127.clone(),
        BigInt::from(pow2(127)),
        ones128.clone(),
        BigInt::from(pow2(128)),
        BigInt::from(pow2(128)) + 1,
    ] {
        push("m·λ", mod_n(&(&m * &lam)));
        push("m·λ²", mod_n(&(&m * &lam * &lam)));
        push("m·(1 + λ)", mod_n(&(&m * (&lam + 1))));
    }
    for i in (0..256u32).step_by(5) {
        push("2^i·λ", mod_n(&(BigInt::from(pow2(i)) * &lam)));
        push("2^i·λ + 1", mod_n(&(BigInt::from(pow2(i)) * &lam + 1)));
    }
    // Halves at ±(2¹²⁸ − 1), ±(2¹²⁷ − 1), ±1, 0 in every combination (k₁ + k₂·λ; the
    // split of the larger ones lands elsewhere in the region).
    let halves = [
        BigInt::from(0),
        BigInt::from(1),
        BigInt::from(-1),
        ones127.clone(),
        -ones127.clone(),
        ones128.clone(),
        -ones128.clone(),
    ];
    for k1 in &halves {
        for k2 in &halves {
            push("halves of ones", from_halves(k1, k2));
        }
    }
    for u in corners() {
        push("corner (both roundings at a tie)", u);
    }
    for (u, _) in eisenstein_extremes().into_iter().take(64) {
        push("largest Eisenstein top digit", u);
    }
    let mut rng = SplitMix64(seed);
    for _ in 0..random {
        push("near a corner", near_corner(&mut rng));
        push("on an edge (one rounding at a tie)", on_edge(&mut rng));
    }
    out
}

/// The boundary values of u₁ (split into its 128-bit halves over G and 2¹²⁸·G), each with
/// what it is: halves from {0, 1, 2, 3, 2¹²⁷ − 1, 2¹²⁷, 2¹²⁷ + 1, 2¹²⁸ − 2, 2¹²⁸ − 1, runs of
/// ones of window widths} in every combination (mod n), then 2ⁱ ± 1 and n − 2ⁱ.
pub fn u1_values() -> Vec<(String, BigUint)> {
    let n = n();
    let mut halves = vec![
        BigUint::from(0u8),
        BigUint::from(1u8),
        BigUint::from(2u8),
        BigUint::from(3u8),
        pow2(127) - 1u8,
        pow2(127),
        pow2(127) + 1u8,
        pow2(128) - 2u8,
        pow2(128) - 1u8,
    ];
    // Runs of ones the width of the windows (14 and 15 bits), at window-aligned positions:
    // digits at their largest.
    for w in [14u32, 15] {
        let mut v = BigUint::from(0u8);
        let mut i = 0;
        while i + w <= 128 {
            v |= (pow2(w) - 1u8) << i;
            i += 2 * w;
        }
        halves.push(v.clone());
        halves.push((pow2(128) - 1u8) ^ v);
    }
    let mut out = Vec::new();
    for hi in &halves {
        for lo in &halves {
            out.push(("128-bit halves".to_owned(), ((hi << 128u32) + lo) % &n));
        }
    }
    for i in 1..256u32 {
        out.push(("2^i - 1".to_owned(), (pow2(i) - 1u8) % &n));
        out.push(("2^i + 1".to_owned(), (pow2(i) + 1u8) % &n));
        out.push(("n - 2^i".to_owned(), &n - pow2(i)));
    }
    out.push(("n - 1".to_owned(), &n - 1u8));
    out
}

/// A signature crafted for (u₁, u₂).
#[derive(Clone, Debug)]
pub struct Crafted {
    /// What u₁ and u₂ are.
    pub what: String,
    /// u₁ = −z·r⁻¹.
    pub u1: B32,
    /// u₂ = s·r⁻¹.
    pub u2: B32,
    /// The message hash z (or z + n where that fits and was asked for).
    pub hash: B32,
    /// r = x(k·G).
    pub r: B32,
    /// s = u₂·r.
    pub s: B32,
    /// The y parity v names (0 or 1).
    pub parity: u8,
    /// (u₁ + u₂·k′)·G, or `PointAtInfinity` where that is O: what recovery must give,
    /// worked out from k, not by recovering.
    pub key: Result<[u8; 64], Error>,
}

impl Crafted {
    /// (hash, r ‖ s ‖ v) with v = parity (+ 27 if `v27`).
    pub fn signed(&self, v27: bool) -> Signed {
        (
            self.hash,
            sig65(&self.r, &self.s, self.parity + if v27 { 27 } else { 0 }),
        )
    }
}

/// The signature with u₁ = −z·r⁻¹ and u₂ = s·r⁻¹ over R = k·G (k in [1, n − 1]): r = x(R),
/// s = u₂·r, z = −u₁·r, v = R's parity (flipped if `flip`: then the recovered R is −k·G).
/// `hash_plus_n` writes z + n as the hash where that fits in 256 bits. `None` where
/// x(R) ≥ n (probability about 2⁻¹²⁸) or u₂ = 0 (s would be 0).
pub fn craft(
    what: &str,
    u1: &BigUint,
    u2: &BigUint,
    k: &B32,
    flip: bool,
    hash_plus_n: bool,
) -> Option<Crafted> {
    let n = n();
    let (u1, u2) = (u1 % &n, u2 % &n);
    if u2 == BigUint::from(0u8) {
        return None;
    }
    let key = public_key_of(k);
    let rx = from_be(&key[..32]);
    if rx >= n {
        return None;
    }
    let parity = (key[63] & 1) ^ u8::from(flip);
    let k = from_be(k);
    let k_eff = if flip { &n - &k } else { k };
    let s = &u2 * &rx % &n;
    let z = (&n - &u1 * &rx % &n) % &n;
    let hash = if hash_plus_n && &z + &n < BigUint::from(1u8) << 256u32 {
        &z + &n
    } else {
        z
    };
    let q = (&u1 + &u2 * &k_eff) % &n;
    let key = if q == BigUint::from(0u8) {
        Err(Error::PointAtInfinity)
    } else {
        Ok(public_key_of(&to_be32(&q)))
    };
    Some(Crafted {
        what: what.to_owned(),
        u1: to_be32(&u1),
        u2: to_be32(&u2),
        hash: to_be32(&hash),
        r: to_be32(&rx),
        s: to_be32(&s),
        parity,
        key,
    })
}

/// R's discrete log for a crafted signature: mostly random, sometimes 1 (R = G), λ
/// (R = (β·Gx, Gy)), n − 1 or small.
pub fn some_k(rng: &mut SplitMix64) -> B32 {
    match rng.below(16) {
        0 => crate::curve::small(1),
        1 => to_be32(&mod_n(&lambda())),
        2 => crate::curve::offset(&crate::curve::N, -1),
        3 => crate::curve::small(rng.range(2, 1 << 20)),
        _ => rng.scalar(),
    }
}

/// The soak runner's boundary cases: u₂ from [`u2_values`] (a fixed list) or fresh near a
/// corner or on an edge of the rounding region, with a random u₁ or one of [`u1_values`];
/// or u₁ from [`u1_values`] with a random u₂; one in sixteen with u₁ = −u₂·k′ (Q = O).
pub fn random_case(rng: &mut SplitMix64) -> Crafted {
    static U2: LazyLock<Vec<(String, BigUint)>> = LazyLock::new(|| u2_values(0xb0d4, 16));
    static U1: LazyLock<Vec<(String, BigUint)>> = LazyLock::new(u1_values);
    let n = n();
    loop {
        let random = |rng: &mut SplitMix64| ("random".to_owned(), from_be(&rng.scalar()));
        let (w2, u2) = match rng.below(8) {
            0..=3 => U2[rng.index(U2.len())].clone(),
            4 => ("near a corner".to_owned(), near_corner(rng)),
            5 => ("on an edge".to_owned(), on_edge(rng)),
            _ => random(rng),
        };
        let (w1, mut u1) = match rng.below(3) {
            0 => U1[rng.index(U1.len())].clone(),
            _ => random(rng),
        };
        let k = some_k(rng);
        let flip = rng.below(4) == 0;
        let what = format!("u1: {w1}; u2: {w2}");
        if rng.below(16) == 0 {
            let kb = from_be(&k);
            let k_eff = if flip { &n - &kb } else { kb };
            u1 = (&n - &u2 * &k_eff % &n) % &n;
        }
        if let Some(c) = craft(&what, &u1, &u2, &k, flip, rng.below(4) == 0) {
            return c;
        }
    }
}

/// 32 bytes made of runs of equal bits, the first bit random and each run 1 to 2ʲ bits
/// long for j uniform in 0..=8 (so that runs of 100 bits and more are common): the
/// carries and borrows of a long run that random values almost never give (the idea of
/// libsecp256k1's `testrand256_test`).
pub fn bit_runs(rng: &mut SplitMix64) -> B32 {
    let mut out = [0u8; 32];
    let mut bit = rng.coin();
    let mut pos = 0usize;
    while pos < 256 {
        let scale = rng.below(9);
        let len = 1 + rng.below(1 << scale) as usize;
        if bit {
            for i in pos..(pos + len).min(256) {
                out[i / 8] |= 0x80 >> (i % 8);
            }
        }
        pos += len;
        bit = !bit;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn basis_and_lambda() {
        let n = n_int();
        let lam = lambda();
        assert_eq!(mod_n(&(&lam * &lam * &lam)), BigUint::from(1u8));
        let [(a1, b1), (a2, b2)] = basis();
        assert_eq!(mod_n(&(&a1 + &b1 * &lam)), BigUint::from(0u8));
        assert_eq!(mod_n(&(&a2 + &b2 * &lam)), BigUint::from(0u8));
        assert_eq!(&a1 * &b2 - &a2 * &b1, n);
    }

    /// The split recombines and is short; corners give halves near the largest, and both
    /// roundings of a corner are at a tie.
    #[test]
    fn split_and_corners() {
        let lam = lambda();
        let n = n_int();
        let bound = BigInt::from(1) << 128u32;
        let mut largest = BigInt::from(0);
        for u in corners() {
            let (k1, k2) = split(&u);
            assert_eq!(from_halves(&k1, &k2), u);
            assert!(k1.magnitude() < bound.magnitude() && k2.magnitude() < bound.magnitude());
            largest = largest.max(k1.clone().max(-k1)).max(k2.clone().max(-k2));
            // u·b₂/n within 2⁻¹²⁰ of a half-integer.
            let [(_, b1), (_, b2)] = basis();
            let u = BigInt::from_biguint(Sign::Plus, u);
            for c in [&u * &b2, -&u * &b1] {
                let frac: BigInt = ((2 * c % (2 * &n)) + 2 * &n) % (2 * &n);
                let dist = (&frac - &n).magnitude().clone();
                assert!(dist.bits() < 257 - 120, "not a tie: {dist}");
            }
        }
        // max |k₁| at a corner is (a₁ + a₂)/2, about 2^127.3.
        assert!(largest.bits() >= 127, "{largest}");
        let _ = lam;
    }

    #[test]
    fn edges_are_ties_in_one_rounding() {
        let n = n_int();
        let [(_, b1), (_, b2)] = basis();
        let mut rng = SplitMix64(4);
        for _ in 0..64 {
            let u = BigInt::from_biguint(Sign::Plus, on_edge(&mut rng));
            let ties = [&u * &b2, -&u * &b1]
                .iter()
                .filter(|c| {
                    let frac: BigInt = ((2 * *c % (2 * &n)) + 2 * &n) % (2 * &n);
                    (&frac - &n).magnitude().bits() < 257 - 120
                })
                .count();
            assert!(ties >= 1);
        }
    }

    /// The joint recoding's top remainder stays a digit (norm ≤ 16) on the constructed
    /// extremes, and the largest is above the random scalars' usual ones.
    #[test]
    fn eisenstein_extremes_are_large_but_bounded() {
        let ext = eisenstein_extremes();
        assert!(!ext.is_empty());
        for (_, norm) in &ext {
            assert!(*norm <= 16, "top remainder of norm {norm}");
        }
        assert!(ext[0].1 >= 13, "largest top norm {}", ext[0].1);
    }

    #[test]
    fn crafted_signatures_recover_their_key_with_libsecp256k1() {
        let mut rng = SplitMix64(9);
        for _ in 0..32 {
            let c = random_case(&mut rng);
            let got = crate::oracle::oracle_recover(&c.hash, &c.r, &c.s, c.parity);
            match c.key {
                Ok(k) => assert_eq!(got, Some(k), "{}", c.what),
                Err(_) => assert_eq!(got, None, "{}", c.what),
            }
            // u₂ = s·r⁻¹ and u₁ = −z·r⁻¹.
            let (n, r) = (n(), from_be(&c.r));
            let rinv = r.modpow(&(&n - 2u8), &n);
            assert_eq!(from_be(&c.s) * &rinv % &n, from_be(&c.u2));
            let z = from_be(&c.hash) % &n;
            assert_eq!((&n - z * &rinv % &n) % &n, from_be(&c.u1));
        }
    }

    #[test]
    fn bit_runs_have_long_runs() {
        let mut rng = SplitMix64(1);
        let mut longest = 0;
        for _ in 0..200 {
            let b = bit_runs(&mut rng);
            let bits: Vec<bool> = (0..256).map(|i| b[i / 8] >> (7 - i % 8) & 1 == 1).collect();
            let mut run = 1;
            for i in 1..256 {
                run = if bits[i] == bits[i - 1] { run + 1 } else { 1 };
                longest = longest.max(run);
            }
        }
        assert!(longest >= 128, "{longest}");
    }
}
