//! aarch64 multiply and square for the 4×64 field, in inline assembly.
//!
//! Every aarch64 CPU has `mul` and `umulh` (the low and high words of a 64×64-bit product)
//! and one carry flag (`adds`/`adcs`); neither instruction sets the flags, so a row of
//! partial products can compute its low words, add them on the carry chain, compute its
//! high words while the chain's last carry waits in the flag, and add them on a second
//! chain. LLVM compiles the portable u128 Rust (`FieldElement::mul_portable`) into a `cinc`
//! after every addition instead, about a third more instructions; these functions are the
//! same arithmetic with the carries where the flag keeps them.
//!
//! Each result is weakly reduced (below 2²⁵⁶, congruent to the exact value mod p), as the
//! portable functions' are. `field::Arm64` wraps them as a `FieldMul`; this file holds the
//! assembly alone, on plain words.

use core::arch::asm;

/// 2²⁵⁶ mod p.
const P_C: u64 = 0x1_0000_03D1;

/// `OP {d}, {n}, {m}` on the named operands.
macro_rules! op3 {
    ($op:literal, $d:ident, $n:ident, $m:ident) => {
        concat!(
            $op,
            " {",
            stringify!($d),
            "}, {",
            stringify!($n),
            "}, {",
            stringify!($m),
            "}\n"
        )
    };
}

/// `OP {d}, {d}, xzr` (a carry or borrow into the named operand).
macro_rules! opz {
    ($op:literal, $d:ident) => {
        concat!(
            $op,
            " {",
            stringify!($d),
            "}, {",
            stringify!($d),
            "}, xzr\n"
        )
    };
}

/// `cinc {d}, {d}, hs` (the carry flag into the named operand).
macro_rules! cinc {
    ($d:ident) => {
        concat!("cinc {", stringify!($d), "}, {", stringify!($d), "}, hs\n")
    };
}

/// A rare path: a branch on the condition `$rare` (to the label `$entry`) into `$body`,
/// which ends by jumping to the label `$exit` after the branch, written [`to_exit`]. Where
/// the rare code goes depends on the object format:
///
/// - ELF (Linux, Android, the BSDs): subsection 1 of the function's own section, which the
///   assembler places after the function's code. The common path is one branch not
///   taken, and the rare code stays out of the hot code without leaving the section (a
///   conditional branch reaches only ±1 MiB, which a test binary's text already exceeds
///   between two sections: the link then fails with "relocation truncated to fit:
///   R_AARCH64_CONDBR19").
/// - Mach-O (Apple): LLVM has no subsections there, so a cold section
///   (`__TEXT,__text_cold`), reached with an unconditional `b` behind a branch on the
///   common condition `$common`; the common path is that branch, taken.
/// - COFF (Windows): LLVM cannot branch to a label in another section there, so the rare
///   code sits inline behind a branch on `$common`, taken on the common path.
#[cfg(not(any(target_vendor = "apple", windows)))]
macro_rules! rare {
    ($rare:literal, $common:literal, $exit:literal, $entry:literal; $($body:tt)*) => {
        concat!(
            "b.", $rare, " ", $entry, "f\n",
            $exit, ":\n",
            ".subsection 1\n",
            $entry, ":\n",
            $($body)*
            ".subsection 0\n",
        )
    };
}
#[cfg(target_vendor = "apple")]
macro_rules! rare {
    ($rare:literal, $common:literal, $exit:literal, $entry:literal; $($body:tt)*) => {
        concat!(
            "b.", $common, " ", $exit, "f\n",
            "b ", $entry, "f\n",
            $exit, ":\n",
            ".pushsection __TEXT,__text_cold,regular,pure_instructions\n",
            $entry, ":\n",
            $($body)*
            ".popsection\n",
        )
    };
}
#[cfg(windows)]
macro_rules! rare {
    ($rare:literal, $common:literal, $exit:literal, $entry:literal; $($body:tt)*) => {
        concat!(
            "b.", $common, " ", $exit, "f\n",
            $entry, ":\n",
            $($body)*
            $exit, ":\n",
        )
    };
}

/// The jump from a [`rare`] path's body back to its exit label (before the body in the
/// text on ELF and Mach-O, after it on COFF).
#[cfg(not(windows))]
macro_rules! to_exit {
    ($exit:literal) => {
        concat!("b ", $exit, "b\n")
    };
}
#[cfg(windows)]
macro_rules! to_exit {
    ($exit:literal) => {
        concat!("b ", $exit, "f\n")
    };
}

/// Row 0 of the schoolbook product: `$r0..$r4` = `$a`·(b0..b3). Uses t0..t2; `$r4` may be
/// `$a`'s register (written by the row's last multiply).
macro_rules! mul_row0 {
    ($a:ident; $r0:ident, $r1:ident, $r2:ident, $r3:ident, $r4:ident) => {
        concat!(
            op3!("mul", $r0, $a, b0),
            op3!("umulh", t0, $a, b0),
            op3!("mul", $r1, $a, b1),
            op3!("umulh", t1, $a, b1),
            op3!("mul", $r2, $a, b2),
            op3!("umulh", t2, $a, b2),
            op3!("mul", $r3, $a, b3),
            op3!("umulh", $r4, $a, b3),
            op3!("adds", $r1, $r1, t0),
            op3!("adcs", $r2, $r2, t1),
            op3!("adcs", $r3, $r3, t2),
            cinc!($r4),
        )
    };
}

/// A later row: `$r0..$r4` += `$a`·(b0..b3), `$r4` arriving empty. The low words go on one
/// carry chain, whose carry waits in the flag while the high words are multiplied (`umulh`
/// leaves the flags alone) and then joins the top word; the high words go on a second
/// chain. Uses t0..t3; `$r4` may be `$a`'s register.
macro_rules! mul_row {
    ($a:ident; $r0:ident, $r1:ident, $r2:ident, $r3:ident, $r4:ident) => {
        concat!(
            op3!("mul", t0, $a, b0),
            op3!("mul", t1, $a, b1),
            op3!("mul", t2, $a, b2),
            op3!("mul", t3, $a, b3),
            op3!("adds", $r0, $r0, t0),
            op3!("adcs", $r1, $r1, t1),
            op3!("adcs", $r2, $r2, t2),
            op3!("adcs", $r3, $r3, t3),
            op3!("umulh", t0, $a, b0),
            op3!("umulh", t1, $a, b1),
            op3!("umulh", t2, $a, b2),
            op3!("umulh", t3, $a, b3),
            "adc {",
            stringify!($r4),
            "}, {t3}, xzr\n",
            op3!("adds", $r1, $r1, t0),
            op3!("adcs", $r2, $r2, t1),
            op3!("adcs", $r3, $r3, t2),
            cinc!($r4),
        )
    };
}

