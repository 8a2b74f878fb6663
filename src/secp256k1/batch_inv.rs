//! Batch inversion (Montgomery's trick): N inverses for one inversion and about 3N
//! multiplications, in three schedules.
//!
//! - [`invert_chain`]: one running product up, one inversion, one pass down. Every
//!   multiplication depends on the previous one, so the pass runs at the multiplier's
//!   latency.
//! - [`invert_two_chains`]: even and odd elements in two independent chains, joined around
//!   the single inversion; the two chains overlap in the pipeline.
//! - [`invert_tree`]: a product tree, log₂ N layers of independent products up, one
//!   inversion, the same layers down: the shortest dependency path, at the price of
//!   touching more memory.
//!
//! [`invert`] picks by length, as measured in `benches/batch_inv.rs` (see
//! `doc/benchmarks.md`). Zero elements are not allowed (the caller replaces them).

use super::field::FieldElement as Fe;
use super::scalar::Scalar;

/// What the schedules need from a field.
pub(crate) trait Invertible: Copy {
    /// The multiplicative identity.
    const ONE: Self;
    /// `self · other`.
    fn mul(&self, other: &Self) -> Self;
    /// `1 / self` (single inversion, safegcd).
    fn inv(&self) -> Self;
}

impl Invertible for Fe {
    const ONE: Self = Fe::ONE;
    #[inline(always)]
    fn mul(&self, other: &Self) -> Self {
        Fe::mul(self, other)
    }
    fn inv(&self) -> Self {
        Fe::inv(self)
    }
}

impl Invertible for Scalar {
    const ONE: Self = Scalar::ONE;
    #[inline(always)]
    fn mul(&self, other: &Self) -> Self {
        Scalar::mul(self, other)
    }
    fn inv(&self) -> Self {
        Scalar::inv(self)
    }
}

/// Inverts every element of `v` in place with the schedule that measured fastest for its
/// length (`benches/batch_inv.rs`, see `doc/benchmarks.md`): the tree around N = 16, two
/// chains elsewhere (8, 64, 256 and 1024 elements).
pub(crate) fn invert<T: Invertible>(v: &mut [T], scratch: &mut Vec<T>) {
    if (12..=32).contains(&v.len()) {
        invert_tree(v, scratch);
    } else {
        invert_two_chains(v, scratch);
    }
}

/// One running product (single chain).
pub(crate) fn invert_chain<T: Invertible>(v: &mut [T], scratch: &mut Vec<T>) {
    scratch.clear();
    scratch.resize(v.len(), T::ONE);
    invert_chain_in(v, scratch);
}

/// [`invert_chain`] with a scratch slice at least as long as `v` (no allocation: the lane
/// engines use it for their few groups' totals, and run as leaf functions under the
/// emulator too).
#[inline(always)]
pub(crate) fn invert_chain_in<T: Invertible>(v: &mut [T], scratch: &mut [T]) {
    let n = v.len();
    if n == 0 {
        return;
    }
    let mut acc = T::ONE;
    for (x, s) in v.iter().zip(scratch.iter_mut()) {
        acc = acc.mul(x);
        *s = acc;
    }
    let mut inv = acc.inv();
    for i in (1..n).rev() {
        let xi = v[i];
        v[i] = inv.mul(&scratch[i - 1]);
        inv = inv.mul(&xi);
    }
    v[0] = inv;
}

/// Even and odd positions in two independent chains, joined around one inversion.
pub(crate) fn invert_two_chains<T: Invertible>(v: &mut [T], scratch: &mut Vec<T>) {
    let n = v.len();
    if n < 4 {
        return invert_chain(v, scratch);
    }
    // scratch[i] = product of v[i], v[i-2], v[i-4], … (same parity).
    scratch.clear();
    scratch.resize(n, T::ONE);
    let (mut e, mut o) = (T::ONE, T::ONE);
    let mut i = 0;
    while i + 1 < n {
        e = e.mul(&v[i]);
        o = o.mul(&v[i + 1]);
        scratch[i] = e;
        scratch[i + 1] = o;
        i += 2;
    }
    if i < n {
        e = e.mul(&v[i]);
        scratch[i] = e;
    }
    // One inversion of e·o gives both 1/e and 1/o.
    let inv_eo = e.mul(&o).inv();
    let mut inv_e = inv_eo.mul(&o);
    let mut inv_o = inv_eo.mul(&e);
    // Walk both chains down from their last elements.
    // The largest even and the largest odd index (n ≥ 4).
    let last_e = (n - 1) & !1;
    let last_o = (n - 2) | 1;
    let (mut ie, mut io) = (last_e as isize, last_o as isize);
    while ie >= 2 || io >= 3 {
        if ie >= 2 {
            let k = ie as usize;
            let x = v[k];
            v[k] = inv_e.mul(&scratch[k - 2]);
            inv_e = inv_e.mul(&x);
            ie -= 2;
        }
        if io >= 3 {
            let k = io as usize;
            let x = v[k];
            v[k] = inv_o.mul(&scratch[k - 2]);
            inv_o = inv_o.mul(&x);
            io -= 2;
        }
    }
    v[0] = inv_e;
    v[1] = inv_o;
}

