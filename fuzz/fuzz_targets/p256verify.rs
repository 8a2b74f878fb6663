//! P256VERIFY (EIP-7951): `p256verify_precompile`, `p256_verify` (the exact error) and
//! `p256_verify_batch` against RustCrypto's `p256` crate and, where it is an oracle,
//! OpenSSL.
//!
//! Every input runs as the precompile's call data (any length). Random bytes are almost
//! never a valid key and signature, so an input whose first byte is [`STRUCTURED`] also
//! runs in a structured mode that builds near-valid inputs from the bytes after it:
//!
//! ```text
//! 0xa5 ‖ d (32) ‖ hash (32) ‖ up to 4 operations: selector byte ‖ its parameter bytes
//! ```
//!
//! d is the private key (reduced into [1, n−1] if it is not there), the hash is signed with
//! it by the `p256` crate (RFC 6979), and each operation ([`Op`]) changes the 160-byte
//! input: a bit flipped in a field, r or s set to 0, n or another edge value, a key
//! coordinate plus p, high s (n − s), the negated or another key, R′ at infinity
//! (h ≡ −r·d), the hash plus n (the same signature), a signature whose x(R′) is in [n, p),
//! a re-signing with an edge key or hash, or a cut or padded length (the last operation).
//! Missing bytes read as zero. The signed input and the input after each operation are all
//! checked, and once more together as one batch.

#![no_main]

use asmcrypto::{p256_verify, p256_verify_batch, p256verify_precompile};
use asmcrypto_testkit::p256::{N, P, expected_error, openssl_verify, p256_crate_verify};
use libfuzzer_sys::fuzz_target;
use num_bigint::BigUint;
use p256::ecdsa::signature::hazmat::PrehashSigner;
use p256::ecdsa::{Signature, SigningKey};
use p256::elliptic_curve::PrimeField;
use p256::elliptic_curve::sec1::ToEncodedPoint;
use p256::{ProjectivePoint, PublicKey, Scalar};

/// The first byte that turns on the structured mode.
const STRUCTURED: u8 = 0xa5;

const SUCCESS: [u8; 32] = {
    let mut out = [0u8; 32];
    out[31] = 1;
    out
};

type Input = [u8; 160];

/// Every entry point on `input` against the oracles.
fn check(input: &[u8]) {
    let want = p256_crate_verify(input);
    if let Some(openssl) = openssl_verify(input) {
        assert_eq!(openssl, want, "OpenSSL and the p256 crate differ");
    }
    assert_eq!(
        p256verify_precompile(input),
        want.then_some(SUCCESS),
        "precompile"
    );
    let Ok(fixed) = <&Input>::try_from(input) else {
        assert!(!want, "only 160 bytes can verify");
        return;
    };
    let (hash, sig, key) = split(fixed);
    match p256_verify(&hash, &sig, &key) {
        Ok(()) => assert!(want, "p256_verify: Ok where the p256 crate refuses"),
        Err(e) => {
            assert!(!want, "p256_verify: {e:?} where the p256 crate verifies");
            assert_eq!(e, expected_error(fixed), "p256_verify's error");
        }
    }
    assert_eq!(p256_verify_batch(&[*fixed]), vec![want], "batch of one");
}

fn split(input: &Input) -> ([u8; 32], [u8; 64], [u8; 64]) {
    (
        input[..32].try_into().unwrap(),
        input[32..96].try_into().unwrap(),
        input[96..].try_into().unwrap(),
    )
}

// ---------------------------------------------------------------------------------------
// The structured mode
// ---------------------------------------------------------------------------------------

/// The bytes after the tag, read front to back; zero once they run out.
struct Reader<'a>(&'a [u8]);

impl Reader<'_> {
    fn byte(&mut self) -> u8 {
        match self.0.split_first() {
            Some((&b, rest)) => {
                self.0 = rest;
                b
            }
            None => 0,
        }
    }

    fn b32(&mut self) -> [u8; 32] {
        core::array::from_fn(|_| self.byte())
    }

    fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

fn big(b: &[u8]) -> BigUint {
    BigUint::from_bytes_be(b)
}

