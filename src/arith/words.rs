//! 256-bit integers as four little-endian 64-bit words: conversion from and to 32
//! big-endian bytes, and the carry-propagating sum, difference and comparison that both
//! curves' fields and scalars build on.

/// Four little-endian words from 32 big-endian bytes.
#[inline]
pub(crate) fn from_be(b: &[u8; 32]) -> [u64; 4] {
    let mut w = [0u64; 4];
    for (i, wi) in w.iter_mut().enumerate() {
        let mut chunk = [0u8; 8];
        chunk.copy_from_slice(&b[24 - 8 * i..32 - 8 * i]);
        *wi = u64::from_be_bytes(chunk);
    }
    w
}

/// 32 big-endian bytes from four little-endian words.
#[inline]
pub(crate) fn to_be(w: &[u64; 4]) -> [u8; 32] {
    let mut out = [0u8; 32];
    for i in 0..4 {
        out[8 * i..8 * i + 8].copy_from_slice(&w[3 - i].to_be_bytes());
    }
    out
}

/// a + b: the sum mod 2²⁵⁶ and whether it carried out.
#[inline(always)]
pub(crate) fn add(a: &[u64; 4], b: &[u64; 4]) -> ([u64; 4], bool) {
    let mut out = [0u64; 4];
    let mut carry = false;
    for i in 0..4 {
        let (s1, c1) = a[i].overflowing_add(b[i]);
        let (s2, c2) = s1.overflowing_add(carry as u64);
        out[i] = s2;
        carry = c1 | c2;
    }
    (out, carry)
}

/// a − b: the difference mod 2²⁵⁶ and whether it borrowed (a < b).
#[inline(always)]
pub(crate) fn sub(a: &[u64; 4], b: &[u64; 4]) -> ([u64; 4], bool) {
    let mut out = [0u64; 4];
    let mut borrow = false;
    for i in 0..4 {
        let (d1, b1) = a[i].overflowing_sub(b[i]);
        let (d2, b2) = d1.overflowing_sub(borrow as u64);
        out[i] = d2;
        borrow = b1 | b2;
    }
    (out, borrow)
}

/// a ≥ b.
#[inline(always)]
pub(crate) fn ge(a: &[u64; 4], b: &[u64; 4]) -> bool {
    !sub(a, b).1
}

/// a = 0.
#[inline(always)]
pub(crate) fn is_zero(a: &[u64; 4]) -> bool {
    (a[0] | a[1] | a[2] | a[3]) == 0
}
