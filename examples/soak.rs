//! Differential soak runner: "never disagree, never panic".
//!
//! Generates valid signatures (random keys and hashes signed with libsecp256k1, both
//! parities, low and high s) and hostile inputs (random bytes; r, s and hash at and around
//! 0, 1, n, p, p − n and 2²⁵⁶; r that is not an x-coordinate; every v; recovery ids 2 and 3;
//! crafted signatures whose key is the point at infinity or a small multiple of G; bit flips
//! of valid signatures; truncated and over-long precompile inputs), and compares every
//! public function of `asmcrypto` — and the internal batch paths exposed in `asmcrypto::internals` — with
//! libsecp256k1 (and Keccak-256 with `sha3`), byte for byte, including exactly which inputs
//! fail and with which error. Panics are caught per call and counted.
//!
//! ```text
//! cargo run --release --example soak -- --seconds N [--threads T] [--seed S]
//!                                       [--progress SECS] [--replay THREAD:ROUND [--dump]]
//!                                       [--self-test]
//! ```
//!
//! Exits with status 1 on any disagreement or panic, after printing the first few in hex.
//! Every round is seeded from (seed, thread, round), so `--replay` reruns one round alone
//! (`--dump` prints its inputs). Run it a second time with `ASMCRYPTO_BACKEND=scalar` to
//! put the dispatched batch functions on the non-AVX-512 paths as well. `--self-test`
//! corrupts some expected results and adds a panicking call, to show both are caught.
//!
//! See `doc/reliability.md`.

use std::collections::HashMap;
use std::fmt::Debug;
use std::panic::{self, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{LazyLock, Mutex};
use std::time::{Duration, Instant};

use asmcrypto::Error;
use asmcrypto::internals::{BatchPath, recover_addresses_on};
use num_bigint::BigUint;
use secp256k1::ecdsa::{RecoverableSignature, RecoveryId};
use secp256k1::{Message, PublicKey, SecretKey};
use sha3::Digest;

type B32 = [u8; 32];
type Signed = ([u8; 32], [u8; 65]);

// ---------------------------------------------------------------------------------------
// 256-bit big-endian constants and helpers
// ---------------------------------------------------------------------------------------

const fn nibble(c: u8) -> u8 {
    match c {
        b'0'..=b'9' => c - b'0',
        b'a'..=b'f' => c - b'a' + 10,
        _ => panic!("not hex"),
    }
}

const fn h32(s: &str) -> B32 {
    let b = s.as_bytes();
    let mut out = [0u8; 32];
    let mut i = 0;
    while i < 32 {
        out[i] = (nibble(b[2 * i]) << 4) | nibble(b[2 * i + 1]);
        i += 1;
    }
    out
}

/// The group order n.
const N: B32 = h32("fffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141");
/// The field prime p.
const P: B32 = h32("fffffffffffffffffffffffffffffffffffffffffffffffffffffffefffffc2f");
/// ⌊n / 2⌋.
const N_HALF: B32 = h32("7fffffffffffffffffffffffffffffff5d576e7357a4501ddfe92f46681b20a0");
/// The x-coordinate of the generator G.
const GX: B32 = h32("79be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798");
const ZERO: B32 = [0; 32];
const ONES: B32 = [0xff; 32];

fn add(a: &B32, b: &B32) -> (B32, bool) {
    let mut out = [0u8; 32];
    let mut carry = 0u16;
    for i in (0..32).rev() {
        let t = u16::from(a[i]) + u16::from(b[i]) + carry;
        out[i] = t as u8;
        carry = t >> 8;
    }
    (out, carry != 0)
}

fn sub(a: &B32, b: &B32) -> (B32, bool) {
    let mut out = [0u8; 32];
    let mut borrow = 0i16;
    for i in (0..32).rev() {
        let t = i16::from(a[i]) - i16::from(b[i]) - borrow;
        out[i] = t as u8;
        borrow = i16::from(t < 0);
    }
    (out, borrow != 0)
}

fn small(k: u64) -> B32 {
    let mut out = [0u8; 32];
    out[24..].copy_from_slice(&k.to_be_bytes());
    out
}

fn pow2(k: u32) -> B32 {
    let mut out = [0u8; 32];
    out[31 - (k / 8) as usize] = 1 << (k % 8);
    out
}

/// `base + k` (k may be negative), wrapping mod 2²⁵⁶.
fn offset(base: &B32, k: i64) -> B32 {
    if k >= 0 {
        add(base, &small(k as u64)).0
    } else {
        sub(base, &small(k.unsigned_abs())).0
    }
}

fn is_zero(a: &B32) -> bool {
    a.iter().all(|&b| b == 0)
}

/// In [1, n − 1]. (Arrays compare lexicographically, which is numeric order big-endian.)
fn is_scalar(a: &B32) -> bool {
    !is_zero(a) && *a < N
}

/// `−a mod n` for a < n.
fn neg_n(a: &B32) -> B32 {
    if is_zero(a) { ZERO } else { sub(&N, a).0 }
}

/// `a − b mod n` for a, b < n.
fn sub_n(a: &B32, b: &B32) -> B32 {
    let (d, borrow) = sub(a, b);
    if borrow { add(&d, &N).0 } else { d }
}

/// `a · b mod n`.
fn mul_n(a: &B32, b: &B32) -> B32 {
    let n = BigUint::from_bytes_be(&N);
    let v = (BigUint::from_bytes_be(a) * BigUint::from_bytes_be(b)) % n;
    let bytes = v.to_bytes_be();
    let mut out = [0u8; 32];
    out[32 - bytes.len()..].copy_from_slice(&bytes);
    out
}

/// Values worth testing for r, s and the hash.
static SPECIALS: LazyLock<Vec<B32>> = LazyLock::new(|| {
    let p_minus_n = sub(&P, &N).0;
    let mut v = vec![
        ZERO,
        small(1),
        small(2),
        small(3),
        small(7),
        pow2(64),
        pow2(128),
        pow2(255),
        ONES,
        offset(&ONES, -1),
        N_HALF,
        offset(&N_HALF, 1),
        offset(&N_HALF, 2),
        GX,
        neg_n(&GX),
    ];
    for k in -3..=3 {
        v.push(offset(&N, k));
        v.push(offset(&P, k));
        v.push(offset(&p_minus_n, k));
    }
    v
});

// ---------------------------------------------------------------------------------------
// Deterministic randomness
// ---------------------------------------------------------------------------------------

fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// splitmix64.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }

    fn range(&mut self, lo: u64, hi_inclusive: u64) -> u64 {
        lo + self.below(hi_inclusive - lo + 1)
    }

    fn byte(&mut self) -> u8 {
        self.next() as u8
    }

    fn coin(&mut self) -> bool {
        self.next() & 1 == 1
    }

    fn fill(&mut self, buf: &mut [u8]) {
        for chunk in buf.chunks_mut(8) {
            let w = self.next().to_le_bytes();
            chunk.copy_from_slice(&w[..chunk.len()]);
        }
    }

    fn b32(&mut self) -> B32 {
        let mut out = [0u8; 32];
        self.fill(&mut out);
        out
    }

    /// Uniform in [1, n − 1].
    fn scalar(&mut self) -> B32 {
        loop {
            let b = self.b32();
            if is_scalar(&b) {
                return b;
            }
        }
    }
}

