//! The C ABI from C: builds `tests/c/test_ffi.c` with the system C compiler against
//! `include/asmcrypto.h` and this package's static library (then its shared library), runs
//! it on the bundled vectors, and checks that the header and the libraries' exported
//! symbols agree.
//!
//! With `ASMCRYPTO_FFI_PKG_CONFIG=1` the same tests run against the *installed* library
//! (`ffi/install.sh`) instead of this checkout's build: the header, both libraries and
//! every compiler and linker flag come from `pkg-config … asmcrypto` alone (set
//! `PKG_CONFIG_PATH` to the prefix's `lib/pkgconfig`), as a program outside this
//! repository gets them; the shared library is found at run time through an rpath to
//! pkg-config's `libdir`. That mode also checks the installed files: the soname, the
//! links to it, and that programs record the soname (shared) or no libasmcrypto at all
//! (static).
//!
//! Needs a C compiler (`$CC`, else `cc`), `nm` and `readelf`; the random-signature part
//! needs the system libsecp256k1 with its recovery module (Debian: `libsecp256k1-dev`).
//! Where one is missing the part that needs it is skipped with a message on stderr, unless
//! `ASMCRYPTO_FFI_REQUIRE=1` is set (as `.ci/run` does), which turns every skip into a
//! failure. In the pkg-config mode a missing `pkg-config` or `asmcrypto.pc` always fails.

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

/// The P-256 functions added since (EIP-7951's P256VERIFY): single, precompile, batch.
const P256: [&str; 3] = [
    "asmcrypto_p256_verify",
    "asmcrypto_p256verify_precompile",
    "asmcrypto_p256_verify_batch",
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

/// `ASMCRYPTO_FFI_PKG_CONFIG=1`: test the installed library, found through pkg-config.
fn installed() -> bool {
    std::env::var_os("ASMCRYPTO_FFI_PKG_CONFIG").is_some_and(|v| v == "1")
}

/// The compiler flags that find the header: `-I` this package's `include/`, or
/// `pkg-config --cflags asmcrypto`.
fn cflags() -> Vec<String> {
    if installed() {
        pkg_config(&["--cflags"])
    } else {
        vec![format!("-I{}", ffi_dir().join("include").display())]
    }
}

/// The header those flags find.
fn header() -> PathBuf {
    if installed() {
        pkg_config_path("includedir").join("asmcrypto.h")
    } else {
        ffi_dir().join("include/asmcrypto.h")
    }
}

/// How a C program links the library: the static and the shared library files (for `nm`),
/// and the link flags of each, with what each needs.
struct Linking {
    static_lib: PathBuf,
    shared_lib: PathBuf,
    static_link: Vec<String>,
    shared_link: Vec<String>,
}

/// What the library needs besides itself, for this checkout's build (glibc: threads,
/// dynamic loading, libm; the C compiler adds libc and libgcc); the installed copy lists
/// it in its `asmcrypto.pc`, as rustc reports it.
const NATIVE_LIBS: [&str; 3] = ["-lpthread", "-ldl", "-lm"];

fn linking() -> &'static Linking {
    static LINKING: OnceLock<Linking> = OnceLock::new();
    LINKING.get_or_init(|| {
        if installed() {
            from_pkg_config()
        } else {
            let (a, so) = libraries();
            let dir = so.parent().unwrap().display().to_string();
            let native = NATIVE_LIBS.iter().map(|s| s.to_string());
            Linking {
                static_lib: a.clone(),
                shared_lib: so.clone(),
                static_link: std::iter::once(a.display().to_string())
                    .chain(native.clone())
                    .collect(),
                shared_link: [
                    format!("-L{dir}"),
                    format!("-Wl,-rpath,{dir}"),
                    "-lasmcrypto_ffi".to_string(),
                ]
                .into_iter()
                .chain(native)
                .collect(),
            }
        }
    })
}

