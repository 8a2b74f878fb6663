//! Issue 39, part 3: does a scalar-core doubling (MULX/ADX, integer units) come nearly free
//! beside a lane doubling (eight points, vector units) in one instruction stream?
//!
//! Times chained doublings in five arrangements on each lane engine this CPU has (5×52 on
//! AVX-512 IFMA, 9×29 on AVX-512 F): the lane doubling alone; k = 1 or 2 scalar doublings
//! alone; both as coarse blocks (the lane doubling, then the scalar ones); both
//! interleaved a field operation at a time (`lanes::hybrid`). Then two lane doublings (two
//! groups of eight), as blocks and interleaved a product at a time: whether the lane
//! doubling is bound by its multiply ports or by its dependency chains. First checks that every
//! arrangement ends on the same points as the separate runs. Nanoseconds per step (one
//! lane doubling and/or k scalar ones), best of interleaved rounds on one thread, and the
//! ratio to the lane doubling alone: the experiment's go is an interleaved ratio ≤ 1.15.
//!
//! `cargo run --release -p asmcrypto-tools --features emu --bin hybrid_double [ROUNDS]`
//! (default 200). `scripts/mca.sh` models the same kernels on other cores.

use std::hint::black_box;
use std::time::Instant;

use asmcrypto::internals::hybrid::{Engine, Mode, double_loop, start};

const ITERS: u64 = 2000;

/// Nanoseconds per step of one run of `ITERS` steps, or `None` if this CPU cannot run it.
fn time(engine: Engine, mode: Mode, k: usize) -> Option<f64> {
    let (mut lanes, mut scalar) = start();
    let t0 = Instant::now();
    let ran = double_loop(
        engine,
        mode,
        k,
        black_box(&mut lanes),
        black_box(&mut scalar),
        ITERS,
    );
    let ns = t0.elapsed().as_secs_f64() * 1e9 / ITERS as f64;
    black_box((&lanes, &scalar));
    ran.then_some(ns)
}

/// The final points of `iters` steps.
fn result(engine: Engine, mode: Mode, k: usize, iters: u64) -> Option<([u64; 96], [u64; 24])> {
    let (mut lanes, mut scalar) = start();
    double_loop(engine, mode, k, &mut lanes, &mut scalar, iters).then_some((lanes, scalar))
}

fn main() {
    let rounds: usize = std::env::args()
        .nth(1)
        .map(|a| a.parse().expect("ROUNDS is a number"))
        .unwrap_or(200);
    println!(
        "one thread; ns per step of {ITERS} chained steps, best of {rounds} interleaved rounds"
    );
    for (name, engine) in [
        ("avx512-ifma (5×52)", Engine::Ifma),
        ("avx512f (9×29)", Engine::Avx512F),
    ] {
        if result(engine, Mode::Lanes, 1, 1).is_none() {
            println!("{name}: not measured here (this CPU lacks its features)");
            continue;
        }
        // The pair modes: the first group as the lane doubling alone (the entry checks the
        // second group against it and spoils the first where they disagree).
        let (lanes, _) = result(engine, Mode::Lanes, 1, 37).unwrap();
        for mode in [Mode::PairBlocks, Mode::Pair] {
            let (l, _) = result(engine, mode, 1, 37).unwrap();
            assert_eq!(l, lanes, "{name} {mode:?}: lanes differ");
        }
        // The arrangements agree: lanes from the lane run, scalar points from the scalar
        // run, for each k.
        for k in [1, 2] {
            let (lanes, _) = result(engine, Mode::Lanes, k, 37).unwrap();
            let (_, scalar) = result(engine, Mode::Scalar, k, 37).unwrap();
            for mode in [Mode::Block, Mode::Interleaved] {
                let (l, s) = result(engine, mode, k, 37).unwrap();
                assert_eq!(l, lanes, "{name} {mode:?} k={k}: lanes differ");
                assert_eq!(
                    s[..12 * k],
                    scalar[..12 * k],
                    "{name} {mode:?} k={k}: scalar differs"
                );
            }
        }
        let cases: Vec<(String, Mode, usize)> = vec![
            ("lane doubling alone".into(), Mode::Lanes, 1),
            ("1 scalar doubling alone".into(), Mode::Scalar, 1),
            ("2 scalar doublings alone".into(), Mode::Scalar, 2),
            ("lanes + 1 scalar, blocks".into(), Mode::Block, 1),
            ("lanes + 1 scalar, interleaved".into(), Mode::Interleaved, 1),
            ("lanes + 2 scalar, blocks".into(), Mode::Block, 2),
            ("lanes + 2 scalar, interleaved".into(), Mode::Interleaved, 2),
            ("two lane doublings, blocks".into(), Mode::PairBlocks, 1),
            ("two lane doublings, interleaved".into(), Mode::Pair, 1),
        ];
        let mut best = vec![f64::INFINITY; cases.len()];
        for _ in 0..rounds {
            for (b, (_, mode, k)) in best.iter_mut().zip(&cases) {
                *b = b.min(time(engine, *mode, *k).unwrap());
            }
        }
        println!("{name}:");
        println!("{:>32} {:>10} {:>18}", "", "ns/step", "× lanes alone");
        for ((label, _, _), b) in cases.iter().zip(&best) {
            println!("{label:>32} {b:>10.1} {:>17.3}x", b / best[0]);
        }
        println!(
            "two groups of eight: {:.0} % of the doubling's throughput gained as blocks, {:.0} % interleaved",
            100.0 * (2.0 * best[0] / best[7] - 1.0),
            100.0 * (2.0 * best[0] / best[8] - 1.0),
        );
        for (k, block, inter, alone) in [(1, 3, 4, 1), (2, 5, 6, 2)] {
            println!(
                "k = {k}: the scalar doublings add {:.0} % of their own time as blocks, {:.0} % interleaved",
                100.0 * (best[block] - best[0]) / best[alone],
                100.0 * (best[inter] - best[0]) / best[alone],
            );
        }
    }
}