fn round_seed(seed: u64, thread: u64, round: u64) -> u64 {
    mix(mix(seed) ^ mix(thread.wrapping_mul(0x1_0000_0001) ^ (round << 20)))
}

// ---------------------------------------------------------------------------------------
// The reference: libsecp256k1 (and sha3 / tiny-keccak), with the crate's documented rules
// ---------------------------------------------------------------------------------------

/// Ethereum address of X ‖ Y, with tiny-keccak.
fn address(key: &[u8; 64]) -> [u8; 20] {
    use tiny_keccak::Hasher;
    let mut h = tiny_keccak::Keccak::v256();
    h.update(key);
    let mut out = [0u8; 32];
    h.finalize(&mut out);
    out[12..].try_into().unwrap()
}

fn word(addr: &[u8; 20]) -> [u8; 32] {
    let mut w = [0u8; 32];
    w[12..].copy_from_slice(addr);
    w
}

fn sha3_keccak(data: &[u8]) -> [u8; 32] {
    sha3::Keccak256::digest(data).into()
}

/// Whether `x` (with `overflow`: x ≥ 2²⁵⁶) is the x-coordinate of a curve point, asked of
/// libsecp256k1 (it parses 0x02 ‖ x only if x < p and x³ + 7 has a square root).
fn is_x_coordinate(x: &B32, overflow: bool) -> bool {
    if overflow || *x >= P {
        return false;
    }
    let mut c = [2u8; 33];
    c[1..].copy_from_slice(x);
    PublicKey::from_byte_array_compressed(c).is_ok()
}

fn libsecp_recover(hash: &B32, r: &B32, s: &B32, recid: u8) -> Option<[u8; 64]> {
    let mut compact = [0u8; 64];
    compact[..32].copy_from_slice(r);
    compact[32..].copy_from_slice(s);
    let id = RecoveryId::try_from(i32::from(recid)).ok()?;
    let sig = RecoverableSignature::from_compact(&compact, id).ok()?;
    let pk = sig.recover_ecdsa(Message::from_digest(*hash)).ok()?;
    Some(pk.serialize_uncompressed()[1..].try_into().unwrap())
}

/// Expected results, memoised by (hash, r, s, recid).
#[derive(Default)]
struct Reference {
    memo: HashMap<[u8; 97], Result<[u8; 64], Error>>,
    /// Places where libsecp256k1 and the documented rules contradict each other (a bug in
    /// this reference, never expected).
    inconsistencies: Vec<String>,
}

fn memo_key(hash: &B32, r: &B32, s: &B32, recid: u8) -> [u8; 97] {
    let mut k = [0u8; 97];
    k[..32].copy_from_slice(hash);
    k[32..64].copy_from_slice(r);
    k[64..96].copy_from_slice(s);
    k[96] = recid;
    k
}

impl Reference {
    /// Records a result known by construction (the signer's own key).
    fn known(&mut self, hash: &B32, r: &B32, s: &B32, recid: u8, key: [u8; 64]) {
        self.memo.insert(memo_key(hash, r, s, recid), Ok(key));
    }

    /// The expected result of recovery with a libsecp256k1 recovery id (0..=3): libsecp's
    /// answer; on failure, the reason by the crate's documented rules, checked in the
    /// crate's order (r range, s range, R exists, Q ≠ O).
    fn recover(&mut self, hash: &B32, r: &B32, s: &B32, recid: u8) -> Result<[u8; 64], Error> {
        debug_assert!(recid <= 3);
        let k = memo_key(hash, r, s, recid);
        if let Some(v) = self.memo.get(&k) {
            return *v;
        }
        let lib = libsecp_recover(hash, r, s, recid);
        let reason = if !is_scalar(r) {
            Some(Error::InvalidR)
        } else if !is_scalar(s) {
            Some(Error::InvalidS)
        } else if lib.is_some() {
            None
        } else {
            let (x, overflow) = if recid & 2 != 0 {
                add(r, &N)
            } else {
                (*r, false)
            };
            if is_x_coordinate(&x, overflow) {
                // r and s in range and R exists: the only failure left is Q = O.
                Some(Error::PointAtInfinity)
            } else {
                Some(Error::NotOnCurve)
            }
        };
        let v = match (lib, reason) {
            (Some(key), None) => Ok(key),
            (None, Some(e)) => Err(e),
            (Some(_), Some(e)) => {
                self.inconsistencies.push(format!(
                    "libsecp256k1 recovered a key where the rules say {e:?}: hash={} r={} s={} recid={recid}",
                    hex::encode(hash),
                    hex::encode(r),
                    hex::encode(s)
                ));
                Err(e)
            }
            (None, None) => unreachable!(),
        };
        self.memo.insert(k, v);
        v
    }

    /// The expected result of `recover_public_key` / `recover_address` for an Ethereum v.
    fn recover_v(&mut self, hash: &B32, r: &B32, s: &B32, v: u8) -> Result<[u8; 64], Error> {
        match v {
            0 | 1 => self.recover(hash, r, s, v),
            27 | 28 => self.recover(hash, r, s, v - 27),
            _ => Err(Error::InvalidRecoveryId(v)),
        }
    }

    /// The expected output of the EVM precompile 0x01 (yellow paper, appendix E).
    fn precompile(&mut self, input: &[u8]) -> Option<[u8; 32]> {
        let mut buf = [0u8; 128];
        let len = input.len().min(128);
        buf[..len].copy_from_slice(&input[..len]);
        let hash: B32 = buf[..32].try_into().unwrap();
        let r: B32 = buf[64..96].try_into().unwrap();
        let s: B32 = buf[96..].try_into().unwrap();
        if buf[32..63].iter().any(|&b| b != 0) || !(buf[63] == 27 || buf[63] == 28) {
            return None;
        }
        self.recover(&hash, &r, &s, buf[63] - 27)
            .ok()
            .map(|k| word(&address(&k)))
    }
}

