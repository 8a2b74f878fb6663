//! P-256 verification timed robustly on a noisy machine: asmcrypto against OpenSSL (ECDSA
//! P-256 verify: `ECDSA_do_verify`, nistz256 assembly where OpenSSL has it) and RustCrypto's
//! `p256` crate (revm's default P256VERIFY backend), on 256 seeded valid signatures by 256
//! keys. Each row times the sides back to back for every signature, over many interleaved
//! rounds; each side keeps its minimum per signature and the table sums those minima. One
//! thread.
//!
//! Rows:
//! - `p256_verify` (parses r, s and the key from bytes and checks the key on the curve)
//!   against the references with their key and signature objects built beforehand (the
//!   verification alone: the references' most favourable case);
//! - `p256verify_precompile` on the 160-byte input against the references from the same
//!   bytes (their key and signature objects built in the timed call, as a precompile must;
//!   OpenSSL's key from its affine coordinates, which checks the point is on the curve);
//! - `p256_verify_batch` of all 256, per signature, against the references' prepared
//!   verification (best of the rounds).
//!
//! Usage: `cargo run --release -p asmcrypto-tools --bin p256verify [-- ROUNDS]` (default 60).

#[cfg(target_arch = "x86_64")]
mod timing {
    use std::hint::black_box;
    use std::time::Instant;

    use asmcrypto_testkit::p256::{self as tk, Input};
    use openssl::bn::BigNum;
    use openssl::ec::{EcGroup, EcKey};
    use openssl::ecdsa::EcdsaSig;
    use openssl::nid::Nid;
    use openssl::pkey::Public;
    use p256::ecdsa::signature::hazmat::PrehashVerifier;
    use p256::ecdsa::{Signature, VerifyingKey};

    fn time(f: impl FnOnce()) -> f64 {
        let start = Instant::now();
        f();
        start.elapsed().as_secs_f64()
    }

    /// Per item, each side's minimum over the interleaved rounds; the sums (seconds).
    fn minima<T>(items: &[T], rounds: usize, sides: &[&dyn Fn(&T)]) -> Vec<f64> {
        let mut m = vec![vec![f64::INFINITY; items.len()]; sides.len()];
        for _ in 0..rounds {
            for (i, item) in items.iter().enumerate() {
                for (k, side) in sides.iter().enumerate() {
                    m[k][i] = m[k][i].min(time(|| side(item)));
                }
            }
        }
        m.iter().map(|v| v.iter().sum()).collect()
    }

    struct Prepared {
        input: Input,
        ossl_key: EcKey<Public>,
        ossl_sig: EcdsaSig,
        rc_key: VerifyingKey,
        rc_sig: Signature,
    }

