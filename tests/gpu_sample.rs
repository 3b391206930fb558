//! The sampler on the GPU: every sample/gather4/get_lod asset translates to
//! valid WGSL and gives the CPU's results bit for bit on a real adapter
//! (lavapipe in CI); so do random launches (random 2D images, S#s, operands and
//! EXEC) of one kernel with every operand role, written for gfx900, gfx1030 and
//! gfx1100 (wave32 and wave64) and assembled by llvm-mc-19.
//!
//! Without an adapter the GPU tests fail under `CI=true` and otherwise print
//! `SKIPPED` with the reason.

mod common;

use common::gpu::gpu;
use common::launches::random_view;

use gcnrun::gpu::{translate::translate, wgsl};
use gcnrun::launch::run::{prepare_manifest, run_diff, Prepared};

/// `assets/sample_*.toml` and `assets/gather4*.toml`.
fn sampler_assets() -> Vec<(String, Prepared)> {
    let v: Vec<(String, Prepared)> = common::launches::asset_manifests()
        .into_iter()
        .filter_map(|p| {
            let name = p.file_name()?.to_string_lossy().into_owned();
            if !(name.starts_with("sample_") || name.starts_with("gather4")) {
                return None;
            }
            let prep =
                prepare_manifest(&p, None, None, None).unwrap_or_else(|e| panic!("{name}: {e}"));
            Some((name, prep))
        })
        .collect();
    assert!(v.len() >= 10, "only {} sampler assets", v.len());
    v
}

#[test]
fn sampler_assets_translate_to_valid_wgsl() {
    for (name, p) in sampler_assets() {
        let tr = translate(&p.prog, &p.waves, &p.memory)
            .unwrap_or_else(|e| panic!("{name}: translation failed: {e}"));
        for k in &tr.kernels {
            if let Err(e) = wgsl::validate(&k.wgsl) {
                panic!("{name}: naga rejects the module:\n{e}");
            }
        }
    }
}