// ---------------------------------------------------------------------------------------
// Inputs
// ---------------------------------------------------------------------------------------

const KIND_NAMES: [&str; 11] = [
    "signed (libsecp256k1, low s)",
    "signed, high-s twin",
    "random r, s, hash",
    "bit flips of a signed one",
    "special values (0, 1, n±k, p±k, p−n±k, 2^256−k, ...)",
    "every v (0..=255)",
    "random bytes",
    "recid 2/3 (r < p − n)",
    "crafted R = kG: Q = O or Q = jG",
    "r not an x-coordinate",
    "r or s out of range",
];
const K_SIGNED: usize = 0;
const K_TWIN: usize = 1;
const K_RANDOM_RS: usize = 2;
const K_FLIP: usize = 3;
const K_SPECIAL: usize = 4;
const K_EVERY_V: usize = 5;
const K_BYTES: usize = 6;
const K_HIGH_X: usize = 7;
const K_CRAFTED: usize = 8;
const K_NOT_X: usize = 9;
const K_RANGE: usize = 10;

/// Relative weights of the generators (the signed one pushes two cases).
const WEIGHTS: [(usize, u64); 10] = [
    (K_SIGNED, 22),
    (K_RANDOM_RS, 14),
    (K_FLIP, 12),
    (K_SPECIAL, 12),
    (K_EVERY_V, 6),
    (K_BYTES, 6),
    (K_HIGH_X, 4),
    (K_CRAFTED, 6),
    (K_NOT_X, 8),
    (K_RANGE, 6),
];

/// One input and what every entry point must return for it.
struct Case {
    kind: usize,
    hash: B32,
    sig: [u8; 65],
    /// libsecp256k1 recovery id passed to `ecrecover` (any byte).
    recid: u8,
    /// Input of `ecrecover_precompile`.
    pre: Vec<u8>,
    want_key: Result<[u8; 64], Error>,
    want_addr: Result<[u8; 20], Error>,
    want_ec: Result<[u8; 32], Error>,
    want_pre: Option<[u8; 32]>,
}

impl Case {
    fn describe(&self) -> String {
        format!(
            "[{}] hash={} sig={} (r={} s={} v={}) ecrecover recid={} precompile input ({} bytes)={}",
            KIND_NAMES[self.kind],
            hex::encode(self.hash),
            hex::encode(self.sig),
            hex::encode(&self.sig[..32]),
            hex::encode(&self.sig[32..64]),
            self.sig[64],
            self.recid,
            self.pre.len(),
            hex::encode(&self.pre)
        )
    }

    fn signed(&self) -> Signed {
        (self.hash, self.sig)
    }
}

struct Gen {
    rng: Rng,
    reference: Reference,
    /// Signed (hash, r, s, recid) of this round, for the bit-flip generator.
    bases: Vec<(B32, B32, B32, u8)>,
    cases: Vec<Case>,
}

impl Gen {
    fn new(seed: u64) -> Self {
        Gen {
            rng: Rng(seed),
            reference: Reference::default(),
            bases: Vec::new(),
            cases: Vec::new(),
        }
    }

    /// An Ethereum v for a parity: 0/1 or 27/28.
    fn ev(&mut self, parity: u8) -> u8 {
        parity + if self.rng.coin() { 27 } else { 0 }
    }

    /// A message hash: mostly random, sometimes 0, n, n + k, p, 2²⁵⁶ − 1 or small.
    fn hash(&mut self) -> B32 {
        match self.rng.below(100) {
            0 => ZERO,
            1 => N,
            2 => ONES,
            3 => offset(&N, self.rng.below(1 << 20) as i64),
            4 => small(self.rng.next()),
            5 => P,
            _ => self.rng.b32(),
        }
    }

    /// A special value (or a random one near a boundary).
    fn special(&mut self) -> B32 {
        if self.rng.below(10) < 7 {
            let i = self.rng.below(SPECIALS.len() as u64) as usize;
            SPECIALS[i]
        } else {
            let k = self.rng.below(1 << 16) as i64;
            let k = if self.rng.coin() { k } else { -k };
            let base = match self.rng.below(5) {
                0 => ZERO,
                1 => N,
                2 => P,
                3 => sub(&P, &N).0,
                _ => ZERO, // 2²⁵⁶ − k via wrapping
            };
            offset(&base, k)
        }
    }

    /// The precompile input for (hash, v, r, s): usually the canonical 128 bytes with v
    /// word 27/28, sometimes a raw or random v byte, a dirty v word, or a length in 0..=200.
    fn precompile_input(&mut self, hash: &B32, r: &B32, s: &B32, v: u8) -> Vec<u8> {
        let mut input = vec![0u8; 128];
        input[..32].copy_from_slice(hash);
        input[63] = if v <= 1 { v + 27 } else { v };
        input[64..96].copy_from_slice(r);
        input[96..].copy_from_slice(s);
        match self.rng.below(100) {
            0..=79 => {}
            80..=83 => input[63] = v,
            84..=87 => input[63] = self.rng.byte(),
            88..=91 => {
                let i = 32 + self.rng.below(31) as usize;
                input[i] = 1 + self.rng.below(255) as u8;
            }
            _ => {
                let len = self.rng.below(201) as usize;
                if len <= 128 {
                    input.truncate(len);
                } else {
                    let mut extra = vec![0u8; len - 128];
                    self.rng.fill(&mut extra);
                    input.extend_from_slice(&extra);
                }
            }
        }
        input
    }

    fn push(&mut self, kind: usize, hash: B32, r: B32, s: B32, v: u8, recid: u8) {
        let pre = self.precompile_input(&hash, &r, &s, v);
        self.push_with(kind, hash, r, s, v, recid, pre);
    }

    #[allow(clippy::too_many_arguments)]
    fn push_with(
        &mut self,
        kind: usize,
        hash: B32,
        r: B32,
        s: B32,
        v: u8,
        recid: u8,
        pre: Vec<u8>,
    ) {
        let want_key = self.reference.recover_v(&hash, &r, &s, v);
        let want_ec = if recid > 3 {
            Err(Error::InvalidRecoveryId(recid))
        } else {
            self.reference
                .recover(&hash, &r, &s, recid)
                .map(|k| word(&address(&k)))
        };
        let want_pre = self.reference.precompile(&pre);
        let mut sig = [0u8; 65];
        sig[..32].copy_from_slice(&r);
        sig[32..64].copy_from_slice(&s);
        sig[64] = v;
        self.cases.push(Case {
            kind,
            hash,
            sig,
            recid,
            pre,
            want_key,
            want_addr: want_key.map(|k| address(&k)),
            want_ec,
            want_pre,
        });
    }

