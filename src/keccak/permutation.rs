//! The Keccak-f\[1600\] permutation (24 rounds of θ, ρ, π, χ, ι on 25 lanes of 64 bits).
//!
//! Lane `(x, y)` of the 5×5 state lives at index `x + 5 * y`.
//!
//! Two flavours of the round are provided, selected by the `ANDN` const parameter:
//!
//! * `ANDN = true`: χ is written literally, `a ^ (!b & c)`. This is the right choice when the
//!   target has an and-not instruction (x86 BMI1 `andn`, AArch64 `bic`): two instructions per
//!   lane.
//! * `ANDN = false`: the *lane complementing* transform of the Keccak implementation overview
//!   (§2.2). Six lanes of the state are kept complemented between rounds; with the χ
//!   formulas below (`and`/`or` chosen per lane) a plane then needs one `not` instead of five.
//!   This is the faster form on plain x86-64, which lacks and-not. The state must be put into
//!   (and taken out of) this representation with [`toggle_repr`].
//!
//! Everything is `#[inline(always)]` and indexed by constants, so LLVM keeps the lanes in
//! scalar registers (spilling what does not fit) and folds constants: callers that know part
//! of the state (the one-block 64-byte hash) get a cheaper first round, and callers that read
//! only a few output lanes get a cheaper last round.

/// Number of rounds of Keccak-f\[1600\].
const ROUNDS: usize = 24;

/// Round constants for ι, derived from the degree-8 LFSR of the Keccak specification:
/// bit `2^j - 1` of constant `i` is `rc(j + 7 i)`, where `rc(t)` is the constant term of
/// `x^t mod (x^8 + x^6 + x^5 + x^4 + 1)` over GF(2).
pub(super) const RC: [u64; ROUNDS] = round_constants();

/// ρ rotation offsets per lane: lane `(x, y)` reached at step `t` of the walk
/// `(1, 0) → (y, 2x + 3y)` rotates by `(t + 1)(t + 2) / 2 mod 64`; lane `(0, 0)` by 0.
pub(super) const RHO: [u32; 25] = rho_offsets();

/// The round constants paired up, two rounds per loop iteration.
const RC_PAIRS: [[u64; 2]; ROUNDS / 2] = pairs_from(0);

/// Round constants of rounds 1 to 22, paired; rounds 0 and 23 are peeled off by
/// [`permute_peeled`].
const RC_MID_PAIRS: [[u64; 2]; ROUNDS / 2 - 1] = pairs_from(1);

const fn round_constants() -> [u64; ROUNDS] {
    let mut out = [0u64; ROUNDS];
    // LFSR state as a polynomial over GF(2): bit k is the coefficient of x^k.
    let mut r: u8 = 1;
    let mut i = 0;
    while i < ROUNDS {
        let mut j = 0;
        while j < 7 {
            if r & 1 != 0 {
                out[i] |= 1u64 << ((1u32 << j) - 1);
            }
            // r <- r * x mod (x^8 + x^6 + x^5 + x^4 + 1)
            r = if r & 0x80 != 0 {
                (r << 1) ^ 0x71
            } else {
                r << 1
            };
            j += 1;
        }
        i += 1;
    }
    out
}

const fn rho_offsets() -> [u32; 25] {
    let mut out = [0u32; 25];
    let (mut x, mut y) = (1usize, 0usize);
    let mut t = 0;
    while t < 24 {
        out[x + 5 * y] = (((t + 1) * (t + 2) / 2) % 64) as u32;
        let next_y = (2 * x + 3 * y) % 5;
        x = y;
        y = next_y;
        t += 1;
    }
    out
}

const fn pairs_from<const N: usize>(first: usize) -> [[u64; 2]; N] {
    let mut out = [[0u64; 2]; N];
    let mut i = 0;
    while i < N {
        out[i] = [RC[first + 2 * i], RC[first + 2 * i + 1]];
        i += 1;
    }
    out
}

/// Switches between the plain and the lane-complemented representation (an involution).
/// A no-op for the `ANDN` flavour, which uses the plain representation throughout.
#[inline(always)]
pub(super) fn toggle_repr<const ANDN: bool>(a: &mut [u64; 25]) {
    if !ANDN {
        // The lanes (1,0), (2,0), (3,1), (2,2), (2,3), (0,4).
        a[1] = !a[1];
        a[2] = !a[2];
        a[8] = !a[8];
        a[12] = !a[12];
        a[17] = !a[17];
        a[20] = !a[20];
    }
}

