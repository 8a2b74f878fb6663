//! Single-signature recovery entry points and the precompile input format.

use crate::error::Error;
use crate::keccak::keccak256_64;
use crate::secp256k1::ecmult::Strauss;
use crate::secp256k1::field::{BASELINE, FieldElement, FieldMul};
use crate::secp256k1::group::Affine;
use crate::secp256k1::scalar::{N, Scalar, add_words};

/// A signature that passed every check short of the square root: r and s in [1, n−1], and
/// R's x-coordinate (r, or r + n for recovery ids 2 and 3) below p.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Parsed {
    pub r: Scalar,
    pub s: Scalar,
    /// The message hash reduced mod n.
    pub msg: Scalar,
    /// The x-coordinate of R.
    pub x: FieldElement,
    /// Whether R's y is odd.
    pub odd: bool,
}

/// Maps an Ethereum `v` (0, 1, 27 or 28) to the y parity.
#[inline]
fn parity_from_v(v: u8) -> Result<u8, Error> {
    match v {
        0 | 1 => Ok(v),
        27 | 28 => Ok(v - 27),
        _ => Err(Error::InvalidRecoveryId(v)),
    }
}

/// The checks of an Ethereum signature `sig` = r ‖ s ‖ v (v ∈ {0, 1, 27, 28}) over `hash`,
/// in the order every entry point reports them: v, then r, then s, then whether R's
/// x-coordinate fits below p. Whether x is on the curve is the lift's job.
#[inline]
pub(crate) fn parse(hash: &[u8; 32], sig: &[u8; 65]) -> Result<Parsed, Error> {
    let recid = parity_from_v(sig[64])?;
    let mut rs = [0u8; 64];
    rs.copy_from_slice(&sig[..64]);
    parse_recid(hash, &rs, recid)
}

/// [`parse`] for a compact signature r ‖ s and libsecp256k1's recovery id (0..=3: bit 0
/// is the y parity, bit 1 selects x = r + n).
#[inline]
pub(crate) fn parse_recid(hash: &[u8; 32], rs: &[u8; 64], recid: u8) -> Result<Parsed, Error> {
    if recid > 3 {
        return Err(Error::InvalidRecoveryId(recid));
    }
    let (r, s) = halves(rs);
    let r = Scalar::from_bytes(&r)
        .filter(|r| !r.is_zero())
        .ok_or(Error::InvalidR)?;
    let s = Scalar::from_bytes(&s)
        .filter(|s| !s.is_zero())
        .ok_or(Error::InvalidS)?;
    Ok(Parsed {
        r,
        s,
        msg: Scalar::from_bytes_reduced(hash),
        x: r_x(&r, recid & 2 != 0).ok_or(Error::NotOnCurve)?,
        odd: recid & 1 == 1,
    })
}

/// The x-coordinate of R as a field element: r, or r + n when `plus_n` (`None` if that is
/// not below p).
#[inline]
fn r_x(r: &Scalar, plus_n: bool) -> Option<FieldElement> {
    let mut w = r.0;
    if plus_n {
        let (sum, carry) = add_words(&w, &N);
        if carry {
            return None;
        }
        w = sum;
    }
    let mut bytes = [0u8; 32];
    for i in 0..4 {
        bytes[8 * i..8 * i + 8].copy_from_slice(&w[3 - i].to_be_bytes());
    }
    FieldElement::from_bytes(&bytes)
}

/// Q = r⁻¹·(s·R − m·G) as an affine point, on the fastest field multiply of this CPU
/// (chosen here, once per recovery).
pub(crate) fn recover_point(p: &Parsed) -> Result<Affine, Error> {
    #[cfg(target_arch = "x86_64")]
    if let Some(m) = crate::secp256k1::field::MulxAdx::detect() {
        return recover_point_with(m, p);
    }
    recover_point_with(BASELINE, p)
}