    /// Signs a random hash with a random key (sometimes 1, n − 1 or small) using
    /// libsecp256k1 and records the signer's key as the expected result for the signature
    /// and its high-s twin. Returns (hash, r, s, recid).
    fn signed_base(&mut self) -> (B32, B32, B32, u8) {
        loop {
            let secret = match self.rng.below(200) {
                0 => small(1),
                1 => offset(&N, -1),
                2 => small(self.rng.next() | 1),
                3 => offset(&N, -1 - self.rng.below(1000) as i64),
                _ => self.rng.b32(),
            };
            let Ok(sk) = SecretKey::from_secret_bytes(secret) else {
                continue;
            };
            let hash = self.hash();
            let sig = RecoverableSignature::sign_ecdsa_recoverable(Message::from_digest(hash), &sk);
            let (id, compact) = sig.serialize_compact();
            let recid = id.to_u8();
            if recid > 1 {
                continue; // R.x ≥ n: probability ~2⁻¹²⁷
            }
            let r: B32 = compact[..32].try_into().unwrap();
            let s: B32 = compact[32..].try_into().unwrap();
            let key: [u8; 64] = PublicKey::from_secret_key(&sk).serialize_uncompressed()[1..]
                .try_into()
                .unwrap();
            self.reference.known(&hash, &r, &s, recid, key);
            self.reference.known(&hash, &r, &neg_n(&s), recid ^ 1, key);
            if self.bases.len() >= 64 {
                self.bases.swap_remove(self.rng.below(64) as usize);
            }
            self.bases.push((hash, r, s, recid));
            return (hash, r, s, recid);
        }
    }

    fn gen_case(&mut self) {
        let total: u64 = WEIGHTS.iter().map(|w| w.1).sum();
        let mut x = self.rng.below(total);
        let mut kind = WEIGHTS[0].0;
        for &(k, w) in &WEIGHTS {
            if x < w {
                kind = k;
                break;
            }
            x -= w;
        }
        match kind {
            K_SIGNED => {
                let (hash, r, s, recid) = self.signed_base();
                let v = self.ev(recid);
                self.push(K_SIGNED, hash, r, s, v, recid);
                let v = self.ev(recid ^ 1);
                self.push(K_TWIN, hash, r, neg_n(&s), v, recid ^ 1);
            }
            K_RANDOM_RS => {
                // About half of all r are x-coordinates: a valid recovery or NotOnCurve.
                let (hash, r, s) = (self.hash(), self.rng.b32(), self.rng.b32());
                let parity = self.rng.byte() & 1;
                let v = self.ev(parity);
                let recid = parity | if self.rng.below(8) == 0 { 2 } else { 0 };
                self.push(K_RANDOM_RS, hash, r, s, v, recid);
            }
            K_FLIP => {
                let (hash, r, s, recid) = if self.bases.is_empty() || self.rng.below(4) == 0 {
                    self.signed_base()
                } else {
                    self.bases[self.rng.below(self.bases.len() as u64) as usize]
                };
                let mut buf = [0u8; 97];
                buf[..32].copy_from_slice(&hash);
                buf[32..64].copy_from_slice(&r);
                buf[64..96].copy_from_slice(&s);
                buf[96] = self.ev(recid);
                for _ in 0..self.rng.range(1, 4) {
                    let bit = self.rng.below(97 * 8) as usize;
                    buf[bit / 8] ^= 1 << (bit % 8);
                }
                let v = buf[96];
                let recid = match v {
                    27 | 28 => v - 27,
                    _ => v,
                };
                let hash = buf[..32].try_into().unwrap();
                let r = buf[32..64].try_into().unwrap();
                let s = buf[64..96].try_into().unwrap();
                self.push(K_FLIP, hash, r, s, v, recid);
            }
            K_SPECIAL => {
                let pick = |g: &mut Gen| {
                    if g.rng.below(10) < 7 {
                        g.special()
                    } else {
                        g.rng.scalar()
                    }
                };
                let (r, s) = (pick(self), pick(self));
                let hash = if self.rng.coin() {
                    pick(self)
                } else {
                    self.hash()
                };
                let (v, recid) = if self.rng.below(100) < 85 {
                    let parity = self.rng.byte() & 1;
                    let recid = parity | if self.rng.below(4) == 0 { 2 } else { 0 };
                    (self.ev(parity), recid)
                } else {
                    let v = self.rng.byte();
                    (v, v)
                };
                self.push(K_SPECIAL, hash, r, s, v, recid);
            }
            K_EVERY_V => {
                let (hash, r, s) = if self.rng.coin() && !self.bases.is_empty() {
                    let b = self.bases[self.rng.below(self.bases.len() as u64) as usize];
                    (b.0, b.1, b.2)
                } else {
                    (self.hash(), self.rng.b32(), self.rng.b32())
                };
                let v = self.rng.byte();
                self.push(K_EVERY_V, hash, r, s, v, v);
            }
            K_BYTES => {
                let hash = self.rng.b32();
                let (r, s) = (self.rng.b32(), self.rng.b32());
                let v = self.rng.byte();
                let mut pre = vec![0u8; self.rng.below(201) as usize];
                self.rng.fill(&mut pre);
                self.push_with(K_BYTES, hash, r, s, v, v, pre);
            }
            K_HIGH_X => {
                // r < p − n with r + n an x-coordinate: recovery ids 2 and 3 for ecrecover
                // (the Ethereum v can only say 0/1, which takes x = r instead).
                let p_minus_n = sub(&P, &N).0;
                let mut r = ZERO;
                for _ in 0..16 {
                    r = if self.rng.below(4) == 0 {
                        small(self.rng.range(1, 1000))
                    } else {
                        let mut b = self.rng.b32();
                        b[..15].fill(0);
                        b[15] &= 1;
                        b
                    };
                    if is_scalar(&r) && r < p_minus_n && is_x_coordinate(&add(&r, &N).0, false) {
                        break;
                    }
                }
                let s = if self.rng.below(8) == 0 {
                    self.special()
                } else {
                    self.rng.scalar()
                };
                let hash = self.hash();
                let parity = self.rng.byte() & 1;
                let v = self.ev(parity);
                self.push(K_HIGH_X, hash, r, s, v, 2 | parity);
            }
            K_CRAFTED => self.crafted(),
            K_NOT_X => {
                let r = loop {
                    let r = self.rng.scalar();
                    if !is_x_coordinate(&r, false) {
                        break r;
                    }
                };
                let (hash, s) = (self.hash(), self.rng.scalar());
                let parity = self.rng.byte() & 1;
                let v = self.ev(parity);
                self.push(K_NOT_X, hash, r, s, v, parity);
            }
            _ => {
                let bad = |g: &mut Gen| match g.rng.below(7) {
                    0 => ZERO,
                    1 => N,
                    2 => offset(&N, 1),
                    3 => ONES,
                    4 => P,
                    5 => offset(&N, g.rng.below(1 << 40) as i64),
                    _ => {
                        let mut b = g.rng.b32();
                        b[..16].fill(0xff);
                        if b < N { N } else { b }
                    }
                };
                let (mut r, mut s) = (self.rng.scalar(), self.rng.scalar());
                match self.rng.below(3) {
                    0 => r = bad(self),
                    1 => s = bad(self),
                    _ => {
                        r = bad(self);
                        s = bad(self);
                    }
                }
                let hash = self.hash();
                let parity = self.rng.byte() & 1;
                let v = self.ev(parity);
                let recid = parity | if self.rng.below(4) == 0 { 2 } else { 0 };
                self.push(K_RANGE, hash, r, s, v, recid);
            }
        }
    }