/// The product a·b (a0..a3 and b0..b3 in registers) into r0..r3 (low) and a0..a3's
/// registers (high): each aᵢ's register takes the product's word i + 4 once row i no
/// longer needs aᵢ. 63 instructions.
macro_rules! mul_product {
    () => {
        concat!(
            mul_row0!(a0; r0, r1, r2, r3, a0),
            mul_row!(a1; r1, r2, r3, a0, a1),
            mul_row!(a2; r2, r3, a0, a1, a2),
            mul_row!(a3; r3, a0, a1, a2, a3),
        )
    };
}

/// The square of `$a0..$a3` into `$r0..$r7`: the cross products aᵢ·aⱼ (i < j) into
/// r1..r6, doubled on one carry chain into r1..r7, then the squares aᵢ² added at word 2i
/// on another. Uses t0..t3; the inputs are left as they were. 44 instructions.
macro_rules! sqr_product {
    ($a0:ident, $a1:ident, $a2:ident, $a3:ident;
     $r0:ident, $r1:ident, $r2:ident, $r3:ident, $r4:ident, $r5:ident, $r6:ident, $r7:ident) => {
        concat!(
            // a0·(a1, a2, a3) into r1..r4.
            op3!("mul", $r1, $a0, $a1),
            op3!("umulh", t0, $a0, $a1),
            op3!("mul", $r2, $a0, $a2),
            op3!("umulh", t1, $a0, $a2),
            op3!("mul", $r3, $a0, $a3),
            op3!("umulh", $r4, $a0, $a3),
            op3!("adds", $r2, $r2, t0),
            op3!("adcs", $r3, $r3, t1),
            cinc!($r4),
            // a1·(a2, a3) into r3..r5.
            op3!("mul", t0, $a1, $a2),
            op3!("mul", t1, $a1, $a3),
            op3!("adds", $r3, $r3, t0),
            op3!("adcs", $r4, $r4, t1),
            op3!("umulh", t0, $a1, $a2),
            op3!("umulh", t1, $a1, $a3),
            "adc {",
            stringify!($r5),
            "}, {t1}, xzr\n",
            op3!("adds", $r4, $r4, t0),
            cinc!($r5),
            // a2·a3 into r5..r6.
            op3!("mul", t0, $a2, $a3),
            op3!("umulh", $r6, $a2, $a3),
            op3!("adds", $r5, $r5, t0),
            cinc!($r6),
            // 2·cross.
            op3!("adds", $r1, $r1, $r1),
            op3!("adcs", $r2, $r2, $r2),
            op3!("adcs", $r3, $r3, $r3),
            op3!("adcs", $r4, $r4, $r4),
            op3!("adcs", $r5, $r5, $r5),
            op3!("adcs", $r6, $r6, $r6),
            "cset {",
            stringify!($r7),
            "}, hs\n",
            // + the squares.
            op3!("umulh", t0, $a0, $a0),
            op3!("mul", $r0, $a0, $a0),
            op3!("mul", t1, $a1, $a1),
            op3!("umulh", t2, $a1, $a1),
            op3!("adds", $r1, $r1, t0),
            op3!("adcs", $r2, $r2, t1),
            op3!("adcs", $r3, $r3, t2),
            op3!("mul", t0, $a2, $a2),
            op3!("umulh", t1, $a2, $a2),
            op3!("mul", t2, $a3, $a3),
            op3!("umulh", t3, $a3, $a3),
            op3!("adcs", $r4, $r4, t0),
            op3!("adcs", $r5, $r5, t1),
            op3!("adcs", $r6, $r6, t2),
            op3!("adc", $r7, $r7, t3),
        )
    };
}

/// The first fold of the reduction: `$r0..$r3` += `$h0..$h3`·{c} (c = P_C, in a register),
/// the overflow past 2²⁵⁶ (at most P_C) into t3. Uses t0..t2. 17 instructions.
macro_rules! fold_high {
    ($h0:ident, $h1:ident, $h2:ident, $h3:ident; $r0:ident, $r1:ident, $r2:ident, $r3:ident) => {
        concat!(
            op3!("mul", t0, $h0, c),
            op3!("mul", t1, $h1, c),
            op3!("mul", t2, $h2, c),
            op3!("mul", t3, $h3, c),
            op3!("adds", $r0, $r0, t0),
            op3!("adcs", $r1, $r1, t1),
            op3!("adcs", $r2, $r2, t2),
            op3!("adcs", $r3, $r3, t3),
            op3!("umulh", t0, $h0, c),
            op3!("umulh", t1, $h1, c),
            op3!("umulh", t2, $h2, c),
            op3!("umulh", t3, $h3, c),
            "adc {t3}, {t3}, xzr\n",
            op3!("adds", $r1, $r1, t0),
            op3!("adcs", $r2, $r2, t1),
            op3!("adcs", $r3, $r3, t2),
            "adc {t3}, {t3}, xzr\n",
        )
    };
}

/// The last fold: `$r0..$r3` += t3·P_C (t3 below 2³⁶, so the product is below 2⁶⁹), into
/// r0 and r1 only. A carry out of r1 (the sum passing a multiple of 2¹²⁸ there: about
/// 2⁻⁵⁶ of random inputs) takes a [`rare`] path, which carries it on into r2 and r3
/// and, past 2²⁵⁶, adds P_C once more (the value is then below 2⁶⁹, so that cannot wrap).
/// The common path is one branch and touches no memory. Uses t0, t1. Five instructions.
macro_rules! fold_last {
    ($r0:ident, $r1:ident, $r2:ident, $r3:ident) => {
        concat!(
            "mul {t0}, {t3}, {c}\n",
            "umulh {t1}, {t3}, {c}\n",
            op3!("adds", $r0, $r0, t0),
            op3!("adcs", $r1, $r1, t1),
            rare!("cs", "cc", "2", "3";
                opz!("adcs", $r2),
                opz!("adcs", $r3),
                "b.cs 8f\n",
                to_exit!("2"),
                "8:\n",
                op3!("adds", $r0, $r0, c),
                opz!("adcs", $r1),
                opz!("adc", $r2),
                to_exit!("2"),
            ),
        )
    };
}

/// The reduction of a 512-bit value (low words in `$r0..$r3`, high in `$h0..$h3`) to a
/// weakly reduced element in `$r0..$r3`, with 2²⁵⁶ ≡ P_C applied twice.
macro_rules! reduce {
    ($h0:ident, $h1:ident, $h2:ident, $h3:ident; $r0:ident, $r1:ident, $r2:ident, $r3:ident) => {
        concat!(
            fold_high!($h0, $h1, $h2, $h3; $r0, $r1, $r2, $r3),
            fold_last!($r0, $r1, $r2, $r3),
        )
    };
}