/// [`recover_point`] on the multiply `m`: the square root and the whole double-scalar
/// multiplication compiled for it, with no CPU test inside.
///
/// The square root that finds R is one chain of 253 dependent squarings, which leaves the
/// core idle between them; r⁻¹'s safegcd steps run in those gaps, one step every few
/// squarings (`FieldElement::sqrt_beside`). Then u₁, u₂, the recoding of u₁ and a
/// prefetch of its ~16 static-table entries (1 MiB of tables, beyond the L2 cache), whose
/// memory latency the building of R's table hides.
#[inline(never)]
fn recover_point_with<M: FieldMul>(m: M, p: &Parsed) -> Result<Affine, Error> {
    // R's square root, with r⁻¹'s safegcd steps run between its squarings.
    let mut inv = p.r.inverter();
    let rhs = Affine::curve_rhs_with(m, &p.x);
    let root = rhs.sqrt_beside(m, &mut || inv.step());
    let rinv = Scalar::from_inverter(inv);
    let u1 = p.msg.mul(&rinv).negate();
    let u2 = p.s.mul(&rinv);
    let mut st = Strauss::for_g(&u1);
    st.prefetch_g();
    let big_r = Affine::from_root(&p.x, &root.ok_or(Error::NotOnCurve)?, p.odd);
    st.add_a(m, &big_r, &u2);
    let q = st.run(m);
    if q.infinity {
        return Err(Error::PointAtInfinity);
    }
    Ok(q.to_affine())
}

/// X ‖ Y, 64 bytes.
#[inline]
pub(crate) fn serialize(q: &Affine) -> [u8; 64] {
    let mut out = [0u8; 64];
    out[..32].copy_from_slice(&q.x.to_bytes());
    out[32..].copy_from_slice(&q.y.to_bytes());
    out
}

/// The last 20 bytes of keccak256(X ‖ Y).
#[inline]
pub(crate) fn address_of(pubkey: &[u8; 64]) -> [u8; 20] {
    let h = keccak256_64(pubkey);
    let mut a = [0u8; 20];
    a.copy_from_slice(&h[12..]);
    a
}

/// The two 32-byte halves of 64 bytes: r and s of a compact signature, X and Y of a key.
#[inline]
pub(crate) fn halves(b: &[u8; 64]) -> ([u8; 32], [u8; 32]) {
    let mut lo = [0u8; 32];
    let mut hi = [0u8; 32];
    lo.copy_from_slice(&b[..32]);
    hi.copy_from_slice(&b[32..]);
    (lo, hi)
}

/// Recovers the uncompressed public key X ‖ Y (64 bytes, without the 0x04 prefix) that
/// produced `sig = r ‖ s ‖ v` over the 32-byte message `hash`.
///
/// `v` may be 0, 1, 27 or 28 (the parity of R's y-coordinate, optionally offset by 27 as
/// in legacy Ethereum signatures; EIP-155 chain-id encodings must be reduced by the
/// caller). `s` above n/2 is accepted: the low-s rule belongs to transaction validation.
///
/// ```
/// # let (hash, sig) = asmcrypto_doc_sample();
/// let key = asmcrypto::recover_public_key(&hash, &sig).unwrap();
/// assert_eq!(&asmcrypto::keccak256(&key)[12..], &asmcrypto::recover_address(&hash, &sig).unwrap());
/// # fn asmcrypto_doc_sample() -> ([u8; 32], [u8; 65]) {
/// #     let h = "c8f2345bc628763f2f8324d099b26070e9a4f73d1ee8d654fd8537f59db8b4c6";
/// #     let r = "2ab9adbf933ea82559c127cf688532d1930b3d352748c2065a55759f5b84d750";
/// #     let s = "7d9f53ffe4dd1d297b64738fee7f448a9523ff58f411595c9a148c3cfeee6c28";
/// #     let x = |s: &str, out: &mut [u8]| for i in 0..32 { out[i] = u8::from_str_radix(&s[2*i..2*i+2], 16).unwrap() };
/// #     let mut hash = [0u8; 32]; x(h, &mut hash);
/// #     let mut sig = [0u8; 65]; x(r, &mut sig[..32]); x(s, &mut sig[32..64]); sig[64] = 0;
/// #     (hash, sig)
/// # }
/// ```
///
/// # Errors
/// [`Error::InvalidRecoveryId`] for any other `v`; [`Error::InvalidR`] / [`Error::InvalidS`]
/// if r or s is zero or ≥ n; [`Error::NotOnCurve`] if r is not the x-coordinate of a curve
/// point; [`Error::PointAtInfinity`] if the key would be the point at infinity.
pub fn recover_public_key(hash: &[u8; 32], sig: &[u8; 65]) -> Result<[u8; 64], Error> {
    recover_point(&parse(hash, sig)?).map(|q| serialize(&q))
}

