//! x86-64 Montgomery multiply and square for P-256's field with MULX/ADCX/ADOX (BMI2 + ADX).
//!
//! LLVM does not emit ADCX/ADOX, whose two independent carry chains (CF and OF) let one row
//! of partial products accumulate its low and high halves at once; these two functions
//! therefore use inline assembly. They keep the contract of the portable `mul_wide` /
//! `sqr_wide` + `mont_reduce` in `field.rs`: inputs below p, the output a·b·2⁻²⁵⁶ mod p,
//! fully reduced (below p). They run only behind `field::MulxAdx`, the token that
//! `crate::dispatch`'s check of BMI2 and ADX hands out. This file holds the assembly alone,
//! on plain words; `field.rs` wraps it for `Fe`.
//!
//! The reduction is Gueron and Krasnov's for this p ("nistz256"): −p⁻¹ mod 2⁶⁴ is 1, so the
//! quotient digit of a Montgomery step is the lowest word m itself, and adding m·p to the
//! value clears that word with a carry of m. With p's words [2⁶⁴ − 1, 2³² − 1, 0,
//! 2⁶⁴ − 2³² + 1], the step adds m·2³² (m shifted left by 32, across the next two words)
//! and m·p[3] (one MULX) three words up, then drops the cleared word: no quotient multiply
//! and no product by p's lower words.
//!
//! Both functions form the 512-bit product first (the square with its six cross products
//! once, doubled on one carry chain while the squares go in on the other), then run the
//! four steps on its low half alone, into a value U ≤ p, and add the high half H < p; one
//! conditional subtraction of p (by CMOV: no branch depends on the values) brings U + H,
//! below 2p, under p. The steps on the low half need no carry word (their value stays
//! below 2²⁵⁶), and the quotient digits form a short dependency chain (a shift and an add
//! per step), so the reduction overlaps the last rows of the product. Interleaving a step
//! after each row of the multiply, the word-serial Montgomery shape, measured no faster on
//! Zen 3 (the same 12.8 ns a product over four independent chains, 14.7 ns against 13.7 ns
//! a dependent one): it needs a sixth accumulator word with its carries in every row and,
//! short of registers, reads both operands from memory.

use core::arch::asm;

/// `{name}` for the asm operand `name`: the registers that hold a given word rotate from
/// step to step, so the steps below take the operands' names as macro arguments.
macro_rules! op {
    ($r:ident) => {
        concat!("{", stringify!($r), "}")
    };
}

/// `{name:e}`: the low 32 bits of the operand `name`'s register.
macro_rules! op32 {
    ($r:ident) => {
        concat!("{", stringify!($r), ":e}")
    };
}

/// One Montgomery step on the low half: the value in `$w0..$w3` (below 2²⁵⁶) plus m·p,
/// m = `$w0`, divided by 2⁶⁴, into `$w1..$w3` and `$top`, which gets the high half of
/// m·p[3] plus the carry (no carry out: after k steps the value is below 2²⁵⁶⁻⁶⁴ᵏ + p, so
/// below 2²⁵⁶). p[3] in rdx; `$w0` is free afterwards. Uses `lo` and `t`.
#[rustfmt::skip]
macro_rules! low_step {
    ($w0:ident, $w1:ident, $w2:ident, $w3:ident; $top:ident) => {
        concat!(
            "mulx ", op!($top), ", {lo}, ", op!($w0), "\n",
            "mov {t}, ", op!($w0), "\n",
            "shl ", op!($w0), ", 32\n",
            "shr {t}, 32\n",
            // m·2³² on words 1 and 2 (m itself, the carry out of word 0, plus m·(2³² − 1)
            // from p[1]); m·p[3] on words 3 and 4.
            "add ", op!($w1), ", ", op!($w0), "\n",
            "adc ", op!($w2), ", {t}\n",
            "adc ", op!($w3), ", {lo}\n",
            "adc ", op!($top), ", 0\n",
        )
    };
}

