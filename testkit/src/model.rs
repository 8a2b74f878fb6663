//! THE reference model: the exact result, errors included, of every recovery entry point of
//! asmcrypto (`recover_public_key`, `recover_address`, `ecrecover`, `ecrecover_public_key`,
//! `ecrecover_precompile`; the batch calls `recover_addresses` and `recover_addresses_batch`
//! give `recover_address` on each input), built from the oracles and from the crate's
//! documented rules, never from asmcrypto's own recovery.
//!
//! The rules (`doc/reliability.md`): `v` ∈ {0, 1, 27, 28} for the `recover_*` calls, a
//! libsecp256k1 recovery id 0..=3 for `ecrecover*` (bit 1: R's x is r + n); then, in the
//! crate's order, r ∉ [1, n − 1] → `InvalidR`, s ∉ [1, n − 1] → `InvalidS`, no curve point
//! with that x (x ≥ p, or x³ + 7 not a square) → `NotOnCurve`, and the only failure left,
//! Q = O → `PointAtInfinity`. When the oracle recovers a key, that key is the answer.
//! Where the oracle and the rules contradict each other (a bug in the reference, never
//! seen), [`Reference::strict`] panics and [`Reference::fast`] records it.

use std::collections::HashMap;

use asmcrypto::Error;

use crate::curve::{B32, N, add, from_be, is_scalar};
use crate::oracle::{
    address_of_key, address_word, oracle_recover, secp_is_x_coordinate, secp_recover,
};
use crate::sig::{PrecompileInput, sig65, split_rs};

/// The expected results, memoised by (hash, r, s, recid).
#[derive(Debug)]
pub struct Reference {
    /// Both oracles (libsecp256k1 and k256), x-coordinates checked by big-integer
    /// arithmetic too, and a panic on any inconsistency.
    strict: bool,
    memo: HashMap<[u8; 97], Result<[u8; 64], Error>>,
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
    /// For the tests and the fuzz targets: libsecp256k1 and k256 both recover and must
    /// agree, the curve-membership rule is decided both by libsecp256k1 and by big-integer
    /// arithmetic (Euler's criterion), and any inconsistency panics.
    pub fn strict() -> Self {
        Reference {
            strict: true,
            memo: HashMap::new(),
            inconsistencies: Vec::new(),
        }
    }

    /// For the soak runner, where speed counts: libsecp256k1 alone, and inconsistencies
    /// recorded (see [`Reference::take_inconsistencies`]) instead of panicking.
    pub fn fast() -> Self {
        Reference {
            strict: false,
            ..Reference::strict()
        }
    }

    /// Records a result known by construction (a signer's own key), which the oracles
    /// are then not asked for.
    pub fn known(&mut self, hash: &B32, r: &B32, s: &B32, recid: u8, key: [u8; 64]) {
        self.memo.insert(memo_key(hash, r, s, recid), Ok(key));
    }

    /// Records a contradiction found outside the model (a generator's own expectation
    /// against the model's answer): panics in strict mode, kept for
    /// [`Reference::take_inconsistencies`] in fast mode.
    pub fn inconsistent(&mut self, msg: String) {
        assert!(!self.strict, "{msg}");
        self.inconsistencies.push(msg);
    }

    /// The contradictions between the oracle and the rules found so far (fast mode).
    pub fn take_inconsistencies(&mut self) -> Vec<String> {
        std::mem::take(&mut self.inconsistencies)
    }

    /// Whether x (with `overflow`: x ≥ 2²⁵⁶) is the x-coordinate of a curve point.
    fn x_exists(&self, x: &B32, overflow: bool) -> bool {
        let lib = !overflow && secp_is_x_coordinate(x);
        if self.strict {
            let big = !overflow && crate::curve::is_x_coordinate(&from_be(x));
            assert_eq!(
                lib,
                big,
                "libsecp256k1 and Euler's criterion disagree on x={} (overflow {overflow})",
                hex::encode(x)
            );
        }
        lib
    }

