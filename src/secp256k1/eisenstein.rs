//! Joint recoding of the two GLV halves as one Eisenstein integer, for the lockstep
//! engine: one table, one addition per column for both halves.
//!
//! The endomorphism λ·(x, y) = (βx, y) satisfies λ² + λ + 1 ≡ 0 (mod n), so the ring of
//! Eisenstein integers Z[ω] (ω² + ω + 1 = 0) acts on the curve through ω ↦ λ. The GLV halves
//! of u₂ = k₁ + k₂·λ are therefore one Eisenstein integer κ = k₁ + k₂·ω, and
//! u₂·R = κ·R. κ is written in base 2³ with digits in Z[ω]:
//!
//! κ = Σᵢ dᵢ·8ⁱ, dᵢ ≡ κᵢ (mod 8), κᵢ₊₁ = (κᵢ − dᵢ)/8,
//!
//! each dᵢ the smallest-norm element of its residue class mod 8 (norm a² − ab + b², at
//! most 19). Up to the six units ±1, ±ω, ±ω² the 63 non-zero classes fall into 11 orbits,
//! so every digit is u·t for a unit u and one of the 11 table entries t of [`ENTRIES`]
//! (1, 2, 3, 4, 1−ω, 2−ω, 3+ω, 3−ω, 4+ω, 2−2ω, 5+2ω). Applying a unit costs nothing
//! at lookup time: −P = (x, −y), ω·P = (βx, y), ω²·P = (β²x, y), so the engine stores
//! x, βx, β²x and y of each entry.
//!
//! Compared with recoding k₁ and k₂ separately into signed odd windows of width 5 (26
//! columns each over two 16-entry tables: 52 additions), this takes 43 additions (one per
//! column, at bits 0, 3, …, 126) over one 11-entry table whose entries are built with 3
//! doublings and 7 additions. A zero digit (κᵢ ≡ 0 mod 8, one column in 64 per lane) is
//! an addition skipped in that lane. Even halves need no correction.
//!
//! **Bound on the top digit.** The GLV rounding puts κ in the rhombus spanned by half the
//! short lattice basis (|π| = √n, at 60°), so |κ| ≤ √n·√3/2 < 2^127.8. Each step divides
//! by 8 and adds at most |d|/8 ≤ √19/8, so after 42 steps |κ₄₂| ≤ 2^127.8/2^126 + √19/7
//! < 4.11. Every Eisenstein integer of norm at most 16 (|x| < 4.36 means norm ≤ 16) is 0
//! or a unit times an entry, so the remainder is the 43rd digit itself.
//! [`recode`] checks this and returns `None` otherwise (never seen, and excluded by the
//! bound; the caller would then use the scalar path).

use super::glv::Half;

/// Bits per column.
pub(crate) const W: u32 = 3;
/// Columns: digits at bits 0, 3, …, 126.
pub(crate) const COLUMNS: usize = 43;
/// Table entries a + b·ω, as (a, b): the digit set up to units.
pub(crate) const ENTRIES: [(i8, i8); 11] = [
    (1, 0),
    (2, 0),
    (3, 0),
    (4, 0),
    (1, -1),
    (2, -1),
    (3, 1),
    (3, -1),
    (4, 1),
    (2, -2),
    (5, 2),
];

/// One non-zero digit: `sign · ω^rot · ENTRIES[entry]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Digit {
    /// Index into [`ENTRIES`].
    pub entry: u8,
    /// Power of ω: 0, 1 or 2 (the point's x is multiplied by β^rot).
    pub rot: u8,
    /// Negated (the point's y is negated).
    pub neg: bool,
}

impl Digit {
    /// The digit's value a + b·ω.
    pub(crate) const fn value(self) -> (i32, i32) {
        let (a, b) = ENTRIES[self.entry as usize];
        let mut v = (a as i32, b as i32);
        let mut r = 0;
        while r < self.rot {
            v = times_omega(v);
            r += 1;
        }
        if self.neg { (-v.0, -v.1) } else { v }
    }
}

/// (a + bω)·ω = −b + (a − b)·ω.
const fn times_omega((a, b): (i32, i32)) -> (i32, i32) {
    (-b, a - b)
}

/// For every residue class (a mod 8)·8 + (b mod 8): its digit, `None` for the class of 0.
/// Built at compile time from [`ENTRIES`] and the units; the first match of each class is
/// kept (the classes with two smallest elements, norm 16 and 19, are ties).
pub(crate) const RESIDUES: [Option<Digit>; 64] = residues();

const fn residues() -> [Option<Digit>; 64] {
    let mut out = [None; 64];
    let mut entry = 0;
    while entry < ENTRIES.len() {
        let mut rot = 0;
        while rot < 3 {
            let mut s = 0;
            while s < 2 {
                let d = Digit {
                    entry: entry as u8,
                    rot,
                    neg: s == 1,
                };
                let (a, b) = d.value();
                let class = (a.rem_euclid(8) * 8 + b.rem_euclid(8)) as usize;
                if out[class].is_none() {
                    out[class] = Some(d);
                }
                s += 1;
            }
            rot += 1;
        }
        entry += 1;
    }
    out
}