/// [`reduce`] of the value minus c (in registers c0..c3): c is subtracted from r0..r3 after
/// the first fold and its borrow from the overflow word t3. That word is 0 only when the
/// value's high half is tiny, so a borrow past it (a negative result) is rare: it goes to a
/// [`rare`] path that takes P_C away for the lost 2²⁵⁶ (twice if that borrows again) and
/// goes on with a zero overflow. A subtraction that the formulas would otherwise do as a
/// separate operation (ten instructions) costs six here.
macro_rules! reduce_sub {
    ($h0:ident, $h1:ident, $h2:ident, $h3:ident; $r0:ident, $r1:ident, $r2:ident, $r3:ident) => {
        concat!(
            fold_high!($h0, $h1, $h2, $h3; $r0, $r1, $r2, $r3),
            op3!("subs", $r0, $r0, c0),
            op3!("sbcs", $r1, $r1, c1),
            op3!("sbcs", $r2, $r2, c2),
            op3!("sbcs", $r3, $r3, c3),
            "sbcs {t3}, {t3}, xzr\n",
            rare!("cc", "cs", "6", "7";
                "mov {t3}, xzr\n",
                op3!("subs", $r0, $r0, c),
                opz!("sbcs", $r1),
                opz!("sbcs", $r2),
                opz!("sbcs", $r3),
                "b.cc 9f\n",
                to_exit!("6"),
                "9:\n",
                op3!("subs", $r0, $r0, c),
                opz!("sbcs", $r1),
                opz!("sbcs", $r2),
                opz!("sbc", $r3),
                to_exit!("6"),
            ),
            fold_last!($r0, $r1, $r2, $r3),
        )
    };
}

/// The 5-word value r0..r3, t3 after the first fold, times 2^s (`{s}` and `{sr}` = 64 − s
/// are const operands, 1 ≤ s ≤ 3): the value is below 2²⁵⁶·(P_C + 1), so t3 stays below
/// 2³⁶. Five instructions.
macro_rules! shift_folded {
    ($r0:ident, $r1:ident, $r2:ident, $r3:ident) => {
        concat!(
            "extr {t3}, {t3}, {",
            stringify!($r3),
            "}, {sr}\n",
            "extr {",
            stringify!($r3),
            "}, {",
            stringify!($r3),
            "}, {",
            stringify!($r2),
            "}, {sr}\n",
            "extr {",
            stringify!($r2),
            "}, {",
            stringify!($r2),
            "}, {",
            stringify!($r1),
            "}, {sr}\n",
            "extr {",
            stringify!($r1),
            "}, {",
            stringify!($r1),
            "}, {",
            stringify!($r0),
            "}, {sr}\n",
            "lsl {",
            stringify!($r0),
            "}, {",
            stringify!($r0),
            "}, {s}\n",
        )
    };
}

/// The 5-word value r0..r3, t3 after the first fold, times 3 (value + 2·value; t3 stays
/// below 2³⁴). `$w` is a free register. Nine instructions.
macro_rules! triple_folded {
    ($w:ident; $r0:ident, $r1:ident, $r2:ident, $r3:ident) => {
        concat!(
            "extr {t0}, {t3}, {",
            stringify!($r3),
            "}, 63\n",
            "extr {t1}, {",
            stringify!($r3),
            "}, {",
            stringify!($r2),
            "}, 63\n",
            "extr {t2}, {",
            stringify!($r2),
            "}, {",
            stringify!($r1),
            "}, 63\n",
            "extr {",
            stringify!($w),
            "}, {",
            stringify!($r1),
            "}, {",
            stringify!($r0),
            "}, 63\n",
            "adds {",
            stringify!($r0),
            "}, {",
            stringify!($r0),
            "}, {",
            stringify!($r0),
            "}, lsl 1\n",
            op3!("adcs", $r1, $r1, $w),
            op3!("adcs", $r2, $r2, t2),
            op3!("adcs", $r3, $r3, t1),
            "adc {t3}, {t3}, {t0}\n",
        )
    };
}

/// The end of a subtraction whose four-word borrow is in the flag (r0..r3 = the
/// difference + 2²⁵⁶ on a borrow): a borrow added 2²⁵⁶ ≡ P_C, so P_C is taken away
/// again, from r0 and r1. A borrow on from r1 (r₁ = 0 and r₀ < P_C) takes a [`rare`]
/// path, which takes it on from r2 and r3 and, below 0 again, takes P_C away once more
/// (the value is then above 2²⁵⁶ − P_C, so that cannot borrow). Uses t; four
/// instructions.
macro_rules! sub_tail {
    () => {
        concat!(
            "csel {t}, {c}, xzr, cc\n",
            "subs {r0}, {r0}, {t}\n",
            "sbcs {r1}, {r1}, xzr\n",
            rare!("cc", "cs", "2", "3";
                "sbcs {r2}, {r2}, xzr\n",
                "sbcs {r3}, {r3}, xzr\n",
                "b.cc 8f\n",
                to_exit!("2"),
                "8:\n",
                "subs {r0}, {r0}, {c}\n",
                "sbcs {r1}, {r1}, xzr\n",
                "sbcs {r2}, {r2}, xzr\n",
                "sbc {r3}, {r3}, xzr\n",
                to_exit!("2"),
            ),
        )
    };
}

/// a − b mod p (weakly reduced). LLVM compiles the portable form's borrow chain into a
/// `cset`/`csinc` per word (20 instructions and P_C's two); this is eight and P_C's two.
#[inline(always)]
pub(super) fn sub(a: &[u64; 4], b: &[u64; 4]) -> [u64; 4] {
    let (r0, r1, r2, r3): (u64, u64, u64, u64);
    // SAFETY: as in `mul`.
    unsafe {
        asm!(
            "subs {r0}, {a0}, {b0}",
            "sbcs {r1}, {a1}, {b1}",
            "sbcs {r2}, {a2}, {b2}",
            "sbcs {r3}, {a3}, {b3}",
            sub_tail!(),
            a0 = in(reg) a[0],
            a1 = in(reg) a[1],
            a2 = in(reg) a[2],
            a3 = in(reg) a[3],
            b0 = in(reg) b[0],
            b1 = in(reg) b[1],
            b2 = in(reg) b[2],
            b3 = in(reg) b[3],
            c = in(reg) P_C,
            r0 = out(reg) r0,
            r1 = out(reg) r1,
            r2 = out(reg) r2,
            r3 = out(reg) r3,
            t = out(reg) _,
            options(pure, nomem, nostack),
        );
    }
    [r0, r1, r2, r3]
}

