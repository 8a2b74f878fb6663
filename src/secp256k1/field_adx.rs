//! x86-64 multiply and square for the 4×64 field with MULX/ADCX/ADOX (BMI2 + ADX).
//!
//! LLVM does not emit ADCX/ADOX, whose two independent carry chains (CF and OF) let one
//! row of partial products accumulate its low and high halves at once; these two
//! functions therefore use inline assembly. They compute exactly what the portable
//! `FieldElement::mul`/`sqr` compute (a weakly reduced result below 2²⁵⁶, congruent to
//! the product mod p) and are only called where `crate::dispatch` found BMI2 and ADX.

use core::arch::asm;
/// The shared tail: folds r4..r7 (the product's high half) into r0..r3 with
/// 2²⁵⁶ ≡ P_C = 0x1000003D1, then folds the ≤ 35-bit overflow word once more.
macro_rules! reduce {
    () => {
        concat!(
            "mov rdx, 0x1000003D1\n",
            "xor {lo:e}, {lo:e}\n",
            "mulx {hi}, {lo}, {r4}\n",
            "adox {r0}, {lo}\n",
            "adcx {r1}, {hi}\n",
            "mulx {hi}, {lo}, {r5}\n",
            "adox {r1}, {lo}\n",
            "adcx {r2}, {hi}\n",
            "mulx {hi}, {lo}, {r6}\n",
            "adox {r2}, {lo}\n",
            "adcx {r3}, {hi}\n",
            "mulx {r4}, {lo}, {r7}\n",
            "adox {r3}, {lo}\n",
            "mov {lo:e}, 0\n",
            "adcx {r4}, {lo}\n",
            "adox {r4}, {lo}\n",
            // r4 < 2³⁵ is the overflow past 2²⁵⁶: add r4·P_C.
            "mulx {hi}, {lo}, {r4}\n",
            "add {r0}, {lo}\n",
            "adc {r1}, {hi}\n",
            "adc {r2}, 0\n",
            "adc {r3}, 0\n",
            // A carry out (the sum wrapped past 2²⁵⁶) leaves a value below 2⁶⁸: add P_C
            // for the lost 2²⁵⁶; this can reach r1 but no further.
            "sbb {lo}, {lo}\n",
            "and {lo}, rdx\n",
            "add {r0}, {lo}\n",
            "adc {r1}, 0\n",
        )
    };
}

/// a·b mod p (weakly reduced). Caller guarantees BMI2 and ADX.
#[inline(always)]
pub(super) fn mul(a: &[u64; 4], b: &[u64; 4]) -> [u64; 4] {
    let (r0, r1, r2, r3): (u64, u64, u64, u64);
    // SAFETY: reads 4 words behind each of `a` and `b` (valid references); writes only the
    // declared registers; the caller checked that the CPU has BMI2 (mulx) and ADX (adcx/adox).
    unsafe {
        asm!(
            // Row 0: r0..r4 = a0·b.
            "mov rdx, [{a}]",
            "mulx {r1}, {r0}, [{b}]",
            "mulx {r2}, {lo}, [{b} + 8]",
            "add {r1}, {lo}",
            "mulx {r3}, {lo}, [{b} + 16]",
            "adc {r2}, {lo}",
            "mulx {r4}, {lo}, [{b} + 24]",
            "adc {r3}, {lo}",
            "adc {r4}, 0",
            // Row 1: r1..r5 += a1·b (low halves on OF, high halves on CF).
            "mov rdx, [{a} + 8]",
            "xor {r5:e}, {r5:e}",
            "mulx {hi}, {lo}, [{b}]",
            "adox {r1}, {lo}",
            "adcx {r2}, {hi}",
            "mulx {hi}, {lo}, [{b} + 8]",
            "adox {r2}, {lo}",
            "adcx {r3}, {hi}",
            "mulx {hi}, {lo}, [{b} + 16]",
            "adox {r3}, {lo}",
            "adcx {r4}, {hi}",
            "mulx {hi}, {lo}, [{b} + 24]",
            "adox {r4}, {lo}",
            "adcx {r5}, {hi}",
            "mov {lo:e}, 0",
            "adox {r5}, {lo}",
            // Row 2: r2..r6 += a2·b.
            "mov rdx, [{a} + 16]",
            "xor {r6:e}, {r6:e}",
            "mulx {hi}, {lo}, [{b}]",
            "adox {r2}, {lo}",
            "adcx {r3}, {hi}",
            "mulx {hi}, {lo}, [{b} + 8]",
            "adox {r3}, {lo}",
            "adcx {r4}, {hi}",
            "mulx {hi}, {lo}, [{b} + 16]",
            "adox {r4}, {lo}",
            "adcx {r5}, {hi}",
            "mulx {hi}, {lo}, [{b} + 24]",
            "adox {r5}, {lo}",
            "adcx {r6}, {hi}",
            "mov {lo:e}, 0",
            "adox {r6}, {lo}",
            // Row 3: r3..r7 += a3·b.
            "mov rdx, [{a} + 24]",
            "xor {r7:e}, {r7:e}",
            "mulx {hi}, {lo}, [{b}]",
            "adox {r3}, {lo}",
            "adcx {r4}, {hi}",
            "mulx {hi}, {lo}, [{b} + 8]",
            "adox {r4}, {lo}",
            "adcx {r5}, {hi}",
            "mulx {hi}, {lo}, [{b} + 16]",
            "adox {r5}, {lo}",
            "adcx {r6}, {hi}",
            "mulx {hi}, {lo}, [{b} + 24]",
            "adox {r6}, {lo}",
            "adcx {r7}, {hi}",
            "mov {lo:e}, 0",
            "adox {r7}, {lo}",
            reduce!(),
            a = in(reg) a.as_ptr(),
            b = in(reg) b.as_ptr(),
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
            out("rdx") _,
            options(pure, readonly, nostack),
        );
    }
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
            // Cross products aᵢ·aⱼ, i < j, into r1..r6.
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
            "mov {lo:e}, 0",
            "adox {r5}, {lo}",
            "mov rdx, [{a} + 16]",
            "mulx {r6}, {lo}, [{a} + 24]",
            "add {r5}, {lo}",
            "adc {r6}, 0",
            // Double them: r1..r7 = 2·cross.
            "xor {r7:e}, {r7:e}",
            "add {r1}, {r1}",
            "adc {r2}, {r2}",
            "adc {r3}, {r3}",
            "adc {r4}, {r4}",
            "adc {r5}, {r5}",
            "adc {r6}, {r6}",
            "adc {r7}, 0",
            // Add the squares aᵢ² at word 2i.
            "mov rdx, [{a}]",
            "mulx {hi}, {r0}, rdx",
            "add {r1}, {hi}",
            "mov rdx, [{a} + 8]",
            "mulx {hi}, {lo}, rdx",
            "adc {r2}, {lo}",
            "adc {r3}, {hi}",
            "mov rdx, [{a} + 16]",
            "mulx {hi}, {lo}, rdx",
            "adc {r4}, {lo}",
            "adc {r5}, {hi}",
            "mov rdx, [{a} + 24]",
            "mulx {hi}, {lo}, rdx",
            "adc {r6}, {lo}",
            "adc {r7}, {hi}",
            reduce!(),
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
            out("rdx") _,
            options(pure, readonly, nostack),
        );
    }
    [r0, r1, r2, r3]
}
