//! x86-64 multiply and square for the 4×64 field with MULX/ADCX/ADOX (BMI2 + ADX).
//!
//! LLVM does not emit ADCX/ADOX, whose two independent carry chains (CF and OF) let one
//! row of partial products accumulate its low and high halves at once; these two
//! functions therefore use inline assembly. They compute a weakly reduced result below
//! 2²⁵⁶, congruent to the product mod p (as the portable `FieldElement::mul_portable` /
//! `sqr_portable` do), and run only behind a [`MulxAdx`] token, which `crate::dispatch`'s
//! check of BMI2 and ADX hands out.

use super::field::{FieldElement, FieldMul};
use core::arch::asm;

/// [`FieldMul`] on the MULX/ADCX/ADOX assembly below. Only [`MulxAdx::detect`] makes one,
/// and only on a CPU with BMI2 and ADX, so holding one is the proof that the assembly may run.
#[derive(Clone, Copy, Debug)]
pub struct MulxAdx(());

impl MulxAdx {
    /// The assembly multiply, if this CPU has BMI2 and ADX (detected once, by
    /// `crate::dispatch`).
    #[inline(always)]
    pub fn detect() -> Option<Self> {
        crate::dispatch::has_bmi2_adx().then_some(Self(()))
    }
}

impl FieldMul for MulxAdx {
    #[inline(always)]
    fn mul(self, a: &FieldElement, b: &FieldElement) -> FieldElement {
        FieldElement(mul(&a.0, &b.0))
    }
    #[inline(always)]
    fn sqr(self, a: &FieldElement) -> FieldElement {
        FieldElement(sqr(&a.0))
    }
    #[inline(always)]
    fn sqr_n(self, a: &FieldElement, k: u32) -> FieldElement {
        if k == 0 {
            return *a;
        }
        FieldElement(sqr_n(&a.0, k))
    }
}

/// The shared tail, given the product's high words in the registers named `$h0..$h3` (and
/// 0 in `z`, or in the register named after `;`):
/// folds them into r0..r3 with 2²⁵⁶ ≡ P_C = 0x1000003D1, then folds the ≤ 35-bit overflow
/// word into r0 and r1 only. A carry out of r1 (the sum passing a multiple of 2¹²⁸ there:
/// about 2⁻⁶⁰ of random products) jumps to the end of the block, which carries it on into
/// r2 and r3 and, past 2²⁵⁶, adds P_C once more (the value is then below 2⁶⁸, so that
/// cannot wrap). The common path takes one not-taken branch and touches no memory.
macro_rules! reduce {
    ($h0:ident, $h1:ident, $h2:ident, $h3:ident) => {
        reduce!($h0, $h1, $h2, $h3; z)
    };
    ($h0:ident, $h1:ident, $h2:ident, $h3:ident; $z:ident) => {
        concat!(
            "mov rdx, 0x1000003D1\n",
            "xor {lo:e}, {lo:e}\n",
            "mulx {hi}, {lo}, {",
            stringify!($h0),
            "}\n",
            "adox {r0}, {lo}\n",
            "adcx {r1}, {hi}\n",
            "mulx {hi}, {lo}, {",
            stringify!($h1),
            "}\n",
            "adox {r1}, {lo}\n",
            "adcx {r2}, {hi}\n",
            "mulx {hi}, {lo}, {",
            stringify!($h2),
            "}\n",
            "adox {r2}, {lo}\n",
            "adcx {r3}, {hi}\n",
            "mulx {",
            stringify!($h0),
            "}, {lo}, {",
            stringify!($h3),
            "}\n",
            "adox {r3}, {lo}\n",
            "adcx {",
            stringify!($h0),
            "}, {",
            stringify!($z),
            "}\n",
            "adox {",
            stringify!($h0),
            "}, {",
            stringify!($z),
            "}\n",
            // The overflow word (< 2³⁵) times P_C (< 2⁶⁸), into r0 and r1.
            "mulx {hi}, {lo}, {",
            stringify!($h0),
            "}\n",
            "add {r0}, {lo}\n",
            "adc {r1}, {hi}\n",
            "jc 3f\n",
            "2:\n",
            ".pushsection .text.unlikely.asmcrypto_field_adx, \"ax\", @progbits\n",
            "3:\n",
            "adc {r2}, 0\n",
            "adc {r3}, 0\n",
            "jnc 2b\n",
            "add {r0}, rdx\n",
            "adc {r1}, 0\n",
            "adc {r2}, 0\n",
            "jmp 2b\n",
            ".popsection\n",
        )
    };
}