/// −a mod p (weakly reduced): [`sub`] from 0.
#[inline(always)]
pub(super) fn neg(a: &[u64; 4]) -> [u64; 4] {
    let (r0, r1, r2, r3): (u64, u64, u64, u64);
    // SAFETY: as in `mul`.
    unsafe {
        asm!(
            "negs {r0}, {a0}",
            "ngcs {r1}, {a1}",
            "ngcs {r2}, {a2}",
            "ngcs {r3}, {a3}",
            sub_tail!(),
            a0 = in(reg) a[0],
            a1 = in(reg) a[1],
            a2 = in(reg) a[2],
            a3 = in(reg) a[3],
            c = in(reg) P_C,
            r0 = out(reg) r0,
            r1 = out(reg) r1,
            r2 = out(reg) r2,
            r3 = out(reg) r3,
            t = out(reg) _,
            options(pure, nomem, nostack),
        );
    }
    [r0, r1, r2, r3]
}

/// The shift of [`shift_folded`] for K = 2, 4 or 8 (1 for other K, whose code a constant
/// condition skips, so that its operands stay valid).
const fn shift_of(k: u64) -> u32 {
    if k.trailing_zeros() == 0 {
        1
    } else {
        k.trailing_zeros()
    }
}

/// a·b mod p (weakly reduced).
#[inline(always)]
pub(super) fn mul(a: &[u64; 4], b: &[u64; 4]) -> [u64; 4] {
    let (r0, r1, r2, r3): (u64, u64, u64, u64);
    // SAFETY: register-only arithmetic on the declared operands (mul, umulh, adds/adcs,
    // and branches to labels of this block); every aarch64 CPU has these instructions.
    unsafe {
        asm!(
            mul_product!(),
            reduce!(a0, a1, a2, a3; r0, r1, r2, r3),
            a0 = inout(reg) a[0] => _,
            a1 = inout(reg) a[1] => _,
            a2 = inout(reg) a[2] => _,
            a3 = inout(reg) a[3] => _,
            b0 = in(reg) b[0],
            b1 = in(reg) b[1],
            b2 = in(reg) b[2],
            b3 = in(reg) b[3],
            c = in(reg) P_C,
            r0 = out(reg) r0,
            r1 = out(reg) r1,
            r2 = out(reg) r2,
            r3 = out(reg) r3,
            t0 = out(reg) _,
            t1 = out(reg) _,
            t2 = out(reg) _,
            t3 = out(reg) _,
            options(pure, nomem, nostack),
        );
    }
    [r0, r1, r2, r3]
}

/// a² mod p (weakly reduced).
#[inline(always)]
pub(super) fn sqr(a: &[u64; 4]) -> [u64; 4] {
    let (r0, r1, r2, r3): (u64, u64, u64, u64);
    // SAFETY: as in `mul`.
    unsafe {
        asm!(
            sqr_product!(a0, a1, a2, a3; r0, r1, r2, r3, h0, h1, h2, h3),
            reduce!(h0, h1, h2, h3; r0, r1, r2, r3),
            a0 = in(reg) a[0],
            a1 = in(reg) a[1],
            a2 = in(reg) a[2],
            a3 = in(reg) a[3],
            c = in(reg) P_C,
            r0 = out(reg) r0,
            r1 = out(reg) r1,
            r2 = out(reg) r2,
            r3 = out(reg) r3,
            h0 = out(reg) _,
            h1 = out(reg) _,
            h2 = out(reg) _,
            h3 = out(reg) _,
            t0 = out(reg) _,
            t1 = out(reg) _,
            t2 = out(reg) _,
            t3 = out(reg) _,
            options(pure, nomem, nostack),
        );
    }
    [r0, r1, r2, r3]
}

/// Whether [`mul_scaled`] and [`sqr_scaled`] fuse the factor K into the product's
/// reduction: 1, 2, 3, 4 and 8 (the factors the formulas use). The others (5, 6, 7) are
/// the product times K as a field element.
const fn fuses(k: u64) -> bool {
    matches!(k, 1 | 2 | 3 | 4 | 8)
}

/// K·a·b mod p (weakly reduced) for 1 ≤ K ≤ 8. For the factors the formulas use ([`fuses`])
/// the first fold's 5-word value is scaled (a shift, or value + 2·value), then folded once
/// more.
#[inline(always)]
pub(super) fn mul_scaled<const K: u64>(a: &[u64; 4], b: &[u64; 4]) -> [u64; 4] {
    const { assert!(K >= 1 && K <= 8) };
    if K == 1 {
        return mul(a, b);
    }
    if !fuses(K) {
        return mul(&mul(a, b), &[K, 0, 0, 0]);
    }
    let (r0, r1, r2, r3): (u64, u64, u64, u64);
    if K == 3 {
        // SAFETY: as in `mul`.
        unsafe {
            asm!(
                mul_product!(),
                fold_high!(a0, a1, a2, a3; r0, r1, r2, r3),
                triple_folded!(a0; r0, r1, r2, r3),
                fold_last!(r0, r1, r2, r3),
                a0 = inout(reg) a[0] => _,
                a1 = inout(reg) a[1] => _,
                a2 = inout(reg) a[2] => _,
                a3 = inout(reg) a[3] => _,
                b0 = in(reg) b[0],
                b1 = in(reg) b[1],
                b2 = in(reg) b[2],
                b3 = in(reg) b[3],
                c = in(reg) P_C,
                r0 = out(reg) r0,
                r1 = out(reg) r1,
                r2 = out(reg) r2,
                r3 = out(reg) r3,
                t0 = out(reg) _,
                t1 = out(reg) _,
                t2 = out(reg) _,
                t3 = out(reg) _,
                options(pure, nomem, nostack),
            );
        }
    } else {
        // SAFETY: as in `mul`.
        unsafe {
            asm!(
                mul_product!(),
                fold_high!(a0, a1, a2, a3; r0, r1, r2, r3),
                shift_folded!(r0, r1, r2, r3),
                fold_last!(r0, r1, r2, r3),
                a0 = inout(reg) a[0] => _,
                a1 = inout(reg) a[1] => _,
                a2 = inout(reg) a[2] => _,
                a3 = inout(reg) a[3] => _,
                b0 = in(reg) b[0],
                b1 = in(reg) b[1],
                b2 = in(reg) b[2],
                b3 = in(reg) b[3],
                c = in(reg) P_C,
                r0 = out(reg) r0,
                r1 = out(reg) r1,
                r2 = out(reg) r2,
                r3 = out(reg) r3,
                t0 = out(reg) _,
                t1 = out(reg) _,
                t2 = out(reg) _,
                t3 = out(reg) _,
                s = const shift_of(K),
                sr = const 64 - shift_of(K),
                options(pure, nomem, nostack),
            );
        }
    }
    [r0, r1, r2, r3]
}