/// K independent chains (element i in chain i mod K), joined around one inversion: the
/// K multiplications of each step are independent, so for K ≥ 4 the passes run at the
/// multiplier's throughput rather than its latency.
pub(crate) fn invert_chains<T: Invertible, const K: usize>(v: &mut [T], scratch: &mut Vec<T>) {
    let n = v.len();
    if n == 0 {
        return;
    }
    // scratch[i] = v[i] · v[i−K] · v[i−2K] · …
    scratch.clear();
    scratch.reserve(n);
    let mut acc = [T::ONE; K];
    let mut chunks = v.chunks_exact(K);
    for ch in &mut chunks {
        for c in 0..K {
            acc[c] = acc[c].mul(&ch[c]);
            scratch.push(acc[c]);
        }
    }
    for (c, x) in chunks.remainder().iter().enumerate() {
        acc[c] = acc[c].mul(x);
        scratch.push(acc[c]);
    }
    // The K chain totals, inverted together with the one inversion.
    let mut pre = [T::ONE; K];
    let mut p = T::ONE;
    for c in 0..K {
        pre[c] = p;
        p = p.mul(&acc[c]);
    }
    let mut inv_p = p.inv();
    let mut inv = [T::ONE; K];
    for c in (0..K).rev() {
        inv[c] = inv_p.mul(&pre[c]);
        inv_p = inv_p.mul(&acc[c]);
    }
    // Down every chain from its last element: 1/v[k] = (1/scratch[k]) · scratch[k−K].
    let full = n - n % K;
    for k in (full..n).rev() {
        let c = k - full;
        if k >= K {
            let x = v[k];
            v[k] = inv[c].mul(&scratch[k - K]);
            inv[c] = inv[c].mul(&x);
        } else {
            v[k] = inv[c];
        }
    }
    let mut base = full;
    while base > K {
        base -= K;
        let (chunk, below) = (&mut v[base..base + K], &scratch[base - K..base]);
        for ((x, ic), b) in chunk.iter_mut().zip(inv.iter_mut()).zip(below) {
            let xv = *x;
            *x = ic.mul(b);
            *ic = ic.mul(&xv);
        }
    }
    if full >= K {
        v[..K].copy_from_slice(&inv);
    }
}

/// A product tree: layers of independent pairwise products up, one inversion, back down.
pub(crate) fn invert_tree<T: Invertible>(v: &mut [T], scratch: &mut Vec<T>) {
    let n = v.len();
    if n == 0 {
        return;
    }
    // scratch holds the layers one after another: layer 0 = v, layer k = products of
    // pairs of layer k−1 (an odd element out is carried up unchanged).
    scratch.clear();
    scratch.extend_from_slice(v);
    let mut bounds = vec![(0usize, n)];
    loop {
        let (start, len) = *bounds.last().unwrap_or(&(0, 0));
        if len <= 1 {
            break;
        }
        let next = scratch.len();
        for k in 0..len / 2 {
            let p = scratch[start + 2 * k].mul(&scratch[start + 2 * k + 1]);
            scratch.push(p);
        }
        if len % 2 == 1 {
            let last = scratch[start + len - 1];
            scratch.push(last);
        }
        bounds.push((next, len.div_ceil(2)));
    }
    let (top, _) = *bounds.last().unwrap_or(&(0, 1));
    scratch[top] = scratch[top].inv();
    // Down: the inverse of a child is its parent's inverse times its sibling.
    for level in (1..bounds.len()).rev() {
        let (pstart, _) = bounds[level];
        let (cstart, clen) = bounds[level - 1];
        for k in 0..clen / 2 {
            let pinv = scratch[pstart + k];
            let (a, b) = (scratch[cstart + 2 * k], scratch[cstart + 2 * k + 1]);
            scratch[cstart + 2 * k] = pinv.mul(&b);
            scratch[cstart + 2 * k + 1] = pinv.mul(&a);
        }
        if clen % 2 == 1 {
            scratch[cstart + clen - 1] = scratch[pstart + clen / 2];
        }
    }
    v.copy_from_slice(&scratch[..n]);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn all_schedules_invert() {
        let mut s = 3u64;
        for n in (0..70).chain([255, 256, 257, 1000]) {
            let v: Vec<Fe> = (0..n)
                .map(|_| {
                    s = s
                        .wrapping_mul(6364136223846793005)
                        .wrapping_add(1442695040888963407);
                    Fe::from_u64x4([s | 1, s >> 3, s.rotate_left(17), s >> 9])
                })
                .collect();
            let sc: Vec<Scalar> = v
                .iter()
                .map(|f| Scalar::from_bytes_reduced(&f.to_bytes()))
                .collect();
            let mut scratch = Vec::new();
            for f in [
                invert_chain::<Fe>,
                invert_two_chains::<Fe>,
                invert_tree::<Fe>,
                invert_chains::<Fe, 4>,
                invert_chains::<Fe, 8>,
                invert::<Fe>,
            ] {
                let mut w = v.clone();
                f(&mut w, &mut scratch);
                for (a, b) in v.iter().zip(&w) {
                    assert!(a.mul(b).equals(&Fe::ONE), "n = {n}");
                }
            }
            for f in [
                invert_chain::<Scalar>,
                invert_two_chains::<Scalar>,
                invert_tree::<Scalar>,
                invert_chains::<Scalar, 4>,
                invert_chains::<Scalar, 8>,
                invert::<Scalar>,
            ] {
                let mut w = sc.clone();
                f(&mut w, &mut Vec::new());
                for (a, b) in sc.iter().zip(&w) {
                    assert_eq!(a.mul(b), Scalar::ONE, "n = {n}");
                }
            }
        }
    }
}
