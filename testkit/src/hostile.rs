//! The seeded signature generator with hostile kinds (the soak runner's input mix, see
//! `doc/reliability.md`): valid signatures by libsecp256k1 and their high-s twins, random
//! r, s and hash, bit flips, special values, every v, random bytes, recovery ids 2 and 3,
//! crafted R = kG whose key is the point at infinity or a small multiple of G, r that is
//! not an x-coordinate, r or s out of range, and signatures crafted so that u₁ and u₂ sit
//! at the edges of the recodings ([`crate::boundary`]); each with a precompile input (canonical,
//! or with a raw or random v byte, a dirty v word, or cut or padded to 0..=200 bytes) and
//! every entry point's expected result from the [`Reference`].

use asmcrypto::Error;
use secp256k1::SecretKey;

use crate::curve::{
    B32, N, ONES, P, ZERO, add, is_scalar, mul_n, neg_n, offset, small, sub, sub_n,
};
use crate::model::Reference;
use crate::oracle::{address_of_key, address_word, public_key_of, secp_is_x_coordinate, sign};
use crate::rng::SplitMix64;
use crate::sig::{Signed, sig65};

/// The kinds of input.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A signature by libsecp256k1 (low s).
    Signed,
    /// Its high-s twin.
    Twin,
    /// Random r, s and hash.
    RandomRs,
    /// Bit flips of a signed one.
    Flip,
    /// Special values.
    Special,
    /// Every v.
    EveryV,
    /// Random bytes.
    Bytes,
    /// Recovery ids 2 and 3.
    HighX,
    /// Crafted R = kG.
    Crafted,
    /// r not an x-coordinate.
    NotX,
    /// r or s out of range.
    Range,
    /// u₁ = −z·r⁻¹ and u₂ = s·r⁻¹ at the edges of the GLV split and the recodings.
    Boundary,
}

impl Kind {
    /// Every kind, in the order of [`Kind::index`].
    pub const ALL: [Kind; 12] = [
        Kind::Signed,
        Kind::Twin,
        Kind::RandomRs,
        Kind::Flip,
        Kind::Special,
        Kind::EveryV,
        Kind::Bytes,
        Kind::HighX,
        Kind::Crafted,
        Kind::NotX,
        Kind::Range,
        Kind::Boundary,
    ];

    /// The position in [`Kind::ALL`] (for tables of counts).
    pub fn index(self) -> usize {
        self as usize
    }

    /// A short name, for command lines (the soak runner's `--only`).
    pub fn key(self) -> &'static str {
        match self {
            Kind::Signed => "signed",
            Kind::Twin => "twin",
            Kind::RandomRs => "random-rs",
            Kind::Flip => "flip",
            Kind::Special => "special",
            Kind::EveryV => "every-v",
            Kind::Bytes => "bytes",
            Kind::HighX => "high-x",
            Kind::Crafted => "crafted",
            Kind::NotX => "not-x",
            Kind::Range => "range",
            Kind::Boundary => "boundary",
        }
    }

    /// What it is, for reports.
    pub fn name(self) -> &'static str {
        match self {
            Kind::Signed => "signed (libsecp256k1, low s)",
            Kind::Twin => "signed, high-s twin",
            Kind::RandomRs => "random r, s, hash",
            Kind::Flip => "bit flips of a signed one",
            Kind::Special => "special values (0, 1, n±k, p±k, p−n±k, 2^256−k, ...)",
            Kind::EveryV => "every v (0..=255)",
            Kind::Bytes => "random bytes",
            Kind::HighX => "recid 2/3 (r < p − n)",
            Kind::Crafted => "crafted R = kG: Q = O or Q = jG",
            Kind::NotX => "r not an x-coordinate",
            Kind::Range => "r or s out of range",
            Kind::Boundary => "boundary u1, u2 (GLV ties and corners, 2^i±1, ...)",
        }
    }
}

/// Relative weights of the generators (the signed one pushes two cases).
const WEIGHTS: [(Kind, u64); 11] = [
    (Kind::Signed, 22),
    (Kind::RandomRs, 14),
    (Kind::Flip, 12),
    (Kind::Special, 12),
    (Kind::EveryV, 6),
    (Kind::Bytes, 6),
    (Kind::HighX, 4),
    (Kind::Crafted, 6),
    (Kind::NotX, 8),
    (Kind::Range, 6),
    (Kind::Boundary, 10),
];