/// The value in `$r0..$r3` and `$top` (below 2p, `$top` at most 1) less p if it is at least
/// p, into `$r0..$r3`, with p[3] in rdx. `$c0..$c3` take a copy of the value (kept when the
/// subtraction borrows), `$p1` holds p[1]; all five are scratch.
#[rustfmt::skip]
macro_rules! sub_p_if_ge {
    (
        $r0:ident, $r1:ident, $r2:ident, $r3:ident, $top:ident;
        $c0:ident, $c1:ident, $c2:ident, $c3:ident; $p1:ident
    ) => {
        concat!(
            "mov ", op!($c0), ", ", op!($r0), "\n",
            "mov ", op!($c1), ", ", op!($r1), "\n",
            "mov ", op!($c2), ", ", op!($r2), "\n",
            "mov ", op!($c3), ", ", op!($r3), "\n",
            "mov ", op32!($p1), ", 0xFFFFFFFF\n",
            // p = [−1, p[1], 0, p[3]]: −1 and 0 as immediates.
            "sub ", op!($r0), ", -1\n",
            "sbb ", op!($r1), ", ", op!($p1), "\n",
            "sbb ", op!($r2), ", 0\n",
            "sbb ", op!($r3), ", rdx\n",
            "sbb ", op!($top), ", 0\n",
            // A borrow out of the top word: the value was below p; keep it.
            "cmovc ", op!($r0), ", ", op!($c0), "\n",
            "cmovc ", op!($r1), ", ", op!($c1), "\n",
            "cmovc ", op!($r2), ", ", op!($c2), "\n",
            "cmovc ", op!($r3), ", ", op!($c3), "\n",
        )
    };
}

/// The Montgomery reduction of the 512-bit value with low half `$l0..$l3` and high half
/// `$h0..$h3` (a product of two values below p), fully reduced, into `$h0..$h3`: four
/// [`low_step`]s on the low half (U ≤ p, in `hi`, `$l0`, `$l1`, `$l2`), U + H (below 2p,
/// the carry into `$l3`), then [`sub_p_if_ge`]. Uses `lo`, `hi`, `t` and rdx.
#[rustfmt::skip]
macro_rules! reduce {
    ($l0:ident, $l1:ident, $l2:ident, $l3:ident; $h0:ident, $h1:ident, $h2:ident, $h3:ident) => {
        concat!(
            "mov rdx, 0xFFFFFFFF00000001\n",
            // Each step frees the register of the word it clears, which takes the next
            // step's top word.
            low_step!($l0, $l1, $l2, $l3; hi),
            low_step!($l1, $l2, $l3, hi; $l0),
            low_step!($l2, $l3, hi, $l0; $l1),
            low_step!($l3, hi, $l0, $l1; $l2),
            "xor ", op32!($l3), ", ", op32!($l3), "\n",
            "add ", op!($h0), ", {hi}\n",
            "adc ", op!($h1), ", ", op!($l0), "\n",
            "adc ", op!($h2), ", ", op!($l1), "\n",
            "adc ", op!($h3), ", ", op!($l2), "\n",
            "adc ", op!($l3), ", 0\n",
            sub_p_if_ge!($h0, $h1, $h2, $h3, $l3; hi, $l0, $l1, $l2; lo),
        )
    };
}

