//! Randomized differential test of BVH ray intersection: random rays (per lane,
//! from random expressions) against random box32, box16 and triangle nodes
//! (types 0 and 1), through four random BVH T#s (sorting, box growing, both
//! triangle return modes), the NSA, A16 and bvh64 forms, wave32 and wave64. The
//! GPU must give the CPU's bits in every lane. A lane the CPU refuses must make
//! the GPU run fail too, naming the instruction.
//!
//! Without an adapter the tests fail under `CI=true` and otherwise print
//! `SKIPPED`. Seed and count: `GCNRUN_SEED`, `GCNRUN_BVH_PROGRAMS` (defaults 1
//! and 6).

mod common;

use common::gpu::{diff_random_launch, gpu};
use gcnrun::launch::run::{prepare_text, run_gpu, GpuRunError};
use gcnrun::texture::convert::f32_to_f16;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// gfx1030, llvm-mc-19:
/// ```text
/// image_bvh_intersect_ray v[40:43], v[8:18], s[4:7]
/// image_bvh_intersect_ray v[44:47], v[8:18], s[8:11]
/// image_bvh_intersect_ray v[48:51], v[8:18], s[12:15]
/// image_bvh_intersect_ray v[52:55], [v8, v9, v10, v11, v12, v13, v14, v15, v16, v17, v18], s[16:19]
/// image_bvh_intersect_ray v[56:59], v[60:67], s[4:7] a16
/// image_bvh64_intersect_ray v[68:71], v[72:83], s[20:23]
/// s_endpgm
/// ```
const KERNEL: &str = "019f98f108280100019f98f1082c0200019f98f108300300079f98f108340400\
                      090a0b0c0d0e0f1011120000019f98f13c380140019f9cf148440500000081bf";

/// Where the launch places the BVH (the first buffer of a launch without
/// images starts at the memory's base).
const BVH_ADDRESS: u64 = 0x1_0000;

/// A random f32: mostly finite values of several scales, sometimes ±0, ±∞ or NaN.
fn float(rng: &mut ChaCha8Rng, scale: f32) -> f32 {
    match rng.gen_range(0..40) {
        0 => f32::INFINITY,
        1 => f32::NEG_INFINITY,
        2 => f32::NAN,
        3 => -0.0,
        4 => 0.0,
        5..=20 => rng.gen_range(-32..=32) as f32 * 0.25 * scale / 8.0,
        _ => rng.gen_range(-scale..scale),
    }
}

/// A random box (min, max): usually min <= max, sometimes inverted or special.
fn bounds(rng: &mut ChaCha8Rng) -> [f32; 6] {
    let mut b = [0f32; 6];
    for k in 0..3 {
        let lo = float(rng, 8.0);
        let size = if rng.gen_bool(0.9) {
            rng.gen_range(0.0..14.0f32)
        } else {
            -rng.gen_range(0.0..2.0f32)
        };
        b[k] = lo;
        b[k + 3] = lo + size;
    }
    b
}

/// Node type of slot `s`: 0, 1, 4, 5 for s % 4 = 0..3 (the lane expressions
/// compute it as `t + (t / 2) * 2`).
fn slot_type(s: u32) -> u32 {
    let t = s % 4;
    t + (t / 2) * 2
}

/// The 32 dwords of slot `s` (two 64-byte units).
fn node(rng: &mut ChaCha8Rng, s: u32) -> Vec<u32> {
    let mut w = vec![0u32; 32];
    let child = |rng: &mut ChaCha8Rng| {
        if rng.gen_bool(0.1) {
            0xffff_ffff
        } else {
            rng.gen::<u32>()
        }
    };
    match slot_type(s) {
        5 => {
            for c in w.iter_mut().take(4) {
                *c = child(rng);
            }
            for i in 0..4 {
                for (k, v) in bounds(rng).iter().enumerate() {
                    w[4 + 6 * i + k] = v.to_bits();
                }
            }
        }
        4 => {
            for c in w.iter_mut().take(4) {
                *c = child(rng);
            }
            for i in 0..4 {
                let h = bounds(rng).map(|v| u32::from(f32_to_f16(v)));
                w[4 + 3 * i] = h[0] | h[1] << 16;
                w[5 + 3 * i] = h[2] | h[3] << 16;
                w[6 + 3 * i] = h[4] | h[5] << 16;
            }
        }
        _ => {
            // Vertices v0..v4 around the origin, mostly at z in [2, 6] so that
            // rays towards +z often hit; the ID's bytes 0 and 1 name
            // barycentric sources 0..2.
            for v in 0..5 {
                w[3 * v] = float(rng, 6.0).to_bits();
                w[3 * v + 1] = float(rng, 6.0).to_bits();
                w[3 * v + 2] = rng.gen_range(2.0..6.0f32).to_bits();
            }
            let src = |rng: &mut ChaCha8Rng| rng.gen_range(0..3u32) | rng.gen_range(0..3u32) << 2;
            w[15] = src(rng) | src(rng) << 8 | (rng.gen::<u32>() & 0xffff_0000);
        }
    }
    w
}