/// The digit whose value is exactly (a, b), if (a, b) is 0 (`Some(None)`) or a unit times
/// an entry: the last column's digit, which must equal the remainder.
pub(crate) fn top_digit(a: i128, b: i128) -> Option<Option<Digit>> {
    if a == 0 && b == 0 {
        return Some(None);
    }
    let class = (a.rem_euclid(8) * 8 + b.rem_euclid(8)) as usize;
    let d = RESIDUES[class]?;
    let entry = d.entry;
    // The class's first match, or one of its associates (the ties of norm 16 and 19).
    for rot in 0..3 {
        for neg in [false, true] {
            let c = Digit { entry, rot, neg };
            let (x, y) = c.value();
            if (x as i128, y as i128) == (a, b) {
                return Some(Some(c));
            }
        }
    }
    None
}

/// Column 0's digit of κ = k₁ + k₂·ω and the rest, (κ − d₀)/8, as (a, b) = a + b·ω. The
/// halves are below 2¹²⁸ in magnitude, so this first step works on (magnitude, sign);
/// the rest fits in i128 (and below 2¹²⁵).
pub(crate) fn first_digit(k1: Half, k2: Half) -> (Option<Digit>, i128, i128) {
    let low = |(m, neg): Half| -> i128 {
        let r = (m & 7) as i128;
        if neg { -r } else { r }
    };
    let high = |(m, neg): Half| -> i128 {
        let q = (m >> 3) as i128;
        if neg { -q } else { q }
    };
    let (la, lb) = (low(k1), low(k2));
    let d = RESIDUES[(la.rem_euclid(8) * 8 + lb.rem_euclid(8)) as usize];
    let (da, db) = digit_value(d);
    // (k − d)/8 = ±(m >> 3) + (±(m & 7) − d)/8, the second part exact.
    (d, high(k1) + ((la - da) >> W), high(k2) + ((lb - db) >> W))
}

/// The digits of κ = k₁ + k₂·ω, column 0 first; `None` (zero) where the column adds
/// nothing. `None` overall if the top remainder is not a digit, which the bound in the
/// module docs rules out. The reference for the lanes' recoding
/// (`crate::lanes::schedule`), which takes the same steps eight lanes at a time.
#[cfg(test)]
pub(crate) fn recode(k1: Half, k2: Half) -> Option<[Option<Digit>; COLUMNS]> {
    let mut out = [None; COLUMNS];
    let (d0, mut a, mut b) = first_digit(k1, k2);
    out[0] = d0;
    for d in out[1..COLUMNS - 1].iter_mut() {
        *d = RESIDUES[((a & 7) * 8 + (b & 7)) as usize];
        let (da, db) = digit_value(*d);
        a = (a - da) >> W;
        b = (b - db) >> W;
    }
    out[COLUMNS - 1] = top_digit(a, b)?;
    Some(out)
}

