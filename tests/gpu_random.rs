//! Randomized differential test of the GPU backend: random programs of image
//! loads (_mip, _pck, _pck_sgn, DMASK, D16, TFE, LWE, A16, NSA), stores (D16
//! among them), 32- and 64-bit atomics (with and without a returned value),
//! get_resinfo, vector moves and EXEC changes, over random image types, sizes,
//! mip chains, views (MIN_LOD, BASE_LEVEL..LAST_LEVEL) and formats (BCn for
//! reads) and random (often out of bounds) coordinates,
//! assembled by llvm-mc-19 and run on CPU and GPU. Zero differences are allowed
//! beyond the diff policy of docs/gpu.md (contended atomics are checked against
//! a serial order).
//!
//! Program `i` targets [`TARGETS`]`[i % 5]`: gfx900 (wave64), gfx1030 and
//! gfx1100, each in wave32 and wave64. Every target gets its generation's
//! assembly syntax (RDNA: a `dim:` operand matching the image, address counts
//! the DIM fixes, NSA address lists, `tfe d16` in that order, `dlc`) and only
//! formats its T# can encode (gfx10 and gfx11 have one combined FORMAT table
//! each: e.g. no 32-bit UNORM; `manifest` then places the T# in the gfx10 or
//! gfx11 layout). NSA is RDNA-only (gfx9 has none). Every atomic of [`ATOMICS32`] and [`ATOMICS64`] exists on
//! all three (llvm-mc-19 accepts each on gfx1100; gfx11 dropped only the float
//! ones, which these lists do not hold).
//!
//! Seed and count: `GCNRUN_SEED`, `GCNRUN_GPU_PROGRAMS` (defaults 1 and 50).

mod common;

use common::launches::{random_view, NUM_FORMATS};
use common::llvm::LlvmMc;
use gcnrun::launch::run::{prepare_text, run_diff};
use gcnrun::texture::format::{
    check, combined_code, store_texel, Gfx10Run, Layout, DATA_FORMATS, GFX10_FORMATS, GFX11_FORMATS,
};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

const ATOMICS32: &[&str] = &[
    "swap", "add", "sub", "smin", "umin", "smax", "umax", "and", "or", "xor", "inc", "dec",
];
const ATOMICS64: &[&str] = &["add", "sub", "umax", "smin", "xor", "swap", "inc"];

/// One generation and wave size the random programs are written for.
#[derive(Clone, Copy, Debug)]
struct Target {
    /// llvm-mc's `-mcpu` and the manifest's `arch`.
    mcpu: &'static str,
    wave_size: u32,
    /// The combined FORMAT table of the T# (gfx10+); `None`: gfx9's separate
    /// data and number formats.
    formats: Option<&'static [Gfx10Run]>,
}

impl Target {
    fn rdna(self) -> bool {
        self.formats.is_some()
    }
}

const TARGETS: [Target; 5] = [
    Target {
        mcpu: "gfx900",
        wave_size: 64,
        formats: None,
    },
    Target {
        mcpu: "gfx1030",
        wave_size: 32,
        formats: Some(GFX10_FORMATS),
    },
    Target {
        mcpu: "gfx1100",
        wave_size: 32,
        formats: Some(GFX11_FORMATS),
    },
    Target {
        mcpu: "gfx1030",
        wave_size: 64,
        formats: Some(GFX10_FORMATS),
    },
    Target {
        mcpu: "gfx1100",
        wave_size: 64,
        formats: Some(GFX11_FORMATS),
    },
];

