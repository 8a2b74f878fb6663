//! The batch-affine ladder: u₁·G + u₂·R for many signatures at once, in affine
//! coordinates, with every doubling or addition round sharing one field inversion across
//! all signatures (Montgomery's trick).
//!
//! An affine addition costs 2M + 1S plus its share of the batch inversion (≈ 3M), where a
//! Jacobian mixed addition costs 8M + 3S; an affine doubling 2M + 2S + 3M against 3M + 4S.
//! The schedule is the regular one of [`super::recode`] (signed odd fixed windows of the
//! GLV halves and of u₁'s 128-bit halves), so all signatures double and add in the same
//! rounds. A round runs the signatures' formulas `INTERLEAVE` at a time, step by step
//! across them, so the multiplier works at its throughput rather than its latency.
//!
//! A signature whose addition would divide by zero (its two points share an
//! x-coordinate: only crafted signatures get there, e.g. a key at infinity) is marked and
//! given a harmless denominator so the shared inversion stays valid; its result is
//! `None` and the caller recomputes it on the scalar path.

use super::batch_inv;
use super::field::FieldElement as Fe;
use super::group::Affine;
use super::recode::{G_DIGITS, R_DIGITS, R_TABLE, Recoding, TOP_BIT, W_G, W_R};
use super::scalar::Scalar;
use super::tables;

/// Signatures whose formulas run interleaved. Within one signature every step of a
/// formula waits for the previous one (a multiplication's latency is about 1.6 times its
/// throughput here), so each step runs on this many signatures before the next step
/// starts; measured in `doc/benchmarks.md` ("Interleaving the ladder's formulas").
const INTERLEAVE: usize = 4;

/// K signatures' values side by side: every operation runs on all K before the next
/// operation starts, so their independent dependency chains overlap in the pipeline.
#[derive(Clone, Copy)]
struct Lanes<const K: usize>([Fe; K]);

impl<const K: usize> Lanes<K> {
    /// Elements `at..at + K` of `v`.
    #[inline(always)]
    fn load(v: &[Fe], at: usize) -> Self {
        let mut r = [Fe::ZERO; K];
        r.copy_from_slice(&v[at..at + K]);
        Self(r)
    }

    /// Elements `idx[at..at + K]` of `v`.
    #[inline(always)]
    fn gather(v: &[Fe], idx: &[usize], at: usize) -> Self {
        let mut r = [Fe::ZERO; K];
        for (e, &i) in r.iter_mut().zip(&idx[at..at + K]) {
            *e = v[i];
        }
        Self(r)
    }

    /// Writes to elements `at..at + K` of `v`.
    #[inline(always)]
    fn store(self, v: &mut [Fe], at: usize) {
        v[at..at + K].copy_from_slice(&self.0);
    }

    /// Writes to elements `idx[at..at + K]` of `v`.
    #[inline(always)]
    fn scatter(self, v: &mut [Fe], idx: &[usize], at: usize) {
        for (e, &i) in self.0.iter().zip(&idx[at..at + K]) {
            v[i] = *e;
        }
    }
}

/// Lane-wise operations of [`Lanes`], written as plain loops over K (which the compiler
/// unrolls) rather than with closures, so that nothing is left behind a call.
macro_rules! lanewise {
    ($($name:ident($($o:ident)?) => $f:ident;)*) => {
        impl<const K: usize> Lanes<K> {
            $(
                #[inline(always)]
                fn $name(&self $(, $o: &Self)?) -> Self {
                    let mut r = [Fe::ZERO; K];
                    for j in 0..K {
                        r[j] = lanewise!(@call self.0[j], $f $(, $o.0[j])?);
                    }
                    Self(r)
                }
            )*
        }
    };
    (@call $a:expr, $f:ident, $b:expr) => { $a.$f(&$b) };
    (@call $a:expr, $f:ident) => { $a.$f() };
}

lanewise! {
    mul(o) => mul;
    add(o) => add;
    sub(o) => sub;
    sqr() => sqr;
    dbl() => dbl;
    neg() => neg;
}

/// Runs `f::<INTERLEAVE>` over lanes `0..n` in steps of INTERLEAVE, then `f::<1>` over the
/// rest; `f(st, at)` handles lanes `at..at + K`.
macro_rules! interleaved {
    ($st:expr, $n:expr, $f:ident) => {{
        let n = $n;
        let mut at = 0;
        while at + INTERLEAVE <= n {
            $f::<INTERLEAVE>($st, at);
            at += INTERLEAVE;
        }
        while at < n {
            $f::<1>($st, at);
            at += 1;
        }
    }};
}