    /// R = kG for a known k (1, 2, 3, n − 1, small or random): with u = ±k (the sign of
    /// the v parity against R's), Q = r⁻¹·(s·u − m)·G, so m = s·u gives Q = O and
    /// m = s·u − r·j gives Q = jG (small j, or −G).
    fn crafted(&mut self) {
        let (k, rx, ry_odd) = loop {
            let k = match self.rng.below(8) {
                0 => small(1),
                1 => small(2),
                2 => small(3),
                3 => offset(&N, -1),
                4 => small(self.rng.range(4, 1 << 20)),
                _ => self.rng.scalar(),
            };
            let Ok(sk) = SecretKey::from_secret_bytes(k) else {
                continue;
            };
            let pk = PublicKey::from_secret_key(&sk).serialize_uncompressed();
            let rx: B32 = pk[1..33].try_into().unwrap();
            if rx < N {
                break (k, rx, pk[64] & 1);
            }
        };
        let parity = if self.rng.below(4) == 0 {
            ry_odd ^ 1
        } else {
            ry_odd
        };
        let u = if parity == ry_odd { k } else { neg_n(&k) };
        let s = if self.rng.below(8) == 0 {
            let x = self.special();
            if is_scalar(&x) { x } else { self.rng.scalar() }
        } else {
            self.rng.scalar()
        };
        let su = mul_n(&s, &u);
        let m = match self.rng.below(8) {
            0..=3 => su,
            4 => sub_n(&su, &rx),
            5 => sub_n(&su, &mul_n(&rx, &small(self.rng.range(2, 5)))),
            6 => sub_n(&su, &neg_n(&rx)),
            _ => self.rng.b32(),
        };
        // The same message as m + n where that still fits in 256 bits.
        let (m_plus_n, overflow) = add(&m, &N);
        let hash = if !overflow && self.rng.coin() {
            m_plus_n
        } else {
            m
        };
        let v = self.ev(parity);
        self.push(K_CRAFTED, hash, rx, s, v, parity);
    }
}

// ---------------------------------------------------------------------------------------
// Checks
// ---------------------------------------------------------------------------------------

const FN_NAMES: [&str; 12] = [
    "recover_public_key",
    "recover_address",
    "ecrecover",
    "ecrecover_precompile",
    "recover_addresses_batch (dispatched)",
    "internals: PortableLanes",
    "recover_addresses (dispatched)",
    "internals: Affine",
    "internals: Interleaved",
    "keccak256",
    "Keccak256 (incremental)",
    "keccak256_batch",
];
const F_KEY: usize = 0;
const F_ADDR: usize = 1;
const F_EC: usize = 2;
const F_PRE: usize = 3;
const F_BATCH: usize = 4;
const F_PORTABLE: usize = 5;
const F_ADDRS: usize = 6;
const F_AFFINE: usize = 7;
const F_INTERLEAVED: usize = 8;
const F_KECCAK: usize = 9;
const F_KECCAK_INC: usize = 10;
const F_KECCAK_BATCH: usize = 11;

const OUTCOME_NAMES: [&str; 8] = [
    "Ok (full recovery)",
    "InvalidRecoveryId",
    "InvalidR",
    "InvalidS",
    "NotOnCurve",
    "PointAtInfinity",
    "precompile: empty output",
    "keccak",
];
const O_KECCAK: usize = 7;

fn outcome<T>(r: &Result<T, Error>) -> usize {
    match r {
        Ok(_) => 0,
        Err(Error::InvalidRecoveryId(_)) => 1,
        Err(Error::InvalidR) => 2,
        Err(Error::InvalidS) => 3,
        Err(Error::NotOnCurve) => 4,
        Err(Error::PointAtInfinity) => 5,
        Err(_) => 6,
    }
}

#[derive(Default, Clone)]
struct Stats {
    execs: [u64; FN_NAMES.len()],
    outcomes: [u64; OUTCOME_NAMES.len()],
    kinds: [u64; KIND_NAMES.len()],
    disagreements: u64,
    panics: u64,
    rounds: u64,
    reference_ns: u64,
    check_ns: u64,
    fn_ns: [u64; FN_NAMES.len()],
}

impl Stats {
    fn merge(&mut self, o: &Stats) {
        for (a, b) in self.execs.iter_mut().zip(&o.execs) {
            *a += b;
        }
        for (a, b) in self.outcomes.iter_mut().zip(&o.outcomes) {
            *a += b;
        }
        for (a, b) in self.kinds.iter_mut().zip(&o.kinds) {
            *a += b;
        }
        self.disagreements += o.disagreements;
        self.panics += o.panics;
        self.rounds += o.rounds;
        self.reference_ns += o.reference_ns;
        self.check_ns += o.check_ns;
        for (a, b) in self.fn_ns.iter_mut().zip(&o.fn_ns) {
            *a += b;
        }
    }

