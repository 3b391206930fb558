//! Block-compressed texels on the GPU (shaders/bcn.wgsl) against the CPU
//! (texture::bcn, the bcdec_rs decoder): for every BCn (data format, number
//! format) pair, 2048 random blocks (fixed seed) are loaded texel by texel —
//! all 16 texels of every block — through `image_load` on CPU and GPU, and
//! every register must agree bit for bit. BC6H blocks carry each of the 14
//! mode codes and the 4 reserved ones in turn, BC7 blocks each of the 8 modes
//! and the invalid all-zero mode byte, BC1 blocks both colour modes (and
//! c0 = c1); the rest of every block is random.
//!
//! Without an adapter the test fails under `CI=true` and otherwise prints
//! `SKIPPED` with the reason.

mod common;

use common::gpu::gpu;

use gcnrun::launch::run::run_diff;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::collections::BTreeSet;

/// Blocks per image: 64 × 32 blocks, a 256 × 128 texel image.
const BLOCKS_X: u32 = 64;
const BLOCKS_Y: u32 = 32;

/// BC6H's mode codes (2 bits for D3D modes 1 and 2, else 5), then the four
/// reserved codes.
const BC6_MODES: [(u8, u32); 18] = [
    (0b00, 2),
    (0b01, 2),
    (0b00010, 5),
    (0b00110, 5),
    (0b01010, 5),
    (0b01110, 5),
    (0b10010, 5),
    (0b10110, 5),
    (0b11010, 5),
    (0b11110, 5),
    (0b00011, 5),
    (0b00111, 5),
    (0b01011, 5),
    (0b01111, 5),
    (0b10011, 5),
    (0b10111, 5),
    (0b11011, 5),
    (0b11111, 5),
];

/// Block `i` of a format: random bytes with the mode bits of mode `i % n`.
fn block(rng: &mut ChaCha8Rng, format: &str, i: usize) -> Vec<u8> {
    let bytes = if matches!(format, "bc1" | "bc4") {
        8
    } else {
        16
    };
    let mut b: Vec<u8> = (0..bytes).map(|_| rng.gen()).collect();
    match format {
        // Every 8th block c1 = c0 (the three-colour mode at equality).
        "bc1" if i & 7 == 0 => {
            b[2] = b[0];
            b[3] = b[1];
        }
        "bc6" => {
            let (code, bits) = BC6_MODES[i % BC6_MODES.len()];
            let mask = (1u8 << bits) - 1;
            b[0] = (b[0] & !mask) | code;
        }
        // Mode m: m zero bits, then a one; the 9th choice a zero mode byte.
        "bc7" => {
            let m = i % 9;
            b[0] = if m == 8 {
                0
            } else {
                (b[0] & !((2u16 << m) - 1) as u8) | (1 << m)
            };
        }
        _ => {}
    }
    b
}

/// The manifest loading every texel of a random-block image: lane
/// `lane + 64 · wave` reads texel (i % width, i / width) with
/// `assets/format_load.bin` (image_load dmask 0xf into v[4:7], then a TFE
/// load into v[16:18]).
fn manifest(format: &str, num_format: &str, seed: u64) -> String {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let hex: String = (0..(BLOCKS_X * BLOCKS_Y) as usize)
        .flat_map(|i| block(&mut rng, format, i))
        .map(|b| format!("{b:02x}"))
        .collect();
    let (w, h) = (4 * BLOCKS_X, 4 * BLOCKS_Y);
    format!(
        r#"arch = "gfx900"
code = "{code}"
waves = {waves}

[sgpr]
"s[4:11]" = {{ image = "blocks" }}

[vgpr]
v0 = {{ u32 = "(lane + 64 * wave) % {w}" }}
v1 = {{ u32 = "(lane + 64 * wave) / {w}" }}

[[image]]
name = "blocks"
type = "2d"
width = {w}
height = {h}
format = "{format}"
num_format = "{num_format}"
init = {{ hex = "{hex}" }}
"#,
        code = common::launches::assets().join("format_load.bin").display(),
        waves = w * h / 64,
    )
}

#[test]
fn every_bcn_mode_decodes_on_the_gpu_as_on_the_cpu() {
    let test = "every_bcn_mode_decodes_on_the_gpu_as_on_the_cpu";
    let Some(g) = gpu(test) else { return };
    let pairs = [
        ("bc1", "unorm"),
        ("bc1", "srgb"),
        ("bc2", "unorm"),
        ("bc3", "srgb"),
        ("bc4", "unorm"),
        ("bc4", "snorm"),
        ("bc5", "unorm"),
        ("bc5", "snorm"),
        ("bc6", "ufloat"),
        ("bc6", "sfloat"),
        ("bc7", "unorm"),
        ("bc7", "srgb"),
    ];
    let mut bad = Vec::new();
    for (k, (format, nf)) in pairs.iter().enumerate() {
        let name = format!("bcn_{format}_{nf}");
        let p = common::launches::prepare_text(&name, &manifest(format, nf, 0xbc00 + k as u64));
        let t = std::time::Instant::now();
        let out = run_diff(p, g).unwrap_or_else(|e| panic!("{name}: {e:?}"));
        // The CPU's texels are varied (not a run of zeros): the comparison
        // cannot pass vacuously.
        let distinct: BTreeSet<[u32; 4]> = out
            .cpu
            .waves
            .iter()
            .flat_map(|w| (0..64).map(move |l| [4, 5, 6, 7].map(|r| w.vgpr(r, l))))
            .collect();
        assert!(
            distinct.len() >= 200,
            "{name}: only {} distinct texels",
            distinct.len()
        );
        println!(
            "{name}: {} texels, {} distinct, {:.1} s",
            out.cpu.waves.len() * 64,
            distinct.len(),
            t.elapsed().as_secs_f64()
        );
        if out.report.count > 0 {
            bad.push(format!(
                "{name}: {} difference(s), first {:?}",
                out.report.count,
                out.report.mismatches.first()
            ));
        }
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

/// The mode bits the generator writes are the ones the decoders read: every
/// BC6H code and BC7 mode occurs, and a BC7 mode-m byte has exactly m trailing
/// zeros.
#[test]
fn the_generator_hits_every_mode() {
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    let mut bc6 = BTreeSet::new();
    let mut bc7 = BTreeSet::new();
    for i in 0..36 {
        let b = block(&mut rng, "bc6", i);
        let (code, bits) = BC6_MODES[i % 18];
        assert_eq!(b[0] & ((1 << bits) - 1), code);
        bc6.insert(code);
        let b = block(&mut rng, "bc7", i);
        bc7.insert(if b[0] == 0 { 8 } else { b[0].trailing_zeros() });
    }
    assert_eq!(bc6.len(), 18);
    assert_eq!(bc7, (0..=8).collect());
}
