//! Randomized differential test of gfx11 interpolation: random LDS parameters
//! for 16 primitives (one per quad) feed `lds_param_load` and every executed
//! VINTERP form (f32 and f16, op_sel, neg, clamp), wave32 and wave64. The GPU
//! must give the CPU's bits in every lane — which makes WGSL's integer-only
//! exact fused multiply-add (shaders/fma.wgsl `fma_bits`) answer to the CPU's
//! `f32::mul_add` on operands chosen to round differently when unfused, to
//! cancel, to tie, to overflow and to end in denormals.
//!
//! Without an adapter the tests fail under `CI=true` and otherwise print
//! `SKIPPED`. Seed and count: `GCNRUN_SEED`, `GCNRUN_INTERP_PROGRAMS` (defaults
//! 1 and 24).

mod common;

use common::gpu::{diff_random_launch, gpu};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// gfx1100, llvm-mc-19:
/// ```text
/// s_mov_b32 m0, 0x7fff0000
/// lds_param_load v0, attr0.x
/// lds_param_load v1, attr0.y
/// lds_param_load v2, attr0.z
/// lds_param_load v3, attr0.w
/// lds_param_load v4, attr1.x
/// v_interp_p10_f32 v10, v0, v1, v0
/// v_interp_p2_f32 v11, v0, v1, v2
/// v_interp_p10_f32 v12, -v2, v3, v4 clamp
/// v_interp_p2_f32 v13, v3, -v4, v1
/// v_interp_p10_f16_f32 v14, v0, v1, v2
/// v_interp_p10_f16_f32 v15, -v3, v4, v0 op_sel:[1,0,1,0]
/// v_interp_p2_f16_f32 v16, v1, v2, v3
/// v_interp_p2_f16_f32 v16, v4, v0, -v1 clamp op_sel:[1,0,0,1]
/// v_interp_p2_f32 v0, v0, v1, v0
/// s_endpgm
/// ```
const KERNEL: &str = "ff00fdbe0000ff7f000000ce010100ce020200ce030300ce040400ce0a0000cd\
                      000302040b0001cd00030a040c8000cd020712240d0001cd030906440e0002cd\
                      00030a040f2802cd03090224100003cd01050e0410c803cd04010684000001cd\
                      000302040000b0bf";

/// A random f32 bit pattern: normal values in a narrow or a wide exponent
/// range, mantissas with few bits set (exact products and rounding ties),
/// denormals, zeros, infinities, NaNs, and f16 pairs.
fn dword(rng: &mut ChaCha8Rng) -> u32 {
    let sign = if rng.gen_bool(0.5) { 0x8000_0000 } else { 0 };
    let sparse = |rng: &mut ChaCha8Rng| {
        let mut m = 0u32;
        for _ in 0..rng.gen_range(0..3) {
            m |= 1 << rng.gen_range(0..23);
        }
        m
    };
    match rng.gen_range(0..24) {
        0 => sign,
        1 => sign | 0x7f80_0000,
        2 => 0x7fc0_0000 | rng.gen_range(0..0x40_0000),
        3 | 4 => sign | rng.gen_range(1..0x80_0000),
        5 => sign | rng.gen_range(1..0x20) << 23 | rng.gen_range(0..0x80_0000),
        6 => sign | rng.gen_range(0xe0..0xff) << 23 | rng.gen_range(0..0x80_0000),
        7..=9 => rng.gen::<u32>(),
        10..=15 => sign | rng.gen_range(120..134) << 23 | sparse(rng),
        _ => sign | rng.gen_range(118..136) << 23 | rng.gen_range(0..0x80_0000),
    }
}

/// A wave32 or wave64 launch with 2 attributes × 16 primitives of random
/// parameters (the gfx11 LDS layout: 12 dwords per attribute and primitive).
fn launch(rng: &mut ChaCha8Rng, wave_size: u32) -> String {
    let words: Vec<String> = (0..2 * 16 * 12)
        .map(|_| format!("{:#x}", dword(rng)))
        .collect();
    format!(
        "arch = \"gfx1100\"\nhex = \"{KERNEL}\"\nwave_size = {wave_size}\n\n[lds]\n\"0x0\" = {{ u32 = [{}] }}\n",
        words.join(", ")
    )
}