/// a·b·2⁻²⁵⁶ mod p, fully reduced, for a and b below p. Caller guarantees BMI2 and ADX.
///
/// `a` arrives in registers (a row per word, each register freed as its row starts and
/// then holding a high word of the product), `b` from memory (MULX's memory operand); the
/// low halves of a row go on OF, the high halves on CF.
#[inline(always)]
pub(crate) fn mul(a: &[u64; 4], b: &[u64; 4]) -> [u64; 4] {
    let [mut a0, mut a1, mut a2, mut a3] = *a;
    // SAFETY: reads 4 words behind `b` (a valid reference) and writes only the declared
    // registers. The function runs only behind the `MulxAdx` token, which `crate::dispatch`
    // hands out after finding BMI2 (mulx) and ADX (adcx/adox) on this CPU.
    unsafe {
        asm!(
            "xor {t:e}, {t:e}",
            // Row 0: r0..r3, a0 = a0·b, one carry chain.
            "mov rdx, {a0}",
            "mulx {r1}, {r0}, [{b}]",
            "mulx {r2}, {lo}, [{b} + 8]",
            "add {r1}, {lo}",
            "mulx {r3}, {lo}, [{b} + 16]",
            "adc {r2}, {lo}",
            "mulx {a0}, {lo}, [{b} + 24]",
            "adc {r3}, {lo}",
            "adc {a0}, 0",
            // Row 1: r1..r3, a0, a1 += a1·b.
            "mov rdx, {a1}",
            "xor {a1:e}, {a1:e}",
            "mulx {hi}, {lo}, [{b}]",
            "adox {r1}, {lo}",
            "adcx {r2}, {hi}",
            "mulx {hi}, {lo}, [{b} + 8]",
            "adox {r2}, {lo}",
            "adcx {r3}, {hi}",
            "mulx {hi}, {lo}, [{b} + 16]",
            "adox {r3}, {lo}",
            "adcx {a0}, {hi}",
            "mulx {hi}, {lo}, [{b} + 24]",
            "adox {a0}, {lo}",
            "adcx {a1}, {hi}",
            "adox {a1}, {t}",
            // Row 2: r2, r3, a0..a2 += a2·b.
            "mov rdx, {a2}",
            "xor {a2:e}, {a2:e}",
            "mulx {hi}, {lo}, [{b}]",
            "adox {r2}, {lo}",
            "adcx {r3}, {hi}",
            "mulx {hi}, {lo}, [{b} + 8]",
            "adox {r3}, {lo}",
            "adcx {a0}, {hi}",
            "mulx {hi}, {lo}, [{b} + 16]",
            "adox {a0}, {lo}",
            "adcx {a1}, {hi}",
            "mulx {hi}, {lo}, [{b} + 24]",
            "adox {a1}, {lo}",
            "adcx {a2}, {hi}",
            "adox {a2}, {t}",
            // Row 3: r3, a0..a3 += a3·b.
            "mov rdx, {a3}",
            "xor {a3:e}, {a3:e}",
            "mulx {hi}, {lo}, [{b}]",
            "adox {r3}, {lo}",
            "adcx {a0}, {hi}",
            "mulx {hi}, {lo}, [{b} + 8]",
            "adox {a0}, {lo}",
            "adcx {a1}, {hi}",
            "mulx {hi}, {lo}, [{b} + 16]",
            "adox {a1}, {lo}",
            "adcx {a2}, {hi}",
            "mulx {hi}, {lo}, [{b} + 24]",
            "adox {a2}, {lo}",
            "adcx {a3}, {hi}",
            "adox {a3}, {t}",
            reduce!(r0, r1, r2, r3; a0, a1, a2, a3),
            b = in(reg) b.as_ptr(),
            a0 = inout(reg) a0,
            a1 = inout(reg) a1,
            a2 = inout(reg) a2,
            a3 = inout(reg) a3,
            r0 = out(reg) _,
            r1 = out(reg) _,
            r2 = out(reg) _,
            r3 = out(reg) _,
            lo = out(reg) _,
            hi = out(reg) _,
            t = out(reg) _,
            out("rdx") _,
            options(pure, readonly, nostack),
        );
    }
    [a0, a1, a2, a3]
}