/// θ: the five column corrections `D[x] = C[x-1] ^ rot(C[x+1], 1)`, `C` the column parities.
#[inline(always)]
fn theta(a: &[u64; 25]) -> [u64; 5] {
    let c0 = a[0] ^ a[5] ^ a[10] ^ a[15] ^ a[20];
    let c1 = a[1] ^ a[6] ^ a[11] ^ a[16] ^ a[21];
    let c2 = a[2] ^ a[7] ^ a[12] ^ a[17] ^ a[22];
    let c3 = a[3] ^ a[8] ^ a[13] ^ a[18] ^ a[23];
    let c4 = a[4] ^ a[9] ^ a[14] ^ a[19] ^ a[24];
    [
        c4 ^ c1.rotate_left(1),
        c0 ^ c2.rotate_left(1),
        c1 ^ c3.rotate_left(1),
        c2 ^ c4.rotate_left(1),
        c3 ^ c0.rotate_left(1),
    ]
}

/// θ-correction, ρ and π for the five lanes that land in output plane `y`.
///
/// π moves lane `(x, y)` to `(y, 2x + 3y)`, so output lane `(x', y)` comes from lane
/// `((x' + 3y) mod 5, x')`.
#[inline(always)]
fn rho_pi_plane(a: &[u64; 25], d: &[u64; 5], y: usize) -> [u64; 5] {
    #[inline(always)]
    fn lane(a: &[u64; 25], d: &[u64; 5], y: usize, x: usize) -> u64 {
        let src = (x + 3 * y) % 5 + 5 * x;
        (a[src] ^ d[src % 5]).rotate_left(RHO[src])
    }
    [
        lane(a, d, y, 0),
        lane(a, d, y, 1),
        lane(a, d, y, 2),
        lane(a, d, y, 3),
        lane(a, d, y, 4),
    ]
}

/// One round on the plain representation, χ as `b0 ^ (!b1 & b2)`.
#[inline(always)]
fn round_andn(a: &[u64; 25], rc: u64) -> [u64; 25] {
    let d = theta(a);
    let mut out = [0u64; 25];
    let mut y = 0;
    while y < 5 {
        let [b0, b1, b2, b3, b4] = rho_pi_plane(a, &d, y);
        out[5 * y] = b0 ^ (!b1 & b2);
        out[5 * y + 1] = b1 ^ (!b2 & b3);
        out[5 * y + 2] = b2 ^ (!b3 & b4);
        out[5 * y + 3] = b3 ^ (!b4 & b0);
        out[5 * y + 4] = b4 ^ (!b0 & b1);
        y += 1;
    }
    out[0] ^= rc;
    out
}

/// One round on the lane-complemented representation.
///
/// θ, ρ and π are linear, so the complement pattern entering χ is fixed; for each plane the
/// formulas below map that pattern back to the six complemented lanes with at most one `not`.
/// (They were found by checking every `x ^ (y & z)` / `x ^ (y | z)` form, with optionally
/// negated operands, against χ's truth table.)
#[inline(always)]
fn round_complemented(a: &[u64; 25], rc: u64) -> [u64; 25] {
    let d = theta(a);

    let [b0, b1, b2, b3, b4] = rho_pi_plane(a, &d, 0);
    let o0 = b0 ^ (b1 | b2) ^ rc;
    let o1 = b1 ^ (!b2 | b3);
    let o2 = b2 ^ (b3 & b4);
    let o3 = b3 ^ (b4 | b0);
    let o4 = b4 ^ (b0 & b1);

    let [b0, b1, b2, b3, b4] = rho_pi_plane(a, &d, 1);
    let o5 = b0 ^ (b1 | b2);
    let o6 = b1 ^ (b2 & b3);
    let o7 = b2 ^ (b3 | !b4);
    let o8 = b3 ^ (b4 | b0);
    let o9 = b4 ^ (b0 & b1);

    let [b0, b1, b2, b3, b4] = rho_pi_plane(a, &d, 2);
    let n3 = !b3;
    let o10 = b0 ^ (b1 | b2);
    let o11 = b1 ^ (b2 & b3);
    let o12 = b2 ^ (n3 & b4);
    let o13 = n3 ^ (b4 | b0);
    let o14 = b4 ^ (b0 & b1);

    let [b0, b1, b2, b3, b4] = rho_pi_plane(a, &d, 3);
    let n3 = !b3;
    let o15 = b0 ^ (b1 & b2);
    let o16 = b1 ^ (b2 | b3);
    let o17 = b2 ^ (n3 | b4);
    let o18 = n3 ^ (b4 & b0);
    let o19 = b4 ^ (b0 | b1);

    let [b0, b1, b2, b3, b4] = rho_pi_plane(a, &d, 4);
    let n1 = !b1;
    let o20 = b0 ^ (n1 & b2);
    let o21 = n1 ^ (b2 | b3);
    let o22 = b2 ^ (b3 & b4);
    let o23 = b3 ^ (b4 | b0);
    let o24 = b4 ^ (b0 & b1);

    [
        o0, o1, o2, o3, o4, o5, o6, o7, o8, o9, o10, o11, o12, o13, o14, o15, o16, o17, o18, o19,
        o20, o21, o22, o23, o24,
    ]
}