/// A random `u32` expression `(lane * a + wave * b + c) % m`.
fn hash(rng: &mut ChaCha8Rng, m: u32) -> String {
    format!(
        "(lane * {} + wave * {} + {}) % {m}",
        rng.gen_range(1..1000),
        rng.gen_range(1..1000),
        rng.gen_range(0..1000)
    )
}

/// One random launch (manifest text).
fn launch(rng: &mut ChaCha8Rng) -> String {
    let slots = rng.gen_range(4..12u32);
    let wave_size = if rng.gen_bool(0.5) { 32 } else { 64 };
    let waves = rng.gen_range(1..=2);
    let mut t = format!(
        "arch = \"gfx1030\"\nhex = \"{}\"\nwave_size = {wave_size}\nwaves = {waves}\n\n[sgpr]\n",
        KERNEL.replace(' ', "")
    );
    for reg in ["s[4:7]", "s[8:11]", "s[12:15]", "s[16:19]"] {
        t.push_str(&format!(
            "\"{reg}\" = {{ bvh = \"scene\", box_sort = {}, box_grow = {}, triangle_return = \"{}\" }}\n",
            rng.gen_bool(0.7),
            if rng.gen_bool(0.5) { 0 } else { rng.gen_range(0..=255) },
            if rng.gen_bool(0.5) { "barycentrics" } else { "hit_status" }
        ));
    }
    // Mesa-style T# for bvh64: base 0, size 2^42 units, sort, barycentrics.
    t.push_str("\"s[20:23]\" = [0x0, 0x80000000, 0xffffffff, 0x810003ff]\n\n[vgpr]\n");
    let s = format!("({})", hash(rng, slots));
    let ty = format!("({s} % 4 + ({s} % 4 / 2) * 2)");
    let f = |rng: &mut ChaCha8Rng, m: u32, div: f64, off: f64| {
        format!("({}) / {div:?} - {off:?}", hash(rng, m))
    };
    // Directions: components in [-3.2, 3.2] (0 included, so inv_dir is ±inf),
    // z mostly positive; inv_dir their f32 reciprocals, or unrelated values.
    let dirs = [
        f(rng, 33, 5.0, 3.2),
        f(rng, 33, 5.0, 3.2),
        f(rng, 33, 5.0, 1.0),
    ];
    t.push_str(&format!("v8 = {{ u32 = \"{s} * 16 + {ty}\" }}\n"));
    t.push_str(&format!("v9 = {{ f32 = \"{}\" }}\n", f(rng, 60, 2.0, 0.0)));
    for (k, reg) in [10, 11, 12].iter().enumerate() {
        let span = if k == 2 {
            (17, 4.0, 2.0)
        } else {
            (129, 7.0, 9.0)
        };
        t.push_str(&format!(
            "v{reg} = {{ f32 = \"{}\" }}\n",
            f(rng, span.0, span.1, span.2)
        ));
    }
    for (k, d) in dirs.iter().enumerate() {
        t.push_str(&format!("v{} = {{ f32 = \"{d}\" }}\n", 13 + k));
        let inv = if rng.gen_bool(0.8) {
            format!("1.0 / ({d})")
        } else {
            f(rng, 101, 3.0, 16.0)
        };
        t.push_str(&format!("v{} = {{ f32 = \"{inv}\" }}\n", 16 + k));
    }
    // A16: node, extent, origin, then three dwords of random f16 pairs.
    t.push_str(&format!("v60 = {{ u32 = \"{s} * 16 + {ty}\" }}\n"));
    t.push_str("v61 = { f32 = \"100.0\" }\n");
    for reg in 62..65 {
        t.push_str(&format!(
            "v{reg} = {{ f32 = \"{}\" }}\n",
            f(rng, 65, 8.0, 4.0)
        ));
    }
    for reg in 65..68 {
        let half = |rng: &mut ChaCha8Rng| {
            let v = f32_to_f16(rng.gen_range(-4.0..4.0f32));
            if rng.gen_bool(0.1) {
                0x7c00
            } else {
                v
            }
        };
        t.push_str(&format!(
            "v{reg} = {{ u32 = {} }}\n",
            u32::from(half(rng)) | u32::from(half(rng)) << 16
        ));
    }
    // bvh64: absolute pointer (BVH_ADDRESS >> 3) + unit * 8 | type, high 0.
    t.push_str(&format!(
        "v72 = {{ u32 = \"{} + {s} * 16 + {ty}\" }}\nv73 = {{ u32 = \"0\" }}\n",
        BVH_ADDRESS >> 3
    ));
    for (k, reg) in (74..84).enumerate() {
        let src = 9 + k;
        t.push_str(&format!(
            "v{reg} = {{ f32 = \"{}\" }}\n",
            f(rng, 40 + src as u32, 4.0, 5.0)
        ));
    }
    t.push_str(&format!(
        "\n[[buffer]]\nname = \"scene\"\nbytes = {}\n[buffer.data]\n",
        slots * 128
    ));
    for slot in 0..slots {
        let words: Vec<String> = node(rng, slot).iter().map(|w| format!("{w:#x}")).collect();
        t.push_str(&format!(
            "\"{:#x}\" = {{ u32 = [{}] }}\n",
            slot * 128,
            words.join(", ")
        ));
    }
    t
}

