//! Seeded signatures and the libsecp256k1 reference, shared by `benches/batch.rs`,
//! `benches/ecrecover.rs` and `examples/batch_sizes.rs` (included with `#[path]`).

/// One (message hash, r ‖ s ‖ v signature) pair.
pub type Signed = ([u8; 32], [u8; 65]);

fn splitmix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

fn bytes32(state: &mut u64) -> [u8; 32] {
    let mut out = [0u8; 32];
    for chunk in out.chunks_mut(8) {
        chunk.copy_from_slice(&splitmix(state).to_le_bytes());
    }
    out
}

/// `n` signatures by random keys over random hashes, signed with libsecp256k1.
pub fn samples(n: usize, seed: u64) -> Vec<Signed> {
    let mut state = seed;
    let mut out = Vec::with_capacity(n);
    while out.len() < n {
        let Ok(sk) = secp256k1::SecretKey::from_secret_bytes(bytes32(&mut state)) else {
            continue;
        };
        let hash = bytes32(&mut state);
        let rs = secp256k1::ecdsa::RecoverableSignature::sign_ecdsa_recoverable(
            secp256k1::Message::from_digest(hash),
            &sk,
        );
        let (recid, compact) = rs.serialize_compact();
        let mut sig = [0u8; 65];
        sig[..64].copy_from_slice(&compact);
        sig[64] = recid.to_u8();
        out.push((hash, sig));
    }
    out
}

/// The signer's address by libsecp256k1 (key recovery) and tiny-keccak.
pub fn libsecp256k1_address(s: &Signed) -> Option<[u8; 20]> {
    use tiny_keccak::Hasher;
    let recid = secp256k1::ecdsa::RecoveryId::try_from(i32::from(s.1[64])).ok()?;
    let sig = secp256k1::ecdsa::RecoverableSignature::from_compact(&s.1[..64], recid).ok()?;
    let pk = sig
        .recover_ecdsa(secp256k1::Message::from_digest(s.0))
        .ok()?;
    let mut k = tiny_keccak::Keccak::v256();
    k.update(&pk.serialize_uncompressed()[1..]);
    let mut h = [0u8; 32];
    k.finalize(&mut h);
    h[12..].try_into().ok()
}