/// a·b mod p (weakly reduced). Caller guarantees BMI2 and ADX.
///
/// `a` arrives in registers (its words are read one per row, so each register then holds a
/// high word of the product), `b` from memory.
#[inline(always)]
pub(super) fn mul(a: &[u64; 4], b: &[u64; 4]) -> [u64; 4] {
    let [mut a0, mut a1, mut a2, mut a3] = *a;
    let (r0, r1, r2, r3): (u64, u64, u64, u64);
    // SAFETY: reads 4 words behind `b` (a valid reference); writes only the declared
    // registers; the caller checked that the CPU has BMI2 (mulx) and ADX (adcx/adox).
    unsafe {
        asm!(
            // Row 0: r0..r4 = a0·b (r4 in a0's register). z stays 0 throughout.
            "xor {z:e}, {z:e}",
            "mov rdx, {a0}",
            "mulx {r1}, {r0}, [{b}]",
            "mulx {r2}, {lo}, [{b} + 8]",
            "add {r1}, {lo}",
            "mulx {r3}, {lo}, [{b} + 16]",
            "adc {r2}, {lo}",
            "mulx {a0}, {lo}, [{b} + 24]",
            "adc {r3}, {lo}",
            "adc {a0}, 0",
            // Row 1: r1..r5 += a1·b (r5 in a1's register; lows on OF, highs on CF).
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
            "adox {a1}, {z}",
            // Row 2: r2..r6 += a2·b (r6 in a2's register).
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
            "adox {a2}, {z}",
            // Row 3: r3..r7 += a3·b (r7 in a3's register).
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
            "adox {a3}, {z}",
            reduce!(a0, a1, a2, a3),
            b = in(reg) b.as_ptr(),
            a0 = inout(reg) a0,
            a1 = inout(reg) a1,
            a2 = inout(reg) a2,
            a3 = inout(reg) a3,
            r0 = out(reg) r0,
            r1 = out(reg) r1,
            r2 = out(reg) r2,
            r3 = out(reg) r3,
            lo = out(reg) _,
            hi = out(reg) _,
            z = out(reg) _,
            out("rdx") _,
            options(pure, readonly, nostack),
        );
    }
    let _ = (a0, a1, a2, a3);
    [r0, r1, r2, r3]
}

/// a² mod p (weakly reduced). Caller guarantees BMI2 and ADX.
#[inline(always)]
pub(super) fn sqr(a: &[u64; 4]) -> [u64; 4] {
    let (r0, r1, r2, r3): (u64, u64, u64, u64);
    // SAFETY: reads 4 words behind `a` (a valid reference); writes only the declared
    // registers; the caller checked that the CPU has BMI2 (mulx) and ADX (adcx/adox).
    unsafe {
        asm!(
            // Cross products aᵢ·aⱼ, i < j, into r1..r6. z stays 0 throughout.
            "xor {z:e}, {z:e}",
            "mov rdx, [{a}]",
            "mulx {r2}, {r1}, [{a} + 8]",
            "mulx {r3}, {lo}, [{a} + 16]",
            "add {r2}, {lo}",
            "mulx {r4}, {lo}, [{a} + 24]",
            "adc {r3}, {lo}",
            "adc {r4}, 0",
            "mov rdx, [{a} + 8]",
            "xor {r5:e}, {r5:e}",
            "mulx {hi}, {lo}, [{a} + 16]",
            "adox {r3}, {lo}",
            "adcx {r4}, {hi}",
            "mulx {hi}, {lo}, [{a} + 24]",
            "adox {r4}, {lo}",
            "adcx {r5}, {hi}",
            "adox {r5}, {z}",
            "mov rdx, [{a} + 16]",
            "mulx {r6}, {lo}, [{a} + 24]",
            "add {r5}, {lo}",
            "adc {r6}, 0",
            // 2·cross plus the squares aᵢ² at word 2i in one pass: the doubling on CF
            // (adcx r, r), the squares on OF (adox), so the two carry chains run side by side.
            "xor {r7:e}, {r7:e}",
            "mov rdx, [{a}]",
            "mulx {hi}, {r0}, rdx",
            "adcx {r1}, {r1}",
            "adox {r1}, {hi}",
            "mov rdx, [{a} + 8]",
            "mulx {hi}, {lo}, rdx",
            "adcx {r2}, {r2}",
            "adox {r2}, {lo}",
            "adcx {r3}, {r3}",
            "adox {r3}, {hi}",
            "mov rdx, [{a} + 16]",
            "mulx {hi}, {lo}, rdx",
            "adcx {r4}, {r4}",
            "adox {r4}, {lo}",
            "adcx {r5}, {r5}",
            "adox {r5}, {hi}",
            "mov rdx, [{a} + 24]",
            "mulx {hi}, {lo}, rdx",
            "adcx {r6}, {r6}",
            "adox {r6}, {lo}",
            "adcx {r7}, {r7}",
            "adox {r7}, {hi}",
            reduce!(r4, r5, r6, r7),
            a = in(reg) a.as_ptr(),
            r0 = out(reg) r0,
            r1 = out(reg) r1,
            r2 = out(reg) r2,
            r3 = out(reg) r3,
            r4 = out(reg) _,
            r5 = out(reg) _,
            r6 = out(reg) _,
            r7 = out(reg) _,
            lo = out(reg) _,
            hi = out(reg) _,
            z = out(reg) _,
            out("rdx") _,
            options(pure, readonly, nostack),
        );
    }
    [r0, r1, r2, r3]
}