/// a²·2⁻²⁵⁶ mod p, fully reduced, for a below p. Caller guarantees BMI2 and ADX.
///
/// `a` from memory (its words are each used in up to four products, and the square's
/// eight words take the registers): the cross products a[i]·a[j], i < j, into r1..r6,
/// then 2·cross plus the squares a[i]² at word 2i in one pass.
#[inline(always)]
pub(crate) fn sqr(a: &[u64; 4]) -> [u64; 4] {
    let (r0, r1, r2, r3): (u64, u64, u64, u64);
    // SAFETY: reads 4 words behind `a` (a valid reference) and writes only the declared
    // registers. The function runs only behind the `MulxAdx` token, which `crate::dispatch`
    // hands out after finding BMI2 (mulx) and ADX (adcx/adox) on this CPU.
    unsafe {
        asm!(
            // Cross products: a0·(a1, a2, a3) on one chain, a1·(a2, a3) on two, a2·a3.
            "xor {t:e}, {t:e}",
            "mov rdx, [{a}]",
            "mulx {w2}, {w1}, [{a} + 8]",
            "mulx {w3}, {lo}, [{a} + 16]",
            "add {w2}, {lo}",
            "mulx {w4}, {lo}, [{a} + 24]",
            "adc {w3}, {lo}",
            "adc {w4}, 0",
            "mov rdx, [{a} + 8]",
            "xor {w5:e}, {w5:e}",
            "mulx {hi}, {lo}, [{a} + 16]",
            "adox {w3}, {lo}",
            "adcx {w4}, {hi}",
            "mulx {hi}, {lo}, [{a} + 24]",
            "adox {w4}, {lo}",
            "adcx {w5}, {hi}",
            "adox {w5}, {t}",
            "mov rdx, [{a} + 16]",
            "mulx {w6}, {lo}, [{a} + 24]",
            "add {w5}, {lo}",
            "adc {w6}, 0",
            // Doubled on CF (adcx w, w), plus the squares on OF.
            "xor {w7:e}, {w7:e}",
            "mov rdx, [{a}]",
            "mulx {hi}, {w0}, rdx",
            "adcx {w1}, {w1}",
            "adox {w1}, {hi}",
            "mov rdx, [{a} + 8]",
            "mulx {hi}, {lo}, rdx",
            "adcx {w2}, {w2}",
            "adox {w2}, {lo}",
            "adcx {w3}, {w3}",
            "adox {w3}, {hi}",
            "mov rdx, [{a} + 16]",
            "mulx {hi}, {lo}, rdx",
            "adcx {w4}, {w4}",
            "adox {w4}, {lo}",
            "adcx {w5}, {w5}",
            "adox {w5}, {hi}",
            "mov rdx, [{a} + 24]",
            "mulx {hi}, {lo}, rdx",
            "adcx {w6}, {w6}",
            "adox {w6}, {lo}",
            "adcx {w7}, {w7}",
            "adox {w7}, {hi}",
            reduce!(w0, w1, w2, w3; w4, w5, w6, w7),
            a = in(reg) a.as_ptr(),
            w0 = out(reg) _,
            w1 = out(reg) _,
            w2 = out(reg) _,
            w3 = out(reg) _,
            w4 = out(reg) r0,
            w5 = out(reg) r1,
            w6 = out(reg) r2,
            w7 = out(reg) r3,
            lo = out(reg) _,
            hi = out(reg) _,
            t = out(reg) _,
            out("rdx") _,
            options(pure, readonly, nostack),
        );
    }
    [r0, r1, r2, r3]
}

#[cfg(test)]
mod tests {
    use crate::p256::field::{Fe, FieldMul, P, Portable};
    use num_bigint::BigUint;

    /// Two operands of a product.
    type Pair = ([u64; 4], [u64; 4]);

    fn portable_mul(a: &[u64; 4], b: &[u64; 4]) -> [u64; 4] {
        Portable.mul(&Fe(*a), &Fe(*b)).0
    }

    fn portable_sqr(a: &[u64; 4]) -> [u64; 4] {
        Portable.sqr(&Fe(*a)).0
    }

    fn big(w: &[u64; 4]) -> BigUint {
        w.iter()
            .rev()
            .fold(BigUint::from(0u8), |v, &x| (v << 64u32) + BigUint::from(x))
    }

    fn words(v: &BigUint) -> [u64; 4] {
        let mut d = v.to_u64_digits();
        d.resize(4, 0);
        [d[0], d[1], d[2], d[3]]
    }

    fn below_p(w: &[u64; 4]) -> bool {
        (0..4)
            .rev()
            .find(|&i| w[i] != P[i])
            .is_some_and(|i| w[i] < P[i])
    }