/// Lanes whose `v10 = fma(P10, I, P0)` differs from the unfused `P10 × I + P0`,
/// the operands recomputed from the launch's LDS words (P0.x, P10.x of the
/// quad's primitive; I = attr0.y's P0, P10, P20 or 0.0 by lane in the quad).
/// Checks on the way that v10 is the fused result.
fn unfused_differs(text: &str, out: &gcnrun::launch::run::Outcome) -> u64 {
    let words: Vec<u32> = text
        .split("u32 = [")
        .nth(1)
        .and_then(|s| s.split(']').next())
        .map(|s| {
            s.split(", ")
                .map(|w| u32::from_str_radix(w.trim_start_matches("0x"), 16).unwrap())
                .collect()
        })
        .unwrap_or_default();
    let mut n = 0;
    for w in &out.waves {
        for lane in 0..w.wave_size {
            let quad = lane / 4;
            // attr0 of primitive `quad`: P0.x = dword 0, P10.x = 4; I = v1 =
            // attr0.y's P0/P10/P20/0 by lane.
            let base = 12 * quad as usize;
            let p0 = f32::from_bits(words[base]);
            let p10 = f32::from_bits(words[base + 4]);
            let i = match lane % 4 {
                3 => 0.0,
                k => f32::from_bits(words[base + 4 * k as usize + 1]),
            };
            let fused = p10.mul_add(i, p0);
            let fused_bits = w.vgpr(10, lane);
            if !fused.is_nan() {
                assert_eq!(
                    fused.to_bits(),
                    fused_bits,
                    "lane {lane}: v10 is the fused result"
                );
                n += u64::from((p10 * i + p0).to_bits() != fused_bits);
            }
        }
    }
    n
}

#[test]
fn random_parameters_equal_the_cpu() {
    let test = "random_parameters_equal_the_cpu";
    let Some(g) = gpu(test) else { return };
    let seed: u64 = common::env_number("GCNRUN_SEED", 1);
    let count: usize = common::env_number("GCNRUN_INTERP_PROGRAMS", 24);
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut bad = Vec::new();
    let mut lanes = 0u64;
    let mut differs = 0u64;
    let mut kinds = [0u64; 3];
    for i in 0..count {
        let text = launch(&mut rng, if i % 2 == 0 { 32 } else { 64 });
        if let Some(cpu) = diff_random_launch(g, "interp", (i, seed), &text, &mut lanes, &mut bad) {
            differs += unfused_differs(&text, &cpu);
            count_kinds(&cpu, &mut kinds);
        }
    }
    println!(
        "{count} random gfx11 interp launches, {lanes} lanes × 9 VINTERP steps (seed {seed}); {differs} lanes where fused and unfused p10 differ; f32 results denormal {}, infinite {}, NaN {}",
        kinds[0], kinds[1], kinds[2]
    );
    assert!(bad.is_empty(), "{}", bad.join("\n\n"));
    // The operands must exercise the difference between fused and unfused.
    assert!(differs > 0, "no lane where the fused result differs");
    // ... and results at the edges of the f32 range.
    assert!(kinds.iter().all(|&n| n > 0), "result kinds {kinds:?}");
}

/// Counts the unclamped f32 VINTERP results (v10, v11, v13, v14, v15) that are
/// denormal, infinite or NaN.
fn count_kinds(out: &gcnrun::launch::run::Outcome, kinds: &mut [u64; 3]) {
    for w in &out.waves {
        for lane in w.active_lanes() {
            for r in [10, 11, 13, 14, 15] {
                let x = f32::from_bits(w.vgpr(r, lane));
                kinds[0] += u64::from(x.is_subnormal());
                kinds[1] += u64::from(x.is_infinite());
                kinds[2] += u64::from(x.is_nan());
            }
        }
    }
}
