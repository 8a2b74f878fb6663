//! The portable lane backend: `[u64; 8]`, plain Rust, every target.

use super::{Backend, Ifma, LANES, Mul32};

/// Eight lanes as an array.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Portable;

const M52: u64 = (1 << 52) - 1;

#[inline(always)]
fn map2(a: [u64; LANES], b: [u64; LANES], f: impl Fn(u64, u64) -> u64) -> [u64; LANES] {
    let mut r = [0u64; LANES];
    for i in 0..LANES {
        r[i] = f(a[i], b[i]);
    }
    r
}

/// `acc + half(lo52(a) · lo52(b))` lane by lane, `half` picking the low or high 52 bits of
/// the 104-bit product. The bits of `a` and `b` above 52 are ignored, as the instruction
/// ignores them (the 5×52 field leaves bits it has already carried there).
#[inline(always)]
fn madd52(
    acc: [u64; LANES],
    a: [u64; LANES],
    b: [u64; LANES],
    half: impl Fn(u128) -> u64,
) -> [u64; LANES] {
    let mut r = [0u64; LANES];
    for i in 0..LANES {
        r[i] = acc[i].wrapping_add(half((a[i] & M52) as u128 * (b[i] & M52) as u128));
    }
    r
}

#[inline(always)]
fn map1(a: [u64; LANES], f: impl Fn(u64) -> u64) -> [u64; LANES] {
    a.map(f)
}

// The operations are deliberately not inlined: the lane algorithms are `#[inline(always)]`
// all the way down (so that they inline into the AVX-512 entry points), and inlining an
// 8-iteration loop at each of their ~10⁵ call sites made the portable instantiation a
// megabyte of code that took minutes to compile. The portable backend exists for tests.
//
// In debug builds (the test profile has them) the arithmetic operations also check the
// bounds the lane algorithms promise, which the hardware would not: `add` and `sub` never
// wrap (no limb overflows, none goes negative).
impl Backend for Portable {
    type V = [u64; LANES];
    const OUTLINE: bool = true;

