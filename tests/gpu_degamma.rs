//! FORCE_DEGAMMA on UNORM components on the GPU (src/gpu/translate/degamma.rs):
//! every code of every tabulated width goes through a point sample on the GPU
//! and must give the CPU's bits, which must be the CPU's
//! `srgb_to_linear(unorm_to_f32(c, w))` of the code (X, Y, Z) or the plain
//! UNORM value (W). Launches of 65,536 lanes sample, with
//! `assets/degamma_sweep.bin`, one 256 × 256 image per UNORM data format
//! whose X/Y/Z are tabulated — those with a component that is not 8 bits in
//! one launch, the 8-bit ones in another (the kernel has T#s for eleven);
//! component k of texel i holds code `(i + 3k) mod 2^w`, so every code of
//! every component up to 16 bits occurs. The same sweep without FORCE_DEGAMMA
//! runs every UNORM, SNORM, USCALED and SSCALED data format through the
//! plain conversions (`load_unorm`, `load_snorm`: `repeat_ratio_bits`'
//! integer steps for every width, against the CPU's long division;
//! `load_uscaled`, `load_sscaled`: rounding to nearest even in integers,
//! against Rust's `as f32`): every code of the components up to 16 bits, and
//! of the 24- and 32-bit ones the edges and 65,528 codes spread over the
//! range.
//!
//! Widths without a table (24 and 32 bits) are refused by name; that check
//! needs no GPU. Without an adapter the GPU test fails under `CI=true` and
//! otherwise prints `SKIPPED` with the reason.

mod common;

use gcnrun::gpu::translate::{self, degamma, tables};
use gcnrun::launch::run::{run_diff, Prepared};
use gcnrun::texture::convert::{
    snorm_to_f32, srgb_to_linear, sscaled_to_f32, unorm_to_f32, uscaled_to_f32,
};
use gcnrun::texture::format::{
    check, missing_component, DataFormat, Layout, NumFormat, DATA_FORMATS,
};
use std::fmt::Write as _;

/// Image side: 256 × 256 texels hold every code of a 16-bit component.
const SIDE: u32 = 256;
/// Images the sweep kernel samples (its T#s s[8+8k : 15+8k]).
const KERNEL_IMAGES: usize = 11;

/// The UNORM data formats whose X, Y, Z are all tabulated — what the table
/// path translates — in launches that fit the kernel: those with a component
/// that is not 8 bits wide, then those of 8-bit components only.
fn swept_formats() -> [Vec<&'static DataFormat>; 2] {
    let tabulated = DATA_FORMATS.iter().filter(|d| {
        d.layout != Layout::Block
            && check(d, NumFormat::Unorm).is_ok()
            && d.comps
                .iter()
                .take(3)
                .all(|&(_, w)| degamma::base(w.into()).is_some())
    });
    let (bytes, other): (Vec<_>, Vec<_>) =
        tabulated.partition(|d| d.comps.iter().take(3).all(|&(_, w)| w == 8));
    [other, bytes]
}

/// The code of component `k` (width `w`) in texel `i`: `(i + 3k) mod 2^w`
/// up to 16 bits, where the texels hold every code; for wider components the
/// first eight texels hold the edges (0, 1, 2, the middle three, the two
/// largest), the others `i + 3k` times an odd constant mod 2^w, codes spread
/// over the whole range.
fn code(i: u32, k: usize, w: u8) -> u32 {
    let mask = ((1u64 << w) - 1) as u32;
    let j = i + 3 * k as u32;
    if w <= 16 {
        return j & mask;
    }
    let half = 1u32 << (w - 1);
    match i {
        0..=2 => i,
        3..=5 => half - 4 + i,
        6 => mask - 1,
        7 => mask,
        _ => j.wrapping_mul(0x9e37_79b1) & mask,
    }
}

/// The texel bytes of image `df`: texel i holds code(i, k, w) in component k.
fn image_hex(df: &DataFormat) -> String {
    let mut hex = String::with_capacity((SIDE * SIDE * df.bytes * 2) as usize);
    for i in 0..SIDE * SIDE {
        let mut t: u128 = 0;
        for (k, &(lo, w)) in df.comps.iter().enumerate() {
            t |= u128::from(code(i, k, w)) << lo;
        }
        for b in &t.to_le_bytes()[..df.bytes as usize] {
            write!(hex, "{b:02x}").unwrap();
        }
    }
    hex
}