    pub fn main() {
        let rounds: usize = std::env::args()
            .nth(1)
            .map_or(60, |r| r.parse().expect("ROUNDS is a number"));
        println!("asmcrypto: {}", asmcrypto::backend_details());
        println!("OpenSSL: {}", openssl::version::version());
        let group = EcGroup::from_curve_name(Nid::X9_62_PRIME256V1).expect("P-256");
        let bn = |b: &[u8]| BigNum::from_slice(b).expect("BigNum");
        // Kind 0 of the generator: valid signatures by fresh keys over random hashes.
        let inputs: Vec<Input> = (0..256u64)
            .map(|i| tk::case(&mut asmcrypto_testkit::SplitMix64(0x256 + i), 0))
            .collect();
        let prepared: Vec<Prepared> = inputs
            .iter()
            .map(|input| {
                let mut point = [4u8; 65];
                point[1..].copy_from_slice(&input[96..]);
                Prepared {
                    input: *input,
                    ossl_key: EcKey::from_public_key_affine_coordinates(
                        &group,
                        &bn(&input[96..128]),
                        &bn(&input[128..]),
                    )
                    .expect("key"),
                    ossl_sig: EcdsaSig::from_private_components(
                        bn(&input[32..64]),
                        bn(&input[64..96]),
                    )
                    .expect("sig"),
                    rc_key: VerifyingKey::from_sec1_bytes(&point).expect("key"),
                    rc_sig: Signature::from_slice(&input[32..96]).expect("sig"),
                }
            })
            .collect();
        for p in &prepared {
            assert!(asmcrypto::p256verify_precompile(&p.input).is_some());
            assert!(p.ossl_sig.verify(&p.input[..32], &p.ossl_key).unwrap());
            assert!(p.rc_key.verify_prehash(&p.input[..32], &p.rc_sig).is_ok());
            assert_eq!(tk::openssl_verify(&p.input), Some(true));
        }
        let n = prepared.len() as f64;
        let us = |s: f64| s / n * 1e6;
        println!(
            "{:<48} {:>9} {:>9} {:>9} {:>10} {:>10}",
            "row (one thread)", "ours µs", "OpenSSL", "p256", "/ OpenSSL", "/ p256"
        );
        let row = |name: &str, t: &[f64]| {
            println!(
                "{:<48} {:>9.2} {:>9.2} {:>9.2} {:>9.3}x {:>9.3}x",
                name,
                us(t[0]),
                us(t[1]),
                us(t[2]),
                t[0] / t[1],
                t[0] / t[2]
            );
        };
        let t = minima(
            &prepared,
            rounds,
            &[
                &|p: &Prepared| {
                    let (h, rest) = p.input.split_at(32);
                    let (sig, key) = rest.split_at(64);
                    let _ = black_box(asmcrypto::p256_verify(
                        black_box(h.try_into().unwrap()),
                        black_box(sig.try_into().unwrap()),
                        black_box(key.try_into().unwrap()),
                    ));
                },
                &|p: &Prepared| {
                    let _ = black_box(p.ossl_sig.verify(black_box(&p.input[..32]), &p.ossl_key));
                },
                &|p: &Prepared| {
                    let _ = black_box(
                        p.rc_key
                            .verify_prehash(black_box(&p.input[..32]), &p.rc_sig),
                    );
                },
            ],
        );
        row("p256_verify vs prepared key and signature", &t);
        let prepared_ossl = t[1];
        let t = minima(
            &inputs,
            rounds,
            &[
                &|i: &Input| {
                    black_box(asmcrypto::p256verify_precompile(black_box(i)));
                },
                &|i: &Input| {
                    // The key from its coordinates (OpenSSL checks it is on the curve) and the
                    // signature from r and s, then the verification: no EC_KEY_check_key, whose
                    // n·Q no precompile needs on a prime-order curve.
                    let i = black_box(i);
                    let ok = EcKey::from_public_key_affine_coordinates(
                        &group,
                        &bn(&i[96..128]),
                        &bn(&i[128..]),
                    )
                    .ok()
                    .and_then(|key| {
                        let sig = EcdsaSig::from_private_components(bn(&i[32..64]), bn(&i[64..96]))
                            .ok()?;
                        sig.verify(&i[..32], &key).ok()
                    });
                    black_box(ok);
                },
                &|i: &Input| {
                    black_box(tk::p256_crate_verify(black_box(i)));
                },
            ],
        );
        row("p256verify_precompile vs the same bytes", &t);
        // The batch: best of the rounds for the whole call.
        let mut best = f64::INFINITY;
        for _ in 0..rounds {
            best = best.min(time(|| {
                black_box(asmcrypto::p256_verify_batch(black_box(&inputs)));
            }));
        }
        println!(
            "{:<48} {:>9.2} {:>9.2} {:>9} {:>9.3}x",
            "p256_verify_batch (256) vs prepared OpenSSL",
            us(best),
            us(prepared_ossl),
            "",
            best / prepared_ossl
        );
    }
}

#[cfg(target_arch = "x86_64")]
fn main() {
    timing::main();
}

#[cfg(not(target_arch = "x86_64"))]
fn main() {
    eprintln!("p256verify times against OpenSSL, which the tools link on x86-64 only");
    std::process::exit(2);
}