/// A random (data format, number format) pair the target's T# can encode,
/// storable when asked (block-compressed formats only when not: they are
/// read-only, and drawn a tenth as often as the others).
fn format(rng: &mut ChaCha8Rng, t: Target, storable: bool) -> (&'static str, &'static str, bool) {
    loop {
        let df = &DATA_FORMATS[rng.gen_range(0..DATA_FORMATS.len())];
        let (nf, nf_name) = NUM_FORMATS[rng.gen_range(0..NUM_FORMATS.len())];
        if df.layout == Layout::Block && (storable || rng.gen_bool(0.9)) {
            continue;
        }
        if check(df, nf).is_err() {
            continue;
        }
        // gfx10/gfx11: a pair without a FORMAT code cannot be placed (the
        // manifest refuses it by name); draw another instead.
        if t.formats
            .is_some_and(|table| combined_code(table, df.code, nf).is_none())
        {
            continue;
        }
        let can_store = store_texel(df, nf, [0; 4]).is_some();
        if storable && !can_store {
            continue;
        }
        return (df.name, nf_name, df.layout == Layout::Plain);
    }
}

/// `v[a:b]`, or `va` for one register.
fn regs(first: u32, count: u32) -> String {
    if count == 1 {
        format!("v{first}")
    } else {
        format!("v[{first}:{}]", first + count - 1)
    }
}

/// The address operand of an RDNA instruction whose address components are
/// `comps` (register numbers in component order, one per component; with
/// `a16`, two components per register from the packed copies in v48/v49):
/// the contiguous tuple from the first register, or (at random, two or more
/// registers) an NSA list naming each component's own register.
fn rdna_address(rng: &mut ChaCha8Rng, comps: &[u32], a16: bool) -> String {
    let n = if a16 {
        comps.len().div_ceil(2)
    } else {
        comps.len()
    } as u32;
    if n >= 2 && rng.gen_bool(0.5) {
        let list: Vec<String> = if a16 {
            (0..n).map(|k| format!("v{}", 48 + k)).collect()
        } else {
            comps.iter().map(|r| format!("v{r}")).collect()
        };
        format!("[{}]", list.join(", "))
    } else if a16 {
        regs(48, n)
    } else {
        regs(comps[0], n)
    }
}

