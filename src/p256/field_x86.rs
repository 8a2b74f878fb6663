//! x86-64 sum, difference and half mod P-256's p with ADD/ADC/SBB, CMOV and SHRD: base
//! x86-64, so every x86-64 CPU runs them (no feature check, unlike `field_adx`).
//!
//! Written out here because the portable forms in `field.rs`, once inlined beside the
//! assembly products (which take an operand from memory), compiled to a select of the
//! address of the sum or the sum less p and a copy of the chosen array with 16-byte loads
//! of words just stored one by one: loads that store forwarding cannot serve, in the
//! doubling's every sum and difference. Here the result comes out in registers, and
//! nothing but its words is ever stored. Same contract as the portable forms: inputs below
//! p, the result fully reduced.

use core::arch::asm;

/// a + b mod p, for a and b below p.
#[inline(always)]
pub(crate) fn add(a: &[u64; 4], b: &[u64; 4]) -> [u64; 4] {
    let [mut r0, mut r1, mut r2, mut r3] = *a;
    // SAFETY: reads 4 words behind `b` (a valid reference) and writes only the declared
    // registers; base x86-64 instructions.
    unsafe {
        asm!(
            "xor {top:e}, {top:e}",
            "add {r0}, [{b}]",
            "adc {r1}, [{b} + 8]",
            "adc {r2}, [{b} + 16]",
            "adc {r3}, [{b} + 24]",
            "adc {top}, 0",
            // The sum (below 2p) less p, kept unless it borrows out of the top word.
            "mov {c0}, {r0}",
            "mov {c1}, {r1}",
            "mov {c2}, {r2}",
            "mov {c3}, {r3}",
            "mov {p1:e}, 0xFFFFFFFF",
            "mov {p3}, 0xFFFFFFFF00000001",
            // p = [−1, p[1], 0, p[3]]: −1 and 0 as immediates.
            "sub {r0}, -1",
            "sbb {r1}, {p1}",
            "sbb {r2}, 0",
            "sbb {r3}, {p3}",
            "sbb {top}, 0",
            "cmovc {r0}, {c0}",
            "cmovc {r1}, {c1}",
            "cmovc {r2}, {c2}",
            "cmovc {r3}, {c3}",
            b = in(reg) b.as_ptr(),
            r0 = inout(reg) r0,
            r1 = inout(reg) r1,
            r2 = inout(reg) r2,
            r3 = inout(reg) r3,
            top = out(reg) _,
            c0 = out(reg) _,
            c1 = out(reg) _,
            c2 = out(reg) _,
            c3 = out(reg) _,
            p1 = out(reg) _,
            p3 = out(reg) _,
            options(pure, readonly, nostack),
        );
    }
    [r0, r1, r2, r3]
}

/// a − b mod p, for a and b below p.
#[inline(always)]
pub(crate) fn sub(a: &[u64; 4], b: &[u64; 4]) -> [u64; 4] {
    let [mut r0, mut r1, mut r2, mut r3] = *a;
    // SAFETY: reads 4 words behind `b` (a valid reference) and writes only the declared
    // registers; base x86-64 instructions.
    unsafe {
        asm!(
            "sub {r0}, [{b}]",
            "sbb {r1}, [{b} + 8]",
            "sbb {r2}, [{b} + 16]",
            "sbb {r3}, [{b} + 24]",
            // m = −borrow: all ones when a < b, when p goes back on (its words masked by m).
            "sbb {m}, {m}",
            "mov {m1:e}, {m:e}",
            "mov {m3}, 0xFFFFFFFF00000001",
            "and {m3}, {m}",
            "add {r0}, {m}",
            "adc {r1}, {m1}",
            "adc {r2}, 0",
            "adc {r3}, {m3}",
            b = in(reg) b.as_ptr(),
            r0 = inout(reg) r0,
            r1 = inout(reg) r1,
            r2 = inout(reg) r2,
            r3 = inout(reg) r3,
            m = out(reg) _,
            m1 = out(reg) _,
            m3 = out(reg) _,
            options(pure, readonly, nostack),
        );
    }
    [r0, r1, r2, r3]
}

/// a/2 mod p, for a below p: (a + p)/2 for odd a (a + p is even, below 2²⁵⁷), a/2 for even.
#[inline(always)]
pub(crate) fn half(a: &[u64; 4]) -> [u64; 4] {
    let [mut r0, mut r1, mut r2, mut r3] = *a;
    // SAFETY: writes only the declared registers; base x86-64 instructions.
    unsafe {
        asm!(
            // m = −(a mod 2): all ones for odd a, when p goes on (its words masked by m).
            "mov {m:e}, {r0:e}",
            "and {m:e}, 1",
            "neg {m}",
            "mov {m1:e}, {m:e}",
            "mov {m3}, 0xFFFFFFFF00000001",
            "and {m3}, {m}",
            "xor {top:e}, {top:e}",
            "add {r0}, {m}",
            "adc {r1}, {m1}",
            "adc {r2}, 0",
            "adc {r3}, {m3}",
            "adc {top}, 0",
            // The 257-bit sum shifted right by one.
            "shrd {r0}, {r1}, 1",
            "shrd {r1}, {r2}, 1",
            "shrd {r2}, {r3}, 1",
            "shrd {r3}, {top}, 1",
            r0 = inout(reg) r0,
            r1 = inout(reg) r1,
            r2 = inout(reg) r2,
            r3 = inout(reg) r3,
            m = out(reg) _,
            m1 = out(reg) _,
            m3 = out(reg) _,
            top = out(reg) _,
            options(pure, nomem, nostack),
        );
    }
    [r0, r1, r2, r3]
}