/// One round in the representation chosen by `ANDN`.
#[inline(always)]
fn round<const ANDN: bool>(a: &[u64; 25], rc: u64) -> [u64; 25] {
    if ANDN {
        round_andn(a, rc)
    } else {
        round_complemented(a, rc)
    }
}

/// The full permutation on a state in the plain representation.
#[inline(always)]
pub(super) fn permute<const ANDN: bool>(state: &mut [u64; 25]) {
    let mut a = *state;
    toggle_repr::<ANDN>(&mut a);
    for [r0, r1] in RC_PAIRS {
        a = round::<ANDN>(&a, r0);
        a = round::<ANDN>(&a, r1);
    }
    toggle_repr::<ANDN>(&mut a);
    *state = a;
}

/// The full permutation on a state already in the `ANDN` representation, with the first and
/// last rounds outside the loop so that, once inlined, constant input lanes fold into the
/// first round and unread output lanes drop out of the last one.
#[inline(always)]
pub(super) fn permute_peeled<const ANDN: bool>(a: &mut [u64; 25]) {
    let mut s = round::<ANDN>(a, RC[0]);
    for [r0, r1] in RC_MID_PAIRS {
        s = round::<ANDN>(&s, r0);
        s = round::<ANDN>(&s, r1);
    }
    *a = round::<ANDN>(&s, RC[ROUNDS - 1]);
}

/// Whether the compilation target has an and-not instruction, making the literal χ the
/// fastest flavour (x86 BMI1 `andn`, Arm `bic`). Otherwise lane complementing is used.
pub(super) const ANDN_NATIVE: bool = cfg!(any(
    target_arch = "aarch64",
    target_arch = "arm",
    target_feature = "bmi1"
));

/// A copy of the permutation compiled with BMI1 enabled, for x86-64 builds whose baseline
/// lacks it; [`keccak_f1600`] calls it where `crate::dispatch` found BMI1.
#[cfg(all(target_arch = "x86_64", not(target_feature = "bmi1")))]
#[target_feature(enable = "bmi1")]
fn permute_bmi1(state: &mut [u64; 25]) {
    permute::<true>(state)
}