/// Buffers reused across rounds.
struct Rounds {
    x: Vec<Fe>,
    y: Vec<Fe>,
    /// Lanes that met a zero denominator.
    bad: Vec<bool>,
    /// Denominators, then their inverses (one per taking part lane).
    den: Vec<Fe>,
    /// The points added (or the fused formula's intermediate values).
    px: Vec<Fe>,
    py: Vec<Fe>,
    /// Lanes taking part in an addition round.
    idx: Vec<usize>,
    scratch: Vec<Fe>,
}

/// Addition: acc ← acc + (px, py) for taking-part lanes `at..at + K`:
/// λ = (y_Q − y)/(x_Q − x), x₃ = λ² − x − x_Q, y₃ = λ(x − x₃) − y.
#[inline(always)]
fn add_lanes<const K: usize>(st: &mut Rounds, at: usize) {
    let x = Lanes::<K>::gather(&st.x, &st.idx, at);
    let y = Lanes::<K>::gather(&st.y, &st.idx, at);
    let qx = Lanes::<K>::load(&st.px, at);
    let qy = Lanes::<K>::load(&st.py, at);
    let inv = Lanes::<K>::load(&st.den, at);
    let l = qy.sub(&y).mul(&inv);
    let x3 = l.sqr().sub(&x.add(&qx));
    let y3 = l.mul(&x.sub(&x3)).sub(&y);
    x3.scatter(&mut st.x, &st.idx, at);
    y3.scatter(&mut st.y, &st.idx, at);
}

/// First half of 2P + Q: λ₁ = (y_Q − y)/(x_Q − x), x₃ = λ₁² − x − x_Q, kept in (px, py).
#[inline(always)]
fn double_add_lanes_1<const K: usize>(st: &mut Rounds, at: usize) {
    let x = Lanes::<K>::load(&st.x, at);
    let y = Lanes::<K>::load(&st.y, at);
    let qx = Lanes::<K>::load(&st.px, at);
    let qy = Lanes::<K>::load(&st.py, at);
    let inv = Lanes::<K>::load(&st.den, at);
    let l1 = qy.sub(&y).mul(&inv);
    let x3 = l1.sqr().sub(&x.add(&qx));
    x3.store(&mut st.px, at);
    l1.store(&mut st.py, at);
}

/// Second half of 2P + Q: λ₂ = −λ₁ − 2y/(x₃ − x), x₄ = λ₂² − x − x₃, y₄ = λ₂(x − x₄) − y.
#[inline(always)]
fn double_add_lanes_2<const K: usize>(st: &mut Rounds, at: usize) {
    let x = Lanes::<K>::load(&st.x, at);
    let y = Lanes::<K>::load(&st.y, at);
    let x3 = Lanes::<K>::load(&st.px, at);
    let l1 = Lanes::<K>::load(&st.py, at);
    let inv = Lanes::<K>::load(&st.den, at);
    let l2 = l1.add(&y.dbl().mul(&inv)).neg();
    let x4 = l2.sqr().sub(&x.add(&x3));
    let y4 = l2.mul(&x.sub(&x4)).sub(&y);
    x4.store(&mut st.x, at);
    y4.store(&mut st.y, at);
}

/// Doubling: λ = 3x²/(2y), x₃ = λ² − 2x, y₃ = λ(x − x₃) − y.
#[inline(always)]
fn double_lanes<const K: usize>(st: &mut Rounds, at: usize) {
    let x = Lanes::<K>::load(&st.x, at);
    let y = Lanes::<K>::load(&st.y, at);
    let inv = Lanes::<K>::load(&st.den, at);
    let x2 = x.sqr();
    let l = x2.dbl().add(&x2).mul(&inv);
    let x3 = l.sqr().sub(&x.dbl());
    let y3 = l.mul(&x.sub(&x3)).sub(&y);
    x3.store(&mut st.x, at);
    y3.store(&mut st.y, at);
}

impl Rounds {
    /// Pushes lane `i`'s denominator x_Q − x (marking the lane bad, and using 1, if it is 0).
    #[inline(always)]
    fn push_den(&mut self, i: usize, qx: &Fe) {
        let mut d = qx.sub(&self.x[i]);
        if d.normalizes_to_zero() {
            self.bad[i] = true;
            d = Fe::ONE;
        }
        self.den.push(d);
    }