/// The value of a digit, (0, 0) for zero.
#[inline(always)]
pub(crate) fn digit_value(d: Option<Digit>) -> (i128, i128) {
    match d {
        Some(d) => {
            let (a, b) = d.value();
            (a as i128, b as i128)
        }
        None => (0, 0),
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::secp256k1::glv::split_lambda_halves;
    use crate::secp256k1::scalar::{N, Scalar};
    use crate::test_support::rng::splitmix64;
    use num_bigint::{BigInt, Sign};

    fn norm((a, b): (i32, i32)) -> i32 {
        a * a - a * b + b * b
    }

    fn lambda() -> BigInt {
        BigInt::parse_bytes(
            b"5363ad4cc05c30e0a5261c028812645a122e22ea20816678df02967c1b23bd72",
            16,
        )
        .unwrap()
    }

    fn n() -> BigInt {
        BigInt::from_bytes_be(Sign::Plus, &Scalar::from_words(N).to_bytes())
    }

    /// Every residue class but 0 has a digit, and it is a smallest element of its class
    /// (checked against every element with coordinates in [−16, 16]).
    #[test]
    fn residue_digits_are_smallest_representatives() {
        assert!(RESIDUES[0].is_none());
        for (class, d) in RESIDUES.iter().enumerate().skip(1) {
            let d = d.expect("every non-zero class has a digit");
            let (a, b) = d.value();
            assert_eq!((a.rem_euclid(8) * 8 + b.rem_euclid(8)) as usize, class);
            let mut min = i32::MAX;
            for x in -16i32..=16 {
                for y in -16i32..=16 {
                    if (x.rem_euclid(8) * 8 + y.rem_euclid(8)) as usize == class {
                        min = min.min(norm((x, y)));
                    }
                }
            }
            assert_eq!(norm((a, b)), min, "class {class}");
            assert!(norm((a, b)) <= 19);
        }
        // The 11 entries are pairwise non-associate: 11 orbits × 6 units = 66 values,
        // covering the 63 classes (the norm-16 orbit has 3 classes, hit twice each).
        let mut values = std::collections::BTreeSet::new();
        for entry in 0..ENTRIES.len() as u8 {
            for rot in 0..3 {
                for neg in [false, true] {
                    values.insert(Digit { entry, rot, neg }.value());
                }
            }
        }
        assert_eq!(values.len(), 66);
    }

    /// A digit's value is its entry times the unit it names, computed here in Z[ω] by
    /// the multiplication rule ω² = −1 − ω (not by rotating as `Digit::value` does): the
    /// engines apply the unit to the entry's point (β^rot·x, ±y), so `rot` must mean
    /// exactly ω^rot.
    #[test]
    fn digit_values_are_the_named_unit_times_the_entry() {
        // (a + bω)(c + dω) = ac − bd + (ad + bc − bd)ω.
        let mul = |(a, b): (i32, i32), (c, d): (i32, i32)| (a * c - b * d, a * d + b * c - b * d);
        let units = [(1, 0), (0, 1), (-1, -1)]; // 1, ω, ω² = −1 − ω
        for entry in 0..ENTRIES.len() as u8 {
            let (a, b) = ENTRIES[entry as usize];
            for rot in 0..3u8 {
                for neg in [false, true] {
                    let mut want = mul((a as i32, b as i32), units[rot as usize]);
                    if neg {
                        want = (-want.0, -want.1);
                    }
                    assert_eq!(
                        Digit { entry, rot, neg }.value(),
                        want,
                        "{entry} {rot} {neg}"
                    );
                }
            }
        }
    }

    /// Rebuilds u₂ from the digits: Σ dᵢ·8ⁱ with ω ↦ λ, mod n.
    fn check(u: &Scalar) {
        let (k1, k2) = split_lambda_halves(u).expect("short halves");
        let digits = recode(k1, k2).expect("top remainder is a digit");
        let (mut a, mut b) = (BigInt::from(0), BigInt::from(0));
        for d in digits.iter().rev() {
            let (da, db) = digit_value(*d);
            a = (a << W) + BigInt::from(da);
            b = (b << W) + BigInt::from(db);
        }
        let signed = |(m, neg): Half| {
            let v = BigInt::from(m);
            if neg { -v } else { v }
        };
        assert_eq!((a.clone(), b.clone()), (signed(k1), signed(k2)));
        let n = n();
        let got = ((a + b * lambda()) % &n + &n) % &n;
        assert_eq!(got, BigInt::from_bytes_be(Sign::Plus, &u.to_bytes()));
    }

    #[test]
    fn digits_rebuild_random_and_edge_scalars() {
        let mut s = 0xe15e_u64;
        let mut scalars = vec![
            Scalar::ONE,
            Scalar::ONE.negate(),
            Scalar::from_words([8, 0, 0, 0]),
        ];
        for _ in 0..20_000 {
            let w = [0; 4].map(|_: u64| splitmix64(&mut s));
            scalars.push(Scalar::from_bytes_reduced(
                &Scalar::from_words(w).to_bytes(),
            ));
        }
        for u in &scalars {
            check(u);
        }
    }

    /// Scalars whose κ lies at the corners of the GLV rounding's rhombus, the largest it
    /// can be: u = κ mod n for κ = x·v₁ + y·v₂ with x, y just inside ±1/2 (v₁, v₂ the
    /// lattice basis), `per_corner` of them at each of the four corners.
    pub(crate) fn largest_half_scalars(per_corner: usize, seed: u64) -> Vec<Scalar> {
        let a1 = BigInt::parse_bytes(b"3086d221a7d46bcde86c90e49284eb15", 16).unwrap();
        let b1 = -BigInt::parse_bytes(b"e4437ed6010e88286f547fa90abfe4c3", 16).unwrap();
        let a2 = BigInt::parse_bytes(b"114ca50f7a8e2f3f657c1108d9d44cfd8", 16).unwrap();
        let b2 = a1.clone();
        let (n, lam) = (n(), lambda());
        let scale = BigInt::from(1) << 120u32;
        let mut s = seed;
        let mut out = Vec::new();
        for sx in [1, -1] {
            for sy in [1, -1] {
                for _ in 0..per_corner {
                    let jitter = |s: &mut u64| BigInt::from(splitmix64(s) >> 8);
                    let x = BigInt::from(sx) * ((&scale >> 1u32) - jitter(&mut s));
                    let y = BigInt::from(sy) * ((&scale >> 1u32) - jitter(&mut s));
                    let k1 = (&x * &a1 + &y * &a2) / &scale;
                    let k2 = (&x * &b1 + &y * &b2) / &scale;
                    let k = ((k1 + k2 * &lam) % &n + &n) % &n;
                    let mut bytes = [0u8; 32];
                    let (_, be) = k.to_bytes_be();
                    bytes[32 - be.len()..].copy_from_slice(&be);
                    out.push(Scalar::from_bytes(&bytes).expect("below n"));
                }
            }
        }
        out
    }

    #[test]
    fn digits_rebuild_the_largest_halves() {
        for u in largest_half_scalars(500, 7) {
            check(&u);
        }
    }
}