/// Counts, over the four instructions that read `v8`'s node, box results with
/// a hit and with a miss, and triangle hits and misses (t_num = +inf).
fn coverage(out: &gcnrun::launch::run::Outcome, seen: &mut [u64; 4]) {
    for w in &out.waves {
        for lane in 0..w.wave_size {
            let kind = w.vgpr(8, lane) & 7;
            for base in [40, 44, 48, 52] {
                let r: Vec<u32> = (0..4).map(|k| w.vgpr(base + k, lane)).collect();
                if kind == 4 || kind == 5 {
                    seen[0] += u64::from(r.iter().any(|&x| x != 0xffff_ffff));
                    seen[1] += u64::from(r.contains(&0xffff_ffff));
                } else if r[0] == 0x7f80_0000 {
                    seen[3] += 1;
                } else {
                    seen[2] += 1;
                }
            }
        }
    }
}

#[test]
fn random_rays_and_nodes_equal_the_cpu() {
    let test = "random_rays_and_nodes_equal_the_cpu";
    let Some(g) = gpu(test) else { return };
    let seed: u64 = common::env_number("GCNRUN_SEED", 1);
    let count: usize = common::env_number("GCNRUN_BVH_PROGRAMS", 6);
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut bad = Vec::new();
    let mut lanes = 0u64;
    let mut seen = [0u64; 4];
    for i in 0..count {
        let text = launch(&mut rng);
        if let Some(cpu) = diff_random_launch(g, "BVH", (i, seed), &text, &mut lanes, &mut bad) {
            coverage(&cpu, &mut seen);
        }
    }
    println!(
        "{count} random BVH launches, {lanes} lanes × 6 instructions (seed {seed}); box results with hits {}, with misses {}; triangle hits {}, misses {}",
        seen[0], seen[1], seen[2], seen[3]
    );
    assert!(bad.is_empty(), "{}", bad.join("\n\n"));
    // The rays and nodes must exercise both outcomes of both tests.
    assert!(seen.iter().all(|&n| n > 0), "coverage {seen:?}");
}

/// A node the CPU refuses (a pointer past the T#'s size) stops the GPU run
/// too, with the instruction's offset (0, which the fault word must still
/// tell from "no fault").
#[test]
fn the_gpu_faults_where_the_cpu_refuses() {
    let test = "the_gpu_faults_where_the_cpu_refuses";
    let Some(g) = gpu(test) else { return };
    // image_bvh_intersect_ray v[40:43], v[8:18], s[4:7]; s_endpgm. Lanes 3-5
    // hold pointer 0x45, unit 8 of a 2-unit BVH; the others 0x5.
    let text = "arch = \"gfx1030\"\nhex = \"019f98f108280100000081bf\"\nwave_size = 32\n\
                [sgpr]\n\"s[4:7]\" = { bvh = \"scene\" }\n[vgpr]\nv8 = { u32 = \"5 + 64 * ((lane / 3) % 2)\" }\n";
    let text = format!(
        "{text}\"v[9:18]\" = {{ u32 = [0x42c80000, 0, 0, 0, 0x3f800000, 0, 0, 0x3f800000, 0x7f800000, 0x7f800000] }}\n\
         [[buffer]]\nname = \"scene\"\nbytes = 128\n"
    );
    let cpu = gcnrun::launch::run::run_cpu(prepare_text(&text, "fault", None).unwrap());
    let e = cpu.expect_err("the CPU refuses lane 3").to_string();
    assert!(
        e.contains("lane 3") && e.contains("node pointer 0x45"),
        "{e}"
    );
    let e = match run_gpu(prepare_text(&text, "fault", None).unwrap(), g) {
        Err(GpuRunError::Input(e)) => e.to_string(),
        other => panic!("the GPU run must fail as bad input: {:?}", other.err()),
    };
    assert!(
        e.contains("offset 0x0") && e.contains("past the BVH T#'s size"),
        "{e}"
    );
}