    /// acc[i] ← acc[i] + q(i) for every lane where `q` gives a point.
    fn add(&mut self, q: impl Fn(usize) -> Option<Affine>) {
        self.den.clear();
        self.px.clear();
        self.py.clear();
        self.idx.clear();
        for i in 0..self.x.len() {
            if let Some(p) = q(i) {
                self.push_den(i, &p.x);
                self.px.push(p.x);
                self.py.push(p.y);
                self.idx.push(i);
            }
        }
        batch_inv::invert(&mut self.den, &mut self.scratch);
        interleaved!(self, self.idx.len(), add_lanes);
    }

    /// acc[i] ← 2·acc[i] + q(i) for every lane, with the fused formula of Eisenträger,
    /// Lauter and Montgomery: 2P + Q = (P + Q) + P without P + Q's y-coordinate. Two
    /// inversion rounds and 3M + 2S, against 4M + 3S for a doubling then an addition.
    fn double_add(&mut self, q: impl Fn(usize) -> Affine) {
        self.den.clear();
        self.px.clear();
        self.py.clear();
        for i in 0..self.x.len() {
            let p = q(i);
            self.push_den(i, &p.x);
            self.px.push(p.x);
            self.py.push(p.y);
        }
        batch_inv::invert(&mut self.den, &mut self.scratch);
        interleaved!(self, self.x.len(), double_add_lanes_1);
        // Round 2: the denominator is x₃ − x.
        self.den.clear();
        for i in 0..self.x.len() {
            let x3 = self.px[i];
            self.push_den(i, &x3);
        }
        batch_inv::invert(&mut self.den, &mut self.scratch);
        interleaved!(self, self.x.len(), double_add_lanes_2);
    }

    /// acc[i] ← 2·acc[i] for every lane.
    fn double(&mut self) {
        self.den.clear();
        self.den.extend(self.y.iter().map(|y| y.shl(1)));
        batch_inv::invert(&mut self.den, &mut self.scratch);
        interleaved!(self, self.x.len(), double_lanes);
    }
}

/// Entry `|d| >> 1` of a table, negated for negative `d`.
#[inline(always)]
fn signed(p: Affine, d: i32) -> Affine {
    if d < 0 { p.neg() } else { p }
}

/// u₁·G + u₂·R for every (R, u₁, u₂); `None` where the lockstep schedule met a degenerate
/// addition (recompute those on the scalar path). R must be a valid curve point.
pub(crate) fn ecmult_batch(inputs: &[(Affine, Scalar, Scalar)]) -> Vec<Option<Affine>> {
    let n = inputs.len();
    let mut st = Rounds {
        x: Vec::with_capacity(n),
        y: Vec::with_capacity(n),
        bad: vec![false; n],
        den: Vec::with_capacity(n),
        px: Vec::with_capacity(n),
        py: Vec::with_capacity(n),
        idx: Vec::with_capacity(n),
        scratch: Vec::with_capacity(n),
    };
    // Schedules (a lane whose halves are not short — never observed — runs a dummy one
    // and is marked bad).
    let dummy = Recoding::new(&Scalar::ONE, &Scalar::ONE);
    let rec: Vec<Recoding> = inputs
        .iter()
        .enumerate()
        .map(|(i, (_, u1, u2))| match (Recoding::new(u1, u2), dummy) {
            (Some(r), _) => r,
            (None, Some(d)) => {
                st.bad[i] = true;
                d
            }
            (None, None) => unreachable_recoding(),
        })
        .collect();

    // Tables R, 3R, …, 31R: 2R by one doubling round, then 15 addition rounds.
    st.x.extend(inputs.iter().map(|(r, _, _)| r.x));
    st.y.extend(inputs.iter().map(|(r, _, _)| r.y));
    st.double();
    let twice: Vec<Affine> = (0..n)
        .map(|i| Affine {
            x: st.x[i],
            y: st.y[i],
            infinity: false,
        })
        .collect();
    let mut table: Vec<[Affine; R_TABLE]> = inputs.iter().map(|(r, _, _)| [*r; R_TABLE]).collect();
    for (i, (r, _, _)) in inputs.iter().enumerate() {
        st.x[i] = r.x;
        st.y[i] = r.y;
    }
    for e in 1..R_TABLE {
        st.add(|i| Some(twice[i]));
        for (i, t) in table.iter_mut().enumerate() {
            t[e] = Affine {
                x: st.x[i],
                y: st.y[i],
                infinity: false,
            };
        }
    }
    let lam: Vec<[Affine; R_TABLE]> = table.iter().map(|t| t.map(|p| p.endo())).collect();
    let tabs = [&table, &lam];
    let gtab = [tables::pre_g(), tables::pre_g128()];
    let g = |h: usize, i: usize, col: usize| {
        let d = rec[i].g[h][col];
        signed(gtab[h].get((d.unsigned_abs() >> 1) as usize), d)
    };

    // Start at the top G column, then bit by bit.
    for i in 0..n {
        let p = g(0, i, G_DIGITS - 1);
        st.x[i] = p.x;
        st.y[i] = p.y;
    }
    st.add(|i| Some(g(1, i, G_DIGITS - 1)));
    let r_entry = |h: usize, i: usize, col: usize| {
        let d = rec[i].r[h][col];
        signed(tabs[h][i][(d.unsigned_abs() >> 1) as usize], d)
    };
    for bit in (0..TOP_BIT).rev() {
        let r_col = (bit % W_R as usize == 0).then_some(bit / W_R as usize);
        let g_col = (bit % W_G as usize == 0).then_some(bit / W_G as usize);
        // The doubling fuses with the first addition of the bit, if any.
        match (r_col, g_col) {
            (Some(c), _) => {
                st.double_add(|i| r_entry(0, i, c));
                st.add(|i| Some(r_entry(1, i, c)));
            }
            (None, Some(c)) => st.double_add(|i| g(0, i, c)),
            (None, None) => st.double(),
        }
        if let Some(c) = g_col {
            let first = usize::from(r_col.is_none());
            for h in first..2 {
                st.add(|i| Some(g(h, i, c)));
            }
        }
    }
    // Corrections of even halves.
    for (h, t) in tabs.iter().enumerate() {
        st.add(|i| match rec[i].corr_r[h] {
            0 => None,
            c => Some(signed(t[i][0], c as i32)),
        });
    }
    for (h, gt) in gtab.iter().enumerate() {
        st.add(|i| rec[i].corr_g[h].then(|| gt.get(0).neg()));
    }
    (0..n)
        .map(|i| {
            (!st.bad[i]).then(|| Affine {
                x: st.x[i].normalize(),
                y: st.y[i].normalize(),
                infinity: false,
            })
        })
        .collect()
}