/// One random launch for `t`: (manifest body without code, assembly lines).
fn program(rng: &mut ChaCha8Rng, t: Target, waves: u32) -> (String, Vec<String>) {
    // Image "a": any readable format and type, small, some mips.
    let types = ["1d", "2d", "3d", "1d_array", "2d_array", "cube"];
    let ty = types[rng.gen_range(0..types.len())];
    let (a_df, a_nf, a_plain) = format(rng, t, false);
    let w = rng.gen_range(1..=9u32);
    let h = if ty == "cube" {
        w
    } else {
        rng.gen_range(1..=9u32)
    };
    let depth = rng.gen_range(1..=4u32);
    // At most the full chain of the largest dimension (a 1-wide 1D image has
    // one level; the manifest refuses more).
    let largest = match ty {
        "1d" | "1d_array" => w,
        "3d" => w.max(h).max(depth),
        _ => w.max(h),
    };
    let mips = rng.gen_range(1..=3u32).min(largest.ilog2() + 1);
    let extra = match ty {
        "3d" => format!("height = {h}\ndepth = {depth}\n"),
        "1d_array" => format!("layers = {}\n", rng.gen_range(1..=3)),
        "2d_array" => format!("height = {h}\nlayers = {}\n", rng.gen_range(1..=3)),
        "cube" => format!("height = {h}\nlayers = 6\n"),
        "2d" => format!("height = {h}\n"),
        _ => String::new(),
    };
    // RDNA: the DIM operand names the image's type, and fixes how many address
    // components there are (the coordinates of the type; _mip adds the level).
    let (dim, coords) = match ty {
        "1d" => ("1D", 1),
        "2d" => ("2D", 2),
        "3d" => ("3D", 3),
        "1d_array" => ("1D_ARRAY", 2),
        "2d_array" => ("2D_ARRAY", 3),
        _ => ("CUBE", 3),
    };
    let (d_df, d_nf, _) = format(rng, t, true);
    let mut body = String::from(
        "[sgpr]\n\"s[4:11]\" = { image = \"a\" }\n\"s[12:19]\" = { image = \"dst\" }\n\"s[20:27]\" = { image = \"cnt\" }\n\"s[28:35]\" = { image = \"cnt64\" }\n\n[vgpr]\n",
    );
    // Coordinates: hashes of lane and wave a little past the image (so some
    // lanes are out of bounds), levels 0..3. v48 and v49 hold the same values
    // packed in 16-bit halves, the A16 form's (v0, v1) and (v2, v3).
    let mut coord = Vec::new();
    for (reg, range) in [(0, w + 2), (1, h + 2), (2, 8), (3, 4)] {
        let (k, j) = (rng.gen_range(1..1000u32), rng.gen_range(1..1000u32));
        let e = format!(
            "(lane * {k} + wave * {j} + {}) % {range}",
            rng.gen_range(0..100)
        );
        body.push_str(&format!("v{reg} = {{ u32 = \"{e}\" }}\n"));
        coord.push(e);
    }
    body.push_str(&format!(
        "v48 = {{ u32 = \"{} + 65536 * ({})\" }}\nv49 = {{ u32 = \"{} + 65536 * ({})\" }}\n",
        coord[0], coord[1], coord[2], coord[3]
    ));
    body.push_str("v4 = { u32 = \"lane\" }\nv5 = { u32 = \"wave\" }\n");
    body.push_str(&format!(
        "v6 = {{ u32 = \"(lane * {} + wave) % 8\" }}\nv7 = {{ u32 = \"(lane + wave) % 4\" }}\n",
        rng.gen_range(1..50)
    ));
    for reg in 8..16 {
        let (k, j) = (rng.gen::<u32>() | 1, rng.gen::<u32>());
        if rng.gen_bool(0.5) {
            body.push_str(&format!(
                "v{reg} = {{ u32 = \"lane * {k} + wave * {j}\" }}\n"
            ));
        } else {
            body.push_str(&format!(
                "v{reg} = {{ f32 = \"(lane - 20) / {}.0\" }}\n",
                rng.gen_range(3..300)
            ));
        }
    }
    body.push_str(&format!(
        "\n[[image]]\nname = \"a\"\ntype = \"{ty}\"\nwidth = {w}\n{extra}mips = {mips}\nformat = \"{a_df}\"\nnum_format = \"{a_nf}\"\ninit = \"noise\"\n\n\
         [[image]]\nname = \"dst\"\ntype = \"2d\"\nwidth = 64\nheight = {waves}\nformat = \"{d_df}\"\nnum_format = \"{d_nf}\"\ninit = \"noise\"\n\n\
         [[image]]\nname = \"cnt\"\ntype = \"1d\"\nwidth = 8\nformat = \"32\"\nnum_format = \"uint\"\ninit = \"noise\"\n\n\
         [[image]]\nname = \"cnt64\"\ntype = \"1d\"\nwidth = 8\nformat = \"32_32\"\nnum_format = \"uint\"\ninit = \"noise\"\n"
    ));
    // RDNA operand suffixes: the DIM of an image, and random cache bits (no
    // effect on results; they vary the encoding). gfx9 spells neither.
    let dim_of = |d: &str| {
        if t.rdna() {
            format!(" dim:SQ_RSRC_IMG_{d}")
        } else {
            String::new()
        }
    };
    let cache = |rng: &mut ChaCha8Rng| {
        let mut s = String::new();
        if rng.gen_bool(0.15) {
            s.push_str(" glc");
        }
        if rng.gen_bool(0.15) {
            s.push_str(" slc");
        }
        if t.rdna() && rng.gen_bool(0.15) {
            s.push_str(" dlc");
        }
        s
    };
    let mut asm = Vec::new();
    let n = rng.gen_range(4..12);
    for _ in 0..n {
        let dst = rng.gen_range(16..40u32);
        let line = match rng.gen_range(0..9) {
            0..=2 => {
                let dmask = rng.gen_range(0..16u32);
                let comps = dmask.count_ones().max(1);
                let d16 = rng.gen_bool(0.25);
                // llvm-mc takes `d16` with `tfe` only after it (`tfe d16`).
                let status = rng.gen_bool(0.3);
                let data = if d16 { comps.div_ceil(2) } else { comps } + u32::from(status);
                let op = match rng.gen_range(0..4) {
                    0 => "image_load_mip",
                    1 if a_plain && !d16 => "image_load_pck",
                    2 if a_plain && !d16 => "image_load_pck_sgn",
                    _ => "image_load",
                };
                // lwe without tfe: llvm-mc rejects the wider register (errata
                // S6); use tfe there.
                let tfe = if !status {
                    ""
                } else if rng.gen_bool(0.5) {
                    " tfe"
                } else {
                    " tfe lwe"
                };
                let d16s = if d16 { " d16" } else { "" };
                let r = regs(dst, data);
                let cache = cache(rng);
                let a16 = rng.gen_bool(0.2);
                let a16s = if a16 { " a16" } else { "" };
                if t.rdna() {
                    // Component registers: x v0, y v1, slice/face/z v2, level v3.
                    let mut c: Vec<u32> = (0..coords).collect();
                    if ty == "1d_array" {
                        c[1] = 2;
                    }
                    if op == "image_load_mip" {
                        c.push(3);
                    }
                    let addr = rdna_address(rng, &c, a16);
                    format!(
                        "{op} {r}, {addr}, s[4:11] dmask:{dmask:#x}{} unorm{cache}{a16s}{tfe}{d16s}",
                        dim_of(dim)
                    )
                } else {
                    // gfx9: four address registers (the instruction does not
                    // say how many it reads), A16: the packed pairs v48, v49.
                    let addr = if a16 { "v[48:49]" } else { "v[0:3]" };
                    format!(
                        "{op} {r}, {addr}, s[4:11] dmask:{dmask:#x} unorm{cache}{a16s}{tfe}{d16s}"
                    )
                }
            }
            3 | 4 => {
                let dmask = if rng.gen_bool(0.5) {
                    0xf
                } else {
                    [1u32, 3, 5, 7, 9, 15][rng.gen_range(0..6)]
                };
                let d16 = rng.gen_bool(0.25);
                let comps = dmask.count_ones();
                let data = if d16 { comps.div_ceil(2) } else { comps };
                let d16s = if d16 { " d16" } else { "" };
                let addr = if t.rdna() && rng.gen_bool(0.5) {
                    "[v4, v5]"
                } else {
                    "v[4:5]"
                };
                format!(
                    "image_store {}, {addr}, s[12:19] dmask:{dmask:#x}{} unorm{}{d16s}",
                    regs(8, data),
                    dim_of("2D"),
                    cache(rng)
                )
            }
            5 => {
                let op = ATOMICS32[rng.gen_range(0..ATOMICS32.len())];
                let src = rng.gen_range(8..16);
                // Without glc the atomic returns nothing: v{dst} keeps the source.
                let glc = if rng.gen_bool(0.8) { " glc" } else { "" };
                format!(
                    "v_mov_b32 v{dst}, v{src}\n  image_atomic_{op} v{dst}, v6, s[20:27] dmask:0x1{} unorm{glc}",
                    dim_of("1D")
                )
            }
            6 => {
                let op = ATOMICS64[rng.gen_range(0..ATOMICS64.len())];
                let src = rng.gen_range(8..15);
                let d = dst & !1;
                let glc = if rng.gen_bool(0.8) { " glc" } else { "" };
                format!(
                    "v_mov_b32 v{d}, v{src}\n  v_mov_b32 v{}, v{}\n  image_atomic_{op} v[{d}:{}], v6, s[28:35] dmask:0x3{} unorm{glc}",
                    d + 1,
                    src + 1,
                    d + 1,
                    dim_of("1D")
                )
            }
            7 => {
                let dmask = rng.gen_range(1..16u32);
                let r = regs(dst, dmask.count_ones());
                format!(
                    "image_get_resinfo {r}, v7, s[4:11] dmask:{dmask:#x}{} unorm",
                    dim_of(dim)
                )
            }
            _ => {
                if rng.gen_bool(0.5) {
                    // The upper half of EXEC exists in wave64 only.
                    let half = if t.wave_size == 64 && rng.gen_bool(0.3) {
                        "exec_hi"
                    } else {
                        "exec_lo"
                    };
                    format!("s_mov_b32 {half}, {:#x}", rng.gen::<u32>() | 1)
                } else {
                    let src = rng.gen_range(0..16);
                    let reg = [dst, 0, 1, 2, 3][rng.gen_range(0..5)];
                    format!("v_mov_b32 v{reg}, v{src}")
                }
            }
        };
        asm.push(line);
    }
    asm.push("s_endpgm".into());
    (body, asm)
}