    /// Recovery with a libsecp256k1 recovery id (any byte; above 3 is
    /// `InvalidRecoveryId`): what `ecrecover_public_key` returns.
    pub fn recover(&mut self, hash: &B32, r: &B32, s: &B32, recid: u8) -> Result<[u8; 64], Error> {
        if recid > 3 {
            return Err(Error::InvalidRecoveryId(recid));
        }
        let k = memo_key(hash, r, s, recid);
        if let Some(v) = self.memo.get(&k) {
            return *v;
        }
        let lib = if self.strict {
            oracle_recover(hash, r, s, recid)
        } else {
            secp_recover(hash, r, s, recid)
        };
        let reason = if !is_scalar(r) {
            Some(Error::InvalidR)
        } else if !is_scalar(s) {
            Some(Error::InvalidS)
        } else if lib.is_some() && !self.strict {
            None
        } else {
            let (x, overflow) = if recid & 2 != 0 {
                add(r, &N)
            } else {
                (*r, false)
            };
            // r and s in range: R must exist, and then the only failure left is Q = O.
            (!self.x_exists(&x, overflow)).then_some(Error::NotOnCurve)
        };
        let v = match (lib, reason) {
            (Some(key), None) => Ok(key),
            (None, None) => Err(Error::PointAtInfinity),
            (None, Some(e)) => Err(e),
            (Some(_), Some(e)) => {
                let msg = format!(
                    "libsecp256k1 recovered a key where the rules say {e:?}: hash={} r={} s={} recid={recid}",
                    hex::encode(hash),
                    hex::encode(r),
                    hex::encode(s)
                );
                assert!(!self.strict, "{msg}");
                self.inconsistencies.push(msg);
                Err(e)
            }
        };
        self.memo.insert(k, v);
        v
    }

    /// `recover_public_key(hash, sig)`.
    pub fn recover_public_key(&mut self, hash: &B32, sig: &[u8; 65]) -> Result<[u8; 64], Error> {
        let (r, s) = split_rs(sig);
        match sig[64] {
            v @ (0 | 1) => self.recover(hash, &r, &s, v),
            v @ (27 | 28) => self.recover(hash, &r, &s, v - 27),
            v => Err(Error::InvalidRecoveryId(v)),
        }
    }

    /// `recover_address(hash, sig)`.
    pub fn recover_address(&mut self, hash: &B32, sig: &[u8; 65]) -> Result<[u8; 20], Error> {
        self.recover_public_key(hash, sig)
            .map(|k| address_of_key(&k))
    }

    /// `ecrecover_public_key(sig, recid, msg)`.
    pub fn ecrecover_public_key(
        &mut self,
        sig: &[u8; 64],
        recid: u8,
        msg: &B32,
    ) -> Result<[u8; 64], Error> {
        let (r, s) = split_rs(sig);
        self.recover(msg, &r, &s, recid)
    }

    /// `ecrecover(sig, recid, msg)`.
    pub fn ecrecover(&mut self, sig: &[u8; 64], recid: u8, msg: &B32) -> Result<[u8; 32], Error> {
        self.ecrecover_public_key(sig, recid, msg)
            .map(|k| address_word(&address_of_key(&k)))
    }

    /// `ecrecover_precompile(input)`: the EVM's precompile 0x01.
    pub fn ecrecover_precompile(&mut self, input: &[u8]) -> Option<[u8; 32]> {
        let i = PrecompileInput::parse(input);
        let v = i.v?;
        self.recover(&i.hash, &i.r, &i.s, v - 27)
            .ok()
            .map(|k| address_word(&address_of_key(&k)))
    }
}

/// The strict model of recovery with a libsecp256k1 recovery id (`ecrecover_public_key`).
pub fn model(hash: &B32, r: &B32, s: &B32, recid: u8) -> Result<[u8; 64], Error> {
    Reference::strict().recover(hash, r, s, recid)
}