    fn executions(&self) -> u64 {
        self.execs.iter().sum()
    }
}

/// First failures, kept for the final report.
static FAILURES: Mutex<Vec<String>> = Mutex::new(Vec::new());
const KEEP_FAILURES: usize = 10;
const PRINT_FAILURES: usize = 5;
static FAILURES_SEEN: AtomicU64 = AtomicU64::new(0);

fn report(msg: String) {
    let seen = FAILURES_SEEN.fetch_add(1, Ordering::Relaxed);
    if (seen as usize) < PRINT_FAILURES {
        eprintln!("\n{msg}\n");
    }
    let mut f = FAILURES.lock().unwrap_or_else(|e| e.into_inner());
    if f.len() < KEEP_FAILURES {
        f.push(msg);
    }
}

/// Checking context of one round.
struct Checker<'a> {
    stats: &'a mut Stats,
    /// `--replay THREAD:ROUND` for messages.
    round_id: String,
}

impl Checker<'_> {
    /// One call (or one batch call counting `n` executions) whose result must equal
    /// `want`; panics are caught and counted.
    fn one<T: PartialEq + Debug>(
        &mut self,
        f: usize,
        want: &T,
        call: impl FnOnce() -> T,
        input: impl FnOnce() -> String,
    ) {
        self.stats.execs[f] += 1;
        let t = Instant::now();
        let res = panic::catch_unwind(AssertUnwindSafe(call));
        self.stats.fn_ns[f] += t.elapsed().as_nanos() as u64;
        match res {
            Ok(got) if got == *want => {}
            Ok(got) => {
                self.stats.disagreements += 1;
                report(format!(
                    "DISAGREEMENT in {} (round {}):\n  input: {}\n  expected: {want:?}\n  got:      {got:?}",
                    FN_NAMES[f],
                    self.round_id,
                    input()
                ));
            }
            Err(_) => {
                self.stats.panics += 1;
                report(format!(
                    "PANIC in {} (round {}):\n  input: {}",
                    FN_NAMES[f],
                    self.round_id,
                    input()
                ));
            }
        }
    }

    /// A batch call over `cases` (by index): each lane must equal its case's address.
    fn batch(
        &mut self,
        f: usize,
        cases: &[Case],
        idx: &[usize],
        what: &str,
        call: impl FnOnce() -> Vec<Result<[u8; 20], Error>>,
    ) {
        self.stats.execs[f] += idx.len() as u64;
        for &i in idx {
            self.stats.outcomes[outcome(&cases[i].want_addr)] += 1;
        }
        let t = Instant::now();
        let res = panic::catch_unwind(AssertUnwindSafe(call));
        self.stats.fn_ns[f] += t.elapsed().as_nanos() as u64;
        match res {
            Ok(got) => {
                if got.len() != idx.len() {
                    self.stats.disagreements += 1;
                    report(format!(
                        "DISAGREEMENT in {} {what} (round {}): {} results for {} inputs",
                        FN_NAMES[f],
                        self.round_id,
                        got.len(),
                        idx.len()
                    ));
                    return;
                }
                for (lane, (&i, g)) in idx.iter().zip(&got).enumerate() {
                    if *g != cases[i].want_addr {
                        self.stats.disagreements += 1;
                        report(format!(
                            "DISAGREEMENT in {} {what}, lane {lane} of {} (round {}):\n  input: {}\n  expected: {:?}\n  got:      {g:?}",
                            FN_NAMES[f],
                            idx.len(),
                            self.round_id,
                            cases[i].describe(),
                            cases[i].want_addr
                        ));
                    }
                }
            }
            Err(_) => {
                self.stats.panics += 1;
                let inputs: Vec<String> = idx
                    .iter()
                    .take(8)
                    .map(|&i| format!("    {}", cases[i].describe()))
                    .collect();
                report(format!(
                    "PANIC in {} {what} over {} inputs (round {}; rerun it with --replay and --dump); first inputs:\n{}",
                    FN_NAMES[f],
                    idx.len(),
                    self.round_id,
                    inputs.join("\n")
                ));
            }
        }
    }
}

/// Runs round `round` of worker `thread`.
/// `--self-test`: corrupts the expected results of the first input of every round and of
/// one Keccak message, and adds one deliberately panicking call, to show that the runner
/// reports both.
fn corrupt(cases: &mut [Case], msg_hashes: &mut [[u8; 32]]) {
    let c = &mut cases[0];
    c.want_key = match c.want_key {
        Ok(mut k) => {
            k[63] ^= 1;
            Ok(k)
        }
        Err(_) => Ok([0; 64]),
    };
    c.want_addr = c.want_key.map(|k| address(&k));
    c.want_ec = match c.want_ec {
        Ok(_) => Err(Error::PointAtInfinity),
        Err(_) => Ok([0; 32]),
    };
    c.want_pre = match c.want_pre {
        Some(_) => None,
        None => Some([0; 32]),
    };
    msg_hashes[0][0] ^= 1;
}