    #[inline(always)]
    fn splat(x: u64) -> Self::V {
        [x; LANES]
    }
    #[inline(always)]
    fn load(a: &[u64; LANES]) -> Self::V {
        *a
    }
    #[inline(always)]
    fn store(v: Self::V) -> [u64; LANES] {
        v
    }
    #[inline(never)]
    fn add(a: Self::V, b: Self::V) -> Self::V {
        for i in 0..LANES {
            debug_assert!(a[i].checked_add(b[i]).is_some(), "lane add overflows");
        }
        map2(a, b, u64::wrapping_add)
    }
    #[inline(never)]
    fn sub(a: Self::V, b: Self::V) -> Self::V {
        for i in 0..LANES {
            debug_assert!(a[i] >= b[i], "lane sub goes negative");
        }
        map2(a, b, u64::wrapping_sub)
    }
    #[inline(never)]
    fn and(a: Self::V, b: Self::V) -> Self::V {
        map2(a, b, |x, y| x & y)
    }
    #[inline(never)]
    fn or(a: Self::V, b: Self::V) -> Self::V {
        map2(a, b, |x, y| x | y)
    }
    #[inline(never)]
    fn xor(a: Self::V, b: Self::V) -> Self::V {
        map2(a, b, |x, y| x ^ y)
    }
    #[inline(never)]
    fn xor3(a: Self::V, b: Self::V, c: Self::V) -> Self::V {
        Self::xor(Self::xor(a, b), c)
    }
    #[inline(never)]
    fn xor_andn(a: Self::V, b: Self::V, c: Self::V) -> Self::V {
        let mut r = [0u64; LANES];
        for i in 0..LANES {
            r[i] = a[i] ^ (!b[i] & c[i]);
        }
        r
    }
    #[inline(never)]
    fn shr<const N: u32>(a: Self::V) -> Self::V {
        map1(a, |x| x >> N)
    }
    #[inline(never)]
    fn sra<const N: u32>(a: Self::V) -> Self::V {
        map1(a, |x| ((x as i64) >> N) as u64)
    }
    #[inline(never)]
    fn shl<const N: u32>(a: Self::V) -> Self::V {
        map1(a, |x| x << N)
    }
    #[inline(never)]
    fn rotl<const N: i32>(a: Self::V) -> Self::V {
        map1(a, |x| x.rotate_left(N as u32))
    }
    #[inline(never)]
    fn bswap(a: Self::V) -> Self::V {
        map1(a, u64::swap_bytes)
    }
    #[inline(never)]
    fn eq(a: Self::V, b: Self::V) -> u8 {
        let mut m = 0u8;
        for i in 0..LANES {
            m |= ((a[i] == b[i]) as u8) << i;
        }
        m
    }
    #[inline(never)]
    fn select(mask: u8, a: Self::V, b: Self::V) -> Self::V {
        let mut r = [0u64; LANES];
        for i in 0..LANES {
            r[i] = if mask >> i & 1 == 1 { a[i] } else { b[i] };
        }
        r
    }
    #[inline(never)]
    fn swap_lanes<const K: usize>(a: Self::V) -> Self::V {
        let mut r = [0u64; LANES];
        for (i, ri) in r.iter_mut().enumerate() {
            *ri = a[i ^ K];
        }
        r
    }
    #[inline(never)]
    fn gather(table: &[u8], idx: Self::V) -> Self::V {
        let words = table.len() / 8;
        let mut r = [0u64; LANES];
        for i in 0..LANES {
            let w = (idx[i] as usize).min(words.saturating_sub(1));
            let mut b = [0u8; 8];
            if let Some(src) = table.get(8 * w..8 * w + 8) {
                b.copy_from_slice(src);
            }
            r[i] = u64::from_le_bytes(b);
        }
        r
    }
    #[inline(never)]
    fn gather_limbs(table: &[u64], idx: Self::V) -> [Self::V; 5] {
        gather_rows(table, idx)
    }
}

impl Ifma for Portable {
    #[inline(never)]
    fn madd52lo(acc: [u64; LANES], a: [u64; LANES], b: [u64; LANES]) -> [u64; LANES] {
        madd52(acc, a, b, |p| p as u64 & M52)
    }
    #[inline(never)]
    fn madd52hi(acc: [u64; LANES], a: [u64; LANES], b: [u64; LANES]) -> [u64; LANES] {
        madd52(acc, a, b, |p| (p >> 52) as u64)
    }
}

impl Mul32 for Portable {
    /// In debug builds, checks that the multiplicands are below 2³² (`vpmuludq` reads only
    /// their low 32 bits, so a larger limb would be silently cut).
    #[inline(never)]
    fn mul32(a: [u64; LANES], b: [u64; LANES]) -> [u64; LANES] {
        let mut r = [0u64; LANES];
        for i in 0..LANES {
            debug_assert!(
                a[i] >> 32 == 0 && b[i] >> 32 == 0,
                "32-bit multiplicand above 32 bits"
            );
            r[i] = (a[i] & 0xFFFF_FFFF) * (b[i] & 0xFFFF_FFFF);
        }
        r
    }
    #[inline(never)]
    fn gather_limbs9(table: &[u64], idx: [u64; LANES]) -> [[u64; LANES]; 9] {
        gather_rows(table, idx)
    }
}

/// `R` rows at stride [`LANES`] from `table` at each lane's index, clamped so that every
/// read is inside the table.
fn gather_rows<const R: usize>(table: &[u64], idx: [u64; LANES]) -> [[u64; LANES]; R] {
    let last = table.len().saturating_sub(1 + (R - 1) * LANES);
    let mut out = [[0; LANES]; R];
    for (k, row) in out.iter_mut().enumerate() {
        for (o, &i) in row.iter_mut().zip(&idx) {
            *o = table
                .get((i as usize).min(last) + k * LANES)
                .copied()
                .unwrap_or(0);
        }
    }
    out
}
