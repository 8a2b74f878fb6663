//! The curve constants of secp256k1 and the arithmetic the model and the generators do on
//! them: on 32-byte big-endian arrays (fast; arrays compare as big-endian numbers) and on
//! `num-bigint` values (the tests' independent big-integer arithmetic).

use num_bigint::BigUint;

/// A 256-bit value, big-endian.
pub type B32 = [u8; 32];

const fn nibble(c: u8) -> u8 {
    match c {
        b'0'..=b'9' => c - b'0',
        b'a'..=b'f' => c - b'a' + 10,
        b'A'..=b'F' => c - b'A' + 10,
        _ => panic!("not hex"),
    }
}

/// 64 hex digits as 32 bytes (usable in constants).
pub const fn h32(s: &str) -> B32 {
    let b = s.as_bytes();
    assert!(b.len() == 64, "64 hex digits");
    let mut out = [0u8; 32];
    let mut i = 0;
    while i < 32 {
        out[i] = (nibble(b[2 * i]) << 4) | nibble(b[2 * i + 1]);
        i += 1;
    }
    out
}

/// The group order n.
pub const N: B32 = h32("fffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141");
/// The field prime p.
pub const P: B32 = h32("fffffffffffffffffffffffffffffffffffffffffffffffffffffffefffffc2f");
/// ⌊n / 2⌋: the largest s that EIP-2 accepts.
pub const N_HALF: B32 = h32("7fffffffffffffffffffffffffffffff5d576e7357a4501ddfe92f46681b20a0");
/// The x-coordinate of the generator G.
pub const GX: B32 = h32("79be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798");
/// 0.
pub const ZERO: B32 = [0; 32];
/// 2²⁵⁶ − 1.
pub const ONES: B32 = [0xff; 32];

/// Hex to bytes. Panics on bad hex.
pub fn hex_to_vec(s: &str) -> Vec<u8> {
    hex::decode(s).expect("valid hex")
}

/// 64 hex digits to 32 bytes. Panics on bad hex or another length.
pub fn hex32(s: &str) -> B32 {
    hex_to_vec(s).try_into().expect("32 bytes")
}

// ---------------------------------------------------------------------------------------
// 32-byte arithmetic
// ---------------------------------------------------------------------------------------

/// `a + b` mod 2²⁵⁶ and whether it overflowed.
pub fn add(a: &B32, b: &B32) -> (B32, bool) {
    let mut out = [0u8; 32];
    let mut carry = 0u16;
    for i in (0..32).rev() {
        let t = u16::from(a[i]) + u16::from(b[i]) + carry;
        out[i] = t as u8;
        carry = t >> 8;
    }
    (out, carry != 0)
}

/// `a − b` mod 2²⁵⁶ and whether it borrowed.
pub fn sub(a: &B32, b: &B32) -> (B32, bool) {
    let mut out = [0u8; 32];
    let mut borrow = 0i16;
    for i in (0..32).rev() {
        let t = i16::from(a[i]) - i16::from(b[i]) - borrow;
        out[i] = t as u8;
        borrow = i16::from(t < 0);
    }
    (out, borrow != 0)
}

/// `k` as a 256-bit value.
pub fn small(k: u64) -> B32 {
    let mut out = [0u8; 32];
    out[24..].copy_from_slice(&k.to_be_bytes());
    out
}

/// 2ᵏ (`k < 256`).
pub fn pow2(k: u32) -> B32 {
    let mut out = [0u8; 32];
    out[31 - (k / 8) as usize] = 1 << (k % 8);
    out
}

/// `base + k` (k may be negative), wrapping mod 2²⁵⁶.
pub fn offset(base: &B32, k: i64) -> B32 {
    if k >= 0 {
        add(base, &small(k as u64)).0
    } else {
        sub(base, &small(k.unsigned_abs())).0
    }
}

/// In [1, n − 1]: a valid r or s.
pub fn is_scalar(a: &B32) -> bool {
    *a != ZERO && *a < N
}

