//! Generates the static ecmult tables: for secp256k1, the odd multiples (2i+1)·B, i < 8192,
//! of B = G and B = 2¹²⁸·G, as affine points (x then y, four little-endian 64-bit words
//! each); for P-256, the odd multiples of its G (`src/p256/tables/generate.rs`). They are
//! written to OUT_DIR. The arithmetic is the crate's own field and group code, compiled in
//! here.

#![allow(dead_code)]

#[path = "src/arith/mod.rs"]
mod arith;
#[path = "src/dispatch.rs"]
mod dispatch;
#[path = "src/secp256k1/field.rs"]
mod field;
#[cfg(target_arch = "x86_64")]
#[path = "src/secp256k1/field_adx.rs"]
mod field_adx;
#[cfg(target_arch = "aarch64")]
#[path = "src/secp256k1/field_arm64.rs"]
mod field_arm64;
#[path = "src/secp256k1/group.rs"]
mod group;

// P-256's table generator, which brings in P-256's field and group as its own children.
#[path = "src/p256/tables/generate.rs"]
mod p256_tables;

use field::FieldElement;
use group::{Affine, G, Jacobian};
use std::path::Path;

#[path = "src/secp256k1/tables/layout.rs"]
mod layout;

use layout::{ENTRY_BYTES, LEN as TABLE_LEN};

fn main() {
    for f in [
        "build.rs",
        "src/dispatch.rs",
        "src/secp256k1/field.rs",
        "src/secp256k1/field_adx.rs",
        "src/secp256k1/field_arm64.rs",
        "src/secp256k1/group.rs",
        "src/arith/modinv.rs",
        "src/arith/wide.rs",
        "src/secp256k1/tables/layout.rs",
        "src/arith/words.rs",
        "src/p256/field.rs",
        "src/p256/field_adx.rs",
        "src/p256/group.rs",
        "src/p256/tables/generate.rs",
        "src/p256/tables/layout.rs",
    ] {
        println!("cargo:rerun-if-changed={f}");
    }
    let out = std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR for build scripts");
    let out = Path::new(&out);
    write_table(&out.join("pre_g.bin"), &G);
    let mut g128 = G.to_jacobian();
    for _ in 0..128 {
        g128 = g128.double();
    }
    write_table(&out.join("pre_g128.bin"), &g128.to_affine());
    std::fs::write(
        out.join("p256_pre_g.bin"),
        p256_tables::odd_multiples_of_g(),
    )
    .expect("cannot write the P-256 table to OUT_DIR");
}

fn write_table(path: &Path, base: &Affine) {
    // Jacobian odd multiples, then one batched inversion of all Z (Montgomery's trick).
    let two = base.to_jacobian().double();
    let mut pts: Vec<Jacobian> = Vec::with_capacity(TABLE_LEN);
    let mut acc = base.to_jacobian();
    for _ in 0..TABLE_LEN {
        pts.push(acc);
        acc = acc.add(&two);
    }
    let mut prefix: Vec<FieldElement> = Vec::with_capacity(TABLE_LEN);
    let mut running = FieldElement::ONE;
    for p in &pts {
        running = running.mul(&p.z);
        prefix.push(running);
    }
    let mut inv = running.inv();
    let mut bytes = vec![0u8; TABLE_LEN * ENTRY_BYTES];
    for i in (0..TABLE_LEN).rev() {
        let zinv = if i == 0 { inv } else { inv.mul(&prefix[i - 1]) };
        inv = inv.mul(&pts[i].z);
        let a = pts[i].to_affine_with_zinv(&zinv);
        assert!(a.is_on_curve(), "table point off the curve");
        let e = &mut bytes[ENTRY_BYTES * i..ENTRY_BYTES * (i + 1)];
        for (k, w) in
            a.x.to_u64x4()
                .iter()
                .chain(a.y.to_u64x4().iter())
                .enumerate()
        {
            e[8 * k..8 * k + 8].copy_from_slice(&w.to_le_bytes());
        }
    }
    std::fs::write(path, bytes).expect("cannot write the ecmult table to OUT_DIR");
}