/// The sweep launch of `waves` waves: image k (format `formats[k]`, contents
/// `init(formats[k])` in manifest syntax) at T# s[8+8k : 15+8k]; the kernel's
/// remaining T#s are left zero (unbound), their results unchecked.
fn sweep_manifest(
    formats: &[&DataFormat],
    init: impl Fn(&DataFormat) -> String,
    waves: u32,
) -> String {
    sweep_manifest_as(formats, Sweep::DEGAMMA, init, waves)
}

/// How a sweep reads its images: the number format (manifest name) and
/// whether the sampler sets FORCE_DEGAMMA.
#[derive(Clone, Copy)]
struct Sweep {
    /// The manifest's `num_format`.
    name: &'static str,
    degamma: bool,
}

impl Sweep {
    const DEGAMMA: Sweep = Sweep {
        name: "unorm",
        degamma: true,
    };
}

/// [`sweep_manifest`] of images read as `sweep` says.
fn sweep_manifest_as(
    formats: &[&DataFormat],
    sweep: Sweep,
    init: impl Fn(&DataFormat) -> String,
    waves: u32,
) -> String {
    let mut text = format!(
        r#"arch = "gfx900"
code = "{code}"
waves = {waves}

[vgpr]
v0 = {{ f32 = "(((lane + 64 * wave) % {SIDE}) + 0.5) / {SIDE}.0" }}
v1 = {{ f32 = "(((lane + 64 * wave) / {SIDE}) + 0.5) / {SIDE}.0" }}

[sgpr]
"s[4:7]" = {{ sampler = "degamma" }}
"#,
        code = common::launches::assets()
            .join("degamma_sweep.bin")
            .display(),
    );
    for k in 0..formats.len() {
        writeln!(
            text,
            "\"s[{}:{}]\" = {{ image = \"f{k}\" }}",
            8 + 8 * k,
            15 + 8 * k
        )
        .unwrap();
    }
    for (k, df) in formats.iter().enumerate() {
        write!(
            text,
            "\n[[image]]\nname = \"f{k}\"\ntype = \"2d\"\nwidth = {SIDE}\nheight = {SIDE}\nformat = \"{}\"\nnum_format = \"{}\"\ninit = {}\n",
            df.name,
            sweep.name,
            init(df)
        )
        .unwrap();
    }
    write!(
        text,
        "\n[[sampler]]\nname = \"degamma\"\nfilter = {{ mag = \"point\", min = \"point\", mip = \"none\" }}\n\
         address = [\"clamp_last_texel\", \"clamp_last_texel\", \"clamp_last_texel\"]\nforce_degamma = {}\n",
        sweep.degamma
    )
    .unwrap();
    text
}

/// What the sample of texel `i` of `df` must return, from the CPU's own
/// conversion functions: X, Y, Z decoded, W linear, a missing W 1.0.
fn expected(df: &DataFormat, i: u32) -> [u32; 4] {
    std::array::from_fn(|k| match df.comps.get(k) {
        Some(&(_, w)) => {
            let v = unorm_to_f32(code(i, k, w), w.into());
            if k < 3 {
                srgb_to_linear(v).to_bits()
            } else {
                v.to_bits()
            }
        }
        None if k == 3 => 1.0f32.to_bits(),
        None => 0,
    })
}

#[test]
fn the_swept_formats_cover_every_tabulated_width_and_fit_the_kernel() {
    let launches = swept_formats();
    for formats in &launches {
        assert!(
            formats.len() <= KERNEL_IMAGES,
            "{} formats: extend assets/degamma_sweep.s",
            formats.len()
        );
    }
    let formats: Vec<_> = launches.concat();
    let mut widths: Vec<u32> = formats
        .iter()
        .flat_map(|d| d.comps.iter().take(3).map(|&(_, w)| u32::from(w)))
        .collect();
    widths.sort_unstable();
    widths.dedup();
    assert_eq!(widths, degamma::widths());
    // Every code of every component occurs among the 65,536 texels.
    for df in &formats {
        for (k, &(_, w)) in df.comps.iter().enumerate() {
            let seen: std::collections::BTreeSet<u32> =
                (0..SIDE * SIDE).map(|i| code(i, k, w)).collect();
            assert_eq!(seen.len() as u64, 1u64 << w, "{} component {k}", df.name);
        }
    }
}

