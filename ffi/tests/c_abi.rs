//! The C ABI from C: builds `tests/c/test_ffi.c` with the system C compiler against
//! `include/asmcrypto.h` and this package's static library (then its shared library), runs
//! it on the bundled vectors, and checks that the header and the libraries' exported
//! symbols agree.
//!
//! Needs a C compiler (`$CC`, else `cc`) and `nm`; the random-signature part needs the
//! system libsecp256k1 with its recovery module (Debian: `libsecp256k1-dev`). Where one is
//! missing the part that needs it is skipped with a message on stderr, unless
//! `ASMCRYPTO_FFI_REQUIRE=1` is set (as `.ci/run` does), which turns every skip into a
//! failure.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

/// The functions that issue 14 requires, by name (outside programs compile against them).
const REQUIRED: [&str; 6] = [
    "asmcrypto_ecdsa_recover",
    "asmcrypto_recover_address",
    "asmcrypto_recover_addresses",
    "asmcrypto_ecrecover_precompile",
    "asmcrypto_keccak256",
    "asmcrypto_backend",
];

fn required() -> bool {
    std::env::var_os("ASMCRYPTO_FFI_REQUIRE").is_some_and(|v| v == "1")
}

/// Reports a missing tool: a failure under `ASMCRYPTO_FFI_REQUIRE=1`, a skip otherwise.
fn skip(what: &str) {
    assert!(!required(), "ASMCRYPTO_FFI_REQUIRE=1, but {what}");
    eprintln!("SKIPPED: {what} (ASMCRYPTO_FFI_REQUIRE=1 makes this a failure)");
}

fn ffi_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The static and the shared library, built for this test run: cargo builds no
/// staticlib or cdylib for a package's integration tests, so this runs
/// `cargo build -p asmcrypto-ffi` with the profile of the running tests (whose other units
/// it reuses) and takes the paths from cargo's JSON messages. Once per test process.
fn libraries() -> &'static (PathBuf, PathBuf) {
    static LIBS: OnceLock<(PathBuf, PathBuf)> = OnceLock::new();
    LIBS.get_or_init(|| {
        // target/<profile dir>/deps/c_abi-<hash>; `cargo test` builds with the "test"
        // profile into target/debug, other profiles build into a directory of their name.
        let exe = std::env::current_exe().expect("current_exe");
        let dir = exe
            .parent()
            .and_then(Path::parent)
            .and_then(Path::file_name)
            .and_then(|d| d.to_str())
            .expect("the test executable runs from target/<profile>/deps");
        let profile = if dir == "debug" { "test" } else { dir };
        let cargo = std::env::var("CARGO").unwrap_or_else(|_| env!("CARGO").to_string());
        let out = Command::new(&cargo)
            .args([
                "build",
                "--quiet",
                "-p",
                "asmcrypto-ffi",
                "--lib",
                "--profile",
                profile,
            ])
            .arg("--message-format=json-render-diagnostics")
            .current_dir(ffi_dir())
            .output()
            .unwrap_or_else(|e| panic!("cannot run {cargo}: {e}"));
        assert!(
            out.status.success(),
            "cargo build -p asmcrypto-ffi --profile {profile} failed:\n{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let mut a = None;
        let mut so = None;
        for line in String::from_utf8_lossy(&out.stdout).lines() {
            let Ok(msg) = serde_json::from_str::<serde_json::Value>(line) else {
                continue;
            };
            if msg["reason"] != "compiler-artifact" || msg["target"]["name"] != "asmcrypto_ffi" {
                continue;
            }
            for f in msg["filenames"].as_array().into_iter().flatten() {
                let f = PathBuf::from(f.as_str().unwrap_or_default());
                match f.extension().and_then(|e| e.to_str()) {
                    Some("a") => a = Some(f),
                    Some("so") => so = Some(f),
                    _ => {}
                }
            }
        }
        let a = a.expect("cargo reported no libasmcrypto_ffi.a");
        let so = so.expect("cargo reported no libasmcrypto_ffi.so");
        assert!(
            a.is_file() && so.is_file(),
            "{} / {} missing",
            a.display(),
            so.display()
        );
        (a, so)
    })
}

fn out_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("ffi-c")
}

fn cc() -> String {
    std::env::var("CC").unwrap_or_else(|_| "cc".to_string())
}