fn run_round(seed: u64, thread: u64, round: u64, stats: &mut Stats, dump: bool, self_test: bool) {
    let t0 = Instant::now();
    let mut g = Gen::new(round_seed(seed, thread, round));
    // Length: mostly short, sometimes up to the batch-affine threshold, sometimes long
    // (≥ 192: the batch-affine ladder's own threshold, > 256: several ladder chunks).
    let len = match g.rng.below(100) {
        0..=84 => g.rng.range(1, 48),
        85..=95 => g.rng.range(49, 191),
        _ => g.rng.range(192, 600),
    } as usize;
    while g.cases.len() < len {
        g.gen_case();
    }
    g.cases.truncate(len);
    let mut cases = std::mem::take(&mut g.cases);
    let mut rng = Rng(mix(g.rng.next()));
    // Keccak inputs: lengths around the rate (136) and the 64-byte key fast path.
    const EDGES: [usize; 21] = [
        0, 1, 31, 32, 33, 63, 64, 65, 127, 128, 135, 136, 137, 200, 271, 272, 273, 407, 408, 409,
        544,
    ];
    let same_len = rng.below(4) == 0;
    let mut msgs: Vec<Vec<u8>> = Vec::with_capacity(8);
    let mut common_len = 0;
    for i in 0..8 {
        let len = if same_len && i > 0 {
            common_len
        } else {
            match rng.below(10) {
                0..=3 => EDGES[rng.below(EDGES.len() as u64) as usize],
                4..=8 => rng.below(401) as usize,
                _ => rng.range(401, 4000) as usize,
            }
        };
        common_len = len;
        let mut m = vec![0u8; len];
        rng.fill(&mut m);
        msgs.push(m);
    }
    let mut msg_hashes: Vec<[u8; 32]> = msgs.iter().map(|m| sha3_keccak(m)).collect();
    let splits: Vec<Vec<usize>> = msgs
        .iter()
        .map(|m| {
            let mut cuts: Vec<usize> = (0..rng.below(5))
                .map(|_| rng.below(m.len() as u64 + 1) as usize)
                .collect();
            cuts.sort_unstable();
            cuts
        })
        .collect();
    if self_test {
        corrupt(&mut cases, &mut msg_hashes);
    }
    let interleave_group = [1, 2, 3, 4, 5, 7, 8, 9, 16, 32][rng.below(10) as usize];
    let portable_group = rng.below(4) == 0;
    stats.reference_ns += t0.elapsed().as_nanos() as u64;
    for e in g.reference.inconsistencies.drain(..) {
        stats.disagreements += 1;
        report(format!("REFERENCE INCONSISTENCY: {e}"));
    }
    let round_id = format!("{thread}:{round}");
    if dump {
        println!("round {round_id}: {} cases", cases.len());
        for (i, c) in cases.iter().enumerate() {
            println!("  #{i}: {}", c.describe());
        }
    }

    let t1 = Instant::now();
    for c in &cases {
        stats.kinds[c.kind] += 1;
    }
    let mut ck = Checker { stats, round_id };
    if self_test {
        ck.one(
            F_KEY,
            &Err::<[u8; 64], _>(Error::InvalidR),
            || panic!("self-test"),
            || "self-test".into(),
        );
    }
    // Single-signature entry points.
    for c in &cases {
        let sig64: [u8; 64] = c.sig[..64].try_into().unwrap();
        ck.stats.outcomes[outcome(&c.want_key)] += 1;
        ck.one(
            F_KEY,
            &c.want_key,
            || asmcrypto::recover_public_key(&c.hash, &c.sig),
            || c.describe(),
        );
        ck.stats.outcomes[outcome(&c.want_addr)] += 1;
        ck.one(
            F_ADDR,
            &c.want_addr,
            || asmcrypto::recover_address(&c.hash, &c.sig),
            || c.describe(),
        );
        ck.stats.outcomes[outcome(&c.want_ec)] += 1;
        ck.one(
            F_EC,
            &c.want_ec,
            || asmcrypto::ecrecover(&sig64, c.recid, &c.hash),
            || c.describe(),
        );
        ck.stats.outcomes[if c.want_pre.is_some() { 0 } else { 6 }] += 1;
        ck.one(
            F_PRE,
            &c.want_pre,
            || asmcrypto::ecrecover_precompile(&c.pre),
            || c.describe(),
        );
    }
    // Groups of eight (the last one wraps around to the first cases).
    let all: Vec<usize> = (0..cases.len()).collect();
    for start in (0..cases.len()).step_by(8) {
        let idx: Vec<usize> = (0..8).map(|i| (start + i) % cases.len()).collect();
        let group: [Signed; 8] = core::array::from_fn(|i| cases[idx[i]].signed());
        ck.batch(F_BATCH, &cases, &idx, "", || {
            asmcrypto::recover_addresses_batch(&group).to_vec()
        });
        if portable_group && start == 0 {
            ck.batch(F_PORTABLE, &cases, &idx, "", || {
                recover_addresses_on(BatchPath::PortableLanes, &group).expect("every CPU")
            });
        }
    }
    // Any length.
    let inputs: Vec<Signed> = cases.iter().map(Case::signed).collect();
    ck.batch(F_ADDRS, &cases, &all, "", || {
        asmcrypto::recover_addresses(&inputs)
    });
    ck.batch(F_AFFINE, &cases, &all, "", || {
        recover_addresses_on(BatchPath::Affine, &inputs).expect("every CPU")
    });
    ck.batch(
        F_INTERLEAVED,
        &cases,
        &all,
        &format!("(group {interleave_group})"),
        || {
            recover_addresses_on(
                BatchPath::Interleaved {
                    group: interleave_group,
                },
                &inputs,
            )
            .expect("every CPU")
        },
    );
    // Keccak-256.
    let msg_desc = |i: usize| format!("{} bytes: {}", msgs[i].len(), hex::encode(&msgs[i]));
    for i in 0..4 {
        ck.stats.outcomes[O_KECCAK] += 2;
        ck.one(
            F_KECCAK,
            &msg_hashes[i],
            || asmcrypto::keccak256(&msgs[i]),
            || msg_desc(i),
        );
        ck.one(
            F_KECCAK_INC,
            &msg_hashes[i],
            || {
                let mut h = asmcrypto::Keccak256::new();
                let mut at = 0;
                for &cut in &splits[i] {
                    h.update(&msgs[i][at..cut]);
                    at = cut;
                }
                h.update(&msgs[i][at..]);
                h.finalize()
            },
            || format!("{} split at {:?}", msg_desc(i), splits[i]),
        );
    }
    let refs: [&[u8]; 8] = core::array::from_fn(|i| msgs[i].as_slice());
    let want: [[u8; 32]; 8] = core::array::from_fn(|i| msg_hashes[i]);
    ck.stats.outcomes[O_KECCAK] += 8;
    ck.one(
        F_KECCAK_BATCH,
        &want,
        || asmcrypto::keccak256_batch(refs),
        || (0..8).map(msg_desc).collect::<Vec<_>>().join("\n    "),
    );
    // A batch of 8 counts 8 executions.
    ck.stats.execs[F_KECCAK_BATCH] += 7;
    ck.stats.check_ns += t1.elapsed().as_nanos() as u64;
    ck.stats.rounds += 1;
}

// ---------------------------------------------------------------------------------------
// Driver
// ---------------------------------------------------------------------------------------

struct Args {
    seconds: f64,
    threads: usize,
    seed: u64,
    progress: f64,
    replay: Option<(u64, u64)>,
    dump: bool,
    self_test: bool,
}