/// `pkg-config ARGS asmcrypto`, split into words (the prefix must not contain blanks).
fn pkg_config(args: &[&str]) -> Vec<String> {
    let out = Command::new("pkg-config")
        .args(args)
        .arg("asmcrypto")
        .output()
        .unwrap_or_else(|e| panic!("ASMCRYPTO_FFI_PKG_CONFIG=1, but pkg-config cannot run: {e}"));
    assert!(
        out.status.success(),
        "pkg-config {args:?} asmcrypto failed (is PKG_CONFIG_PATH the installed prefix's lib/pkgconfig?):\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout)
        .split_whitespace()
        .map(str::to_string)
        .collect()
}

fn pkg_config_path(variable: &str) -> PathBuf {
    let words = pkg_config(&[&format!("--variable={variable}")]);
    assert_eq!(
        words.len(),
        1,
        "pkg-config --variable={variable}: {words:?}"
    );
    PathBuf::from(&words[0])
}

/// The installed library, as README.md links it: the shared one with
/// `pkg-config --cflags --libs asmcrypto`, the static one as the archive in pkg-config's
/// `libdir` followed by its `native_libs`.
fn from_pkg_config() -> Linking {
    let version = pkg_config(&["--modversion"]);
    assert_eq!(
        version,
        [env!("CARGO_PKG_VERSION")],
        "the installed asmcrypto.pc is of another version than this asmcrypto-ffi"
    );
    let libdir = pkg_config_path("libdir");
    let static_lib = libdir.join("libasmcrypto.a");
    let native = pkg_config(&["--variable=native_libs"]);
    assert!(!native.is_empty(), "asmcrypto.pc has no native_libs");
    Linking {
        shared_lib: libdir.join("libasmcrypto.so"),
        static_link: std::iter::once(static_lib.display().to_string())
            .chain(native)
            .collect(),
        static_lib,
        shared_link: pkg_config(&["--libs"])
            .into_iter()
            .chain([format!("-Wl,-rpath,{}", libdir.display())])
            .collect(),
    }
}

/// The ABI version: the first component of this package's version, the soname's number.
fn abi() -> &'static str {
    env!("CARGO_PKG_VERSION").split('.').next().unwrap()
}