/// K·a² mod p (weakly reduced) for 1 ≤ K ≤ 8 (see [`mul_scaled`]).
#[inline(always)]
pub(super) fn sqr_scaled<const K: u64>(a: &[u64; 4]) -> [u64; 4] {
    const { assert!(K >= 1 && K <= 8) };
    if K == 1 {
        return sqr(a);
    }
    if !fuses(K) {
        return mul(&sqr(a), &[K, 0, 0, 0]);
    }
    let (r0, r1, r2, r3): (u64, u64, u64, u64);
    if K == 3 {
        // SAFETY: as in `mul`.
        unsafe {
            asm!(
                sqr_product!(a0, a1, a2, a3; r0, r1, r2, r3, h0, h1, h2, h3),
                fold_high!(h0, h1, h2, h3; r0, r1, r2, r3),
                triple_folded!(h0; r0, r1, r2, r3),
                fold_last!(r0, r1, r2, r3),
                a0 = in(reg) a[0],
                a1 = in(reg) a[1],
                a2 = in(reg) a[2],
                a3 = in(reg) a[3],
                c = in(reg) P_C,
                r0 = out(reg) r0,
                r1 = out(reg) r1,
                r2 = out(reg) r2,
                r3 = out(reg) r3,
                h0 = out(reg) _,
                h1 = out(reg) _,
                h2 = out(reg) _,
                h3 = out(reg) _,
                t0 = out(reg) _,
                t1 = out(reg) _,
                t2 = out(reg) _,
                t3 = out(reg) _,
                options(pure, nomem, nostack),
            );
        }
    } else {
        // SAFETY: as in `mul`.
        unsafe {
            asm!(
                sqr_product!(a0, a1, a2, a3; r0, r1, r2, r3, h0, h1, h2, h3),
                fold_high!(h0, h1, h2, h3; r0, r1, r2, r3),
                shift_folded!(r0, r1, r2, r3),
                fold_last!(r0, r1, r2, r3),
                a0 = in(reg) a[0],
                a1 = in(reg) a[1],
                a2 = in(reg) a[2],
                a3 = in(reg) a[3],
                c = in(reg) P_C,
                r0 = out(reg) r0,
                r1 = out(reg) r1,
                r2 = out(reg) r2,
                r3 = out(reg) r3,
                h0 = out(reg) _,
                h1 = out(reg) _,
                h2 = out(reg) _,
                h3 = out(reg) _,
                t0 = out(reg) _,
                t1 = out(reg) _,
                t2 = out(reg) _,
                t3 = out(reg) _,
                s = const shift_of(K),
                sr = const 64 - shift_of(K),
                options(pure, nomem, nostack),
            );
        }
    }
    [r0, r1, r2, r3]
}

/// a·b − c mod p (weakly reduced).
#[inline(always)]
pub(super) fn mul_sub(a: &[u64; 4], b: &[u64; 4], c: &[u64; 4]) -> [u64; 4] {
    let (r0, r1, r2, r3): (u64, u64, u64, u64);
    // SAFETY: as in `mul`.
    unsafe {
        asm!(
            mul_product!(),
            reduce_sub!(a0, a1, a2, a3; r0, r1, r2, r3),
            a0 = inout(reg) a[0] => _,
            a1 = inout(reg) a[1] => _,
            a2 = inout(reg) a[2] => _,
            a3 = inout(reg) a[3] => _,
            b0 = in(reg) b[0],
            b1 = in(reg) b[1],
            b2 = in(reg) b[2],
            b3 = in(reg) b[3],
            c0 = in(reg) c[0],
            c1 = in(reg) c[1],
            c2 = in(reg) c[2],
            c3 = in(reg) c[3],
            c = in(reg) P_C,
            r0 = out(reg) r0,
            r1 = out(reg) r1,
            r2 = out(reg) r2,
            r3 = out(reg) r3,
            t0 = out(reg) _,
            t1 = out(reg) _,
            t2 = out(reg) _,
            t3 = out(reg) _,
            options(pure, nomem, nostack),
        );
    }
    [r0, r1, r2, r3]
}

/// a² − c mod p (weakly reduced).
#[inline(always)]
pub(super) fn sqr_sub(a: &[u64; 4], c: &[u64; 4]) -> [u64; 4] {
    let (r0, r1, r2, r3): (u64, u64, u64, u64);
    // SAFETY: as in `mul`.
    unsafe {
        asm!(
            sqr_product!(a0, a1, a2, a3; r0, r1, r2, r3, h0, h1, h2, h3),
            reduce_sub!(h0, h1, h2, h3; r0, r1, r2, r3),
            a0 = in(reg) a[0],
            a1 = in(reg) a[1],
            a2 = in(reg) a[2],
            a3 = in(reg) a[3],
            c0 = in(reg) c[0],
            c1 = in(reg) c[1],
            c2 = in(reg) c[2],
            c3 = in(reg) c[3],
            c = in(reg) P_C,
            r0 = out(reg) r0,
            r1 = out(reg) r1,
            r2 = out(reg) r2,
            r3 = out(reg) r3,
            h0 = out(reg) _,
            h1 = out(reg) _,
            h2 = out(reg) _,
            h3 = out(reg) _,
            t0 = out(reg) _,
            t1 = out(reg) _,
            t2 = out(reg) _,
            t3 = out(reg) _,
            options(pure, nomem, nostack),
        );
    }
    [r0, r1, r2, r3]
}