/// a^(2^n) mod p (weakly reduced), n ≥ 1: n squarings in one assembly loop whose value
/// stays in registers from one squaring to the next (no store and reload between them, which
/// the square root's 253 dependent squarings would each wait for). Caller guarantees BMI2 and
/// ADX.
#[inline(always)]
pub(super) fn sqr_n(a: &[u64; 4], n: u32) -> [u64; 4] {
    debug_assert!(n >= 1);
    let [mut r0, mut a1, mut a2, mut a3] = *a;
    let mut count = n as u64;
    // SAFETY: register-only arithmetic (all fifteen general registers but rsp); the caller
    // checked that the CPU has BMI2 (mulx) and ADX (adcx/adox). The loop runs n ≥ 1 times.
    unsafe {
        asm!(
            "4:",
            // Cross products aᵢ·aⱼ, i < j, into r1..r6 (a0 is in r0's register).
            "mov rdx, {r0}",
            "mulx {r2}, {r1}, {a1}",
            "mulx {r3}, {lo}, {a2}",
            "add {r2}, {lo}",
            "mulx {r4}, {lo}, {a3}",
            "adc {r3}, {lo}",
            "adc {r4}, 0",
            "mov rdx, {a1}",
            "mov {r6:e}, 0",
            "xor {r5:e}, {r5:e}",
            "mulx {hi}, {lo}, {a2}",
            "adox {r3}, {lo}",
            "adcx {r4}, {hi}",
            "mulx {hi}, {lo}, {a3}",
            "adox {r4}, {lo}",
            "adcx {r5}, {hi}",
            "adox {r5}, {r6}",
            "mov rdx, {a2}",
            "mulx {r6}, {lo}, {a3}",
            "add {r5}, {lo}",
            "adc {r6}, 0",
            // 2·cross plus the squares (as in `sqr`); a0² goes to r0, over a0.
            "xor {r7:e}, {r7:e}",
            "mov rdx, {r0}",
            "mulx {hi}, {r0}, rdx",
            "adcx {r1}, {r1}",
            "adox {r1}, {hi}",
            "mov rdx, {a1}",
            "mulx {hi}, {lo}, rdx",
            "adcx {r2}, {r2}",
            "adox {r2}, {lo}",
            "adcx {r3}, {r3}",
            "adox {r3}, {hi}",
            "mov rdx, {a2}",
            "mulx {hi}, {lo}, rdx",
            "adcx {r4}, {r4}",
            "adox {r4}, {lo}",
            "adcx {r5}, {r5}",
            "adox {r5}, {hi}",
            "mov rdx, {a3}",
            "mulx {hi}, {lo}, rdx",
            "adcx {r6}, {r6}",
            "adox {r6}, {lo}",
            "adcx {r7}, {r7}",
            "adox {r7}, {hi}",
            // a1..a3 are free now: a1 is the reduction's zero.
            "xor {a1:e}, {a1:e}",
            reduce!(r4, r5, r6, r7; a1),
            // The result is the next input.
            "mov {a1}, {r1}",
            "mov {a2}, {r2}",
            "mov {a3}, {r3}",
            "dec {count}",
            "jnz 4b",
            r0 = inout(reg) r0,
            a1 = inout(reg) a1,
            a2 = inout(reg) a2,
            a3 = inout(reg) a3,
            count = inout(reg) count,
            r1 = out(reg) _,
            r2 = out(reg) _,
            r3 = out(reg) _,
            r4 = out(reg) _,
            r5 = out(reg) _,
            r6 = out(reg) _,
            r7 = out(reg) _,
            lo = out(reg) _,
            hi = out(reg) _,
            out("rdx") _,
            options(pure, nomem, nostack),
        );
    }
    let _ = count;
    [r0, a1, a2, a3]
}