#[test]
fn sampler_assets_equal_the_cpu() {
    let test = "sampler_assets_equal_the_cpu";
    let Some(g) = gpu(test) else { return };
    let mut bad = Vec::new();
    for (name, p) in sampler_assets() {
        let t = std::time::Instant::now();
        let out = run_diff(p, g).unwrap_or_else(|e| panic!("{name}: {e:?}"));
        let st = &out.gpu_run.stats;
        println!(
            "{name}: {:.1} s (CPU {:.2} s, GPU {:.2} s of which executing {:.2} s)",
            t.elapsed().as_secs_f64(),
            out.cpu_time.as_secs_f64(),
            st.total.as_secs_f64(),
            st.execute.as_secs_f64()
        );
        let r = out.report;
        if r.count > 0 {
            bad.push(format!(
                "{name}: {} difference(s), first {:?}",
                r.count,
                r.mismatches.first()
            ));
        }
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

/// The random-sampling kernel with every operand role, in gfx900 syntax. The
/// RDNA kernels ([`rdna_kernel`]) start with the same lines (plus `dim:`).
const GFX9_KERNEL: &str = "\
image_sample v[20:23], v[0:1], s[4:11], s[12:15] dmask:0xf
image_sample_l v[24:27], v[0:2], s[4:11], s[12:15] dmask:0xf
image_sample_b v[28:31], v[3:5], s[4:11], s[12:15] dmask:0xf
image_sample_d v[32:35], v[6:11], s[4:11], s[12:15] dmask:0xf
image_gather4_lz v[36:39], v[0:1], s[4:11], s[12:15] dmask:0x2
image_gather4_c_lz v[40:43], v[12:14], s[4:11], s[12:15] dmask:0x1
image_sample_c v44, v[12:14], s[4:11], s[12:15] dmask:0x1
image_get_lod v[45:46], v[0:1], s[4:11], s[12:15] dmask:0x3
image_sample_lz_o v[47:50], v[15:17], s[4:11], s[12:15] dmask:0xf
image_gather4_b_cl v[61:64], v[3:6], s[4:11], s[12:15] dmask:0x8
image_sample_c_d_cl_o v51, v[52:60], s[4:11], s[12:15] dmask:0x1
image_sample v[68:71], v[0:1], s[4:11], s[12:15] dmask:0x7 tfe
image_sample v72, v[0:1], s[4:11], s[12:15] dmask:0x6 d16
image_gather4_c_b_cl_o v[73:76], v[52:57], s[4:11], s[12:15] dmask:0x1
s_endpgm";

/// The kernel for gfx1030 or gfx1100: [`GFX9_KERNEL`]'s instructions with the
/// DIM operand (the _c_d_cl_o form's nine addresses as an NSA list), then RDNA
/// forms: NSA lists (gfx1030 up to 13 addresses; gfx11 at most
/// 5, the last a tuple: partial NSA), A16 addresses (v18, v21, v22: packed
/// f16), G16 derivatives (v19, v20: packed f16), `tfe lwe d16`. gfx11 has no
/// image_gather4_c_b_cl_o and no image_sample_cd (llvm-mc-19: "instruction not
/// supported on this GPU"): it runs image_gather4_c_b_cl and image_gather4_c_b
/// in their places.
fn rdna_kernel(gfx11: bool) -> String {
    let mut lines: Vec<String> = GFX9_KERNEL
        .lines()
        .filter(|l| *l != "s_endpgm")
        .map(|l| match l.split_once(" dmask:") {
            Some((head, tail)) => {
                let (mask, rest) = tail.split_once(' ').unwrap_or((tail, ""));
                format!("{head} dmask:{mask} dim:SQ_RSRC_IMG_2D {rest}")
            }
            None => l.to_string(),
        })
        .collect();
    // _c_d_cl_o's 9 addresses: offset, z, 4 derivatives, s, t, clamp.
    let nsa9 = if gfx11 {
        "[v52, v53, v54, v55, v[56:60]]"
    } else {
        "[v52, v53, v54, v55, v56, v57, v58, v59, v60]"
    };
    for l in &mut lines {
        *l = l.replace("v[52:60]", nsa9);
        if gfx11 {
            *l = l.replace(
                "image_gather4_c_b_cl_o v[73:76], v[52:57]",
                "image_gather4_c_b_cl v[73:76], v[53:57]",
            );
        }
    }
    let d = "s[4:11], s[12:15]";
    let dim = "dim:SQ_RSRC_IMG_2D";
    lines.extend([
        format!("image_sample_c_lz_o v77, [v15, v12, v13, v14], {d} dmask:0x1 {dim}"),
        format!("image_sample_lz v78, v18, {d} dmask:0x1 {dim} a16"),
        format!("image_sample_d_g16 v79, [v19, v20, v0, v1], {d} dmask:0x1 {dim}"),
        format!("image_sample_b_cl v[80:83], [v3, v0, v1, v6], {d} dmask:0xf {dim}"),
        format!("image_sample_lz v[84:85], v[0:1], {d} dmask:0x3 {dim} tfe lwe d16"),
        format!("image_sample_d_cl_g16 v[87:90], [v19, v20, v0, v1, v6], {d} dmask:0xf {dim}"),
        format!("image_get_lod v[91:92], v18, {d} dmask:0x3 {dim} a16"),
        format!("image_sample_l v[93:96], v[21:22], {d} dmask:0xf {dim} a16"),
        if gfx11 {
            format!("image_gather4_c_b v[97:100], [v53, v12, v13, v14], {d} dmask:0x4 {dim}")
        } else {
            format!("image_sample_cd v[97:100], v[6:11], {d} dmask:0xf {dim}")
        },
        "s_endpgm".to_string(),
    ]);
    lines.join("\n")
}

/// The kernel of `mcpu`, assembled by llvm-mc.
fn assemble_kernel(mc: &common::llvm::LlvmMc, mcpu: &str) -> Vec<u8> {
    let source = match mcpu {
        "gfx900" => GFX9_KERNEL.to_string(),
        "gfx1030" => rdna_kernel(false),
        _ => rdna_kernel(true),
    };
    let lines: Vec<String> = source.lines().map(|l| l.trim().to_string()).collect();
    let mut bytes = Vec::new();
    for (line, r) in lines.iter().zip(mc.assemble(mcpu, &lines)) {
        bytes.extend(r.unwrap_or_else(|e| panic!("{mcpu}: llvm-mc-19 rejects `{line}`: {e}")));
    }
    bytes
}

/// A random sampler state in the S# layout of `gen` (gfx11 moved the border
/// colour pointer): every field over its whole range, border colour types 0–2
/// (type 3 reads a driver table gcnrun does not model).
fn random_sampler(rng: &mut impl rand::Rng, degamma_ok: bool, gen: gcnrun::arch::Gen) -> [u32; 4] {
    use gcnrun::texture::descriptor::{decode_sampler, encode_sampler_for};
    let mut s = decode_sampler(&[0; 4]);
    s.clamp = std::array::from_fn(|_| rng.gen_range(0..8));
    s.max_aniso = if rng.gen_bool(0.3) {
        rng.gen_range(1..5)
    } else {
        0
    };
    s.compare = rng.gen_range(0..8);
    s.force_unnormalized = rng.gen_bool(0.15);
    s.force_degamma = degamma_ok && rng.gen_bool(0.3);
    s.filter_mode = rng.gen_range(0..3);
    s.min_lod = if rng.gen_bool(0.3) {
        rng.gen_range(0..0x300)
    } else {
        0
    };
    s.max_lod = if rng.gen_bool(0.3) {
        rng.gen_range(0..0x500)
    } else {
        0xfff
    };
    s.lod_bias = if rng.gen_bool(0.4) {
        rng.gen_range(-0x300..0x300)
    } else {
        0
    };
    s.mag_filter = rng.gen_range(0..4);
    s.min_filter = rng.gen_range(0..4);
    s.z_filter = rng.gen_range(0..3);
    s.mip_filter = rng.gen_range(0..4);
    s.border_type = rng.gen_range(0..3);
    encode_sampler_for(&s, gen)
}

/// A random f32 of moderate size, sometimes on a coarse binary grid (so that
/// texel centres, edges and exact LODs are hit).
fn random_float(rng: &mut impl rand::Rng, lo: f32, hi: f32) -> f32 {
    let x: f32 = rng.gen_range(lo..hi);
    if rng.gen_bool(0.3) {
        (x * 64.0).round() / 64.0
    } else {
        x
    }
}

/// f16 bits of `x` (round to nearest even), for the A16 and G16 operands.
fn f16_bits(x: f32) -> u32 {
    half::f16::from_f32(x).to_bits().into()
}

/// One random launch of `kernel` for `mcpu` with `wave_size` lanes: a random
/// 2D image (size, mip chain, format) and S#, and random coordinates, LODs,
/// biases, derivatives, references and offsets; quads have coherent
/// coordinates so that implicit derivatives are sensible. Returns the
/// manifest (without the S# and the lane values, which are set afterwards)
/// for a failure's message, and the launch.
fn random_launch(
    rng: &mut impl rand::Rng,
    case: usize,
    (mcpu, wave_size): (&str, u32),
    kernel: &[u8],
) -> (String, Prepared) {
    // (data format, number format, degamma allowed): no float noise, whose
    // NaN payloads are outside the bit-exact contract (docs/gpu.md).
    const FORMATS: [(&str, &str, bool); 8] = [
        ("8_8_8_8", "unorm", true),
        ("8_8_8_8", "srgb", false),
        ("8_8", "snorm", false),
        ("5_6_5", "unorm", true),
        ("2_10_10_10", "unorm", true),
        ("16", "unorm", true),
        ("8", "unorm", true),
        ("32", "float", false),
    ];
    let (df, nf, degamma_ok) = FORMATS[rng.gen_range(0..FORMATS.len())];
    let width = 1u32 << rng.gen_range(0..5) | rng.gen_range(0..2);
    let height = 1u32 << rng.gen_range(0..5);
    let mips = if rng.gen_bool(0.7) {
        "\"full\"".to_string()
    } else {
        "1".to_string()
    };
    let init = if df == "32" {
        // Normal floats in [-4, 4) for level 0.
        let bytes: String = (0..width * height)
            .map(|_| {
                let v: f32 = rng.gen_range(-4.0..4.0);
                v.to_le_bytes()
                    .iter()
                    .map(|b| format!("{b:02x}"))
                    .collect::<String>()
            })
            .collect();
        format!("{{ hex = \"{bytes}\" }}")
    } else {
        "\"noise\"".into()
    };
    let hex: String = kernel.iter().map(|b| format!("{b:02x}")).collect();
    let text = format!(
        "arch = \"{mcpu}\"\nwave_size = {wave_size}\nhex = \"{hex}\"\nwaves = 2\n\n[sgpr]\n\"s[4:11]\" = {{ image = \"img\" }}\n\"s[12:15]\" = {{ sampler = \"smp\" }}\n\n\
         [[image]]\nname = \"img\"\ntype = \"2d\"\nwidth = {width}\nheight = {height}\nmips = {mips}\nformat = \"{df}\"\nnum_format = \"{nf}\"\ninit = {init}\n\n\
         [[sampler]]\nname = \"smp\"\n"
    );
    let mut p = common::launches::prepare_text(&format!("random_sample_{case}"), &text);
    let ssharp = random_sampler(rng, degamma_ok, p.arch.gen);
    let tsharp = random_view(rng, 0.5, &p.waves[0].sgprs()[4..12], p.arch.gen);
    for w in &mut p.waves {
        for (i, &x) in ssharp.iter().enumerate() {
            w.set_sgpr(12 + i as u32, x);
        }
        for (i, &x) in tsharp.iter().enumerate() {
            w.set_sgpr(4 + i as u32, x);
        }
        w.exec = rng.gen::<u64>() | rng.gen::<u64>();
        if w.wave_size == 32 {
            w.exec &= 0xffff_ffff;
        }
        for quad in 0..w.wave_size / 4 {
            let base = [random_float(rng, -0.6, 1.6), random_float(rng, -0.6, 1.6)];
            let step = [
                random_float(rng, -0.3, 0.3) / 8.0,
                random_float(rng, -0.3, 0.3) / 8.0,
            ];
            for k in 0..4 {
                let lane = quad * 4 + k;
                let (dx, dy) = ((k & 1) as f32, (k >> 1) as f32);
                let s = base[0] + dx * step[0] + dy * step[1] * 0.25;
                let t = base[1] + dy * step[1] + dx * step[0] * 0.25;
                let f = |v: f32| v.to_bits();
                let mut set = |n: u32, v: u32| w.set_vgpr(n, lane, v);
                // v0, v1: s, t; v2: LOD; v3: bias; v4, v5: s, t; v6..v9:
                // derivatives, v10, v11: s, t; v12: reference, v13, v14: s, t;
                // v15: offsets, v16, v17: s, t; v52..v60 the operands of the
                // _c_d_cl_o and _c_b_cl_o forms. RDNA's A16 and G16 forms: v18
                // (s, t) and v21 the same, v22 (LOD, 0), v19 (ds/dx, dt/dx)
                // and v20 (ds/dy, dt/dy), packed f16 (gfx900's kernel does not
                // read them).
                set(0, f(s));
                set(1, f(t));
                set(2, f(random_float(rng, -2.0, 6.0)));
                set(3, f(random_float(rng, -3.0, 3.0)));
                set(4, f(s));
                set(5, f(t));
                set(6, f(random_float(rng, -0.5, 0.5)));
                set(7, f(random_float(rng, -0.5, 0.5)));
                set(8, f(random_float(rng, -0.5, 0.5)));
                set(9, f(random_float(rng, -0.5, 0.5)));
                set(10, f(s));
                set(11, f(t));
                set(12, f(random_float(rng, -0.2, 1.2)));
                set(13, f(s));
                set(14, f(t));
                set(15, rng.gen());
                set(16, f(s));
                set(17, f(t));
                set(52, rng.gen());
                for n in 53..61 {
                    set(n, f(random_float(rng, -0.5, 1.5)));
                }
                let pack = |lo: f32, hi: f32| f16_bits(lo) | f16_bits(hi) << 16;
                set(18, pack(s, t));
                set(21, pack(s, t));
                set(22, f16_bits(random_float(rng, -2.0, 6.0)));
                let mut g = || random_float(rng, -0.5, 0.5);
                let (a, b, c, d) = (g(), g(), g(), g());
                set(19, pack(a, b));
                set(20, pack(c, d));
            }
        }
    }
    (text, p)
}

/// The generations and wave sizes the random launches rotate through: case
/// `i` runs on `TARGETS[i % 5]`, so that the default three cases cover every
/// generation and both RDNA wave sizes.
const TARGETS: [(&str, u32); 5] = [
    ("gfx900", 64),
    ("gfx1030", 32),
    ("gfx1100", 64),
    ("gfx1030", 64),
    ("gfx1100", 32),
];

/// Random images, samplers and operands on gfx900, gfx1030 and gfx1100 (wave32
/// and wave64, the T# and S# in each generation's layout, the kernel in each
/// generation's syntax): the GPU gives the CPU's bits. Three launches by
/// default (lavapipe compiles each module for 5–25 s on 2 cores);
/// `GCNRUN_RANDOM_SAMPLE_CASES=n` runs more, `GCNRUN_SEED` picks another
/// sequence (default 0x5a3b1e55, so that a failure reproduces).
#[test]
fn random_sampling_equals_the_cpu() {
    use rand::SeedableRng;
    let test = "random_sampling_equals_the_cpu";
    let Some(mc) = common::llvm::LlvmMc::find(test) else {
        return;
    };
    let Some(g) = gpu(test) else { return };
    let kernels: Vec<Vec<u8>> = ["gfx900", "gfx1030", "gfx1100"]
        .iter()
        .map(|m| assemble_kernel(&mc, m))
        .collect();
    let seed = common::env_number("GCNRUN_SEED", 0x5a3b_1e55u64);
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let cases = common::env_number("GCNRUN_RANDOM_SAMPLE_CASES", 3);
    let start = std::time::Instant::now();
    let mut bad = Vec::new();
    for case in 0..cases {
        let target = TARGETS[case % TARGETS.len()];
        let kernel = match target.0 {
            "gfx900" => &kernels[0],
            "gfx1030" => &kernels[1],
            _ => &kernels[2],
        };
        let (text, p) = random_launch(&mut rng, case, target, kernel);
        let what = format!("case {case} ({} wave{}, seed {seed})", target.0, target.1);
        let t = std::time::Instant::now();
        let out = run_diff(p, g).unwrap_or_else(|e| panic!("{what}: {e:?}\n{text}"));
        println!(
            "{what}: {:.1} s (CPU {:.2} s, GPU {:.2} s of which executing {:.2} s)",
            t.elapsed().as_secs_f64(),
            out.cpu_time.as_secs_f64(),
            out.gpu_run.stats.total.as_secs_f64(),
            out.gpu_run.stats.execute.as_secs_f64()
        );
        let r = out.report;
        if r.count > 0 {
            bad.push(format!(
                "{what}: {} difference(s), first {:?}\n{text}",
                r.count,
                r.mismatches.first()
            ));
        }
    }
    println!(
        "{cases} random sampling launches (seed {seed}), {:.1} s",
        start.elapsed().as_secs_f64()
    );
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}
