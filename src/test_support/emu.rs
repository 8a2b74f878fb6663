//! Runs an exported leaf function of the running executable (a test binary, or a tool
//! built with the feature `emu`) inside the
//! AVX-512 emulator from `../shared/emu` (BochsCPU), whose runner path is in `$BXRUN`.
//!
//! Protocol (little-endian), as the emulator's README defines it: the spec on stdin is
//! `u32 nargs`, then per argument `u8 kind` (0 = integer, 1 = buffer) and a `u64` value
//! (integer) or `u64 len` followed by the bytes (buffer). The result on stdout is `u64 rax`
//! followed by the final contents of every buffer argument, in order.

use std::io::Write;
use std::process::{Command, Stdio};

/// One argument of an emulated call.
pub(crate) enum Arg<'a> {
    /// An integer register argument.
    Int(u64),
    /// A buffer, placed in emulated memory (64-byte aligned) and passed as a pointer.
    Buf(&'a [u8]),
}

/// The result of an emulated call.
#[allow(dead_code)] // each user reads the parts it needs
pub(crate) struct Outcome {
    /// The function's return value (rax).
    pub rax: u64,
    /// The final contents of each buffer argument, in order.
    pub bufs: Vec<Vec<u8>>,
    /// Instructions executed, when counting was requested.
    pub instructions: Option<u64>,
}

/// The emulator runner, if `$BXRUN` names one.
pub(crate) fn runner() -> Option<std::path::PathBuf> {
    std::env::var_os("BXRUN")
        .filter(|v| !v.is_empty())
        .map(Into::into)
}

/// Calls `symbol` of this executable under the emulator. Panics (failing the test) if the
/// runner fails or the function faults.
pub(crate) fn call(symbol: &str, args: &[Arg<'_>], count: bool) -> Outcome {
    let runner = runner().expect("BXRUN is not set");
    let exe = std::env::current_exe().expect("path of the test binary");
    let mut spec = Vec::new();
    spec.extend_from_slice(&(args.len() as u32).to_le_bytes());
    for a in args {
        match a {
            Arg::Int(v) => {
                spec.push(0);
                spec.extend_from_slice(&v.to_le_bytes());
            }
            Arg::Buf(b) => {
                spec.push(1);
                spec.extend_from_slice(&(b.len() as u64).to_le_bytes());
                spec.extend_from_slice(b);
            }
        }
    }
    let mut cmd = Command::new(&runner);
    cmd.arg(&exe)
        .arg(symbol)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    if count {
        cmd.env("BX_COUNT", "1");
    }
    let mut child = cmd.spawn().expect("start the emulator runner");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(&spec)
        .expect("write the call spec");
    let out = child.wait_with_output().expect("emulator runner output");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success(),
        "emulated call of {symbol} failed: {stderr}"
    );
    let instructions = stderr
        .lines()
        .find_map(|l| l.strip_prefix("instructions: "))
        .and_then(|n| n.trim().parse().ok());
    let data = out.stdout;
    assert!(data.len() >= 8, "short emulator output");
    let rax = u64::from_le_bytes(data[..8].try_into().expect("8 bytes"));
    let mut off = 8;
    let mut bufs = Vec::new();
    for a in args {
        if let Arg::Buf(b) = a {
            bufs.push(data[off..off + b.len()].to_vec());
            off += b.len();
        }
    }
    Outcome {
        rax,
        bufs,
        instructions,
    }
}