/// `−a mod n` for `a < n`.
pub fn neg_n(a: &B32) -> B32 {
    if *a == ZERO { ZERO } else { sub(&N, a).0 }
}

/// `a − b mod n` for `a, b < n`.
pub fn sub_n(a: &B32, b: &B32) -> B32 {
    let (d, borrow) = sub(a, b);
    if borrow { add(&d, &N).0 } else { d }
}

/// `a · b mod n`.
pub fn mul_n(a: &B32, b: &B32) -> B32 {
    to_be32(&(from_be(a) * from_be(b) % n()))
}

// ---------------------------------------------------------------------------------------
// Big integers
// ---------------------------------------------------------------------------------------

/// A big-endian byte string as a number.
pub fn from_be(b: &[u8]) -> BigUint {
    BigUint::from_bytes_be(b)
}

/// Big-endian, left-padded to 32 bytes. Panics if `x` ≥ 2²⁵⁶.
pub fn to_be32(x: &BigUint) -> B32 {
    let v = x.to_bytes_be();
    assert!(v.len() <= 32, "value does not fit in 32 bytes");
    let mut out = [0u8; 32];
    out[32 - v.len()..].copy_from_slice(&v);
    out
}

/// The group order n.
pub fn n() -> BigUint {
    from_be(&N)
}

/// The field prime p.
pub fn p() -> BigUint {
    from_be(&P)
}

/// 2²⁵⁶.
pub fn two_256() -> BigUint {
    BigUint::from(1u32) << 256usize
}

/// Whether `x` is 0.
pub fn is_zero(x: &BigUint) -> bool {
    *x == BigUint::from(0u32)
}

/// Whether `x` (any size) is the x-coordinate of a point of y² = x³ + 7 over F_p: x < p and
/// x³ + 7 is a quadratic residue (Euler's criterion; x³ + 7 is never 0 since the group has
/// prime order).
pub fn is_x_coordinate(x: &BigUint) -> bool {
    let p = p();
    if *x >= p {
        return false;
    }
    let rhs = (x * x * x + BigUint::from(7u32)) % &p;
    let e = (&p - BigUint::from(1u32)) >> 1usize;
    rhs.modpow(&e, &p) == BigUint::from(1u32)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn constants_agree_with_their_definitions() {
        let two = BigUint::from(2u32);
        assert_eq!(from_be(&N_HALF), n() / &two);
        // p = 2²⁵⁶ − 2³² − 977.
        assert_eq!(p(), two_256() - (BigUint::from(1u64) << 32usize) - 977u32);
    }

    #[test]
    fn byte_arithmetic_matches_big_integers() {
        let vals = [
            ZERO,
            small(1),
            small(977),
            N,
            P,
            ONES,
            N_HALF,
            GX,
            pow2(255),
        ];
        let m = two_256();
        for a in &vals {
            for b in &vals {
                let (s, c) = add(a, b);
                let want = from_be(a) + from_be(b);
                assert_eq!(c, want >= m);
                assert_eq!(from_be(&s), want % &m);
                let (d, borrow) = sub(a, b);
                assert_eq!(borrow, a < b);
                assert_eq!(from_be(&d), (from_be(a) + &m - from_be(b)) % &m);
                if a < &N && b < &N {
                    assert_eq!(from_be(&sub_n(a, b)), (from_be(a) + n() - from_be(b)) % n());
                    assert_eq!(from_be(&mul_n(a, b)), from_be(a) * from_be(b) % n());
                }
            }
            if a < &N {
                assert_eq!(from_be(&neg_n(a)), (n() - from_be(a)) % n());
            }
        }
        assert_eq!(offset(&ZERO, -1), ONES);
        assert_eq!(offset(&ONES, 1), ZERO);
        assert_eq!(from_be(&offset(&N, -3)), n() - 3u32);
        assert_eq!(from_be(&pow2(64)), BigUint::from(1u32) << 64usize);
        assert!(!is_scalar(&ZERO) && !is_scalar(&N) && is_scalar(&offset(&N, -1)));
    }
}