#[cfg(test)]
mod tests {
    use super::*;
    use num_bigint::BigUint;

    /// [`reduce`] alone, on any 512-bit value (not only products): its rare tails need
    /// inputs that no product of two chosen operands is known to give.
    fn reduce_only(t: [u64; 8]) -> [u64; 4] {
        let [
            mut r0,
            mut r1,
            mut r2,
            mut r3,
            mut r4,
            mut r5,
            mut r6,
            mut r7,
        ] = t;
        // SAFETY: register-only arithmetic; the test runs it only after MulxAdx::detect
        // found BMI2 (mulx) and ADX (adcx/adox).
        unsafe {
            asm!(
                "xor {z:e}, {z:e}",
                reduce!(r4, r5, r6, r7),
                r0 = inout(reg) r0,
                r1 = inout(reg) r1,
                r2 = inout(reg) r2,
                r3 = inout(reg) r3,
                r4 = inout(reg) r4,
                r5 = inout(reg) r5,
                r6 = inout(reg) r6,
                r7 = inout(reg) r7,
                lo = out(reg) _,
                hi = out(reg) _,
                z = out(reg) _,
                out("rdx") _,
                options(pure, nomem, nostack),
            );
        }
        let _ = (r4, r5, r6, r7);
        [r0, r1, r2, r3]
    }

    fn big(w: &[u64]) -> BigUint {
        w.iter()
            .rev()
            .fold(BigUint::from(0u8), |v, &x| (v << 64u32) + BigUint::from(x))
    }

    fn words(v: &BigUint, n: usize) -> Vec<u64> {
        let mut d = v.to_u64_digits();
        d.resize(n, 0);
        d
    }

    /// The high half H = ⌊2²⁵⁶/P_C⌋ with the low half 2²⁵⁶ − 1 − k makes the first fold end
    /// at 2²⁵⁶ + [x, 2⁶⁴−1, ·, ·] with x + P_C ≥ 2⁶⁴: the last fold carries out of r1, and
    /// on through r3 and past 2²⁵⁶ (k = 0 or 2), or stops in r2 (k = 2¹²⁸ or 2¹²⁹) or in r3
    /// (k = 2¹⁹²). The other cases take the plain path.
    #[test]
    fn reduce_tails_match_bigint() {
        if MulxAdx::detect().is_none() {
            eprintln!("skipped: no BMI2/ADX");
            return;
        }
        let one = BigUint::from(1u8);
        let p = (&one << 256u32) - BigUint::from(0x1_0000_03D1u64);
        let h0 = (&one << 256u32) / BigUint::from(0x1_0000_03D1u64);
        let mut seen = 0;
        for j in 0u32..3 {
            for k in [0u32, 1, 64, 65, 127, 128, 129, 192] {
                let high = &h0 - j;
                let dip = if k == 0 {
                    BigUint::from(0u8)
                } else {
                    &one << k
                };
                let low = (&one << 256u32) - 1u8 - dip;
                let t: Vec<u64> = words(&low, 4).into_iter().chain(words(&high, 4)).collect();
                let t: [u64; 8] = t.try_into().unwrap();
                let r = reduce_only(t);
                let v = (&high << 256u32) + &low;
                assert_eq!(big(&r) % &p, &v % &p, "{t:x?}");
                // Did the last fold carry out of r1? Recompute its inputs.
                let first = &low + &high * BigUint::from(0x1_0000_03D1u64);
                let ov = &first >> 256u32;
                let rest = words(&(&first % (&one << 256u32)), 4);
                seen += (rest[1] == u64::MAX
                    && big(&rest[..1]) + &ov * 0x1_0000_03D1u64 >= (&one << 64u32))
                    as u32;
            }
        }
        assert_eq!(seen, 5, "the carry tails were reached {seen} times");
        // Reference products, to check the plain path too.
        let t = [1, 2, 3, 4, 5, 6, 7, 8];
        assert_eq!(big(&reduce_only(t)) % &p, big(&t) % &p);
    }
}
