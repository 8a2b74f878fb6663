//! x86-64 multiply and square for the 4×64 field with MULX/ADCX/ADOX (BMI2 + ADX).
//!
//! LLVM does not emit ADCX/ADOX, whose two independent carry chains (CF and OF) let one
//! row of partial products accumulate its low and high halves at once; these two
//! functions therefore use inline assembly. They compute a weakly reduced result below
//! 2²⁵⁶, congruent to the product mod p (as the portable `FieldElement::mul_portable` /
//! `sqr_portable` do), and run only behind `field::MulxAdx`, the token that
//! `crate::dispatch`'s check of BMI2 and ADX hands out. This file holds the assembly alone,
//! on plain words; `field.rs` wraps it for `FieldElement`.

use core::arch::asm;

/// The first fold of the reduction, with the multiplier already in rdx (P_C, or K·P_C for a
/// scaled result): adds the product's high words, in the registers named `$h0..$h3`, times
/// rdx into r0..r3; the overflow past 2²⁵⁶ ends up in `$h0`. `$z` holds 0.
macro_rules! fold_high {
    ($h0:ident, $h1:ident, $h2:ident, $h3:ident; $z:ident) => {
        concat!(
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
        )
    };
}

/// The directive that opens the section for the rare paths (closed by `.popsection`), so
/// that they sit away from the hot code: in the object format of the target. ELF (Linux,
/// the BSDs) names a `.text.unlikely` section, Mach-O (macOS) `__TEXT,__text_cold`, COFF
/// (Windows) a `.text$…` section that the linker merges into `.text`.
#[cfg(target_vendor = "apple")]
macro_rules! cold_section {
    () => {
        ".pushsection __TEXT,__text_cold,regular,pure_instructions\n"
    };
}
#[cfg(windows)]
macro_rules! cold_section {
    () => {
        ".pushsection .text$asmcrypto_cold, \"xr\"\n"
    };
}
#[cfg(not(any(target_vendor = "apple", windows)))]
macro_rules! cold_section {
    () => {
        ".pushsection .text.unlikely.asmcrypto_field_adx, \"ax\", @progbits\n"
    };
}

