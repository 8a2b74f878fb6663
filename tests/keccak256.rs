//! Keccak-256 — `keccak256`, the incremental `Keccak256` and `keccak256_batch` (whichever
//! batch path this machine takes) — against published vectors and against the `sha3` crate
//! as an independent oracle, over seeded lengths, chunkings and batch length combinations.

use asmcrypto::{Keccak256, keccak256, keccak256_batch};
use asmcrypto_testkit::SplitMix64;
use asmcrypto_testkit::hex_to_vec as unhex;
use asmcrypto_testkit::keccak as oracle;

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

// ---------------------------------------------------------------------------------------
// keccak256_batch
// ---------------------------------------------------------------------------------------

/// Hashes the batch and checks every output against the oracle.
fn check(inputs: [&[u8]; 8]) {
    let got = keccak256_batch(inputs);
    for (i, (input, hash)) in inputs.iter().zip(&got).enumerate() {
        assert_eq!(
            *hash,
            oracle(input),
            "lane {i}, lengths {:?}",
            inputs.map(<[u8]>::len)
        );
    }
}

const MAX: usize = 600;

/// Lengths around the block boundaries (rate 136) and the 64-byte special case.
const SPECIAL: [usize; 16] = [
    0, 1, 31, 32, 63, 64, 65, 135, 136, 137, 271, 272, 273, 407, 408, 409,
];

/// Picks eight lengths in `0..=MAX` according to `mode`.
fn lengths(rng: &mut SplitMix64, mode: usize) -> [usize; 8] {
    match mode {
        // Independent uniform lengths.
        0 => core::array::from_fn(|_| rng.index(MAX + 1)),
        // All equal.
        1 => [rng.index(MAX + 1); 8],
        // One long lane among short ones.
        2 => {
            let mut l: [usize; 8] = core::array::from_fn(|_| rng.index(136));
            l[rng.index(8)] = 137 + rng.index(MAX - 136);
            l
        }
        // Exact multiples of the rate, and their neighbours.
        3 => core::array::from_fn(|_| {
            let m = 136 * rng.index(5);
            (m + [0, 0, 1, 135][rng.index(4)]).min(MAX)
        }),
        // The boundary lengths, mixed.
        4 => core::array::from_fn(|_| SPECIAL[rng.index(SPECIAL.len())]),
        // 135 / 136 / 137 only.
        5 => core::array::from_fn(|_| 135 + rng.index(3)),
        // All 64 (public keys), or all 64 but one.
        6 => {
            let mut l = [64; 8];
            if rng.index(2) == 0 {
                l[rng.index(8)] = rng.index(MAX + 1);
            }
            l
        }
        // Short inputs, all within one block.
        _ => core::array::from_fn(|_| rng.index(136)),
    }
}

#[test]
fn batch_random_length_combinations() {
    let mut rng = SplitMix64(0x6B65_6363_616B);
    // Inputs are windows of one buffer at random offsets (so alignment varies too).
    let data = rng.bytes(MAX + 64);
    let cases = 8 * 500;
    for case in 0..cases {
        let lens = lengths(&mut rng, case % 8);
        let offs: [usize; 8] = core::array::from_fn(|_| rng.index(64));
        let inputs: [&[u8]; 8] = core::array::from_fn(|i| &data[offs[i]..offs[i] + lens[i]]);
        check(inputs);
    }
}

#[test]
fn batch_every_length_up_to_600_in_every_lane() {
    let mut rng = SplitMix64(7);
    let data = rng.bytes(MAX);
    for len in 0..=MAX {
        // Lane i gets length len − i (wrapping into range), so every lane sees every length.
        let inputs: [&[u8]; 8] =
            core::array::from_fn(|i| &data[..(len + MAX + 1 - 37 * i) % (MAX + 1)]);
        check(inputs);
    }
}

#[test]
fn batch_identical_inputs_give_identical_hashes() {
    let key = [0x5Au8; 64];
    let h = keccak256_batch([&key; 8]);
    assert!(h.iter().all(|x| *x == keccak256(&key)));
    let empty = keccak256_batch([b""; 8]);
    assert!(empty.iter().all(|x| *x == oracle(b"")));
}

#[test]
fn batch_one_mebibyte_in_one_lane() {
    let mut rng = SplitMix64(99);
    let big = rng.bytes(1 << 20);
    let small = rng.bytes(200);
    for lane in [0, 5] {
        let mut inputs: [&[u8]; 8] = core::array::from_fn(|i| &small[..25 * i]);
        inputs[lane] = &big;
        check(inputs);
    }
    // Two long lanes, of different lengths.
    let mut inputs: [&[u8]; 8] = [&small; 8];
    inputs[2] = &big;
    inputs[6] = &big[..(1 << 19) + 77];
    check(inputs);
}