#[test]
fn random_programs_equal_the_cpu() {
    let test = "random_programs_equal_the_cpu";
    let Some(mc) = LlvmMc::find(test) else { return };
    let Some(gpu) = common::gpu::gpu(test) else {
        return;
    };
    let seed: u64 = common::env_number("GCNRUN_SEED", 1);
    let count: usize = common::env_number("GCNRUN_GPU_PROGRAMS", 50);
    let start = std::time::Instant::now();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut bad = Vec::new();
    let (mut instructions, mut contended) = (0, 0);
    let mut per_target = [0usize; TARGETS.len()];
    for i in 0..count {
        let t = TARGETS[i % TARGETS.len()];
        per_target[i % TARGETS.len()] += 1;
        let waves = rng.gen_range(1..=3u32);
        let (body, asm) = program(&mut rng, t, waves);
        let lines: Vec<String> = asm
            .iter()
            .flat_map(|l| l.lines().map(|x| x.trim().to_string()))
            .collect();
        let source = lines.join("\n  ");
        let mut bytes = Vec::new();
        for (line, r) in lines.iter().zip(mc.assemble(t.mcpu, &lines)) {
            match r {
                Ok(b) => bytes.extend(b),
                Err(e) => panic!("program {i} ({}): llvm-mc-19 rejects `{line}`: {e}", t.mcpu),
            }
        }
        instructions += lines.len();
        let hex: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
        let text = format!(
            "arch = \"{}\"\nwave_size = {}\nhex = \"{hex}\"\nwaves = {waves}\n\n{body}",
            t.mcpu, t.wave_size
        );
        let mut p = prepare_text(&text, &format!("random program {i}"), None)
            .unwrap_or_else(|e| panic!("program {i}: {e}\n{text}"));
        let view = random_view(&mut rng, 1.0 / 3.0, &p.waves[0].sgprs()[4..12], p.arch.gen);
        for w in &mut p.waves {
            for (k, &x) in view.iter().enumerate() {
                w.set_sgpr(4 + k as u32, x);
            }
        }
        let what = format!("program {i} ({} wave{}, seed {seed})", t.mcpu, t.wave_size);
        match run_diff(p, gpu) {
            Ok(d) => {
                contended += d.report.atomic_texels;
                if d.report.count > 0 {
                    bad.push(format!(
                        "{what}: {} difference(s), first {:?}\n  {source}\n{text}",
                        d.report.count,
                        d.report.mismatches.first()
                    ));
                }
            }
            // The CPU refusing a random combination (e.g. a _pck load of a
            // packed format) is not what this test is about; the GPU must then
            // refuse it too, which run_diff's CPU-first order already shows.
            Err(gcnrun::launch::run::GpuRunError::Input(e)) if e.to_string().contains("wave") => {
                println!("{what}: the CPU refuses it: {e}");
            }
            Err(e) => bad.push(format!("{what}: {e:?}\n  {source}\n{text}")),
        }
    }
    let split: Vec<String> = TARGETS
        .iter()
        .zip(per_target)
        .map(|(t, n)| format!("{} wave{}: {n}", t.mcpu, t.wave_size))
        .collect();
    println!(
        "{count} random programs ({}), {instructions} instructions, {contended} contended texels checked by replay (seed {seed}), {:.1} s",
        split.join(", "),
        start.elapsed().as_secs_f64()
    );
    assert!(bad.is_empty(), "{}", bad.join("\n\n"));
}