#[test]
fn every_code_of_every_width_degammas_on_the_gpu_as_on_the_cpu() {
    let test = "every_code_of_every_width_degammas_on_the_gpu_as_on_the_cpu";
    let Some(g) = common::gpu::gpu(test) else {
        return;
    };
    for formats in swept_formats() {
        sweep_on_the_gpu(g, &formats);
    }
}

/// The UNORM or SNORM data formats (every code of a component up to 16 bits
/// occurs among the sweep's texels, a spread of the codes of wider ones), in
/// launches that fit the kernel.
fn plain_formats(nf: NumFormat) -> Vec<Vec<&'static DataFormat>> {
    let formats: Vec<_> = DATA_FORMATS
        .iter()
        .filter(|d| d.layout != Layout::Block && check(d, nf).is_ok())
        .collect();
    formats.chunks(KERNEL_IMAGES).map(<[_]>::to_vec).collect()
}

/// What a plain (no FORCE_DEGAMMA) sample of texel `i` of `df` read as `nf`
/// must return, from the CPU's own conversion functions.
fn plain_expected(df: &DataFormat, nf: NumFormat, i: u32) -> [u32; 4] {
    std::array::from_fn(|k| match df.comps.get(k) {
        Some(&(_, w)) => {
            let convert = match nf {
                NumFormat::Snorm => snorm_to_f32,
                NumFormat::Uscaled => uscaled_to_f32,
                NumFormat::Sscaled => sscaled_to_f32,
                _ => unorm_to_f32,
            };
            convert(code(i, k, w), w.into()).to_bits()
        }
        None => missing_component(k, nf),
    })
}

/// Every code of every UNORM, SNORM, USCALED and SSCALED component width up to
/// 16 bits, and the edges and a spread of the codes of the 24- and 32-bit
/// ones, convert on the GPU as on the CPU: UNORM and SNORM by
/// `repeat_ratio_bits`' integer steps there (`shaders/convert.wgsl`), by the
/// long division here; the scaled ones rounded to nearest even by integer
/// steps there, by Rust's `as f32` here.
#[test]
fn every_code_of_every_norm_and_scaled_width_converts_on_the_gpu_as_on_the_cpu() {
    let test = "every_code_of_every_norm_and_scaled_width_converts_on_the_gpu_as_on_the_cpu";
    let Some(g) = common::gpu::gpu(test) else {
        return;
    };
    for (nf, name) in [
        (NumFormat::Unorm, "unorm"),
        (NumFormat::Snorm, "snorm"),
        (NumFormat::Uscaled, "uscaled"),
        (NumFormat::Sscaled, "sscaled"),
    ] {
        let launches = plain_formats(nf);
        let mut widths: Vec<u8> = launches
            .iter()
            .flatten()
            .flat_map(|d| d.comps.iter().map(|&(_, w)| w))
            .collect();
        widths.sort_unstable();
        widths.dedup();
        assert!(
            [8, 16, 24, 32].iter().all(|w| widths.contains(w)),
            "{name}: {widths:?}"
        );
        let sweep = Sweep {
            name,
            degamma: false,
        };
        for formats in launches {
            sweep_on_the_gpu_as(g, &formats, sweep, |df, i| plain_expected(df, nf, i));
        }
    }
}

/// One launch of the FORCE_DEGAMMA sweep over `formats`, compared with the
/// CPU and with the conversion functions.
fn sweep_on_the_gpu(g: &gcnrun::gpu::Gpu, formats: &[&DataFormat]) {
    sweep_on_the_gpu_as(g, formats, Sweep::DEGAMMA, expected);
}

