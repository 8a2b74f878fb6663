//! Keccak-256 against published vectors and against the `sha3` crate as an independent oracle.

use asmcrypto::{Keccak256, keccak256};
use sha3::Digest;

fn oracle(data: &[u8]) -> [u8; 32] {
    sha3::Keccak256::digest(data).into()
}

fn unhex(s: &str) -> Vec<u8> {
    hex::decode(s).expect("valid hex")
}

/// Deterministic pseudo-random bytes (splitmix64).
struct SplitMix64(u64);

impl SplitMix64 {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn bytes(&mut self, len: usize) -> Vec<u8> {
        let mut out = Vec::with_capacity(len + 8);
        while out.len() < len {
            out.extend_from_slice(&self.next().to_le_bytes());
        }
        out.truncate(len);
        out
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

fn incremental(data: &[u8], rng: &mut SplitMix64, max_chunk: u64) -> [u8; 32] {
    let mut h = Keccak256::new();
    let mut rest = data;
    while !rest.is_empty() {
        let n = (rng.below(max_chunk + 1) as usize).min(rest.len());
        let (now, later) = rest.split_at(n);
        h.update(now);
        rest = later;
    }
    h.finalize()
}

#[test]
fn published_vectors() {
    let vectors: [(Vec<u8>, &str); 7] = [
        (
            b"".to_vec(),
            "c5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470",
        ),
        (
            b"abc".to_vec(),
            "4e03657aea45a94fc7d47ba826c8d667c0d1e6e33a64a036ec44f58fa12d6c45",
        ),
        (
            b"The quick brown fox jumps over the lazy dog".to_vec(),
            "4d741b6f1eb29cb2a9b9911c82f56fa8d73b04959d3d9d222895df6c0b28aa15",
        ),
        // RLP of the empty string: the root of an empty Merkle-Patricia trie.
        (
            vec![0x80],
            "56e81f171bcc55a6ff8345e692c0f86e5b48e01b996cadc001622fb5e363b421",
        ),
        // RLP of the empty list: the `ommersHash` of a block without ommers.
        (
            vec![0xc0],
            "1dcc4de8dec75d7aab85b567b6ccd41ad312451b948a7413f0a142fd40d49347",
        ),
        // ERC-20 `Transfer` event topic.
        (
            b"Transfer(address,address,uint256)".to_vec(),
            "ddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef",
        ),
        // ERC-20 `transfer` function (selector a9059cbb).
        (
            b"transfer(address,uint256)".to_vec(),
            "a9059cbb2ab09eb219583f4a59a5d0623ade346d962bcd4e46b11da047c9049b",
        ),
    ];
    for (msg, want) in &vectors {
        let want = unhex(want);
        assert_eq!(keccak256(msg).as_slice(), want.as_slice(), "{msg:02x?}");
        assert_eq!(oracle(msg).as_slice(), want.as_slice(), "oracle {msg:02x?}");
        let mut h = Keccak256::default();
        h.update(msg);
        assert_eq!(h.finalize().as_slice(), want.as_slice());
    }
    // The secp256k1 generator G as a 64-byte public key (private key 1): the last 20 bytes
    // of its hash are the well-known address 0x7E5F4552091A69125d5DfCb7b8C2659029395Bdf.
    let pub_g = concat!(
        "79be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798",
        "483ada7726a3c4655da4fbfc0e1108a8fd17b448a68554199c47d08ffb10d4b8"
    );
    let key = unhex(pub_g);
    let hash = keccak256(&key);
    assert_eq!(
        hash[12..],
        unhex("7e5f4552091a69125d5dfcb7b8c2659029395bdf")
    );
    assert_eq!(hash, oracle(&key));
}

#[test]
fn every_length_up_to_300_matches_sha3() {
    let mut rng = SplitMix64(0x6b65_6363_616b);
    for len in 0..=300 {
        for _ in 0..4 {
            let data = rng.bytes(len);
            let want = oracle(&data);
            assert_eq!(keccak256(&data), want, "len {len}");
            assert_eq!(incremental(&data, &mut rng, 40), want, "len {len}");
        }
    }
}

#[test]
fn structured_inputs_match_sha3() {
    // All-zero and all-one inputs around the block boundaries stress the padding.
    for len in [0, 1, 63, 64, 65, 134, 135, 136, 137, 271, 272, 273, 1000] {
        for fill in [0x00, 0x01, 0x80, 0xff] {
            let data = vec![fill; len];
            assert_eq!(keccak256(&data), oracle(&data), "len {len} fill {fill:#x}");
        }
    }
}

#[test]
fn one_mebibyte_matches_sha3() {
    let mut rng = SplitMix64(1);
    let data = rng.bytes(1 << 20);
    let want = oracle(&data);
    assert_eq!(keccak256(&data), want);
    assert_eq!(incremental(&data, &mut rng, 5000), want);
    // Odd length, not a multiple of the rate.
    let odd = &data[..(1 << 20) - 77];
    assert_eq!(keccak256(odd), oracle(odd));
}

#[test]
fn incremental_random_chunks_equal_one_shot() {
    let mut rng = SplitMix64(42);
    for _ in 0..200 {
        let len = rng.below(2000) as usize;
        let data = rng.bytes(len);
        let one_shot = keccak256(&data);
        for max_chunk in [1, 7, 135, 136, 137, 500] {
            assert_eq!(
                incremental(&data, &mut rng, max_chunk),
                one_shot,
                "len {len}"
            );
        }
    }
}

#[test]
fn empty_updates_and_clones() {
    let mut rng = SplitMix64(7);
    let data = rng.bytes(777);
    let mut h = Keccak256::new();
    h.update(&[]);
    h.update(&data[..300]);
    h.update(&[]);
    let fork = h.clone();
    h.update(&data[300..]);
    assert_eq!(h.finalize(), keccak256(&data));
    assert_eq!(fork.finalize(), keccak256(&data[..300]));
    assert_eq!(Keccak256::new().finalize(), keccak256(b""));
}
