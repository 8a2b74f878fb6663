//! Generates P-256's static table of odd multiples of G for `build.rs`, which includes this
//! file alone. It brings the P-256 field and group in as its own children (so that their
//! `super::` paths resolve here as they do in the library); the arithmetic is the crate's.

#[path = "../field.rs"]
mod field;
#[path = "../group.rs"]
mod group;
#[path = "layout.rs"]
mod layout;

use group::{G, Jacobian};
use layout::{ENTRY_BYTES, LEN};

/// The table's bytes: entry i is (2i+1)·G, affine, Montgomery words.
pub fn odd_multiples_of_g() -> Vec<u8> {
    let two = G.to_jacobian().double().to_affine().expect("2G is finite");
    let mut pts: Vec<Jacobian> = Vec::with_capacity(LEN);
    let mut acc = G.to_jacobian();
    for _ in 0..LEN {
        pts.push(acc);
        acc = acc.add_affine(&two);
    }
    let mut affine = vec![G; LEN];
    Jacobian::batch_to_affine_with(field::Portable, &pts, &mut affine);
    let mut bytes = vec![0u8; LEN * ENTRY_BYTES];
    for (a, e) in affine.iter().zip(bytes.chunks_exact_mut(ENTRY_BYTES)) {
        assert!(a.is_on_curve(), "table point off the curve");
        for (k, w) in a.x.0.iter().chain(a.y.0.iter()).enumerate() {
            e[8 * k..8 * k + 8].copy_from_slice(&w.to_le_bytes());
        }
    }
    bytes
}
