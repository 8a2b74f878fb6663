//! Differential soak runner: "never disagree, never panic".
//!
//! Generates valid signatures (random keys and hashes signed with libsecp256k1, both
//! parities, low and high s) and hostile inputs (random bytes; r, s and hash at and around
//! 0, 1, n, p, p − n and 2²⁵⁶; r that is not an x-coordinate; every v; recovery ids 2 and 3;
//! crafted signatures whose key is the point at infinity or a small multiple of G; bit flips
//! of valid signatures; truncated and over-long precompile inputs; signatures crafted so
//! that u₁ and u₂ sit at the edges of the GLV split and the recodings), and compares every
//! public function of `asmcrypto` and every batch path of `asmcrypto::internals::BatchPath`
//! with libsecp256k1 (and Keccak-256 with `sha3`), byte for byte, including exactly which
//! inputs fail and with which error. Panics are caught per call and counted. The inputs and
//! the expected results come from the shared test support (`asmcrypto_testkit::hostile`
//! and its reference model).
//!
//! `--p256` runs P256VERIFY (EIP-7951) instead: rounds of 1–300 seeded inputs of every
//! kind of the shared test support's P-256 generator (`asmcrypto_testkit::p256::case`:
//! valid signatures with low and high s and a hash ≥ n, r and s at 0, n and above, key
//! coordinates ≥ p, the key (0, 0) or off the curve, a changed hash, r, s or key, R′ at
//! infinity, random bytes), each through `p256verify_precompile` (also cut or padded to
//! another length, one input in eight), `p256_verify` (its exact error derived from the
//! input's fields) and, the round as one call, `p256_verify_batch`, against RustCrypto's
//! `p256` crate, which OpenSSL must agree with wherever it is an oracle (160 bytes, key
//! coordinates below p).
//!
//! ```text
//! cargo run --release -p asmcrypto-tools --bin soak -- --seconds N [--threads T] [--seed S]
//!     [--progress SECS] [--only KIND | --p256] [--replay THREAD:ROUND [--dump]] [--self-test]
//! ```
//!
//! Exits with status 1 on any disagreement or panic, after printing the first few in hex.
//! Every round is seeded from (seed, thread, round), so `--replay` reruns one round alone
//! (`--dump` prints its inputs). Run it again with `ASMCRYPTO_BACKEND=avx512f` and
//! `ASMCRYPTO_BACKEND=scalar` to put the dispatched batch functions on those paths as well
//! (the lane engines' own rows run natively whatever the variable says, where the CPU has
//! their features). `--self-test`
//! corrupts some expected results and adds a panicking call, to show both are caught.
//! `--only KIND` draws every input of one kind of the mix (`--only boundary`: the boundary
//! scalars alone; `--help` lists the kinds).
//!
//! See `doc/reliability.md`.

use std::fmt::Debug;
use std::panic::{self, AssertUnwindSafe};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use asmcrypto::internals::BatchPath;
use asmcrypto::{Error, P256Error};
use asmcrypto_testkit::Signed;
use asmcrypto_testkit::hostile::{Case, Generator, Kind};
use asmcrypto_testkit::oracle::{address_of_key, keccak as sha3_keccak};
use asmcrypto_testkit::p256 as tk256;
use asmcrypto_testkit::paths;
use asmcrypto_testkit::rng::{SplitMix64, mix};

fn round_seed(seed: u64, thread: u64, round: u64) -> u64 {
    mix(mix(seed) ^ mix(thread.wrapping_mul(0x1_0000_0001) ^ (round << 20)))
}

// ---------------------------------------------------------------------------------------
// Checks
// ---------------------------------------------------------------------------------------

const FN_NAMES: [&str; 19] = [
    "recover_public_key",
    "recover_address",
    "ecrecover_public_key",
    "ecrecover",
    "ecrecover_precompile",
    "recover_addresses_batch (dispatched)",
    "recover_addresses (BatchPath::Dispatched)",
    "BatchPath::Scalar",
    "BatchPath::PortableLanes",
    "BatchPath::Avx512Lanes",
    "BatchPath::PortableLanes29",
    "BatchPath::Avx512FLanes",
    "keccak256",
    "Keccak256 (incremental)",
    "keccak256_batch",
    "p256verify_precompile",
    "p256verify_precompile (other lengths)",
    "p256_verify",
    "p256_verify_batch",
];
/// The rows of the default mode and of `--p256`.
const SECP_ROWS: std::ops::Range<usize> = 0..15;
const P256_ROWS: std::ops::Range<usize> = 15..19;
const F_KEY: usize = 0;
const F_ADDR: usize = 1;
const F_EC_KEY: usize = 2;
const F_EC: usize = 3;
const F_PRE: usize = 4;
const F_BATCH: usize = 5;
const F_KECCAK: usize = 12;
const F_KECCAK_INC: usize = 13;
const F_KECCAK_BATCH: usize = 14;
const F_P256_PRE: usize = 15;
const F_P256_PRE_LEN: usize = 16;
const F_P256_TYPED: usize = 17;
const F_P256_BATCH: usize = 18;