/// a^(2^n) mod p (weakly reduced; a itself for n = 0): n squarings in one assembly loop,
/// the value in registers throughout. The loop squares twice per turn, from a0..a3 into
/// r0..r3 and back, so no moves are needed between squarings; an odd n first squares once
/// and moves the result back.
#[inline(always)]
pub(super) fn sqr_n(a: &[u64; 4], n: u32) -> [u64; 4] {
    if n == 0 {
        return *a;
    }
    let [mut a0, mut a1, mut a2, mut a3] = *a;
    // SAFETY: register-only arithmetic on the declared operands; the loop runs ⌊n/2⌋ ≥ 0
    // times after at most one single squaring, and n ≥ 1.
    unsafe {
        asm!(
            "tbz {n:w}, 0, 4f",
            sqr_product!(a0, a1, a2, a3; r0, r1, r2, r3, h0, h1, h2, h3),
            reduce!(h0, h1, h2, h3; r0, r1, r2, r3),
            "mov {a0}, {r0}",
            "mov {a1}, {r1}",
            "mov {a2}, {r2}",
            "mov {a3}, {r3}",
            "subs {n:w}, {n:w}, 1",
            "b.eq 5f",
            "4:",
            sqr_product!(a0, a1, a2, a3; r0, r1, r2, r3, h0, h1, h2, h3),
            reduce!(h0, h1, h2, h3; r0, r1, r2, r3),
            sqr_product!(r0, r1, r2, r3; a0, a1, a2, a3, h0, h1, h2, h3),
            reduce!(h0, h1, h2, h3; a0, a1, a2, a3),
            "subs {n:w}, {n:w}, 2",
            "b.ne 4b",
            "5:",
            a0 = inout(reg) a0,
            a1 = inout(reg) a1,
            a2 = inout(reg) a2,
            a3 = inout(reg) a3,
            n = inout(reg) n => _,
            c = in(reg) P_C,
            r0 = out(reg) _,
            r1 = out(reg) _,
            r2 = out(reg) _,
            r3 = out(reg) _,
            h0 = out(reg) _,
            h1 = out(reg) _,
            h2 = out(reg) _,
            h3 = out(reg) _,
            t0 = out(reg) _,
            t1 = out(reg) _,
            t2 = out(reg) _,
            t3 = out(reg) _,
            options(pure, nomem, nostack),
        );
    }
    [a0, a1, a2, a3]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::rng::SplitMix64;
    use num_bigint::BigUint;

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

    fn p() -> BigUint {
        (BigUint::from(1u8) << 256u32) - BigUint::from(P_C)
    }

    /// Operands at the limbs' bounds and random ones: 0, 1, p − 1, p, p + 1, the band
    /// p..2²⁵⁶, all-ones, single bits and long runs of ones and zeros, then random values
    /// of which about half have some limbs forced to 0 or 2⁶⁴ − 1.
    fn operands(seed: u64, random: usize) -> Vec<[u64; 4]> {
        let m = u64::MAX;
        let p = p();
        let one = BigUint::from(1u8);
        let mut v: Vec<[u64; 4]> = vec![
            [0; 4],
            [1, 0, 0, 0],
            [2, 0, 0, 0],
            [m; 4],
            [m - 1, m, m, m],
            [P_C, 0, 0, 0],
            [P_C - 1, 0, 0, 0],
            [0, 0, 0, 1 << 63],
            [m, m, m, m >> 1],
            [m, 0, m, 0],
            [0, m, 0, m],
            [m, m, 0, 0],
            [0, 0, m, m],
            [0x5555_5555_5555_5555; 4],
            [0xAAAA_AAAA_AAAA_AAAA; 4],
        ];
        for d in [0u8, 1, 2, 3] {
            for w in [&p - 1u8 - d, &p + d] {
                v.push(words(&w, 4).try_into().unwrap());
            }
        }
        for k in [1u32, 32, 33, 63, 64, 65, 127, 128, 129, 191, 192, 200, 255] {
            let run = (&one << k) - 1u8;
            v.push(words(&run, 4).try_into().unwrap());
            let top = (&one << 256u32) - (&one << k);
            v.push(words(&top, 4).try_into().unwrap());
            v.push(words(&(&one << k), 4).try_into().unwrap());
        }
        let mut rng = SplitMix64(seed);
        for _ in 0..random {
            let mut w = rng.words4();
            let mask = rng.next_u64();
            for (i, wi) in w.iter_mut().enumerate() {
                match (mask >> (4 * i)) & 15 {
                    0 | 1 => *wi = m,
                    2 => *wi = 0,
                    3 => *wi = m - (*wi & 0xFFFF),
                    _ => {}
                }
            }
            v.push(w);
        }
        v
    }

    /// The product, square, scaled and fused forms against num-bigint, on thousands of
    /// operands (every pair at the bounds, random pairs beside them).
    #[test]
    fn operations_match_bigint() {
        let p = p();
        let vals = operands(11, 4000);
        let n = vals.len();
        let mut rng = SplitMix64(12);
        for i in 0..n * 2 {
            let a = vals[i % n];
            let b = vals[(i * 7 + 3 + (rng.next_u64() as usize % 5)) % n];
            let c = vals[(i * 13 + 1) % n];
            let (ba, bb, bc) = (big(&a), big(&b), big(&c));
            let ab = &ba * &bb;
            let aa = &ba * &ba;
            let cases: [(&str, [u64; 4], BigUint); 14] = [
                ("mul", mul(&a, &b), ab.clone()),
                ("sqr", sqr(&a), aa.clone()),
                ("mul2", mul_scaled::<2>(&a, &b), &ab * 2u8),
                ("mul3", mul_scaled::<3>(&a, &b), &ab * 3u8),
                ("mul4", mul_scaled::<4>(&a, &b), &ab * 4u8),
                ("mul5", mul_scaled::<5>(&a, &b), &ab * 5u8),
                ("mul8", mul_scaled::<8>(&a, &b), &ab * 8u8),
                ("sqr2", sqr_scaled::<2>(&a), &aa * 2u8),
                ("sqr3", sqr_scaled::<3>(&a), &aa * 3u8),
                ("sqr4", sqr_scaled::<4>(&a), &aa * 4u8),
                ("sqr7", sqr_scaled::<7>(&a), &aa * 7u8),
                ("sqr8", sqr_scaled::<8>(&a), &aa * 8u8),
                ("mul_sub", mul_sub(&a, &b, &c), &ab + &p * 2u8 - &bc % &p),
                ("sqr_sub", sqr_sub(&a, &c), &aa + &p * 2u8 - &bc % &p),
            ];
            for (name, got, want) in cases {
                assert_eq!(big(&got) % &p, want % &p, "{name} {a:x?} {b:x?} {c:x?}");
            }
        }
        // The square equals the product of a value with itself, limb for limb.
        for a in &vals {
            assert_eq!(sqr(a), mul(a, a), "{a:x?}");
        }
    }

    /// The subtraction and negation against num-bigint, and their rare tails: a borrow
    /// on from limb 2 after the correction, and a second pass below 0.
    #[test]
    fn sub_neg_match_bigint() {
        let p = p();
        let m = u64::MAX;
        let vals = operands(15, 3000);
        let n = vals.len();
        let check = |a: [u64; 4], b: [u64; 4]| {
            let (ba, bb) = (big(&a), big(&b));
            let want = (&ba + &p * 2u8 - &bb % &p) % &p;
            assert_eq!(big(&sub(&a, &b)) % &p, want, "{a:x?} - {b:x?}");
            assert_eq!(big(&neg(&b)) % &p, (&p - &bb % &p) % &p, "-{b:x?}");
        };
        for i in 0..n * 2 {
            check(vals[i % n], vals[(i * 7 + 3) % n]);
        }
        for (a, b) in [
            // a − b borrows, then r − P_C borrows from limb 2 (r₁ = 0, r₀ < P_C).
            ([5, 0, 0, 0], [6, 0, 0, 0]),
            ([0, 0, 3, 1], [1, 0, 0, 0]),
            // ... and below 0 again (r < P_C).
            ([0, 0, 0, 0], [m, m, m, m]),
            ([7, 0, 0, 0], [8, 0, 0, 0]),
            ([P_C - 2, 0, 0, 0], [m, m, m, m]),
            // −b with 2²⁵⁶ − b = [5, 0, ·, ·] and with 2²⁵⁶ − b below P_C.
            ([0; 4], [m - 4, m, m - 7, m]),
            ([0; 4], [m - 4, m, m, m]),
            ([0; 4], [1, 0, 0, 0]),
        ] {
            check(a, b);
        }
    }

    /// k squarings in the loop (both parities of k, and the square root's 253) against k
    /// single squarings.
    #[test]
    fn sqr_n_matches_repeated_sqr() {
        for (i, a) in operands(13, 300).iter().enumerate() {
            let k = [0u32, 1, 2, 3, 4, 5, 11, 22, 23][i % 9];
            let mut want = *a;
            for _ in 0..k {
                want = sqr(&want);
            }
            assert_eq!(sqr_n(a, k), want, "{a:x?}^(2^{k})");
        }
        let a = [3, 5, 7, 11];
        let mut want = a;
        for _ in 0..253 {
            want = sqr(&want);
        }
        assert_eq!(sqr_n(&a, 253), want);
    }

    /// [`reduce`] alone, on any 512-bit value (not only products).
    fn reduce_only(t: [u64; 8]) -> [u64; 4] {
        let [r0, r1, r2, r3, h0, h1, h2, h3] = t;
        let (o0, o1, o2, o3): (u64, u64, u64, u64);
        // SAFETY: register-only arithmetic on the declared operands.
        unsafe {
            asm!(
                reduce!(h0, h1, h2, h3; r0, r1, r2, r3),
                r0 = inout(reg) r0 => o0,
                r1 = inout(reg) r1 => o1,
                r2 = inout(reg) r2 => o2,
                r3 = inout(reg) r3 => o3,
                h0 = in(reg) h0,
                h1 = in(reg) h1,
                h2 = in(reg) h2,
                h3 = in(reg) h3,
                c = in(reg) P_C,
                t0 = out(reg) _,
                t1 = out(reg) _,
                t2 = out(reg) _,
                t3 = out(reg) _,
                options(pure, nomem, nostack),
            );
        }
        [o0, o1, o2, o3]
    }

    /// [`reduce_sub`] alone: the 512-bit value t minus c.
    fn reduce_sub_only(t: [u64; 8], c: [u64; 4]) -> [u64; 4] {
        let [r0, r1, r2, r3, h0, h1, h2, h3] = t;
        let (o0, o1, o2, o3): (u64, u64, u64, u64);
        // SAFETY: register-only arithmetic on the declared operands.
        unsafe {
            asm!(
                reduce_sub!(h0, h1, h2, h3; r0, r1, r2, r3),
                r0 = inout(reg) r0 => o0,
                r1 = inout(reg) r1 => o1,
                r2 = inout(reg) r2 => o2,
                r3 = inout(reg) r3 => o3,
                h0 = in(reg) h0,
                h1 = in(reg) h1,
                h2 = in(reg) h2,
                h3 = in(reg) h3,
                c0 = in(reg) c[0],
                c1 = in(reg) c[1],
                c2 = in(reg) c[2],
                c3 = in(reg) c[3],
                c = in(reg) P_C,
                t0 = out(reg) _,
                t1 = out(reg) _,
                t2 = out(reg) _,
                t3 = out(reg) _,
                options(pure, nomem, nostack),
            );
        }
        [o0, o1, o2, o3]
    }

    /// The first fold, [`triple_folded`] or [`shift_folded`], and the last fold, alone: the
    /// 512-bit value t times K (3 or a power of two up to 8).
    fn reduce_scaled_only<const K: u64>(t: [u64; 8]) -> [u64; 4] {
        let [r0, r1, r2, r3, h0, h1, h2, h3] = t;
        let (o0, o1, o2, o3): (u64, u64, u64, u64);
        if K == 3 {
            // SAFETY: register-only arithmetic on the declared operands.
            unsafe {
                asm!(
                    fold_high!(h0, h1, h2, h3; r0, r1, r2, r3),
                    triple_folded!(h0; r0, r1, r2, r3),
                    fold_last!(r0, r1, r2, r3),
                    r0 = inout(reg) r0 => o0,
                    r1 = inout(reg) r1 => o1,
                    r2 = inout(reg) r2 => o2,
                    r3 = inout(reg) r3 => o3,
                    h0 = inout(reg) h0 => _,
                    h1 = in(reg) h1,
                    h2 = in(reg) h2,
                    h3 = in(reg) h3,
                    c = in(reg) P_C,
                    t0 = out(reg) _,
                    t1 = out(reg) _,
                    t2 = out(reg) _,
                    t3 = out(reg) _,
                    options(pure, nomem, nostack),
                );
            }
        } else {
            // SAFETY: register-only arithmetic on the declared operands.
            unsafe {
                asm!(
                    fold_high!(h0, h1, h2, h3; r0, r1, r2, r3),
                    shift_folded!(r0, r1, r2, r3),
                    fold_last!(r0, r1, r2, r3),
                    r0 = inout(reg) r0 => o0,
                    r1 = inout(reg) r1 => o1,
                    r2 = inout(reg) r2 => o2,
                    r3 = inout(reg) r3 => o3,
                    h0 = in(reg) h0,
                    h1 = in(reg) h1,
                    h2 = in(reg) h2,
                    h3 = in(reg) h3,
                    c = in(reg) P_C,
                    t0 = out(reg) _,
                    t1 = out(reg) _,
                    t2 = out(reg) _,
                    t3 = out(reg) _,
                    s = const shift_of(K),
                    sr = const 64 - shift_of(K),
                    options(pure, nomem, nostack),
                );
            }
        }
        [o0, o1, o2, o3]
    }

    fn w8(v: &BigUint) -> [u64; 8] {
        words(v, 8).try_into().unwrap()
    }

    /// Whether the last fold of `first` (the 5-word value after the first fold) carries
    /// out of r1, i.e. takes the rare path.
    fn last_fold_carries(first: &BigUint) -> bool {
        let one = BigUint::from(1u8);
        let ov = first >> 256u32;
        let rest = words(&(first % (&one << 256u32)), 4);
        big(&rest[..2]) + &ov * P_C >= (&one << 128u32)
    }

    /// The rare tails of the last fold: the high half H = ⌊2²⁵⁶/P_C⌋ − j with the low half
    /// 2²⁵⁶ − 1 − 2ᵏ make the first fold end at 2²⁵⁶ + [x, 2⁶⁴−1, ·, ·] with x + P_C ≥ 2⁶⁴:
    /// the last fold carries out of r1, and on through r3 and past 2²⁵⁶, or stops in r2 or
    /// r3. Counted, so that the test fails if the construction stops reaching them.
    #[test]
    fn reduce_tails_match_bigint() {
        let one = BigUint::from(1u8);
        let p = p();
        let h0 = (&one << 256u32) / BigUint::from(P_C);
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
                let v = (&high << 256u32) + &low;
                let r = reduce_only(w8(&v));
                assert_eq!(big(&r) % &p, &v % &p, "{v:x}");
                seen += last_fold_carries(&(&low + &high * P_C)) as u32;
            }
        }
        assert_eq!(seen, 5, "the carry tails were reached {seen} times");
        let t = [1, 2, 3, 4, 5, 6, 7, 8];
        assert_eq!(big(&reduce_only(t)) % &p, big(&t) % &p);
    }

    /// The scaled reductions' tails: the same construction with the high half divided by
    /// K (so that K times the first fold again ends just below a multiple of 2¹²⁸ in r1),
    /// and all-ones values, where the scaled overflow word is largest.
    #[test]
    fn reduce_scaled_tails_match_bigint() {
        fn check<const K: u64>(t: [u64; 8]) -> bool {
            let p = p();
            let v = big(&t);
            let r = reduce_scaled_only::<K>(t);
            assert_eq!(big(&r) % &p, (&v * K) % &p, "{K} {t:x?}");
            let first = (big(&t[..4]) + big(&t[4..]) * P_C) * K;
            last_fold_carries(&first)
        }
        let one = BigUint::from(1u8);
        let m = u64::MAX;
        let mut seen = [0u32; 4];
        for (i, k) in [2u64, 3, 4, 8].into_iter().enumerate() {
            // Low half L and high half H with K·(L + H·P_C) = 2²⁵⁶·ov + [x, 2⁶⁴ − 1, ...]
            // and x + ov·P_C ≥ 2⁶⁴: H just above ⌊2²⁵⁶/(K·P_C)⌋, L from the target.
            let h0 = (&one << 256u32) / BigUint::from(P_C * k);
            for j in 1u32..64 {
                for dip in [0u32, 1, 2, 3, 64, 65, 128, 129, 192] {
                    let high = &h0 + j;
                    let dipv = if dip == 0 {
                        BigUint::from(0u8)
                    } else {
                        &one << dip
                    };
                    // Choose L so that K·(L + H·P_C) ≡ −1 − dip mod 2²⁵⁶ where possible
                    // (K odd), or close to it (K even: the low bits are then zero).
                    let target = (&one << 256u32) * BigUint::from(k + 1) - 1u8 - &dipv;
                    let hp = &high * P_C * k;
                    if hp > target {
                        continue;
                    }
                    let l = (&target - &hp) / k;
                    if l.bits() > 256 {
                        continue;
                    }
                    let v = (&high << 256u32) + &l;
                    let t = w8(&v);
                    let carried = match k {
                        2 => check::<2>(t),
                        3 => check::<3>(t),
                        4 => check::<4>(t),
                        _ => check::<8>(t),
                    };
                    seen[i] += carried as u32;
                }
            }
            for t in [
                [m; 8],
                [m, m, m, m, 0, 0, 0, 0],
                [0, 0, 0, 0, m, m, m, m],
                [1, 2, 3, 4, 5, 6, 7, 8],
                [m, 0, m, 0, m, 0, m, 1 << 63],
            ] {
                match k {
                    2 => check::<2>(t),
                    3 => check::<3>(t),
                    4 => check::<4>(t),
                    _ => check::<8>(t),
                };
            }
        }
        for (k, s) in [2, 3, 4, 8].iter().zip(seen) {
            assert!(s >= 3, "K = {k}: the carry tail was reached {s} times");
        }
    }

    /// The subtracting reduction's tails: a value with no high half minus a larger c
    /// (negative: P_C taken away once), and minus c so large that the result is below P_C
    /// after the first correction (taken away twice); and the last fold's tails as above.
    #[test]
    fn reduce_sub_tails_match_bigint() {
        let p = p();
        let m = u64::MAX;
        let one = BigUint::from(1u8);
        let check = |t: [u64; 8], c: [u64; 4]| {
            let r = reduce_sub_only(t, c);
            let want = (big(&t) + &p * 4u8 - big(&c) % &p) % &p;
            assert_eq!(big(&r) % &p, want, "{t:x?} - {c:x?}");
        };
        for (t, c) in [
            ([5, 0, 0, 0, 0, 0, 0, 0], [6, 0, 0, 0]),
            ([0; 8], [1, 0, 0, 0]),
            ([0; 8], [m; 4]),
            ([1, 0, 0, 0, 0, 0, 0, 0], [m; 4]),
            ([0, 0, 0, 1, 0, 0, 0, 0], [0, 0, 0, 2]),
            ([P_C, 0, 0, 0, 0, 0, 0, 0], [m, m, m, m]),
            ([m; 8], [m; 4]),
            ([m, m, m, m, 0, 0, 0, 0], [0; 4]),
        ] {
            check(t, c);
        }
        // A positive result whose last fold carries out of r1: the first fold's value minus
        // c ends at 2²⁵⁶·ov + [x, 2⁶⁴ − 1, ...] with x + ov·P_C ≥ 2⁶⁴.
        let h0 = (&one << 256u32) / BigUint::from(P_C);
        let low = (&one << 256u32) - 1u8;
        let v = (&h0 << 256u32) + &low;
        for c0 in [0u64, 1, 2, 1 << 20] {
            check(w8(&v), [c0, 0, 0, 0]);
        }
        let mut rng = SplitMix64(14);
        for _ in 0..2000 {
            let mut t: [u64; 8] = rng.words(8).try_into().unwrap();
            // Often a small or empty high half, so that negative results are common.
            match rng.next_u64() % 4 {
                0 => t[4..].fill(0),
                1 => {
                    t[4..].fill(0);
                    t[3] >>= 32;
                }
                _ => {}
            }
            check(t, rng.words4());
        }
    }
}