/// v as 32 bytes (v < 2²⁵⁶).
fn b32(v: &BigUint) -> [u8; 32] {
    let b = v.to_bytes_be();
    let mut out = [0u8; 32];
    out[32 - b.len()..].copy_from_slice(&b);
    out
}

fn two_256() -> BigUint {
    BigUint::from(1u8) << 256u32
}

/// 0, 1, 2, m − 2, m − 1, m, m + 1, 2²⁵⁶ − 1 and the other modulus's m′ − 1, m′, m′ + 1,
/// by `sel`; m is n for scalars and p for coordinates.
fn edge(sel: u8, m: &[u8; 32], other: &[u8; 32]) -> [u8; 32] {
    let (m, o) = (big(m), big(other));
    let v = match sel % 11 {
        0 => BigUint::ZERO,
        1 => BigUint::from(1u8),
        2 => BigUint::from(2u8),
        3 => &m - 2u8,
        4 => &m - 1u8,
        5 => m,
        6 => m + 1u8,
        7 => two_256() - 1u8,
        8 => &o - 1u8,
        9 => o,
        _ => o + 1u8,
    };
    b32(&v)
}

/// d as a key: itself if it is in [1, n−1], else d mod (n − 1) + 1.
fn signing_key(d: &[u8; 32]) -> (SigningKey, BigUint) {
    let n = big(&N);
    let d = match SigningKey::from_slice(d) {
        Ok(_) => big(d),
        Err(_) => big(d) % (&n - 1u8) + 1u8,
    };
    let key = SigningKey::from_slice(&b32(&d)).expect("d in [1, n−1]");
    (key, d)
}

fn key_bytes(key: &PublicKey) -> [u8; 64] {
    key.to_encoded_point(false).as_bytes()[1..]
        .try_into()
        .expect("an uncompressed point")
}

fn sign(key: &SigningKey, hash: &[u8; 32]) -> Input {
    let sig: Signature = key.sign_prehash(hash).expect("signing a 32-byte prehash");
    let mut out = [0u8; 160];
    out[..32].copy_from_slice(hash);
    out[32..96].copy_from_slice(&sig.to_bytes());
    out[96..].copy_from_slice(&key_bytes(&PublicKey::from(key.verifying_key())));
    out
}

fn scalar(v: &BigUint) -> Scalar {
    let n = big(&N);
    Option::from(Scalar::from_repr(b32(&(v % n)).into())).expect("reduced mod n")
}

/// The operations of the structured mode, by selector byte (mod their number).
#[derive(Clone, Copy, Debug)]
enum Op {
    /// s = n − s: still valid (EIP-7951 has no low-s rule).
    HighS,
    /// Flip bit (parameter byte) of a field: hash, r, s, qx or qy (selector order).
    FlipHash,
    FlipR,
    FlipS,
    FlipQx,
    FlipQy,
    /// A field set to an edge value (parameter byte; [`edge`]).
    EdgeR,
    EdgeS,
    EdgeQx,
    EdgeQy,
    /// A key coordinate plus p: the same point mod p, refused.
    QxPlusP,
    QyPlusP,
    /// r from 32 parameter bytes (mod n − 1, + 1) and h ≡ −r·d: R′ = s⁻¹·(h + r·d)·G is
    /// the point at infinity. Only while the key's d is known.
    RAtInfinity,
    /// The key of d′ (32 parameter bytes).
    AnotherKey,
    /// (qx, p − qy): on the curve, another key.
    NegateKey,
    /// The key (0, 0).
    KeyZero,
    /// r and s swapped.
    SwapRS,
    /// A field (parameter byte mod 5) overwritten with 32 parameter bytes.
    Overwrite,
    /// hash ± n (whichever stays below 2²⁵⁶): the same value mod n, so the same verdict.
    HashPlusN,
    /// A valid signature whose x(R′) is in [n, p): R with x = n + t (t from 16 parameter
    /// bytes, moved up to the next x on the curve, y's parity from a byte), r = x − n, the
    /// key Q = r⁻¹·(s·R − h·G) for the input's hash and s.
    XAboveN,
    /// Signed again by the key of an edge d (1, 2, 3, n − 1, n − 2, (n − 1)/2, (n + 1)/2).
    EdgeKey,
    /// Signed again, by the same key, over an edge hash ([`edge`], m = n).
    EdgeHash,
    /// The input cut to fewer than 128 bytes (a parameter byte below 0x80: that many) or
    /// padded with 1–8 parameter bytes (its low 3 bits + 1); the last operation.
    Resize,
}