/// `Recoding::new(1, 1)` always succeeds (both halves are tiny); this keeps the function
/// total without a panic path.
#[cold]
fn unreachable_recoding() -> Recoding {
    Recoding {
        r: [[1; R_DIGITS]; 2],
        g: [[1; G_DIGITS]; 2],
        corr_r: [0; 2],
        corr_g: [false; 2],
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::secp256k1::ecmult::ecmult;
    use crate::secp256k1::group::G;

    #[test]
    fn matches_scalar_ecmult() {
        let mut s = 21u64;
        let mut next = || {
            s = s
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            s ^ (s >> 29)
        };
        for n in [1usize, 2, 3, 8, 33] {
            let mut inputs = Vec::new();
            let mut acc = G.to_jacobian();
            for k in 0..n {
                for _ in 0..1 + next() % 4 {
                    acc = acc.double().add_ge(&G).0;
                }
                let r = acc.to_affine();
                let sc =
                    |w: [u64; 4]| Scalar::from_bytes_reduced(&Scalar::from_words(w).to_bytes());
                let u1 = if k == 1 {
                    Scalar::ZERO
                } else {
                    sc([next(), next(), next(), next()])
                };
                let u2 = sc([next(), next(), next(), next()]);
                inputs.push((r, u1, u2));
            }
            // A degenerate lane: u₁·G + u₂·R with R = G and u₂ = −u₁ gives infinity.
            if n == 33 {
                let u = Scalar::from_words([12345, 0, 0, 0]);
                inputs[7] = (G, u, u.negate());
            }
            let got = ecmult_batch(&inputs);
            for (i, ((r, u1, u2), q)) in inputs.iter().zip(&got).enumerate() {
                let want = ecmult(r, u2, u1);
                match q {
                    Some(q) => {
                        let w = want.to_affine();
                        assert!(!want.infinity);
                        assert_eq!(q.x.to_bytes(), w.x.to_bytes(), "lane {i} of {n}");
                        assert_eq!(q.y.to_bytes(), w.y.to_bytes(), "lane {i} of {n}");
                    }
                    None => assert!(n == 33 && i == 7, "unexpected degenerate lane {i}"),
                }
            }
            if n == 33 {
                assert!(got[7].is_none());
            }
        }
    }
}