/// The strict model of `recover_public_key` for an Ethereum `v`.
pub fn model_v(hash: &B32, r: &B32, s: &B32, v: u8) -> Result<[u8; 64], Error> {
    Reference::strict().recover_public_key(hash, &sig65(r, s, v))
}

/// The strict model of `ecrecover`.
pub fn model_ecrecover(hash: &B32, r: &B32, s: &B32, recid: u8) -> Result<[u8; 32], Error> {
    Reference::strict().ecrecover(&crate::sig::sig64(r, s), recid, hash)
}

/// The strict model of the precompile's output for `input`.
pub fn model_precompile(input: &[u8]) -> Option<[u8; 32]> {
    Reference::strict().ecrecover_precompile(input)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::curve::{GX, ONES, ZERO, neg_n, offset, small};
    use crate::oracle::{public_key_of, sign};

    /// Each rule, in order, on inputs whose answer is known by construction.
    #[test]
    fn the_rules_in_order() {
        let mut rng = crate::rng::SplitMix64(11);
        let secret = rng.scalar();
        let hash = rng.bytes32();
        let (r, s, recid) = sign(&secret, &hash);
        let key = public_key_of(&secret);
        for mut m in [Reference::strict(), Reference::fast()] {
            assert_eq!(m.recover(&hash, &r, &s, recid), Ok(key));
            // The high-s twin recovers the same key with the other parity.
            assert_eq!(m.recover(&hash, &r, &neg_n(&s), recid ^ 1), Ok(key));
            assert_eq!(
                m.recover(&hash, &r, &s, 4),
                Err(Error::InvalidRecoveryId(4))
            );
            for bad in [ZERO, N, ONES] {
                assert_eq!(m.recover(&hash, &bad, &s, recid), Err(Error::InvalidR));
                assert_eq!(m.recover(&hash, &r, &bad, recid), Err(Error::InvalidS));
                assert_eq!(m.recover(&hash, &bad, &bad, recid), Err(Error::InvalidR));
            }
            // 5 is not an x-coordinate (5³ + 7 = 132 is not a square mod p), 1 is.
            assert!(!crate::curve::is_x_coordinate(&from_be(&small(5))));
            assert_eq!(m.recover(&hash, &small(5), &s, 0), Err(Error::NotOnCurve));
            // r + n ≥ p for r = n − 1: recovery ids 2 and 3 find no point.
            assert_eq!(
                m.recover(&hash, &offset(&N, -1), &s, 2),
                Err(Error::NotOnCurve)
            );
            // R = G, s = 1, m = 1: Q = r⁻¹(s·G − m·G) = O.
            assert_eq!(
                m.recover(&small(1), &GX, &small(1), 0),
                Err(Error::PointAtInfinity)
            );
            let v = recid + 27;
            assert_eq!(m.recover_public_key(&hash, &sig65(&r, &s, v)), Ok(key));
            assert_eq!(
                m.recover_public_key(&hash, &sig65(&r, &s, 2)),
                Err(Error::InvalidRecoveryId(2))
            );
            let input = crate::sig::precompile_input(&hash, v, &r, &s);
            let word = address_word(&address_of_key(&key));
            assert_eq!(m.ecrecover_precompile(&input), Some(word));
            assert_eq!(
                m.ecrecover_precompile(&input[..100]),
                m.ecrecover_precompile(&{
                    let mut padded = input[..100].to_vec();
                    padded.resize(128, 0);
                    padded
                })
            );
            let mut raw_v = input;
            raw_v[63] = recid;
            assert_eq!(m.ecrecover_precompile(&raw_v), None);
            assert!(m.take_inconsistencies().is_empty());
        }
    }

    /// A wrong answer remembered as known is what the model gives back: `known` is
    /// trusted, so the soak's self-test can rely on it.
    #[test]
    fn known_results_are_used() {
        let mut m = Reference::fast();
        let (h, r, s) = ([1u8; 32], small(1), small(1));
        m.known(&h, &r, &s, 0, [7u8; 64]);
        assert_eq!(m.recover(&h, &r, &s, 0), Ok([7u8; 64]));
    }
}