/// The Keccak-f\[1600\] permutation (24 rounds) on a state of 25 lanes, lane `(x, y)` at
/// index `x + 5 * y`, bytes of the sponge in little-endian order within each lane.
pub(crate) fn keccak_f1600(state: &mut [u64; 25]) {
    #[cfg(all(target_arch = "x86_64", not(target_feature = "bmi1")))]
    if crate::dispatch::cpu().bmi1 {
        // SAFETY: the CPU supports BMI1, checked just above.
        return unsafe { permute_bmi1(state) };
    }
    permute::<ANDN_NATIVE>(state)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_constants_match_the_published_table() {
        let published: [u64; 24] = [
            0x0000000000000001,
            0x0000000000008082,
            0x800000000000808A,
            0x8000000080008000,
            0x000000000000808B,
            0x0000000080000001,
            0x8000000080008081,
            0x8000000000008009,
            0x000000000000008A,
            0x0000000000000088,
            0x0000000080008009,
            0x000000008000000A,
            0x000000008000808B,
            0x800000000000008B,
            0x8000000000008089,
            0x8000000000008003,
            0x8000000000008002,
            0x8000000000000080,
            0x000000000000800A,
            0x800000008000000A,
            0x8000000080008081,
            0x8000000000008080,
            0x0000000080000001,
            0x8000000080008008,
        ];
        assert_eq!(RC, published);
        let mut flat = [0u64; 24];
        for (i, p) in RC_PAIRS.iter().enumerate() {
            flat[2 * i] = p[0];
            flat[2 * i + 1] = p[1];
        }
        assert_eq!(flat, RC);
        for (i, p) in RC_MID_PAIRS.iter().enumerate() {
            assert_eq!(*p, [RC[1 + 2 * i], RC[2 + 2 * i]]);
        }
    }

    #[test]
    fn rho_offsets_match_the_published_table() {
        // Rows y = 0..5, columns x = 0..5.
        let published: [u32; 25] = [
            0, 1, 62, 28, 27, //
            36, 44, 6, 55, 20, //
            3, 10, 43, 25, 39, //
            41, 45, 15, 21, 8, //
            18, 2, 61, 56, 14,
        ];
        assert_eq!(RHO, published);
    }

    /// Keccak-f[1600] applied to the all-zero state, from the Keccak team's
    /// `KeccakF-1600-IntermediateValues.txt`.
    const ZERO_STATE_IMAGE: [u64; 25] = [
        0xF1258F7940E1DDE7,
        0x84D5CCF933C0478A,
        0xD598261EA65AA9EE,
        0xBD1547306F80494D,
        0x8B284E056253D057,
        0xFF97A42D7F8E6FD4,
        0x90FEE5A0A44647C4,
        0x8C5BDA0CD6192E76,
        0xAD30A6F71B19059C,
        0x30935AB7D08FFC64,
        0xEB5AA93F2317D635,
        0xA9A6E6260D712103,
        0x81A57C16DBCF555F,
        0x43B831CD0347C826,
        0x01F22F1A11A5569F,
        0x05E5635A21D9AE61,
        0x64BEFEF28CC970F2,
        0x613670957BC46611,
        0xB87C5A554FD00ECB,
        0x8C3EE88A1CCF32C8,
        0x940C7922AE3A2614,
        0x1841F924A2C509E4,
        0x16F53526E70465C2,
        0x75F644E97F30A13B,
        0xEAF1FF7B5CECA249,
    ];

    fn check_flavour<const ANDN: bool>() {
        let mut s = [0u64; 25];
        permute::<ANDN>(&mut s);
        assert_eq!(s, ZERO_STATE_IMAGE);

        let mut p = [0u64; 25];
        toggle_repr::<ANDN>(&mut p);
        permute_peeled::<ANDN>(&mut p);
        toggle_repr::<ANDN>(&mut p);
        assert_eq!(p, ZERO_STATE_IMAGE);

        // Non-trivial states: the peeled entry point agrees with the plain one.
        let mut x = sample_state();
        for _ in 0..8 {
            let mut peeled = x;
            toggle_repr::<ANDN>(&mut peeled);
            permute_peeled::<ANDN>(&mut peeled);
            toggle_repr::<ANDN>(&mut peeled);
            permute::<ANDN>(&mut x);
            assert_eq!(x, peeled);
        }
    }

    fn sample_state() -> [u64; 25] {
        let mut x = [0u64; 25];
        for (i, lane) in x.iter_mut().enumerate() {
            *lane = (i as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        }
        x
    }

    #[test]
    fn flavours_agree() {
        let mut a = sample_state();
        let mut b = a;
        for _ in 0..16 {
            permute::<true>(&mut a);
            permute::<false>(&mut b);
            assert_eq!(a, b);
        }
    }

    #[test]
    fn zero_state_image_plain_chi() {
        check_flavour::<true>();
    }

    #[test]
    fn zero_state_image_lane_complementing() {
        check_flavour::<false>();
    }

    #[test]
    fn toggle_is_an_involution() {
        let mut s = [0x0123_4567_89AB_CDEFu64; 25];
        let orig = s;
        toggle_repr::<false>(&mut s);
        assert_eq!(s.iter().zip(&orig).filter(|(a, b)| a != b).count(), 6);
        toggle_repr::<false>(&mut s);
        assert_eq!(s, orig);
        toggle_repr::<true>(&mut s);
        assert_eq!(s, orig);
    }
}