/// Recovers the 20-byte Ethereum address (the last 20 bytes of keccak256(X ‖ Y)) of the
/// key that produced `sig = r ‖ s ‖ v` over `hash`. Same inputs and errors as
/// [`recover_public_key`].
///
/// ```
/// // Signature of a real transaction, signed by 0xa94f5374fce5edbc8e2a8697c15331677e6ebf0b.
/// let hex = |s: &str| (0..s.len() / 2).map(|i| u8::from_str_radix(&s[2 * i..2 * i + 2], 16).unwrap()).collect::<Vec<u8>>();
/// let hash: [u8; 32] = hex("c8f2345bc628763f2f8324d099b26070e9a4f73d1ee8d654fd8537f59db8b4c6").try_into().unwrap();
/// let mut sig = [0u8; 65];
/// sig[..32].copy_from_slice(&hex("2ab9adbf933ea82559c127cf688532d1930b3d352748c2065a55759f5b84d750"));
/// sig[32..64].copy_from_slice(&hex("7d9f53ffe4dd1d297b64738fee7f448a9523ff58f411595c9a148c3cfeee6c28"));
/// sig[64] = 0;
/// let addr = asmcrypto::recover_address(&hash, &sig).unwrap();
/// assert_eq!(addr.to_vec(), hex("a94f5374fce5edbc8e2a8697c15331677e6ebf0b"));
/// ```
pub fn recover_address(hash: &[u8; 32], sig: &[u8; 65]) -> Result<[u8; 20], Error> {
    recover_public_key(hash, sig).map(|k| address_of(&k))
}

/// Drop-in for revm's `secp256k1_ecrecover` crypto hook: recovers the key of the 64-byte
/// compact signature `r ‖ s` with recovery id `recid` over `msg`, and returns
/// keccak256(X ‖ Y) with its first 12 bytes zeroed (the address as a 32-byte word).
///
/// `recid` is libsecp256k1's recovery id: 0..=3, where bit 0 is the y parity and bit 1
/// selects x = r + n (only possible for r < p − n). Anything above 3 is
/// [`Error::InvalidRecoveryId`]. Other errors as for [`recover_public_key`].
///
/// ```
/// // r = s = 0 is not a signature.
/// assert!(asmcrypto::ecrecover(&[0u8; 64], 0, &[0u8; 32]).is_err());
/// ```
pub fn ecrecover(sig: &[u8; 64], recid: u8, msg: &[u8; 32]) -> Result<[u8; 32], Error> {
    let mut h = crate::keccak::keccak256_64(&ecrecover_public_key(sig, recid, msg)?);
    h[..12].fill(0);
    Ok(h)
}