    /// A seeded generator (64-bit LCG, output mixed).
    struct Rng(u64);

    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 = self
                .0
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let x = self.0;
            (x ^ (x >> 29)).wrapping_mul(0xBF58_476D_1CE4_E5B9) ^ (x >> 32)
        }

        /// A value below p: uniform words, or (one time in four) words drawn from the
        /// edges of the carry chains (0, all ones, the halves, p's own words).
        fn element(&mut self) -> [u64; 4] {
            const EDGE: [u64; 8] = [
                0,
                1,
                u64::MAX,
                u64::MAX - 1,
                0xFFFF_FFFF,
                0xFFFF_FFFF_0000_0000,
                0xFFFF_FFFF_0000_0001,
                0x8000_0000_0000_0000,
            ];
            loop {
                let edges = self.next().is_multiple_of(4);
                let mut w = [0u64; 4];
                for x in w.iter_mut() {
                    *x = if edges {
                        EDGE[(self.next() % 8) as usize]
                    } else {
                        self.next()
                    };
                }
                if below_p(&w) {
                    return w;
                }
            }
        }
    }

    /// 0, 1, 2, p − 1, p − 2, (p ± 1)/2, 2²⁵⁵, R mod p, values whose words are all ones (or
    /// p's words less one) below p, and single-word values.
    fn edges() -> Vec<[u64; 4]> {
        let m = u64::MAX;
        let p = big(&P);
        let mut v = vec![
            [0; 4],
            [1, 0, 0, 0],
            [2, 0, 0, 0],
            words(&(&p - 1u8)),
            words(&(&p - 2u8)),
            words(&((&p - 1u8) >> 1u32)),
            words(&((&p + 1u8) >> 1u32)),
            [0, 0, 0, 1 << 63],
            Fe::ONE.0,
            [m, m, m, P[3] - 1],
            [m, m, m, 0],
            [m, m, 0, 0],
            [m, 0, 0, 0],
            [0, m, 0, 0],
            [0, 0, m, 0],
            [0, m, m, P[3] - 1],
            [m, 0, m, P[3] - 1],
            [m, P[1], m, P[3] - 1],
            [m, P[1] - 1, 0, P[3]],
            [m - 1, P[1], 0, P[3]],
            [0, 0, 0, P[3]],
            [m, m, m, 0xFFFF_FFFE_FFFF_FFFF],
        ];
        for k in [32u32, 64, 96, 128, 192, 224] {
            v.push(words(&(BigUint::from(1u8) << k)));
            v.push(words(&((BigUint::from(1u8) << k) - 1u8)));
        }
        assert!(v.iter().all(below_p));
        v
    }

    /// The value before the final subtraction, T = (x + q·p) / 2²⁵⁶ with q = −x·p⁻¹ mod
    /// 2²⁵⁶ (what four word steps with quotient digits q's words add), for the product x.
    fn pre_subtraction(x: &BigUint) -> BigUint {
        let p = big(&P);
        let r = BigUint::from(1u8) << 256u32;
        let n = &r - p.modinv(&r).unwrap();
        let q = (x * n) % &r;
        (x + q * p) >> 256u32
    }

    /// Which case of the final subtraction T falls in: 0 below p (no subtraction), 1 at
    /// least p without a fifth word, 2 at or above 2²⁵⁶.
    fn case(t: &BigUint) -> usize {
        let p = big(&P);
        assert!(*t < &p << 1u32);
        if *t < p {
            0
        } else if *t < BigUint::from(1u8) << 256u32 {
            1
        } else {
            2
        }
    }

    /// Pairs (a, b) whose product lands on T = p + δ, p ≤ T < 2²⁵⁶ (about 2⁻³² of random
    /// products): b = T·R·a⁻¹ mod p makes a·b ≡ T·R, so T ≡ the true T′ mod p, and T′ ∈ [0, 2p)
    /// is then T (T′ = δ would need both a·b and q near 0); kept where that holds. And values
    /// a whose square does, a = √(T·R) mod p where that is a square (p ≡ 3 mod 4).
    fn subtraction_cases() -> (Vec<Pair>, Vec<[u64; 4]>) {
        let p = big(&P);
        let r = BigUint::from(1u8) << 256u32;
        let mut rng = Rng(0x005E_ED0F_5AB7);
        let mut pairs = Vec::new();
        let mut squares = Vec::new();
        let top = &r - &p;
        let mut deltas: Vec<BigUint> = [1u32, 32, 64, 100, 160, 200, 223]
            .iter()
            .map(|&k| BigUint::from(1u8) << k)
            .collect();
        deltas.push(&top - 1u8);
        deltas.push(&top >> 1u32);
        deltas.push(BigUint::from(1u8));
        for _ in 0..40 {
            deltas.push(big(&[rng.next(), rng.next(), rng.next(), rng.next() >> 34]) % &top);
        }
        for delta in &deltas {
            let t = &p + delta;
            let c = (&t * &r) % &p;
            let a = big(&rng.element());
            if let Some(ai) = a.modinv(&p) {
                let b = (&c * ai) % &p;
                if pre_subtraction(&(&a * &b)) == t {
                    pairs.push((words(&a), words(&b)));
                }
            }
            let s = c.modpow(&((&p + 1u8) >> 2u32), &p);
            if (&s * &s) % &p == c && pre_subtraction(&(&s * &s)) == t {
                squares.push(words(&s));
            }
        }
        (pairs, squares)
    }

    #[test]
    fn assembly_matches_portable() {
        if !crate::dispatch::has_bmi2_adx() {
            eprintln!("no BMI2/ADX on this CPU: the assembly is not run");
            return;
        }
        let mut seen_mul = [0usize; 3];
        let mut seen_sqr = [0usize; 3];
        let mut check_mul = |a: &[u64; 4], b: &[u64; 4], classify: bool| {
            let r = super::mul(a, b);
            assert_eq!(r, portable_mul(a, b), "mul {a:x?} {b:x?}");
            assert!(below_p(&r));
            if classify {
                seen_mul[case(&pre_subtraction(&(big(a) * big(b))))] += 1;
            }
        };
        let edges = edges();
        for a in &edges {
            for b in &edges {
                check_mul(a, b, true);
            }
        }
        let (pairs, squares) = subtraction_cases();
        for (a, b) in &pairs {
            check_mul(a, b, true);
            check_mul(b, a, true);
        }
        let mut rng = Rng(0x00C0_FFEE_D00D_F00D);
        for i in 0..200_000 {
            let (a, b) = (rng.element(), rng.element());
            check_mul(&a, &b, i < 2_000);
        }
        let mut check_sqr = |a: &[u64; 4], classify: bool| {
            let r = super::sqr(a);
            assert_eq!(r, portable_sqr(a), "sqr {a:x?}");
            assert_eq!(r, super::mul(a, a), "sqr against mul {a:x?}");
            assert!(below_p(&r));
            if classify {
                seen_sqr[case(&pre_subtraction(&(big(a) * big(a))))] += 1;
            }
        };
        for a in edges.iter().chain(&squares) {
            check_sqr(a, true);
        }
        for i in 0..200_000 {
            check_sqr(&rng.element(), i < 2_000);
        }
        // Every case of the final subtraction was reached: none, without and with the
        // fifth word.
        assert!(seen_mul.iter().all(|&n| n > 0), "mul cases {seen_mul:?}");
        assert!(seen_sqr.iter().all(|&n| n > 0), "sqr cases {seen_sqr:?}");
        eprintln!("subtraction cases: mul {seen_mul:?}, sqr {seen_sqr:?}");
    }

    /// Chains of products, each fed the previous results (as an exponentiation would).
    #[test]
    fn chained_products_match_portable() {
        if !crate::dispatch::has_bmi2_adx() {
            eprintln!("no BMI2/ADX on this CPU: the assembly is not run");
            return;
        }
        let mut rng = Rng(7);
        for _ in 0..100 {
            let (mut x, mut y) = (rng.element(), rng.element());
            let (mut u, mut v) = (x, y);
            for _ in 0..1_000 {
                (x, y) = (super::mul(&x, &y), super::sqr(&x));
                (u, v) = (portable_mul(&u, &v), portable_sqr(&u));
                assert_eq!((x, y), (u, v));
            }
        }
    }
}