/// One input and what every entry point must return for it.
#[derive(Clone, Debug)]
pub struct Case {
    /// What kind of input it is.
    pub kind: Kind,
    /// The message hash.
    pub hash: B32,
    /// r ‖ s ‖ v for the `recover_*` calls.
    pub sig: [u8; 65],
    /// The libsecp256k1 recovery id passed to `ecrecover*` (any byte).
    pub recid: u8,
    /// The input of `ecrecover_precompile`.
    pub pre: Vec<u8>,
    /// `recover_public_key`.
    pub want_key: Result<[u8; 64], Error>,
    /// `recover_address` (and every batch path).
    pub want_addr: Result<[u8; 20], Error>,
    /// `ecrecover_public_key`.
    pub want_ec_key: Result<[u8; 64], Error>,
    /// `ecrecover`.
    pub want_ec: Result<[u8; 32], Error>,
    /// `ecrecover_precompile`.
    pub want_pre: Option<[u8; 32]>,
}

impl Case {
    /// The whole input in hex, for messages.
    pub fn describe(&self) -> String {
        format!(
            "[{}] hash={} sig={} (r={} s={} v={}) ecrecover recid={} precompile input ({} bytes)={}",
            self.kind.name(),
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

    /// (hash, sig): the input of the batch calls.
    pub fn signed(&self) -> Signed {
        (self.hash, self.sig)
    }

    /// r ‖ s: the input of `ecrecover*`.
    pub fn sig64(&self) -> [u8; 64] {
        self.sig[..64].try_into().expect("64 bytes")
    }
}

/// The generator: a seeded stream of [`Case`]s.
pub struct Generator {
    /// The generator's randomness (callers may draw from it too, between cases).
    pub rng: SplitMix64,
    /// The model the expected results come from (fast: libsecp256k1 alone).
    pub reference: Reference,
    /// Signed (hash, r, s, recid) seen so far (at most 64), for the bit-flip kind.
    bases: Vec<(B32, B32, B32, u8)>,
    cases: Vec<Case>,
    /// Draw only this kind (see [`Generator::only`]).
    only: Option<Kind>,
}

impl Generator {
    /// A generator seeded with `seed`, its expected results from [`Reference::fast`].
    pub fn new(seed: u64) -> Self {
        Self::with_reference(seed, Reference::fast())
    }

    /// A generator seeded with `seed`, its expected results from `reference`.
    pub fn with_reference(seed: u64, reference: Reference) -> Self {
        Generator {
            rng: SplitMix64(seed),
            reference,
            bases: Vec::new(),
            cases: Vec::new(),
            only: None,
        }
    }

    /// The same generator drawing every case of `kind` (the signed kind still pushes its
    /// high-s twin).
    pub fn only(mut self, kind: Kind) -> Self {
        self.only = Some(kind);
        self
    }

    /// The next `len` cases.
    pub fn generate(&mut self, len: usize) -> Vec<Case> {
        while self.cases.len() < len {
            self.gen_case();
        }
        let mut out = std::mem::take(&mut self.cases);
        self.cases = out.split_off(len);
        out
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
            4 => small(self.rng.next_u64()),
            5 => P,
            _ => self.rng.bytes32(),
        }
    }

    /// A special value (or a random one near a boundary).
    fn special(&mut self) -> B32 {
        if self.rng.below(10) < 7 {
            let specials = crate::edge::specials();
            specials[self.rng.index(specials.len())]
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
        let mut input =
            crate::sig::precompile_input(hash, if v <= 1 { v + 27 } else { v }, r, s).to_vec();
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

    fn push(&mut self, kind: Kind, hash: B32, r: B32, s: B32, v: u8, recid: u8) {
        let pre = self.precompile_input(&hash, &r, &s, v);
        self.push_with(kind, hash, r, s, v, recid, pre);
    }

    #[allow(clippy::too_many_arguments)]
    fn push_with(&mut self, kind: Kind, hash: B32, r: B32, s: B32, v: u8, recid: u8, pre: Vec<u8>) {
        let sig = sig65(&r, &s, v);
        let want_key = self.reference.recover_public_key(&hash, &sig);
        let want_ec_key = self.reference.recover(&hash, &r, &s, recid);
        let want_pre = self.reference.ecrecover_precompile(&pre);
        self.cases.push(Case {
            kind,
            hash,
            sig,
            recid,
            pre,
            want_key,
            want_addr: want_key.map(|k| address_of_key(&k)),
            want_ec_key,
            want_ec: want_ec_key.map(|k| address_word(&address_of_key(&k))),
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
                2 => small(self.rng.next_u64() | 1),
                3 => offset(&N, -1 - self.rng.below(1000) as i64),
                _ => self.rng.bytes32(),
            };
            if SecretKey::from_secret_bytes(secret).is_err() {
                continue;
            }
            let hash = self.hash();
            let (r, s, recid) = sign(&secret, &hash);
            if recid > 1 {
                continue; // R.x ≥ n: probability ~2⁻¹²⁷
            }
            let key = public_key_of(&secret);
            self.reference.known(&hash, &r, &s, recid, key);
            self.reference.known(&hash, &r, &neg_n(&s), recid ^ 1, key);
            if self.bases.len() >= 64 {
                self.bases.swap_remove(self.rng.below(64) as usize);
            }
            self.bases.push((hash, r, s, recid));
            return (hash, r, s, recid);
        }
    }

    /// Generates the next case (two for the signed kind: the signature and its twin).
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
        if let Some(k) = self.only {
            kind = if k == Kind::Twin { Kind::Signed } else { k };
        }
        match kind {
            Kind::Signed => {
                let (hash, r, s, recid) = self.signed_base();
                let v = self.ev(recid);
                self.push(Kind::Signed, hash, r, s, v, recid);
                let v = self.ev(recid ^ 1);
                self.push(Kind::Twin, hash, r, neg_n(&s), v, recid ^ 1);
            }
            Kind::RandomRs => {
                // About half of all r are x-coordinates: a valid recovery or NotOnCurve.
                let (hash, r, s) = (self.hash(), self.rng.bytes32(), self.rng.bytes32());
                let parity = self.rng.byte() & 1;
                let v = self.ev(parity);
                let recid = parity | if self.rng.below(8) == 0 { 2 } else { 0 };
                self.push(Kind::RandomRs, hash, r, s, v, recid);
            }
            Kind::Flip => self.bit_flip(),
            Kind::Special => self.special_values(),
            Kind::EveryV => {
                let (hash, r, s) = if self.rng.coin() && !self.bases.is_empty() {
                    let b = self.bases[self.rng.index(self.bases.len())];
                    (b.0, b.1, b.2)
                } else {
                    (self.hash(), self.rng.bytes32(), self.rng.bytes32())
                };
                let v = self.rng.byte();
                self.push(Kind::EveryV, hash, r, s, v, v);
            }
            Kind::Bytes => {
                let hash = self.rng.bytes32();
                let (r, s) = (self.rng.bytes32(), self.rng.bytes32());
                let v = self.rng.byte();
                let mut pre = vec![0u8; self.rng.below(201) as usize];
                self.rng.fill(&mut pre);
                self.push_with(Kind::Bytes, hash, r, s, v, v, pre);
            }
            Kind::HighX => self.high_x(),
            Kind::Crafted => self.crafted(),
            Kind::NotX => {
                let r = not_x(&mut self.rng);
                let (hash, s) = (self.hash(), self.rng.scalar());
                let parity = self.rng.byte() & 1;
                let v = self.ev(parity);
                self.push(Kind::NotX, hash, r, s, v, parity);
            }
            Kind::Range => self.out_of_range(),
            Kind::Boundary => self.boundary(),
            Kind::Twin => unreachable!("WEIGHTS never draws the twin: Signed pushes it"),
        }
    }

    /// 1–4 random bits flipped in hash ‖ r ‖ s ‖ v of a signed input.
    fn bit_flip(&mut self) {
        let (hash, r, s, recid) = if self.bases.is_empty() || self.rng.below(4) == 0 {
            self.signed_base()
        } else {
            self.bases[self.rng.index(self.bases.len())]
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
        let hash = buf[..32].try_into().expect("32 bytes");
        let (r, s) = crate::sig::split_rs(&buf[32..96]);
        self.push(Kind::Flip, hash, r, s, v, recid);
    }

    /// r, s and hash from the special values or random scalars; v 0/1/27/28 with recovery
    /// ids 0..=3, or a random byte.
    fn special_values(&mut self) {
        let pick = |g: &mut Generator| {
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
        self.push(Kind::Special, hash, r, s, v, recid);
    }

    /// r < p − n with r + n an x-coordinate: recovery ids 2 and 3 for ecrecover (the
    /// Ethereum v can only say 0/1, which takes x = r instead).
    fn high_x(&mut self) {
        let p_minus_n = sub(&P, &N).0;
        let mut r = ZERO;
        for _ in 0..16 {
            r = if self.rng.below(4) == 0 {
                small(self.rng.range(1, 1000))
            } else {
                let mut b = self.rng.bytes32();
                b[..15].fill(0);
                b[15] &= 1;
                b
            };
            if is_scalar(&r) && r < p_minus_n && secp_is_x_coordinate(&add(&r, &N).0) {
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
        self.push(Kind::HighX, hash, r, s, v, 2 | parity);
    }

    /// r, s or both out of range: 0, n, n + 1, 2²⁵⁶ − 1, p, n + k, or ≥ 2²⁵⁶ − 2¹²⁸.
    fn out_of_range(&mut self) {
        let bad = |g: &mut Generator| match g.rng.below(7) {
            0 => ZERO,
            1 => N,
            2 => offset(&N, 1),
            3 => ONES,
            4 => P,
            5 => offset(&N, g.rng.below(1 << 40) as i64),
            _ => {
                let mut b = g.rng.bytes32();
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
        self.push(Kind::Range, hash, r, s, v, recid);
    }

    /// A signature crafted for boundary values of u₁ and u₂
    /// ([`crate::boundary::random_case`]); its key, worked out from R's discrete log, must
    /// be the reference's (a disagreement is the reference's inconsistency).
    fn boundary(&mut self) {
        let c = crate::boundary::random_case(&mut self.rng);
        let v = self.ev(c.parity);
        self.push(Kind::Boundary, c.hash, c.r, c.s, v, c.parity);
        let got = self.cases.last().map(|case| case.want_ec_key);
        if got != Some(c.key) {
            self.reference.inconsistent(format!(
                "the boundary construction ({}) expects {:?}, the reference says {:?}: hash={} r={} s={} parity={}",
                c.what,
                c.key.map(hex::encode),
                got.map(|g| g.map(hex::encode)),
                hex::encode(c.hash),
                hex::encode(c.r),
                hex::encode(c.s),
                c.parity
            ));
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
            if SecretKey::from_secret_bytes(k).is_err() {
                continue;
            }
            let key = public_key_of(&k);
            let rx: B32 = key[..32].try_into().expect("32 bytes");
            if rx < N {
                break (k, rx, key[63] & 1);
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
            _ => self.rng.bytes32(),
        };
        // The same message as m + n where that still fits in 256 bits.
        let (m_plus_n, overflow) = add(&m, &N);
        let hash = if !overflow && self.rng.coin() {
            m_plus_n
        } else {
            m
        };
        let v = self.ev(parity);
        self.push(Kind::Crafted, hash, rx, s, v, parity);
    }
}

/// A signature whose recovered key is the point at infinity: R = k·G for a random k,
/// m = s·k mod n, so that s·R − m·G = O. The v byte is R's parity.
pub fn at_infinity(rng: &mut SplitMix64) -> Signed {
    loop {
        let k = rng.scalar();
        let key = public_key_of(&k);
        let rx: B32 = key[..32].try_into().expect("32 bytes");
        if rx >= N {
            continue; // probability ~2⁻¹²⁸
        }
        let s = rng.scalar();
        return (mul_n(&s, &k), sig65(&rx, &s, key[63] & 1));
    }
}

/// A random r in [1, n) that is not the x-coordinate of a curve point.
pub fn not_x(rng: &mut SplitMix64) -> B32 {
    loop {
        let r = rng.scalar();
        if !secp_is_x_coordinate(&r) {
            return r;
        }
    }
}

/// The batches of the junk-cost benchmarks (`benches/batch.rs`, group `hostile`, and the
/// `batch_sizes` tool), `n` inputs each (a multiple of 8), from `n` real signatures.
pub struct JunkBatches {
    /// The real signatures.
    pub valid: Vec<Signed>,
    /// The same with v = 5: every one refused by the parse.
    pub refused: Vec<Signed>,
    /// The same with r replaced by one that is no x-coordinate: refused after the lift.
    pub off_curve: Vec<Signed>,
    /// One real signature in eight (lanes 0, 8, 16, …); the others spoiled in turn: v = 5,
    /// r off the curve, s = n, r = 0.
    pub one_in_eight: Vec<Signed>,
    /// The real signatures of `one_in_eight` alone (n / 8 of them).
    pub valid_part: Vec<Signed>,
    /// Crafted keys at infinity (R = kG, m = s·k): every lane's last addition meets
    /// acc = −P, which the engine finishes itself.
    pub at_infinity: Vec<Signed>,
}

/// [`JunkBatches`] of `n` inputs each, from seed `seed`.
pub fn junk_batches(n: usize, seed: u64) -> JunkBatches {
    assert!(n.is_multiple_of(8), "a multiple of eight");
    let valid = crate::samples::signed(n, seed);
    let mut rng = SplitMix64(seed ^ 0x6a75_6e6b);
    let refused = valid
        .iter()
        .map(|&(h, mut sig)| {
            sig[64] = 5;
            (h, sig)
        })
        .collect();
    let off = |rng: &mut SplitMix64, (h, mut sig): Signed| {
        sig[..32].copy_from_slice(&not_x(rng));
        (h, sig)
    };
    let off_curve = valid.iter().map(|&v| off(&mut rng, v)).collect();
    let one_in_eight = valid
        .iter()
        .enumerate()
        .map(|(i, &(h, sig))| match i % 8 {
            0 => (h, sig),
            k => match k % 4 {
                1 => {
                    let mut sig = sig;
                    sig[64] = 5;
                    (h, sig)
                }
                2 => off(&mut rng, (h, sig)),
                3 => {
                    let mut sig = sig;
                    sig[32..64].copy_from_slice(&N);
                    (h, sig)
                }
                _ => {
                    let mut sig = sig;
                    sig[..32].fill(0);
                    (h, sig)
                }
            },
        })
        .collect();
    let valid_part = valid.iter().step_by(8).copied().collect();
    let at_infinity = (0..n).map(|_| at_infinity(&mut rng)).collect();
    JunkBatches {
        valid,
        refused,
        off_curve,
        one_in_eight,
        valid_part,
        at_infinity,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each junk batch fails the way its docs say, through the public entry point.
    #[test]
    fn junk_batches_are_what_they_say() {
        let b = junk_batches(64, 3);
        let all = |v: &[Signed], want: Result<(), Error>| {
            for (h, sig) in v {
                assert_eq!(asmcrypto::recover_address(h, sig).map(|_| ()), want);
            }
        };
        all(&b.valid, Ok(()));
        all(&b.valid_part, Ok(()));
        all(&b.refused, Err(Error::InvalidRecoveryId(5)));
        all(&b.off_curve, Err(Error::NotOnCurve));
        all(&b.at_infinity, Err(Error::PointAtInfinity));
        for (i, (h, sig)) in b.one_in_eight.iter().enumerate() {
            assert_eq!(
                asmcrypto::recover_address(h, sig).is_ok(),
                i % 8 == 0,
                "{i}"
            );
        }
        assert_eq!(b.valid_part.len(), 8);
    }

    /// Every kind occurs, and the cases' expected results agree with the strict model.
    #[test]
    fn every_kind_and_the_strict_model() {
        let mut g = Generator::new(1);
        let cases = g.generate(600);
        assert_eq!(cases.len(), 600);
        let mut strict = Reference::strict();
        let mut kinds = [0usize; Kind::ALL.len()];
        for c in &cases {
            kinds[c.kind.index()] += 1;
            assert_eq!(
                strict.recover_public_key(&c.hash, &c.sig),
                c.want_key,
                "{}",
                c.describe()
            );
            assert_eq!(
                strict.recover(
                    &c.hash,
                    &c.sig[..32].try_into().unwrap(),
                    &c.sig[32..64].try_into().unwrap(),
                    c.recid
                ),
                c.want_ec_key
            );
            assert_eq!(strict.ecrecover_precompile(&c.pre), c.want_pre);
        }
        assert!(kinds.iter().all(|&k| k > 0), "{kinds:?}");
        assert!(g.reference.take_inconsistencies().is_empty());
        let infinity = cases
            .iter()
            .filter(|c| c.want_key == Err(Error::PointAtInfinity))
            .count();
        assert!(infinity > 0);
    }

    #[test]
    fn kinds_are_indexed_in_order() {
        for (i, k) in Kind::ALL.iter().enumerate() {
            assert_eq!(k.index(), i, "{k:?}");
        }
    }

    #[test]
    fn at_infinity_is_at_infinity() {
        let mut rng = SplitMix64(2);
        for _ in 0..4 {
            let (h, sig) = at_infinity(&mut rng);
            assert_eq!(
                Reference::strict().recover_public_key(&h, &sig),
                Err(Error::PointAtInfinity)
            );
        }
    }
}