/// The uncompressed public key X ‖ Y (64 bytes) for the compact signature `r ‖ s` with
/// libsecp256k1's recovery id `recid` (0..=3: bit 0 is the y parity, bit 1 selects
/// x = r + n) over `msg`: the contract of libsecp256k1's `secp256k1_ecdsa_recover` and of
/// go-ethereum's `secp256k1_ext_ecdsa_recover`. Errors as for [`ecrecover`].
///
/// ```
/// # let (hash, sig) = asmcrypto_doc_sample();
/// let mut rs = [0u8; 64];
/// rs.copy_from_slice(&sig[..64]);
/// let key = asmcrypto::ecrecover_public_key(&rs, sig[64], &hash).unwrap();
/// assert_eq!(key, asmcrypto::recover_public_key(&hash, &sig).unwrap());
/// # fn asmcrypto_doc_sample() -> ([u8; 32], [u8; 65]) {
/// #     let h = "c8f2345bc628763f2f8324d099b26070e9a4f73d1ee8d654fd8537f59db8b4c6";
/// #     let r = "2ab9adbf933ea82559c127cf688532d1930b3d352748c2065a55759f5b84d750";
/// #     let s = "7d9f53ffe4dd1d297b64738fee7f448a9523ff58f411595c9a148c3cfeee6c28";
/// #     let x = |s: &str, out: &mut [u8]| for i in 0..32 { out[i] = u8::from_str_radix(&s[2*i..2*i+2], 16).unwrap() };
/// #     let mut hash = [0u8; 32]; x(h, &mut hash);
/// #     let mut sig = [0u8; 65]; x(r, &mut sig[..32]); x(s, &mut sig[32..64]); sig[64] = 0;
/// #     (hash, sig)
/// # }
/// ```
///
/// # Errors
/// [`Error::InvalidRecoveryId`] for `recid` > 3; otherwise as for [`recover_public_key`].
pub fn ecrecover_public_key(sig: &[u8; 64], recid: u8, msg: &[u8; 32]) -> Result<[u8; 64], Error> {
    recover_point(&parse_recid(msg, sig, recid)?).map(|q| serialize(&q))
}

