//! The sampler on the GPU: every sample/gather4/get_lod asset translates to
//! valid WGSL and gives the CPU's results bit for bit on a real adapter
//! (lavapipe in CI).
//!
//! Without an adapter the GPU tests fail under `CI=true` and otherwise print
//! `SKIPPED` with the reason.

mod common;

use common::gpu::gpu;

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

/// gfx900 kernel (llvm-mc -mcpu=gfx900) with every operand role:
///
/// ```text
/// image_sample v[20:23], v[0:1], s[4:11], s[12:15] dmask:0xf
/// image_sample_l v[24:27], v[0:2], s[4:11], s[12:15] dmask:0xf
/// image_sample_b v[28:31], v[3:5], s[4:11], s[12:15] dmask:0xf
/// image_sample_d v[32:35], v[6:11], s[4:11], s[12:15] dmask:0xf
/// image_gather4_lz v[36:39], v[0:1], s[4:11], s[12:15] dmask:0x2
/// image_gather4_c_lz v[40:43], v[12:14], s[4:11], s[12:15] dmask:0x1
/// image_sample_c v44, v[12:14], s[4:11], s[12:15] dmask:0x1
/// image_get_lod v[45:46], v[0:1], s[4:11], s[12:15] dmask:0x3
/// image_sample_lz_o v[47:50], v[15:17], s[4:11], s[12:15] dmask:0xf
/// image_gather4_b_cl v[61:64], v[3:6], s[4:11], s[12:15] dmask:0x8
/// image_sample_c_d_cl_o v51, v[52:67], s[4:11], s[12:15] dmask:0x1
/// image_sample v[68:71], v[0:1], s[4:11], s[12:15] dmask:0x7 tfe
/// image_sample v72, v[0:1], s[4:11], s[12:15] dmask:0x6 d16
/// image_gather4_c_b_cl_o v[73:76], v[52:59], s[4:11], s[12:15] dmask:0x1
/// s_endpgm
/// ```
const RANDOM_KERNEL: &str = "00 0f 80 f0 00 14 61 00  00 0f 90 f0 00 18 61 00  00 0f 94 f0 03 1c 61 00
    00 0f 88 f0 06 20 61 00  00 02 1c f1 00 24 61 00  00 01 3c f1 0c 28 61 00  00 01 a0 f0 0c 2c 61 00
    00 03 80 f1 00 2d 61 00  00 0f dc f0 0f 2f 61 00  00 08 18 f1 03 3d 61 00  00 01 ec f0 34 33 61 00
    00 07 81 f0 00 44 61 00  00 06 80 f0 00 48 61 80  00 01 78 f1 34 49 61 00  00 00 81 bf";

/// A random sampler state: every field over its whole range, border colour
/// types 0–2 (type 3 reads a driver table gcnrun does not model).
fn random_sampler(rng: &mut impl rand::Rng, degamma_ok: bool) -> [u32; 4] {
    use gcnrun::texture::descriptor::{decode_sampler, encode_sampler};
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
    encode_sampler(&s)
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

/// One random launch: a random 2D image (size, mip chain, format) and S#, and
/// random coordinates, LODs, biases, derivatives, references and offsets;
/// quads have coherent coordinates so that implicit derivatives are sensible.
fn random_launch(rng: &mut impl rand::Rng, case: usize, code: &std::path::Path) -> Prepared {
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
    let text = format!(
        "arch = \"gfx900\"\ncode = \"{}\"\nwaves = 2\n\n[sgpr]\n\"s[4:11]\" = {{ image = \"img\" }}\n\"s[12:15]\" = {{ sampler = \"smp\" }}\n\n\
         [[image]]\nname = \"img\"\ntype = \"2d\"\nwidth = {width}\nheight = {height}\nmips = {mips}\nformat = \"{df}\"\nnum_format = \"{nf}\"\ninit = {init}\n\n\
         [[sampler]]\nname = \"smp\"\n",
        code.display()
    );
    let mut p = common::launches::prepare_text(&format!("random_sample_{case}"), &text);
    let ssharp = random_sampler(rng, degamma_ok);
    for w in &mut p.waves {
        for (i, &x) in ssharp.iter().enumerate() {
            w.set_sgpr(12 + i as u32, x);
        }
        w.exec = rng.gen::<u64>() | rng.gen::<u64>();
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
                // _c_d_cl_o and _c_b_cl_o forms.
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
            }
        }
    }
    p
}

/// Random images, samplers and operands: the GPU gives the CPU's bits (fixed
/// seed, so a failure reproduces). Four launches by default (llvmpipe compiles
/// each module for tens of seconds); `GCNRUN_RANDOM_SAMPLE_CASES=n` runs more.
#[test]
fn random_sampling_equals_the_cpu() {
    use rand::SeedableRng;
    let test = "random_sampling_equals_the_cpu";
    let Some(g) = gpu(test) else { return };
    let code =
        std::env::temp_dir().join(format!("gcnrun-random-sample-{}.bin", std::process::id()));
    std::fs::write(
        &code,
        gcnrun::input::from_hex(RANDOM_KERNEL)
            .expect("kernel hex")
            .bytes,
    )
    .unwrap();
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(0x5a3b_1e55);
    let cases = common::env_number("GCNRUN_RANDOM_SAMPLE_CASES", 4);
    let mut bad = Vec::new();
    for case in 0..cases {
        let p = random_launch(&mut rng, case, &code);
        let r = run_diff(p, g)
            .unwrap_or_else(|e| panic!("case {case}: {e:?}"))
            .report;
        if r.count > 0 {
            bad.push(format!(
                "case {case}: {} difference(s), first {:?}",
                r.count,
                r.mismatches.first()
            ));
        }
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}