/// One launch of a sweep over `formats`, compared with the CPU and with
/// `expected` (texel i's X, Y, Z, W).
fn sweep_on_the_gpu_as(
    g: &gcnrun::gpu::Gpu,
    formats: &[&DataFormat],
    sweep: Sweep,
    expected: impl Fn(&DataFormat, u32) -> [u32; 4],
) {
    let text = sweep_manifest_as(
        formats,
        sweep,
        |df| format!("{{ hex = \"{}\" }}", image_hex(df)),
        SIDE * SIDE / 64,
    );
    let p: Prepared = common::launches::prepare_text("degamma_sweep", &text);
    let t = std::time::Instant::now();
    let tr = translate::translate(&p.prog, &p.waves, &p.memory).expect("translates");
    // The driver's build of the modules (cached for the run below): reported,
    // not asserted (a const-array version of the tables took lavapipe minutes).
    // Every module samples an image of the sweep and reads the table.
    let build = std::time::Instant::now();
    for k in tr
        .kernels
        .iter()
        .take(formats.len().div_ceil(translate::IMAGE_OPS_PER_MODULE))
    {
        assert!(k.tables || !sweep.degamma, "the module reads the table");
        g.pipeline(&k.wgsl).expect("the module builds");
    }
    let build = build.elapsed();
    let out = run_diff(p, g).unwrap_or_else(|e| panic!("{e:?}"));
    println!(
        "{} formats, {} lanes: module builds {:.1} s, CPU {:.1} s, GPU run {:.1} s, total {:.1} s",
        formats.len(),
        SIDE * SIDE,
        build.as_secs_f64(),
        out.cpu_time.as_secs_f64(),
        out.gpu_run.stats.total.as_secs_f64(),
        t.elapsed().as_secs_f64()
    );
    assert_eq!(
        out.report.count,
        0,
        "GPU differs from CPU: first {:?}",
        out.report.mismatches.first()
    );
    // Both sides hold the conversion of the intended code (so the comparison
    // above cannot pass on texels that were never decoded).
    let mut bad = Vec::new();
    for (wave, w) in out.gpu.waves.iter().enumerate() {
        for lane in 0..64u32 {
            let i = wave as u32 * 64 + lane;
            for (k, df) in formats.iter().enumerate() {
                let got = std::array::from_fn(|c| w.vgpr(4 + 4 * k as u32 + c as u32, lane));
                let want = expected(df, i);
                if got != want && bad.len() < 8 {
                    bad.push(format!(
                        "{} texel {i}: got {got:08x?}, want {want:08x?}",
                        df.name
                    ));
                }
            }
        }
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

/// A 24- or 32-bit UNORM component would need a table of 2^24 or 2^32 entries:
/// the translator refuses it by name (docs/gpu.md), while the CPU runs it.
#[test]
fn untabulated_widths_are_refused_by_name() {
    for (format, bits) in [("8_24", 24), ("24_8", 24), ("32", 32), ("32_32_32_32", 32)] {
        let df = DATA_FORMATS.iter().find(|d| d.name == format).unwrap();
        let text = sweep_manifest(&[df], |_| "\"noise\"".into(), 1);
        let p = common::launches::prepare_text(&format!("degamma_refused_{format}"), &text);
        let e = translate::translate(&p.prog, &p.waves, &p.memory)
            .expect_err("an untabulated width is refused");
        assert_eq!(e.offset, 0, "{format}: {e:?}");
        assert!(
            e.kind.to_string().contains("FORCE_DEGAMMA")
                && e.kind.to_string().contains(format)
                && e.kind.to_string().contains(&format!("2^{bits}")),
            "{format}: {}",
            e.kind
        );
    }
}

/// The host's tables are bound to exactly the modules whose entry point reads them
/// (`tables::measure`, which the runtime follows): the modules wgpu's
/// derived layout gives the binding, i.e. whose entry point naga finds using
/// `host_tables`. A module given a binding its layout lacks, or denied one
/// it has, fails to build. Straight-line sampling and loading, a whole
/// program's typed buffer loads (format from the V#, sRGB among its
/// possibilities: the 8-bit codes read the table too), BCn decoding,
/// anisotropic sampling, the transcendental functions of a compiled kernel,
/// and whole programs without texel decodes or tables, which must not bind
/// it.
#[test]
fn modules_bind_the_table_exactly_where_naga_finds_it_used() {
    let mut seen = [0usize; 2];
    for asset in [
        "sample_filter.toml",
        "sample_degamma.toml",
        "image_rw.toml",
        "typed_buffer.toml",
        "sample_bcn.toml",
        "sample_lod.toml",
        "kernels/math.toml",
        "dx9_mul.toml",
        "f64.toml",
    ] {
        let p = gcnrun::launch::run::prepare_manifest(
            &common::launches::assets().join(asset),
            None,
            None,
            None,
        )
        .unwrap();
        let tr = translate::translate(&p.prog, &p.waves, &p.memory).unwrap();
        for (i, k) in tr.kernels.iter().enumerate() {
            let (module, info) = gcnrun::gpu::wgsl::validate(&k.wgsl).unwrap();
            let (table, _) = module
                .global_variables
                .iter()
                .find(|(_, g)| g.name.as_deref() == Some(tables::GLOBAL))
                .expect("every module declares the tables");
            let used = !info.get_entry_point(0)[table].is_empty();
            assert_eq!(k.tables, used, "{asset} module {i}");
            seen[usize::from(used)] += 1;
        }
    }
    assert!(seen[0] > 0 && seen[1] > 0, "both kinds of module: {seen:?}");
}

/// gfx900 code of the small-float sweep: `buffer_load_format_x v1` (V#
/// s[8:11]: 16, FLOAT) and `_xyz v[2:4]` (s[12:15]: 10_11_11, FLOAT) at index
/// v0, then the store inputs `buffer_load_dword v5` (s[24:27]) and `_dwordx3
/// v[6:8]` (s[28:31]) and their `buffer_store_format_x` (s[16:19]: 16,
/// FLOAT) and `_xyz` (s[20:23]: 10_11_11, FLOAT) — llvm-mc-19 -mcpu=gfx900.
const SMALL_FLOAT_CODE: &str = "002000e000010280002008e000020380002050e000050680002058e000060780700f8cbf002010e000050480002018e000060580700f8cbf000081bf";

/// V# word 3 on gfx9: DST_SEL XYZW, NUM_FORMAT FLOAT (7), DATA_FORMAT `df`.
fn float_word3(df: u32) -> u32 {
    (4 | 5 << 3 | 6 << 6 | 7 << 9) | 7 << 12 | df << 15
}

/// Texel `i` of the 10_11_11 buffer: X the 11-bit code `i`, Y `7i`, Z the
/// 10-bit code `i` (mod their ranges), so that every code of each occurs.
fn packed_float_texel(i: u32) -> u32 {
    (i & 0x7ff) | ((i * 7) & 0x7ff) << 11 | (i & 0x3ff) << 22
}

/// The f32 inputs lane `i` stores as f16 and as 10_11_11: values of each
/// small float's codes, the midpoints between neighbours (ties), just above
/// them, and spread bit patterns (NaNs, infinities, overflow, tiny values).
fn small_float_inputs(i: u32) -> [u32; 4] {
    use gcnrun::texture::convert::{f16_to_f32, uf10_to_f32, uf11_to_f32};
    let spread = |k: u32| i.wrapping_add(k).wrapping_mul(0x9e37_79b1);
    let near = |v: f32, half: u32| match i % 4 {
        0 => v.to_bits(),
        1 => v.to_bits() + half,
        2 => v.to_bits() + half + 1,
        _ => spread(1),
    };
    [
        near(f16_to_f32(i as u16), 1 << 12),
        near(uf11_to_f32(i & 0x7ff), 1 << 16),
        spread(2),
        near(uf10_to_f32(i & 0x3ff), 1 << 17),
    ]
}

/// f16 and the packed 11- and 10-bit floats through typed buffer accesses
/// whose format the V# gives at run time (the shared typed conversion of a
/// whole program, `load_component` and `store_component`'s FLOAT arms):
/// every f16 code and every 11- and 10-bit code loads, and the stores of
/// each code's value, the midpoints between codes and spread f32 patterns
/// pack, on the GPU as on the CPU, and the CPU as `texture::convert` says.
#[test]
fn every_small_float_code_converts_through_a_run_time_format_as_on_the_cpu() {
    use common::launches::{data_buffer, zero_buffer};
    use gcnrun::texture::convert::{
        f16_to_f32, f32_to_f16, f32_to_uf10, f32_to_uf11, uf10_to_f32, uf11_to_f32,
    };
    let test = "every_small_float_code_converts_through_a_run_time_format_as_on_the_cpu";
    let Some(g) = common::gpu::gpu(test) else {
        return;
    };
    const LANES: u32 = 65536;
    let words = |f: &dyn Fn(u32) -> u32, n: u32| (0..n).map(f).collect::<Vec<u32>>();
    let (w16, w111110) = (float_word3(2), float_word3(6));
    let mut text = format!(
        r#"arch = "gfx900"
hex = "{SMALL_FLOAT_CODE}"
waves = {waves}

[vgpr]
v0 = {{ u32 = "wave * 64 + lane" }}

[sgpr]
"s[8:11]" = {{ vsharp = "f16s", stride = 2, num_records = {LANES}, word3 = {w16} }}
"s[12:15]" = {{ vsharp = "packed", stride = 4, num_records = {LANES}, word3 = {w111110} }}
"s[16:19]" = {{ vsharp = "out16", stride = 2, num_records = {LANES}, word3 = {w16} }}
"s[20:23]" = {{ vsharp = "out3", stride = 4, num_records = {LANES}, word3 = {w111110} }}
"s[24:27]" = {{ vsharp = "in16", stride = 4, num_records = {LANES} }}
"s[28:31]" = {{ vsharp = "in3", stride = 12, num_records = {LANES} }}
"#,
        waves = LANES / 64,
    );
    let f16s = words(&|k| (2 * k) | (2 * k + 1) << 16, LANES / 2);
    let in3 = words(
        &|k| small_float_inputs(k / 3)[1 + (k % 3) as usize],
        3 * LANES,
    );
    for buffer in [
        data_buffer("f16s", &f16s),
        data_buffer("packed", &words(&packed_float_texel, LANES)),
        data_buffer("in16", &words(&|k| small_float_inputs(k)[0], LANES)),
        data_buffer("in3", &in3),
        zero_buffer("out16", 2 * LANES as usize),
        zero_buffer("out3", 4 * LANES as usize),
    ] {
        text.push_str(&buffer);
    }
    let p: Prepared = common::launches::prepare_text("small_float_sweep", &text);
    let out = run_diff(p, g).unwrap_or_else(|e| panic!("{e:?}"));
    assert_eq!(
        out.report.count,
        0,
        "GPU differs from CPU: first {:?}",
        out.report.mismatches.first()
    );
    // The CPU's values are the conversions' (so that the comparison above
    // cannot pass on values that were never converted).
    let mem = &out.cpu.memory;
    let w0 = &out.cpu.waves[0];
    let base =
        |s: u32| (u64::from(w0.sgpr(s)) | u64::from(w0.sgpr(s + 1) & 0xffff) << 32) - mem.base;
    let (out16, out3) = (base(16) as usize, base(20) as usize);
    let mut bad = Vec::new();
    for (wave, w) in out.cpu.waves.iter().enumerate() {
        for lane in 0..64u32 {
            let i = wave as u32 * 64 + lane;
            let t = packed_float_texel(i);
            let loads = [
                f16_to_f32(i as u16).to_bits(),
                uf11_to_f32(t & 0x7ff).to_bits(),
                uf11_to_f32((t >> 11) & 0x7ff).to_bits(),
                uf10_to_f32(t >> 22).to_bits(),
            ];
            let got: [u32; 4] = std::array::from_fn(|k| w.vgpr(1 + k as u32, lane));
            let x = small_float_inputs(i).map(f32::from_bits);
            let stored16 = u16::from_le_bytes([
                mem.bytes[out16 + 2 * i as usize],
                mem.bytes[out16 + 2 * i as usize + 1],
            ]);
            let at = out3 + 4 * i as usize;
            let stored3 = u32::from_le_bytes(mem.bytes[at..at + 4].try_into().unwrap());
            let want3 = f32_to_uf11(x[1]) | f32_to_uf11(x[2]) << 11 | f32_to_uf10(x[3]) << 22;
            if (got != loads || stored16 != f32_to_f16(x[0]) || stored3 != want3) && bad.len() < 8 {
                bad.push(format!(
                    "lane {i}: loads {got:08x?} want {loads:08x?}; f16 store {stored16:04x} want {:04x}; 10_11_11 store {stored3:08x} want {want3:08x}",
                    f32_to_f16(x[0])
                ));
            }
        }
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}