/// The EVM `ecrecover` precompile (address 0x01), byte for byte.
///
/// `input` is right-padded with zeros to 128 bytes (bytes past 128 are ignored) and read as
/// hash (32) ‖ v (32-byte big-endian word, must be exactly 27 or 28) ‖ r (32) ‖ s (32).
/// Returns the 32-byte output word (12 zero bytes, then the address), or `None` for the
/// empty output that the precompile returns on any failure.
///
/// ```
/// assert_eq!(asmcrypto::ecrecover_precompile(&[]), None);
/// ```
pub fn ecrecover_precompile(input: &[u8]) -> Option<[u8; 32]> {
    let mut buf = [0u8; 128];
    let n = input.len().min(128);
    buf[..n].copy_from_slice(&input[..n]);
    // hash ‖ v word ‖ r ‖ s; the v word must be exactly 27 or 28.
    let (hash, rest) = buf.split_first_chunk::<32>()?;
    let (v, rs) = rest.split_first_chunk::<32>()?;
    let rs: &[u8; 64] = rs.try_into().ok()?;
    if v[..31].iter().any(|&b| b != 0) || !(v[31] == 27 || v[31] == 28) {
        return None;
    }
    let q = recover_point(&parse_recid(hash, rs, v[31] - 27).ok()?).ok()?;
    let mut out = [0u8; 32];
    out[12..].copy_from_slice(&address_of(&serialize(&q)));
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use asmcrypto_testkit::hostile::Generator;

    /// A result as text: the testkit's `Error` is the one of the crate it links (the same
    /// source, another type in this test binary).
    fn text<T: core::fmt::Debug, E: core::fmt::Debug>(r: &Result<T, E>) -> String {
        format!("{r:?}")
    }

    /// Every entry point of this file against the test support's reference model (built
    /// from libsecp256k1 and the documented rules, not from this crate), on the hostile
    /// generator's cases: each v and recovery id, r and s at 0, 1, n − 1, n and beyond,
    /// x = r + n at and past p, x off the curve, keys at infinity, the precompile's v words
    /// and lengths, and real signatures. Here (a unit test, not only the integration
    /// suites) so that the mutation runs of this file (`scripts/mutants.sh`) see it.
    #[test]
    fn entry_points_match_the_reference_model() {
        let mut kinds = std::collections::BTreeSet::new();
        for c in Generator::new(0x7ec0).generate(3000) {
            let what = c.describe();
            kinds.insert(c.kind.name());
            assert_eq!(
                text(&recover_public_key(&c.hash, &c.sig)),
                text(&c.want_key),
                "{what}"
            );
            assert_eq!(
                text(&recover_address(&c.hash, &c.sig)),
                text(&c.want_addr),
                "{what}"
            );
            assert_eq!(
                text(&ecrecover_public_key(&c.sig64(), c.recid, &c.hash)),
                text(&c.want_ec_key),
                "{what}"
            );
            assert_eq!(
                text(&ecrecover(&c.sig64(), c.recid, &c.hash)),
                text(&c.want_ec),
                "{what}"
            );
            assert_eq!(ecrecover_precompile(&c.pre), c.want_pre, "{what}");
        }
        assert!(kinds.len() >= 10, "{kinds:?}");
    }

    /// Big-endian bytes of four little-endian words.
    fn be(w: [u64; 4]) -> [u8; 32] {
        let mut b = [0u8; 32];
        for i in 0..4 {
            b[8 * i..8 * i + 8].copy_from_slice(&w[3 - i].to_be_bytes());
        }
        b
    }

    fn sig(r: &[u8; 32], s: &[u8; 32], v: u8) -> [u8; 65] {
        let mut out = [0u8; 65];
        out[..32].copy_from_slice(r);
        out[32..64].copy_from_slice(s);
        out[64] = v;
        out
    }

    /// `parse`'s checks one at a time, in the order every entry point reports them, at
    /// their bounds: each v; r and s at 0, n and 2²⁵⁶ − 1; x = r + n at p − 1 and at p.
    #[test]
    fn parse_checks_in_order() {
        let hash = [7u8; 32];
        let one = be([1, 0, 0, 0]);
        for v in 0..=255u8 {
            let got = parse(&hash, &sig(&one, &one, v)).map(|p| p.odd);
            match v {
                0 | 27 => assert_eq!(got, Ok(false)),
                1 | 28 => assert_eq!(got, Ok(true)),
                // r = s = 1 with a bad v: the v error comes first.
                _ => assert_eq!(got, Err(Error::InvalidRecoveryId(v))),
            }
        }
        for recid in 4..=255u8 {
            assert_eq!(
                parse_recid(&hash, &[0; 64], recid).err(),
                Some(Error::InvalidRecoveryId(recid))
            );
        }
        let n = be(N);
        let n_minus_1 = be([N[0] - 1, N[1], N[2], N[3]]);
        for bad in [[0u8; 32], n, [0xff; 32]] {
            assert_eq!(
                parse(&hash, &sig(&bad, &bad, 0)).err(),
                Some(Error::InvalidR)
            );
            assert_eq!(
                parse(&hash, &sig(&one, &bad, 0)).err(),
                Some(Error::InvalidS)
            );
        }
        let top = parse(&hash, &sig(&n_minus_1, &n_minus_1, 1)).expect("r, s = n − 1");
        assert_eq!(
            (top.r.0, top.s.0, top.odd),
            ([N[0] - 1, N[1], N[2], N[3]], top.r.0, true)
        );
        // The message hash is reduced mod n.
        assert_eq!(parse(&n, &sig(&one, &one, 0)).map(|p| p.msg.0), Ok([0; 4]));
        // x = r + n (recovery ids 2 and 3): p − 1 for r = p − n − 1; p itself for r = p − n.
        let p_minus_n = [0x402D_A172_2FC9_BAEE, 0x4551_2319_50B7_5FC4, 1, 0];
        let x = parse_recid(
            &hash,
            &{
                let mut rs = [0u8; 64];
                rs[..32].copy_from_slice(&be([p_minus_n[0] - 1, p_minus_n[1], p_minus_n[2], 0]));
                rs[32..].copy_from_slice(&one);
                rs
            },
            2,
        )
        .expect("r + n = p − 1 is below p");
        let p_minus_1 = [0xFFFF_FFFE_FFFF_FC2E, u64::MAX, u64::MAX, u64::MAX];
        assert_eq!(x.x.to_bytes(), be(p_minus_1));
        assert!(!x.odd);
        for recid in [2, 3] {
            let mut rs = [0u8; 64];
            rs[..32].copy_from_slice(&be(p_minus_n));
            rs[32..].copy_from_slice(&one);
            assert_eq!(
                parse_recid(&hash, &rs, recid).err(),
                Some(Error::NotOnCurve)
            );
            // Recovery ids 0 and 1 take x = r itself.
            assert_eq!(
                parse_recid(&hash, &rs, recid - 2).map(|p| p.x.to_bytes()),
                Ok(be(p_minus_n))
            );
        }
    }
}