/// The last fold, with P_C in rdx: adds the overflow word `$ov` (below 2³⁸) times P_C
/// (below 2⁷¹) into r0 and r1 only. A carry out of r1 (the sum passing a multiple of 2¹²⁸
/// there: about 2⁻⁵⁶ of random inputs) jumps to a cold section, which carries it on into r2
/// and r3 and, past 2²⁵⁶, adds P_C once more (the value is then below 2⁷¹, so that cannot
/// wrap). The common path takes one not-taken branch and touches no memory.
macro_rules! fold_overflow {
    ($ov:ident) => {
        concat!(
            "mulx {hi}, {lo}, {",
            stringify!($ov),
            "}\n",
            "add {r0}, {lo}\n",
            "adc {r1}, {hi}\n",
            "jc 3f\n",
            "2:\n",
            cold_section!(),
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

/// The reduction of a 512-bit value (low words in r0..r3, high words in `$h0..$h3`) to a
/// weakly reduced element in r0..r3, with 2²⁵⁶ ≡ P_C = 0x1000003D1 applied twice.
macro_rules! reduce {
    ($h0:ident, $h1:ident, $h2:ident, $h3:ident) => {
        reduce!($h0, $h1, $h2, $h3; z)
    };
    ($h0:ident, $h1:ident, $h2:ident, $h3:ident; $z:ident) => {
        concat!(
            "mov rdx, 0x1000003D1\n",
            fold_high!($h0, $h1, $h2, $h3; $z),
            fold_overflow!($h0),
        )
    };
}

/// [`reduce`] of the value minus c (256 bits behind the pointer `c`): c is subtracted from
/// r0..r3 after the first fold, its borrow from the overflow word. That word is 0 only when
/// the value's high half is tiny, so a borrow past it (a negative result) is rare: it jumps
/// to a cold section that takes P_C away for the lost 2²⁵⁶ (twice if that borrows again)
/// and goes on with a zero overflow. A subtraction the formulas would otherwise do as a
/// separate operation costs five instructions here.
macro_rules! reduce_sub {
    ($h0:ident, $h1:ident, $h2:ident, $h3:ident; $z:ident) => {
        concat!(
            "mov rdx, 0x1000003D1\n",
            fold_high!($h0, $h1, $h2, $h3; $z),
            "sub {r0}, [{c}]\n",
            "sbb {r1}, [{c} + 8]\n",
            "sbb {r2}, [{c} + 16]\n",
            "sbb {r3}, [{c} + 24]\n",
            "sbb {", stringify!($h0), "}, 0\n",
            "jc 7f\n",
            "6:\n",
            cold_section!(),
            "7:\n",
            "xor {", stringify!($h0), ":e}, {", stringify!($h0), ":e}\n",
            "sub {r0}, rdx\n",
            "sbb {r1}, 0\n",
            "sbb {r2}, 0\n",
            "sbb {r3}, 0\n",
            "jnc 6b\n",
            "sub {r0}, rdx\n",
            "sbb {r1}, 0\n",
            "sbb {r2}, 0\n",
            "sbb {r3}, 0\n",
            "jmp 6b\n",
            ".popsection\n",
            fold_overflow!($h0),
        )
    };
}

/// [`reduce`] of K times the value (const operands `k` = K and `kpc` = K·P_C, K ≤ 8): the low
/// words are multiplied by K (their bits past 2²⁵⁶ into the register `x`), the high words
/// are folded with K·P_C, and `x` joins the overflow word. A multiplication by 2, 3, 4 or 8
/// that the formulas would otherwise do as a separate shift-and-fold costs nine
/// instructions here.
macro_rules! reduce_scaled {
    ($h0:ident, $h1:ident, $h2:ident, $h3:ident; $z:ident) => {
        concat!(
            "mov rdx, {k}\n",
            "mulx {hi}, {r0}, {r0}\n",
            "mulx {lo}, {r1}, {r1}\n",
            "add {r1}, {hi}\n",
            "mulx {hi}, {r2}, {r2}\n",
            "adc {r2}, {lo}\n",
            "mulx {x}, {r3}, {r3}\n",
            "adc {r3}, {hi}\n",
            "adc {x}, 0\n",
            "mov rdx, {kpc}\n",
            fold_high!($h0, $h1, $h2, $h3; $z),
            "add {", stringify!($h0), "}, {x}\n",
            "mov rdx, 0x1000003D1\n",
            fold_overflow!($h0),
        )
    };
}

/// The schoolbook product a·b into r0..r3 (low) and a0..a3's registers (high): a row per
/// word of `a` (which arrives in registers, each freed as its row starts), `b` from memory,
/// lows on OF and highs on CF. Sets `z` to 0.
macro_rules! mul_rows {
    () => {
        concat!(
            // Row 0: r0..r4 = a0·b (r4 in a0's register).
            "xor {z:e}, {z:e}\n",
            "mov rdx, {a0}\n",
            "mulx {r1}, {r0}, [{b}]\n",
            "mulx {r2}, {lo}, [{b} + 8]\n",
            "add {r1}, {lo}\n",
            "mulx {r3}, {lo}, [{b} + 16]\n",
            "adc {r2}, {lo}\n",
            "mulx {a0}, {lo}, [{b} + 24]\n",
            "adc {r3}, {lo}\n",
            "adc {a0}, 0\n",
            // Row 1: r1..r5 += a1·b (r5 in a1's register).
            "mov rdx, {a1}\n",
            "xor {a1:e}, {a1:e}\n",
            "mulx {hi}, {lo}, [{b}]\n",
            "adox {r1}, {lo}\n",
            "adcx {r2}, {hi}\n",
            "mulx {hi}, {lo}, [{b} + 8]\n",
            "adox {r2}, {lo}\n",
            "adcx {r3}, {hi}\n",
            "mulx {hi}, {lo}, [{b} + 16]\n",
            "adox {r3}, {lo}\n",
            "adcx {a0}, {hi}\n",
            "mulx {hi}, {lo}, [{b} + 24]\n",
            "adox {a0}, {lo}\n",
            "adcx {a1}, {hi}\n",
            "adox {a1}, {z}\n",
            // Row 2: r2..r6 += a2·b (r6 in a2's register).
            "mov rdx, {a2}\n",
            "xor {a2:e}, {a2:e}\n",
            "mulx {hi}, {lo}, [{b}]\n",
            "adox {r2}, {lo}\n",
            "adcx {r3}, {hi}\n",
            "mulx {hi}, {lo}, [{b} + 8]\n",
            "adox {r3}, {lo}\n",
            "adcx {a0}, {hi}\n",
            "mulx {hi}, {lo}, [{b} + 16]\n",
            "adox {a0}, {lo}\n",
            "adcx {a1}, {hi}\n",
            "mulx {hi}, {lo}, [{b} + 24]\n",
            "adox {a1}, {lo}\n",
            "adcx {a2}, {hi}\n",
            "adox {a2}, {z}\n",
            // Row 3: r3..r7 += a3·b (r7 in a3's register).
            "mov rdx, {a3}\n",
            "xor {a3:e}, {a3:e}\n",
            "mulx {hi}, {lo}, [{b}]\n",
            "adox {r3}, {lo}\n",
            "adcx {a0}, {hi}\n",
            "mulx {hi}, {lo}, [{b} + 8]\n",
            "adox {a0}, {lo}\n",
            "adcx {a1}, {hi}\n",
            "mulx {hi}, {lo}, [{b} + 16]\n",
            "adox {a1}, {lo}\n",
            "adcx {a2}, {hi}\n",
            "mulx {hi}, {lo}, [{b} + 24]\n",
            "adox {a2}, {lo}\n",
            "adcx {a3}, {hi}\n",
            "adox {a3}, {z}\n",
        )
    };
}

/// The square a² into r0..r7, `a` from memory: the cross products aᵢ·aⱼ (i < j) into
/// r1..r6, then 2·cross plus the squares aᵢ² at word 2i in one pass, the doubling on CF
/// (adcx r, r) and the squares on OF (adox), so the two carry chains run side by side.
/// Sets `z` to 0.
macro_rules! sqr_products {
    () => {
        concat!(
            "xor {z:e}, {z:e}\n",
            "mov rdx, [{a}]\n",
            "mulx {r2}, {r1}, [{a} + 8]\n",
            "mulx {r3}, {lo}, [{a} + 16]\n",
            "add {r2}, {lo}\n",
            "mulx {r4}, {lo}, [{a} + 24]\n",
            "adc {r3}, {lo}\n",
            "adc {r4}, 0\n",
            "mov rdx, [{a} + 8]\n",
            "xor {r5:e}, {r5:e}\n",
            "mulx {hi}, {lo}, [{a} + 16]\n",
            "adox {r3}, {lo}\n",
            "adcx {r4}, {hi}\n",
            "mulx {hi}, {lo}, [{a} + 24]\n",
            "adox {r4}, {lo}\n",
            "adcx {r5}, {hi}\n",
            "adox {r5}, {z}\n",
            "mov rdx, [{a} + 16]\n",
            "mulx {r6}, {lo}, [{a} + 24]\n",
            "add {r5}, {lo}\n",
            "adc {r6}, 0\n",
            "xor {r7:e}, {r7:e}\n",
            "mov rdx, [{a}]\n",
            "mulx {hi}, {r0}, rdx\n",
            "adcx {r1}, {r1}\n",
            "adox {r1}, {hi}\n",
            "mov rdx, [{a} + 8]\n",
            "mulx {hi}, {lo}, rdx\n",
            "adcx {r2}, {r2}\n",
            "adox {r2}, {lo}\n",
            "adcx {r3}, {r3}\n",
            "adox {r3}, {hi}\n",
            "mov rdx, [{a} + 16]\n",
            "mulx {hi}, {lo}, rdx\n",
            "adcx {r4}, {r4}\n",
            "adox {r4}, {lo}\n",
            "adcx {r5}, {r5}\n",
            "adox {r5}, {hi}\n",
            "mov rdx, [{a} + 24]\n",
            "mulx {hi}, {lo}, rdx\n",
            "adcx {r6}, {r6}\n",
            "adox {r6}, {lo}\n",
            "adcx {r7}, {r7}\n",
            "adox {r7}, {hi}\n",
        )
    };
}

/// a·b mod p (weakly reduced). Caller guarantees BMI2 and ADX.
#[inline(always)]
pub(super) fn mul(a: &[u64; 4], b: &[u64; 4]) -> [u64; 4] {
    mul_scaled::<1>(a, b)
}

/// K·a·b mod p (weakly reduced) for 1 ≤ K ≤ 8. Caller guarantees BMI2 and ADX.
///
/// `a` arrives in registers (its words are read one per row, so each register then holds a
/// high word of the product), `b` from memory.
#[inline(always)]
pub(super) fn mul_scaled<const K: u64>(a: &[u64; 4], b: &[u64; 4]) -> [u64; 4] {
    const { assert!(K >= 1 && K <= 8) };
    let [mut a0, mut a1, mut a2, mut a3] = *a;
    let (r0, r1, r2, r3): (u64, u64, u64, u64);
    if K == 1 {
        // SAFETY: reads 4 words behind `b` (a valid reference); writes only the declared
        // registers; the caller checked that the CPU has BMI2 (mulx) and ADX (adcx/adox).
        unsafe {
            asm!(
                mul_rows!(),
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
    } else {
        // SAFETY: as above.
        unsafe {
            asm!(
                mul_rows!(),
                reduce_scaled!(a0, a1, a2, a3; z),
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
                x = out(reg) _,
                k = const K,
                kpc = const K * 0x1_0000_03D1,
                out("rdx") _,
                options(pure, readonly, nostack),
            );
        }
    }
    let _ = (a0, a1, a2, a3);
    [r0, r1, r2, r3]
}

/// a² mod p (weakly reduced). Caller guarantees BMI2 and ADX.
#[inline(always)]
pub(super) fn sqr(a: &[u64; 4]) -> [u64; 4] {
    sqr_scaled::<1>(a)
}

/// K·a² mod p (weakly reduced) for 1 ≤ K ≤ 8. Caller guarantees BMI2 and ADX.
#[inline(always)]
pub(super) fn sqr_scaled<const K: u64>(a: &[u64; 4]) -> [u64; 4] {
    const { assert!(K >= 1 && K <= 8) };
    let (r0, r1, r2, r3): (u64, u64, u64, u64);
    if K == 1 {
        // SAFETY: reads 4 words behind `a` (a valid reference); writes only the declared
        // registers; the caller checked that the CPU has BMI2 (mulx) and ADX (adcx/adox).
        unsafe {
            asm!(
                sqr_products!(),
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
    } else {
        // SAFETY: as above.
        unsafe {
            asm!(
                sqr_products!(),
                reduce_scaled!(r4, r5, r6, r7; z),
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
                x = out(reg) _,
                k = const K,
                kpc = const K * 0x1_0000_03D1,
                out("rdx") _,
                options(pure, readonly, nostack),
            );
        }
    }
    [r0, r1, r2, r3]
}

/// a·b − c mod p (weakly reduced). Caller guarantees BMI2 and ADX.
#[inline(always)]
pub(super) fn mul_sub(a: &[u64; 4], b: &[u64; 4], c: &[u64; 4]) -> [u64; 4] {
    let [mut a0, mut a1, mut a2, mut a3] = *a;
    let (r0, r1, r2, r3): (u64, u64, u64, u64);
    // SAFETY: reads 4 words behind `b` and `c` (valid references); writes only the declared
    // registers; the caller checked that the CPU has BMI2 (mulx) and ADX (adcx/adox).
    unsafe {
        asm!(
            mul_rows!(),
            reduce_sub!(a0, a1, a2, a3; z),
            b = in(reg) b.as_ptr(),
            c = in(reg) c.as_ptr(),
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

/// a² − c mod p (weakly reduced). Caller guarantees BMI2 and ADX.
#[inline(always)]
pub(super) fn sqr_sub(a: &[u64; 4], c: &[u64; 4]) -> [u64; 4] {
    let (r0, r1, r2, r3): (u64, u64, u64, u64);
    // SAFETY: reads 4 words behind `a` and `c` (valid references); writes only the declared
    // registers; the caller checked that the CPU has BMI2 (mulx) and ADX (adcx/adox).
    unsafe {
        asm!(
            sqr_products!(),
            reduce_sub!(r4, r5, r6, r7; z),
            a = in(reg) a.as_ptr(),
            c = in(reg) c.as_ptr(),
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

/// a^(2^n) mod p (weakly reduced; a itself for n = 0): n squarings in one assembly loop whose value
/// stays in registers from one squaring to the next (no store and reload between them, which
/// the square root's 253 dependent squarings would each wait for). Caller guarantees BMI2 and
/// ADX.
#[inline(always)]
pub(super) fn sqr_n(a: &[u64; 4], n: u32) -> [u64; 4] {
    if n == 0 {
        return *a;
    }
    let [mut r0, mut a1, mut a2, mut a3] = *a;
    let mut count = n as u64;
    // SAFETY: register-only arithmetic (fourteen general registers and one XMM); the caller
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
            // The count lives in an XMM register, so that the loop needs one general
            // register less (with frame pointers, rbp is not free).
            "movq {lo}, {count}",
            "dec {lo}",
            "movq {count}, {lo}",
            "jnz 4b",
            r0 = inout(reg) r0,
            a1 = inout(reg) a1,
            a2 = inout(reg) a2,
            a3 = inout(reg) a3,
            count = inout(xmm_reg) count,
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
        // SAFETY: register-only arithmetic; the tests run it only after
        // `dispatch::has_bmi2_adx` found BMI2 (mulx) and ADX (adcx/adox).
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
        if !crate::dispatch::has_bmi2_adx() {
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

    /// [`reduce_scaled`] alone (K = 3 and 8), on 512-bit values with all-ones and boundary
    /// words, where the scaled low words carry past 2²⁵⁶ and the overflow is largest.
    #[test]
    fn reduce_scaled_matches_bigint() {
        if !crate::dispatch::has_bmi2_adx() {
            eprintln!("skipped: no BMI2/ADX");
            return;
        }
        fn run<const K: u64>(t: [u64; 8]) -> [u64; 4] {
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
            // SAFETY: register-only arithmetic; BMI2 and ADX checked by the caller.
            unsafe {
                asm!(
                    "xor {z:e}, {z:e}",
                    reduce_scaled!(r4, r5, r6, r7; z),
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
                    x = out(reg) _,
                    k = const K,
                    kpc = const K * 0x1_0000_03D1,
                    out("rdx") _,
                    options(pure, nomem, nostack),
                );
            }
            let _ = (r4, r5, r6, r7);
            [r0, r1, r2, r3]
        }
        let one = BigUint::from(1u8);
        let p = (&one << 256u32) - BigUint::from(0x1_0000_03D1u64);
        let m = u64::MAX;
        let h0 = words(&((&one << 256u32) / BigUint::from(0x1_0000_03D1u64 * 8)), 4);
        let cases = [
            [m; 8],
            [m, m, m, m, 0, 0, 0, 0],
            [0, 0, 0, 0, m, m, m, m],
            [m, m, m, m, h0[0], h0[1], h0[2], h0[3]],
            [1, 2, 3, 4, 5, 6, 7, 8],
            [m, 0, m, 0, m, 0, m, 1 << 63],
        ];
        for t in cases {
            let v = big(&t);
            assert_eq!(big(&run::<3>(t)) % &p, (&v * 3u8) % &p, "{t:x?}");
            assert_eq!(big(&run::<8>(t)) % &p, (&v * 8u8) % &p, "{t:x?}");
        }
    }
}