/// The dynamic section's entries of kind `tag` (NEEDED, SONAME) in `elf`, from `readelf -d`;
/// `None` (after a skip) without readelf.
fn dynamic(elf: &Path, tag: &str) -> Option<Vec<String>> {
    if !tool_works("readelf", "--version") {
        skip("no readelf (binutils)");
        return None;
    }
    let out = run(Command::new("readelf").arg("-d").arg(elf));
    let tag = format!("({tag})");
    Some(
        out.lines()
            .filter(|l| l.split_whitespace().nth(1) == Some(tag.as_str()))
            .filter_map(|l| Some(l.split_once('[')?.1.split_once(']')?.0.to_string()))
            .collect(),
    )
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
fn build_and_run(name: &str, link: &[String], random: u32) -> Option<(PathBuf, String)> {
    if !tool_works(&cc(), "--version") {
        skip(&format!("no C compiler ({})", cc()));
        return None;
    }
    let dir = out_dir();
    std::fs::create_dir_all(&dir).unwrap();
    let exe = dir.join(if installed() {
        format!("{name}_installed")
    } else {
        name.to_string()
    });
    let secp = have_libsecp256k1();
    if !secp {
        skip(
            "the system libsecp256k1 with its recovery module is missing (libsecp256k1-dev): no random signatures",
        );
    }
    let mut c = Command::new(cc());
    c.args(["-std=c11", "-O2", "-Wall", "-Wextra", "-Werror"])
        .args(cflags())
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
    // The test program's own threads.
    c.arg("-lpthread");
    run(&mut c);
    let data = ffi_dir().join("../tests/data");
    let out = run(Command::new(&exe).arg(&data).arg(random.to_string()));
    println!("{out}");
    Some((exe, out))
}

fn check_output(out: &str, random: u32) {
    assert!(out.contains(" checks, 0 failures"), "{out}");
    assert!(out.contains("precompile vectors: "), "{out}");
    assert!(out.contains("p256 vectors: "), "{out}");
    assert!(out.contains("p256 hostile: "), "{out}");
    assert!(out.contains("p256 batch vs single: "), "{out}");
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
    let random = 10_000;
    let Some((exe, out)) = build_and_run("test_ffi_static", &linking().static_link, random) else {
        return;
    };
    check_output(&out, random);
    if installed() {
        // Linked from the archive: the program needs no libasmcrypto at run time.
        if let Some(needed) = dynamic(&exe, "NEEDED") {
            assert!(
                !needed.iter().any(|n| n.starts_with("libasmcrypto")),
                "{} needs {needed:?}",
                exe.display()
            );
        }
    }
}

#[test]
fn c_program_against_the_shared_library() {
    let random = 2_000;
    let Some((exe, out)) = build_and_run("test_ffi_shared", &linking().shared_link, random) else {
        return;
    };
    check_output(&out, random);
    if installed() {
        // The program records the soname, not the file it was linked against.
        if let Some(needed) = dynamic(&exe, "NEEDED") {
            let soname = format!("libasmcrypto.so.{}", abi());
            assert!(
                needed.contains(&soname),
                "{} needs {needed:?}, not {soname}",
                exe.display()
            );
        }
    }
}

/// The installed files (`ASMCRYPTO_FFI_PKG_CONFIG=1` only): `libasmcrypto.so.X.Y.Z` with
/// the soname `libasmcrypto.so.X`, and the two links `libasmcrypto.so.X` and
/// `libasmcrypto.so` that lead to it.
#[test]
fn installed_shared_library_layout() {
    if !installed() {
        eprintln!("SKIPPED: ASMCRYPTO_FFI_PKG_CONFIG=1 tests the installed library");
        return;
    }
    let libdir = pkg_config_path("libdir");
    let file = libdir.join(format!("libasmcrypto.so.{}", env!("CARGO_PKG_VERSION")));
    let soname = format!("libasmcrypto.so.{}", abi());
    let meta = std::fs::symlink_metadata(&file).unwrap();
    assert!(meta.is_file(), "{} is not a plain file", file.display());
    for link in [soname.as_str(), "libasmcrypto.so"] {
        let path = libdir.join(link);
        assert!(
            std::fs::symlink_metadata(&path)
                .unwrap()
                .file_type()
                .is_symlink(),
            "{} is not a symbolic link",
            path.display()
        );
        assert_eq!(
            std::fs::canonicalize(&path).unwrap(),
            std::fs::canonicalize(&file).unwrap(),
            "{} does not lead to {}",
            path.display(),
            file.display()
        );
    }
    if let Some(names) = dynamic(&file, "SONAME") {
        assert_eq!(names, [soname], "{}", file.display());
    }
}

/// The function names the header declares: identifiers `asmcrypto_…` followed by `(`,
/// outside comments.
fn header_functions() -> BTreeSet<String> {
    let text = std::fs::read_to_string(header()).unwrap();
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
    let want: BTreeSet<String> = REQUIRED
        .iter()
        .chain(&P256)
        .map(|s| s.to_string())
        .collect();
    assert_eq!(
        declared, want,
        "the header declares other functions than issue 14's and the P-256 ones"
    );
    if !tool_works("nm", "--version") {
        skip("no nm (binutils)");
        return;
    }
    let libs = [
        (&linking().static_lib, &["-g", "--defined-only"][..]),
        (&linking().shared_lib, &["-D", "--defined-only"][..]),
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

/// The header compiles on its own, as strict C99 and as C++ (its `extern "C"` block), with
/// the flags that find it (pkg-config's, for the installed copy).
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
             int reason = ASMCRYPTO_P256_OK;\n\
             asmcrypto_keccak256(b, 0, b);\n\
             return asmcrypto_ecdsa_recover(b, b, b) + asmcrypto_recover_address(b, b, b)\n\
                 + (int)asmcrypto_recover_addresses(0, b, b, b, b)\n\
                 + (int)asmcrypto_ecrecover_precompile(b, 0, b) + (asmcrypto_backend() != 0)\n\
                 + asmcrypto_p256_verify(b, b, b, &reason) + (reason == ASMCRYPTO_P256_FAILED)\n\
                 + (int)asmcrypto_p256verify_precompile(b, 0, b)\n\
                 + (int)asmcrypto_p256_verify_batch(0, b, b);\n\
         }\n",
    )
    .unwrap();
    let include = cflags();
    run(Command::new(cc())
        .args([
            "-std=c99",
            "-pedantic",
            "-Wall",
            "-Wextra",
            "-Werror",
            "-fsyntax-only",
        ])
        .args(&include)
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
        .args(&include)
        .arg(&src));
}