const OPS: [Op; 23] = [
    Op::HighS,
    Op::FlipHash,
    Op::FlipR,
    Op::FlipS,
    Op::FlipQx,
    Op::FlipQy,
    Op::EdgeR,
    Op::EdgeS,
    Op::EdgeQx,
    Op::EdgeQy,
    Op::QxPlusP,
    Op::QyPlusP,
    Op::RAtInfinity,
    Op::AnotherKey,
    Op::NegateKey,
    Op::KeyZero,
    Op::SwapRS,
    Op::Overwrite,
    Op::HashPlusN,
    Op::XAboveN,
    Op::EdgeKey,
    Op::EdgeHash,
    Op::Resize,
];

/// The structured mode's state: the input, and the private key of its key where known.
struct Built {
    input: Input,
    key: Option<(SigningKey, BigUint)>,
}

impl Built {
    fn flip(&mut self, at: usize, bit: u8) {
        self.input[at + usize::from(bit / 8)] ^= 1 << (bit % 8);
    }

    fn set(&mut self, at: usize, v: &[u8; 32]) {
        self.input[at..at + 32].copy_from_slice(v);
    }

    fn plus_p(&mut self, at: usize) {
        let c = big(&self.input[at..at + 32]) + big(&P);
        if c < two_256() {
            self.set(at, &b32(&c));
        }
    }