/// The row of a batch path in [`FN_NAMES`].
fn path_row(path: BatchPath) -> usize {
    match path {
        BatchPath::Dispatched => 6,
        BatchPath::Scalar => 7,
        BatchPath::PortableLanes => 8,
        BatchPath::Avx512Lanes => 9,
        BatchPath::PortableLanes29 => 10,
        BatchPath::Avx512FLanes => 11,
    }
}

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

/// The expected outcomes of `--p256`'s executions.
const P256_OUTCOME_NAMES: [&str; 7] = [
    "valid",
    "InvalidR",
    "InvalidS",
    "KeyCoordinateOutOfRange",
    "KeyNotOnCurve",
    "Mismatch (R′ at infinity or x(R′) ≢ r)",
    "another length than 160 (precompile: empty output)",
];
const P256_O_LEN: usize = 6;
const P256_KINDS: usize = tk256::KINDS.len();

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
    kinds: [u64; Kind::ALL.len()],
    disagreements: u64,
    panics: u64,
    rounds: u64,
    reference_ns: u64,
    check_ns: u64,
    fn_ns: [u64; FN_NAMES.len()],
    p256_outcomes: [u64; P256_OUTCOME_NAMES.len()],
    p256_kinds: [u64; P256_KINDS],
    /// `--p256`: the inputs on which OpenSSL was an oracle (and agreed with `p256`).
    p256_openssl: u64,
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
        for (a, b) in self.p256_outcomes.iter_mut().zip(&o.p256_outcomes) {
            *a += b;
        }
        for (a, b) in self.p256_kinds.iter_mut().zip(&o.p256_kinds) {
            *a += b;
        }
        self.p256_openssl += o.p256_openssl;
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

    /// A single-signature call on case `c`: counts the outcome of `want`, then
    /// [`Checker::one`] with `c` as the input.
    fn case<T: PartialEq + Debug>(
        &mut self,
        f: usize,
        c: &Case,
        want: &Result<T, Error>,
        call: impl FnOnce() -> Result<T, Error>,
    ) {
        self.stats.outcomes[outcome(want)] += 1;
        self.one(f, want, call, || c.describe());
    }

    /// Batch path `path` on `inputs` (the cases `idx`), where this CPU can run it.
    fn path(&mut self, path: BatchPath, cases: &[Case], idx: &[usize], inputs: &[Signed]) {
        if !paths::available(path) {
            return;
        }
        self.batch(path_row(path), cases, idx, "", || {
            paths::run(path, inputs).expect("available on this CPU")
        });
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
    c.want_addr = c.want_key.map(|k| address_of_key(&k));
    c.want_ec_key = match c.want_ec_key {
        Ok(_) => Err(Error::PointAtInfinity),
        Err(_) => Ok([0; 64]),
    };
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

/// Runs round `round` of worker `thread`.
#[allow(clippy::too_many_arguments)]
fn run_round(
    seed: u64,
    thread: u64,
    round: u64,
    stats: &mut Stats,
    dump: bool,
    self_test: bool,
    only: Option<Kind>,
) {
    let t0 = Instant::now();
    let mut g = Generator::new(round_seed(seed, thread, round));
    if let Some(kind) = only {
        g = g.only(kind);
    }
    // Length: mostly short (on both sides of the 16 signatures from which the scalar
    // path shares R's tables), sometimes up to a chunk of 128 and past it, sometimes long
    // (several chunks of shared tables).
    let len = match g.rng.below(100) {
        0..=84 => g.rng.range(1, 48),
        85..=95 => g.rng.range(49, 191),
        _ => g.rng.range(192, 600),
    } as usize;
    let mut cases = g.generate(len);
    let mut rng = SplitMix64(mix(g.rng.next_u64()));
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
    let portable_group = rng.below(4) == 0;
    stats.reference_ns += t0.elapsed().as_nanos() as u64;
    for e in g.reference.take_inconsistencies() {
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
        stats.kinds[c.kind.index()] += 1;
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
        let sig64 = c.sig64();
        ck.case(F_KEY, c, &c.want_key, || {
            asmcrypto::recover_public_key(&c.hash, &c.sig)
        });
        ck.case(F_ADDR, c, &c.want_addr, || {
            asmcrypto::recover_address(&c.hash, &c.sig)
        });
        ck.case(F_EC_KEY, c, &c.want_ec_key, || {
            asmcrypto::ecrecover_public_key(&sig64, c.recid, &c.hash)
        });
        ck.case(F_EC, c, &c.want_ec, || {
            asmcrypto::ecrecover(&sig64, c.recid, &c.hash)
        });
        ck.stats.outcomes[if c.want_pre.is_some() { 0 } else { 6 }] += 1;
        ck.one(
            F_PRE,
            &c.want_pre,
            || asmcrypto::ecrecover_precompile(&c.pre),
            || c.describe(),
        );
    }
    // Groups of eight (the last one wraps around to the first cases), and the slow
    // portable engine on the first group of one round in four.
    let all: Vec<usize> = (0..cases.len()).collect();
    for start in (0..cases.len()).step_by(8) {
        let idx: Vec<usize> = (0..8).map(|i| (start + i) % cases.len()).collect();
        let group: [Signed; 8] = core::array::from_fn(|i| cases[idx[i]].signed());
        ck.batch(F_BATCH, &cases, &idx, "", || {
            asmcrypto::recover_addresses_batch(&group).to_vec()
        });
        if portable_group && start == 0 {
            ck.path(BatchPath::PortableLanes, &cases, &idx, &group);
            ck.path(BatchPath::PortableLanes29, &cases, &idx, &group);
        }
    }
    // Every other batch path on the whole round.
    let inputs: Vec<Signed> = cases.iter().map(Case::signed).collect();
    for path in paths::every() {
        if !matches!(path, BatchPath::PortableLanes | BatchPath::PortableLanes29) {
            ck.path(path, &cases, &all, &inputs);
        }
    }
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
// P-256 (`--p256`)
// ---------------------------------------------------------------------------------------

/// One `--p256` input: its kind, the 160 bytes, the `p256` crate's verdict, and the input
/// cut or padded to another length (for the precompile alone) in one round of eight.
struct P256Case {
    kind: usize,
    input: tk256::Input,
    valid: bool,
    other_len: Option<Vec<u8>>,
}

impl P256Case {
    fn describe(&self) -> String {
        format!(
            "{} (kind {}): {}",
            tk256::KINDS[self.kind],
            self.kind,
            hex::encode(self.input)
        )
    }

    /// `p256_verify`'s answer: the first of EIP-7951's checks that the input fails, from
    /// its fields alone (the curve check by the `p256` crate), or `Ok`.
    fn want_typed(&self) -> Result<(), P256Error> {
        if self.valid {
            Ok(())
        } else {
            Err(tk256::expected_error(&self.input))
        }
    }
}

fn p256_outcome(want: &Result<(), P256Error>) -> usize {
    match want {
        Ok(()) => 0,
        Err(P256Error::InvalidR) => 1,
        Err(P256Error::InvalidS) => 2,
        Err(P256Error::KeyCoordinateOutOfRange) => 3,
        Err(P256Error::KeyNotOnCurve) => 4,
        Err(_) => 5,
    }
}

/// Runs `--p256` round `round` of worker `thread`: 1–300 inputs of kinds drawn at random.
fn run_p256_round(
    seed: u64,
    thread: u64,
    round: u64,
    stats: &mut Stats,
    dump: bool,
    self_test: bool,
) {
    let t0 = Instant::now();
    let round_id = format!("{thread}:{round}");
    let mut rng = SplitMix64(round_seed(seed, thread, round));
    let len = rng.range(1, 300) as usize;
    let mut cases: Vec<P256Case> = (0..len)
        .map(|_| {
            let kind = rng.index(P256_KINDS);
            let input = tk256::case(&mut rng, kind);
            let other_len = (rng.below(8) == 0).then(|| {
                let mut v = input.to_vec();
                let len = match rng.range(0, 319) as usize {
                    160 => 0,
                    l => l,
                };
                v.resize(len, 0);
                if len > 160 {
                    rng.fill(&mut v[160..]);
                }
                v
            });
            P256Case {
                kind,
                valid: tk256::p256_crate_verify(&input),
                input,
                other_len,
            }
        })
        .collect();
    // OpenSSL must agree with the p256 crate wherever it is an oracle.
    for c in &cases {
        if let Some(openssl) = tk256::openssl_verify(&c.input) {
            stats.p256_openssl += 1;
            if openssl != c.valid {
                stats.disagreements += 1;
                report(format!(
                    "ORACLE DISAGREEMENT (round {round_id}): OpenSSL says {openssl}, the p256 crate {}\n  input: {}",
                    c.valid,
                    c.describe()
                ));
            }
        }
    }
    if self_test {
        cases[0].valid = !cases[0].valid;
    }
    stats.reference_ns += t0.elapsed().as_nanos() as u64;
    if dump {
        println!("round {round_id}: {} P-256 inputs", cases.len());
        for (i, c) in cases.iter().enumerate() {
            println!("  #{i}: {} → {}", c.describe(), c.valid);
            if let Some(v) = &c.other_len {
                println!("      as {} bytes: {}", v.len(), hex::encode(v));
            }
        }
    }

    let t1 = Instant::now();
    let mut ck = Checker { stats, round_id };
    if self_test {
        ck.one(
            F_P256_TYPED,
            &Err::<(), _>(P256Error::Mismatch),
            || panic!("self-test"),
            || "self-test".into(),
        );
    }
    for c in &cases {
        ck.stats.p256_kinds[c.kind] += 1;
        let want = c.want_typed();
        ck.stats.p256_outcomes[p256_outcome(&want)] += 2;
        ck.one(
            F_P256_PRE,
            &c.valid.then_some(asmcrypto::P256VERIFY_SUCCESS),
            || asmcrypto::p256verify_precompile(&c.input),
            || c.describe(),
        );
        let hash: [u8; 32] = c.input[..32].try_into().unwrap();
        let sig: [u8; 64] = c.input[32..96].try_into().unwrap();
        let key: [u8; 64] = c.input[96..].try_into().unwrap();
        ck.one(
            F_P256_TYPED,
            &want,
            || asmcrypto::p256_verify(&hash, &sig, &key),
            || c.describe(),
        );
        if let Some(v) = &c.other_len {
            ck.stats.p256_outcomes[P256_O_LEN] += 1;
            ck.one(
                F_P256_PRE_LEN,
                &tk256::p256_crate_verify(v).then_some(asmcrypto::P256VERIFY_SUCCESS),
                || asmcrypto::p256verify_precompile(v),
                || format!("{} bytes: {}", v.len(), hex::encode(v)),
            );
        }
    }
    // The round as one batch (past the 256 inputs of a shared inversion when it is longer).
    let inputs: Vec<tk256::Input> = cases.iter().map(|c| c.input).collect();
    for c in &cases {
        ck.stats.p256_outcomes[p256_outcome(&c.want_typed())] += 1;
    }
    ck.stats.execs[F_P256_BATCH] += len as u64;
    let t = Instant::now();
    let res = panic::catch_unwind(AssertUnwindSafe(|| asmcrypto::p256_verify_batch(&inputs)));
    ck.stats.fn_ns[F_P256_BATCH] += t.elapsed().as_nanos() as u64;
    match res {
        Ok(got) if got.len() != len => {
            ck.stats.disagreements += 1;
            report(format!(
                "DISAGREEMENT in p256_verify_batch (round {}): {} results for {len} inputs",
                ck.round_id,
                got.len()
            ));
        }
        Ok(got) => {
            for (lane, (g, c)) in got.iter().zip(&cases).enumerate() {
                if *g != c.valid {
                    ck.stats.disagreements += 1;
                    report(format!(
                        "DISAGREEMENT in p256_verify_batch, lane {lane} of {len} (round {}):\n  input: {}\n  expected: {}\n  got:      {g}",
                        ck.round_id,
                        c.describe(),
                        c.valid
                    ));
                }
            }
        }
        Err(_) => {
            ck.stats.panics += 1;
            report(format!(
                "PANIC in p256_verify_batch over {len} inputs (round {}; rerun it with --p256 --replay and --dump)",
                ck.round_id
            ));
        }
    }
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
    only: Option<Kind>,
    p256: bool,
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
        only: None,
        p256: false,
        dump: false,
        self_test: false,
    };
    let mut it = std::env::args().skip(1);
    let kinds: Vec<&str> = Kind::ALL.iter().map(|k| k.key()).collect();
    let usage = format!(
        "usage: soak --seconds N [--threads T] [--seed S] [--progress SECS] [--only KIND | --p256] [--replay THREAD:ROUND [--dump]] [--self-test]\nKIND: {}",
        kinds.join(", ")
    );
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
            "--only" => {
                let v = val("--only");
                let kind = Kind::ALL.iter().find(|k| k.key() == v);
                a.only = Some(*kind.unwrap_or_else(|| panic!("--only: no kind {v}\n{usage}")));
            }
            "--p256" => a.p256 = true,
            "--dump" => a.dump = true,
            "--self-test" => a.self_test = true,
            "-h" | "--help" => {
                println!("{usage}");
                std::process::exit(0);
            }
            other => panic!("unknown argument {other}\n{usage}"),
        }
    }
    if a.p256 && a.only.is_some() {
        panic!("--only picks a kind of the secp256k1 mix; --p256 draws every P-256 kind\n{usage}");
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

fn print_summary(s: &Stats, elapsed: Duration, threads: usize, p256: bool) {
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
    let rows = if p256 { P256_ROWS } else { SECP_ROWS };
    for ((name, n), ns) in FN_NAMES
        .iter()
        .zip(&s.execs)
        .zip(&s.fn_ns)
        .take(rows.end)
        .skip(rows.start)
    {
        println!(
            "  {name:<44} {n:>14}  {:7.2} µs/execution",
            *ns as f64 / 1e3 / (*n).max(1) as f64
        );
    }
    if p256 {
        print_p256_summary(s);
        return;
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
    for (kind, n) in Kind::ALL.iter().zip(&s.kinds) {
        println!(
            "  {:<54} {n:>12}  {:5.1}%",
            kind.name(),
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

/// The rest of `--p256`'s summary: the outcomes, the kinds and OpenSSL's share.
fn print_p256_summary(s: &Stats) {
    let total_outcomes: u64 = s.p256_outcomes.iter().sum();
    println!("expected outcome of each execution:");
    for (name, n) in P256_OUTCOME_NAMES.iter().zip(&s.p256_outcomes) {
        println!(
            "  {name:<52} {n:>14}  {:5.1}%",
            100.0 * *n as f64 / total_outcomes.max(1) as f64
        );
    }
    let total_cases: u64 = s.p256_kinds.iter().sum();
    println!("generated inputs by kind:");
    for (kind, n) in tk256::KINDS.iter().zip(&s.p256_kinds) {
        println!(
            "  {kind:<54} {n:>12}  {:5.1}%",
            100.0 * *n as f64 / total_cases.max(1) as f64
        );
    }
    println!(
        "OpenSSL an oracle (and compared with the p256 crate) on {} of {total_cases} inputs ({:.1}%; not where a key coordinate is ≥ p)",
        s.p256_openssl,
        100.0 * s.p256_openssl as f64 / total_cases.max(1) as f64
    );
    let busy = (s.reference_ns + s.check_ns).max(1) as f64;
    println!(
        "thread time: {:.0}% generating inputs and the p256/OpenSSL reference, {:.0}% in the checked calls",
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
        "asmcrypto soak{}: backend {} on {} (avx512ifma: {}), seed {}{}",
        if args.p256 { " (P-256)" } else { "" },
        asmcrypto::backend(),
        cpu_name(),
        has_ifma(),
        args.seed,
        args.only
            .map_or(String::new(), |k| format!(", only {}", k.key()))
    );

    let start = Instant::now();
    let total = Mutex::new(Stats::default());
    if let Some((thread, round)) = args.replay {
        let mut s = Stats::default();
        if args.p256 {
            run_p256_round(args.seed, thread, round, &mut s, args.dump, args.self_test);
        } else {
            run_round(
                args.seed,
                thread,
                round,
                &mut s,
                args.dump,
                args.self_test,
                args.only,
            );
        }
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
                let (seed, self_test, only, p256) =
                    (args.seed, args.self_test, args.only, args.p256);
                scope.spawn(move || {
                    let mut round = 0u64;
                    while !stop.load(Ordering::Relaxed) {
                        let mut s = Stats::default();
                        if p256 {
                            run_p256_round(seed, t as u64, round, &mut s, false, self_test);
                        } else {
                            run_round(seed, t as u64, round, &mut s, false, self_test, only);
                        }
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
                    let outcomes = if args.p256 {
                        &s.p256_outcomes[..]
                    } else {
                        &s.outcomes[..]
                    };
                    let ok = outcomes[0] as f64 / outcomes.iter().sum::<u64>().max(1) as f64;
                    println!(
                        "[{el:7.0} s] executions {:>13}  {:>8.0}/s  valid {} {:4.1}%  disagreements {}  panics {}",
                        s.executions(),
                        s.executions() as f64 / el,
                        if args.p256 {
                            "signatures"
                        } else {
                            "recoveries"
                        },
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
        args.p256,
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