fn parse_args() -> Args {
    let mut a = Args {
        seconds: 10.0,
        threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
        seed: 1,
        progress: 0.0,
        replay: None,
        dump: false,
        self_test: false,
    };
    let mut it = std::env::args().skip(1);
    let usage = "usage: soak --seconds N [--threads T] [--seed S] [--progress SECS] [--replay THREAD:ROUND [--dump]] [--self-test]";
    while let Some(arg) = it.next() {
        let mut val = |name: &str| {
            it.next()
                .unwrap_or_else(|| panic!("{name} needs a value\n{usage}"))
        };
        match arg.as_str() {
            "--seconds" => a.seconds = val("--seconds").parse().expect("--seconds: a number"),
            "--threads" => a.threads = val("--threads").parse().expect("--threads: a number"),
            "--seed" => a.seed = val("--seed").parse().expect("--seed: a u64"),
            "--progress" => a.progress = val("--progress").parse().expect("--progress: seconds"),
            "--replay" => {
                let v = val("--replay");
                let (t, r) = v.split_once(':').expect("--replay THREAD:ROUND");
                a.replay = Some((t.parse().expect("thread"), r.parse().expect("round")));
            }
            "--dump" => a.dump = true,
            "--self-test" => a.self_test = true,
            "-h" | "--help" => {
                println!("{usage}");
                std::process::exit(0);
            }
            other => panic!("unknown argument {other}\n{usage}"),
        }
    }
    a.threads = a.threads.max(1);
    if a.progress <= 0.0 {
        a.progress = if a.seconds > 300.0 { 60.0 } else { 10.0 };
    }
    a
}

fn has_ifma() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::arch::is_x86_feature_detected!("avx512ifma")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

fn cpu_name() -> String {
    std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("model name"))
                .and_then(|l| l.split_once(':'))
                .map(|(_, v)| v.trim().to_owned())
        })
        .unwrap_or_else(|| "unknown CPU".into())
}

fn print_summary(s: &Stats, elapsed: Duration, threads: usize) {
    let secs = elapsed.as_secs_f64();
    let execs = s.executions();
    println!("--- summary ---");
    println!(
        "executions: {execs} in {secs:.1} s on {threads} threads = {:.0} executions/s ({} rounds)",
        execs as f64 / secs,
        s.rounds
    );
    println!("disagreements: {}   panics: {}", s.disagreements, s.panics);
    println!("per function:");
    for ((name, n), ns) in FN_NAMES.iter().zip(&s.execs).zip(&s.fn_ns) {
        println!(
            "  {name:<44} {n:>14}  {:7.2} µs/execution",
            *ns as f64 / 1e3 / (*n).max(1) as f64
        );
    }
    let total_outcomes: u64 = s.outcomes.iter().sum();
    println!("expected outcome of each execution:");
    for (name, n) in OUTCOME_NAMES.iter().zip(&s.outcomes) {
        println!(
            "  {name:<44} {n:>14}  {:5.1}%",
            100.0 * *n as f64 / total_outcomes.max(1) as f64
        );
    }
    let total_cases: u64 = s.kinds.iter().sum();
    println!("generated inputs by kind:");
    for (name, n) in KIND_NAMES.iter().zip(&s.kinds) {
        println!(
            "  {name:<54} {n:>12}  {:5.1}%",
            100.0 * *n as f64 / total_cases.max(1) as f64
        );
    }
    let busy = (s.reference_ns + s.check_ns).max(1) as f64;
    println!(
        "thread time: {:.0}% generating inputs and the libsecp256k1/sha3 reference, {:.0}% in the checked calls",
        100.0 * s.reference_ns as f64 / busy,
        100.0 * s.check_ns as f64 / busy
    );
}

fn main() {
    let args = parse_args();
    // Print the first few panic messages (with location); count all of them.
    static PANIC_MSGS: AtomicU64 = AtomicU64::new(0);
    panic::set_hook(Box::new(|info| {
        if PANIC_MSGS.fetch_add(1, Ordering::Relaxed) < PRINT_FAILURES as u64 {
            eprintln!("panic caught: {info}");
        }
    }));
    println!(
        "asmcrypto soak: backend {} on {} (avx512ifma: {}), seed {}",
        asmcrypto::backend(),
        cpu_name(),
        has_ifma(),
        args.seed
    );

    let start = Instant::now();
    let total = Mutex::new(Stats::default());
    if let Some((thread, round)) = args.replay {
        let mut s = Stats::default();
        run_round(args.seed, thread, round, &mut s, args.dump, args.self_test);
        total.lock().unwrap().merge(&s);
    } else {
        println!(
            "running {} s on {} threads (progress every {} s)",
            args.seconds, args.threads, args.progress
        );
        let stop = AtomicBool::new(false);
        let deadline = start + Duration::from_secs_f64(args.seconds);
        std::thread::scope(|scope| {
            for t in 0..args.threads {
                let (stop, total) = (&stop, &total);
                let (seed, self_test) = (args.seed, args.self_test);
                scope.spawn(move || {
                    let mut round = 0u64;
                    while !stop.load(Ordering::Relaxed) {
                        let mut s = Stats::default();
                        run_round(seed, t as u64, round, &mut s, false, self_test);
                        total.lock().unwrap_or_else(|e| e.into_inner()).merge(&s);
                        round += 1;
                    }
                });
            }
            let mut next = start + Duration::from_secs_f64(args.progress);
            loop {
                let now = Instant::now();
                if now >= deadline {
                    stop.store(true, Ordering::Relaxed);
                    break;
                }
                if now >= next {
                    let s = total.lock().unwrap_or_else(|e| e.into_inner()).clone();
                    let el = start.elapsed().as_secs_f64();
                    let ok = s.outcomes[0] as f64 / s.outcomes.iter().sum::<u64>().max(1) as f64;
                    println!(
                        "[{el:7.0} s] executions {:>13}  {:>8.0}/s  valid recoveries {:4.1}%  disagreements {}  panics {}",
                        s.executions(),
                        s.executions() as f64 / el,
                        100.0 * ok,
                        s.disagreements,
                        s.panics
                    );
                    next += Duration::from_secs_f64(args.progress);
                }
                std::thread::sleep(Duration::from_millis(50).min(deadline - now));
            }
        });
    }
    let s = total.into_inner().unwrap_or_else(|e| e.into_inner());
    print_summary(
        &s,
        start.elapsed(),
        if args.replay.is_some() {
            1
        } else {
            args.threads
        },
    );
    let failures = FAILURES.lock().unwrap_or_else(|e| e.into_inner());
    if !failures.is_empty() {
        println!("first failures (seed {}):", args.seed);
        for f in failures.iter() {
            println!("{f}\n");
        }
    }
    if s.disagreements > 0 || s.panics > 0 {
        println!("FAILED");
        std::process::exit(1);
    }
    println!("OK: no disagreements, no panics");
}