    /// Applies `op`; a `Resize` gives the resized input instead.
    fn apply(&mut self, op: Op, rd: &mut Reader) -> Option<Vec<u8>> {
        let n = big(&N);
        let p = big(&P);
        match op {
            Op::HighS => {
                let s = big(&self.input[64..96]);
                if s > BigUint::ZERO && s < n {
                    self.set(64, &b32(&(&n - s)));
                }
            }
            Op::FlipHash => self.flip(0, rd.byte()),
            Op::FlipR => self.flip(32, rd.byte()),
            Op::FlipS => self.flip(64, rd.byte()),
            Op::FlipQx => self.flip(96, rd.byte()),
            Op::FlipQy => self.flip(128, rd.byte()),
            Op::EdgeR => self.set(32, &edge(rd.byte(), &N, &P)),
            Op::EdgeS => self.set(64, &edge(rd.byte(), &N, &P)),
            Op::EdgeQx => self.set(96, &edge(rd.byte(), &P, &N)),
            Op::EdgeQy => self.set(128, &edge(rd.byte(), &P, &N)),
            Op::QxPlusP => self.plus_p(96),
            Op::QyPlusP => self.plus_p(128),
            Op::RAtInfinity => {
                let r = big(&rd.b32()) % (&n - 1u8) + 1u8;
                if let Some((_, d)) = &self.key {
                    let h = (&n - (&r * d) % &n) % &n;
                    self.set(0, &b32(&h));
                    self.set(32, &b32(&r));
                }
            }
            Op::AnotherKey => {
                let (key, d) = signing_key(&rd.b32());
                let q = key_bytes(&PublicKey::from(key.verifying_key()));
                self.input[96..].copy_from_slice(&q);
                self.key = Some((key, d));
            }
            Op::NegateKey => {
                let y = big(&self.input[128..]);
                if y > BigUint::ZERO && y < p {
                    self.set(128, &b32(&(&p - y)));
                }
                self.key = self.key.take().and_then(|(_, d)| {
                    let d = (&n - d) % &n;
                    SigningKey::from_slice(&b32(&d)).ok().map(|k| (k, d))
                });
            }
            Op::KeyZero => {
                self.input[96..].fill(0);
                self.key = None;
            }
            Op::SwapRS => {
                let (r, s) = self.input[32..96].split_at_mut(32);
                r.swap_with_slice(s);
            }
            Op::Overwrite => {
                let field = usize::from(rd.byte() % 5);
                self.set(32 * field, &rd.b32());
                if field >= 3 {
                    self.key = None;
                }
            }
            Op::HashPlusN => {
                let h = big(&self.input[..32]);
                let h = if h >= n { h - &n } else { h + &n };
                if h < two_256() {
                    self.set(0, &b32(&h));
                }
            }
            Op::XAboveN => {
                let t = big(&rd.b32()[..16]) % (&p - &n);
                let parity = 2 + (rd.byte() & 1);
                let mut x = &n + t;
                let r_point = loop {
                    if x >= p {
                        x = n.clone();
                    }
                    let mut enc = [parity; 33];
                    enc[1..].copy_from_slice(&b32(&x));
                    if let Ok(pt) = PublicKey::from_sec1_bytes(&enc) {
                        break pt;
                    }
                    x += 1u8;
                };
                let r = &x - &n;
                let s = big(&self.input[64..96]);
                let h = big(&self.input[..32]);
                if r > BigUint::ZERO && s > BigUint::ZERO && s < n {
                    let r_inv = Option::<Scalar>::from(scalar(&r).invert()).expect("r ≠ 0");
                    let q = (r_point.to_projective() * scalar(&s)
                        - ProjectivePoint::GENERATOR * scalar(&h))
                        * r_inv;
                    if let Ok(q) = PublicKey::from_affine(q.to_affine()) {
                        self.set(32, &b32(&r));
                        self.input[96..].copy_from_slice(&key_bytes(&q));
                        self.key = None;
                    }
                }
            }
            Op::EdgeKey => {
                let d = match rd.byte() % 7 {
                    0 => BigUint::from(1u8),
                    1 => BigUint::from(2u8),
                    2 => BigUint::from(3u8),
                    3 => &n - 1u8,
                    4 => &n - 2u8,
                    5 => (&n - 1u8) / 2u8,
                    _ => (&n + 1u8) / 2u8,
                };
                let key = SigningKey::from_slice(&b32(&d)).expect("d in [1, n−1]");
                let hash: [u8; 32] = self.input[..32].try_into().unwrap();
                self.input = sign(&key, &hash);
                self.key = Some((key, d));
            }
            Op::EdgeHash => {
                let hash = edge(rd.byte(), &N, &P);
                if let Some((key, _)) = &self.key {
                    self.input = sign(key, &hash);
                } else {
                    self.set(0, &hash);
                }
            }
            Op::Resize => {
                let b = rd.byte();
                let mut out = self.input.to_vec();
                if b & 0x80 == 0 {
                    out.truncate(usize::from(b));
                } else {
                    for _ in 0..1 + (b & 7) {
                        out.push(rd.byte());
                    }
                }
                return Some(out);
            }
        }
        None
    }
}

fn structured(data: &[u8]) {
    let mut rd = Reader(data);
    let (key, d) = signing_key(&rd.b32());
    let hash = rd.b32();
    let signed = sign(&key, &hash);
    assert!(p256_crate_verify(&signed), "the p256 crate's own signature");
    let mut built = Built {
        input: signed,
        key: Some((key, d)),
    };
    let mut inputs = vec![signed];
    for _ in 0..4 {
        if rd.is_empty() {
            break;
        }
        let op = OPS[usize::from(rd.byte()) % OPS.len()];
        if let Some(resized) = built.apply(op, &mut rd) {
            check(&resized);
            break;
        }
        inputs.push(built.input);
    }
    for input in &inputs {
        check(input);
    }
    // Together, through the batch's shared inversions.
    let want: Vec<bool> = inputs.iter().map(|i| p256_crate_verify(i)).collect();
    assert_eq!(
        p256_verify_batch(&inputs),
        want,
        "batch of {}",
        inputs.len()
    );
}

fuzz_target!(|data: &[u8]| {
    check(data);
    if let Some((&STRUCTURED, rest)) = data.split_first() {
        structured(rest);
    }
});