fn tool_works(cmd: &str, arg: &str) -> bool {
    Command::new(cmd)
        .arg(arg)
        .output()
        .is_ok_and(|o| o.status.success())
}

/// True if the system libsecp256k1 with the recovery module can be compiled and linked
/// (probed once per test process).
fn have_libsecp256k1() -> bool {
    static HAVE: OnceLock<bool> = OnceLock::new();
    *HAVE.get_or_init(probe_libsecp256k1)
}

fn probe_libsecp256k1() -> bool {
    let dir = out_dir();
    std::fs::create_dir_all(&dir).unwrap();
    let src = dir.join("probe_secp256k1.c");
    std::fs::write(
        &src,
        "#include <secp256k1.h>\n#include <secp256k1_recovery.h>\n\
         int main(void) {\n\
             secp256k1_context *c = secp256k1_context_create(SECP256K1_CONTEXT_VERIFY);\n\
             secp256k1_ecdsa_recoverable_signature s;\n\
             unsigned char z[64] = {0};\n\
             int ok = secp256k1_ecdsa_recoverable_signature_parse_compact(c, &s, z, 0);\n\
             secp256k1_context_destroy(c);\n\
             return ok == 1 ? 0 : 1;\n\
         }\n",
    )
    .unwrap();
    let exe = dir.join("probe_secp256k1");
    Command::new(cc())
        .arg(&src)
        .arg("-o")
        .arg(&exe)
        .arg("-lsecp256k1")
        .output()
        .is_ok_and(|o| o.status.success())
        && Command::new(&exe).status().is_ok_and(|s| s.success())
}

fn run(cmd: &mut Command) -> String {
    let out = cmd
        .output()
        .unwrap_or_else(|e| panic!("cannot run {cmd:?}: {e}"));
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "{cmd:?} failed ({}):\n{stdout}\n{}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    stdout
}

/// Compiles the C test program, linked with `link` (the library and its flags), and runs
/// it with `random` random signatures; returns its output.
fn build_and_run(name: &str, link: &[String], random: u32) -> Option<String> {
    if !tool_works(&cc(), "--version") {
        skip(&format!("no C compiler ({})", cc()));
        return None;
    }
    let dir = out_dir();
    std::fs::create_dir_all(&dir).unwrap();
    let exe = dir.join(name);
    let secp = have_libsecp256k1();
    if !secp {
        skip(
            "the system libsecp256k1 with its recovery module is missing (libsecp256k1-dev): no random signatures",
        );
    }
    let mut c = Command::new(cc());
    c.args(["-std=c11", "-O2", "-Wall", "-Wextra", "-Werror"])
        .arg("-I")
        .arg(ffi_dir().join("include"))
        .arg(ffi_dir().join("tests/c/test_ffi.c"))
        .arg("-o")
        .arg(&exe);
    if secp {
        c.arg("-DHAVE_LIBSECP256K1");
    }
    c.args(link);
    if secp {
        c.arg("-lsecp256k1");
    }
    c.args(["-lpthread", "-ldl", "-lm"]);
    run(&mut c);
    let data = ffi_dir().join("../tests/data");
    let out = run(Command::new(&exe).arg(&data).arg(random.to_string()));
    println!("{out}");
    Some(out)
}

fn check_output(out: &str, random: u32) {
    assert!(out.contains(" checks, 0 failures"), "{out}");
    assert!(out.contains("precompile vectors: "), "{out}");
    if have_libsecp256k1() {
        assert!(
            out.contains(&format!(
                "random (libsecp256k1 system): {random} signatures"
            )),
            "{out}"
        );
    }
}

#[test]
fn c_program_against_the_static_library() {
    let lib = &libraries().0;
    let random = 10_000;
    if let Some(out) = build_and_run("test_ffi_static", &[lib.display().to_string()], random) {
        check_output(&out, random);
    }
}

#[test]
fn c_program_against_the_shared_library() {
    let lib = &libraries().1;
    let dir = lib.parent().unwrap().display().to_string();
    let link = [
        format!("-L{dir}"),
        format!("-Wl,-rpath,{dir}"),
        "-lasmcrypto_ffi".to_string(),
    ];
    let random = 2_000;
    if let Some(out) = build_and_run("test_ffi_shared", &link, random) {
        check_output(&out, random);
    }
}

/// The function names the header declares: identifiers `asmcrypto_…` followed by `(`,
/// outside comments.
fn header_functions() -> BTreeSet<String> {
    let text = std::fs::read_to_string(ffi_dir().join("include/asmcrypto.h")).unwrap();
    let mut code = String::new();
    let mut rest = text.as_str();
    while let Some(i) = rest.find("/*") {
        code.push_str(&rest[..i]);
        let end = rest[i..].find("*/").expect("unterminated comment") + i + 2;
        code.push(' ');
        rest = &rest[end..];
    }
    code.push_str(rest);
    let code: String = code
        .lines()
        .map(|l| l.split("//").next().unwrap_or(""))
        .collect::<Vec<_>>()
        .join("\n");
    let mut names = BTreeSet::new();
    let bytes = code.as_bytes();
    let ident = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
    let mut i = 0;
    while let Some(k) = code[i..].find("asmcrypto_") {
        let start = i + k;
        let mut end = start;
        while end < bytes.len() && ident(bytes[end]) {
            end += 1;
        }
        let before_ok = start == 0 || !ident(bytes[start - 1]);
        let after = code[end..].trim_start();
        if before_ok && after.starts_with('(') {
            names.insert(code[start..end].to_string());
        }
        i = end;
    }
    names
}

/// The defined global function symbols named `asmcrypto_*` that `nm args…` lists.
fn exported(args: &[&str], lib: &Path) -> BTreeSet<String> {
    let out = run(Command::new("nm").args(args).arg(lib));
    out.lines()
        .filter_map(|l| {
            let mut f = l.split_whitespace().rev();
            let name = f.next()?;
            let kind = f.next()?;
            (kind == "T" && name.starts_with("asmcrypto_")).then(|| name.to_string())
        })
        .collect()
}

#[test]
fn header_and_exported_symbols_agree() {
    let declared = header_functions();
    let want: BTreeSet<String> = REQUIRED.iter().map(|s| s.to_string()).collect();
    assert_eq!(
        declared, want,
        "the header declares other functions than issue 14's"
    );
    if !tool_works("nm", "--version") {
        skip("no nm (binutils)");
        return;
    }
    let libs = [
        (&libraries().0, &["-g", "--defined-only"][..]),
        (&libraries().1, &["-D", "--defined-only"][..]),
    ];
    for (lib, args) in libs {
        let syms = exported(args, lib);
        for f in &declared {
            assert!(syms.contains(f), "{} does not export {f}", lib.display());
        }
        for s in &syms {
            assert!(
                declared.contains(s),
                "{} exports {s}, which the header does not declare",
                lib.display()
            );
        }
        println!(
            "{}: exactly the {} declared functions",
            lib.display(),
            declared.len()
        );
    }
}

/// The header compiles on its own, as strict C99 and as C++ (its `extern "C"` block).
#[test]
fn header_compiles_as_c99_and_cpp() {
    if !tool_works(&cc(), "--version") {
        skip(&format!("no C compiler ({})", cc()));
        return;
    }
    let dir = out_dir();
    std::fs::create_dir_all(&dir).unwrap();
    let src = dir.join("header_only.c");
    std::fs::write(
        &src,
        "#include \"asmcrypto.h\"\n\
         int use(void);\n\
         int use(void) {\n\
             unsigned char b[65] = {0};\n\
             asmcrypto_keccak256(b, 0, b);\n\
             return asmcrypto_ecdsa_recover(b, b, b) + asmcrypto_recover_address(b, b, b)\n\
                 + (int)asmcrypto_recover_addresses(0, b, b, b, b)\n\
                 + (int)asmcrypto_ecrecover_precompile(b, 0, b) + (asmcrypto_backend() != 0);\n\
         }\n",
    )
    .unwrap();
    let include = ffi_dir().join("include");
    run(Command::new(cc())
        .args([
            "-std=c99",
            "-pedantic",
            "-Wall",
            "-Wextra",
            "-Werror",
            "-fsyntax-only",
        ])
        .arg("-I")
        .arg(&include)
        .arg(&src));
    let cxx = std::env::var("CXX").unwrap_or_else(|_| "c++".to_string());
    if !tool_works(&cxx, "--version") {
        skip(&format!("no C++ compiler ({cxx})"));
        return;
    }
    run(Command::new(cxx)
        .args([
            "-x",
            "c++",
            "-std=c++11",
            "-pedantic",
            "-Wall",
            "-Wextra",
            "-Werror",
        ])
        .arg("-fsyntax-only")
        .arg("-I")
        .arg(&include)
        .arg(&src));
}
