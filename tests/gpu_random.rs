//! Randomized differential test of the GPU backend: random programs of image
//! loads (every suffix gfx9 has: _mip, _pck, _pck_sgn, DMASK, D16, TFE, LWE),
//! stores, 32- and 64-bit atomics, get_resinfo, vector moves and EXEC changes,
//! over random image types, sizes, mip chains and formats and random (often out
//! of bounds) coordinates, assembled by llvm-mc-19 and run on CPU and GPU. Zero
//! differences are allowed beyond the diff policy of docs/gpu.md (contended
//! atomics are checked against a serial order).
//!
//! Seed and count: `GCNRUN_SEED`, `GCNRUN_GPU_PROGRAMS` (defaults 1 and 24).

mod common;

use common::launches::NUM_FORMATS;
use common::llvm::LlvmMc;
use gcnrun::launch::run::{prepare_text, run_diff};
use gcnrun::texture::format::{check, store_texel, Layout, DATA_FORMATS};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

const ATOMICS32: &[&str] = &[
    "swap", "add", "sub", "smin", "umin", "smax", "umax", "and", "or", "xor", "inc", "dec",
];
const ATOMICS64: &[&str] = &["add", "sub", "umax", "smin", "xor", "swap", "inc"];

/// A random (data format, number format) pair, storable when asked.
fn format(rng: &mut ChaCha8Rng, storable: bool) -> (&'static str, &'static str, bool) {
    loop {
        let df = &DATA_FORMATS[rng.gen_range(0..DATA_FORMATS.len())];
        let (nf, nf_name) = NUM_FORMATS[rng.gen_range(0..NUM_FORMATS.len())];
        if df.layout == Layout::Block || check(df, nf).is_err() {
            continue;
        }
        let can_store = store_texel(df, nf, [0; 4]).is_some();
        if storable && !can_store {
            continue;
        }
        return (df.name, nf_name, df.layout == Layout::Plain);
    }
}

/// One random launch: (manifest body without code, assembly lines).
fn program(rng: &mut ChaCha8Rng, waves: u32) -> (String, Vec<String>) {
    // Image "a": any readable format and type, small, some mips.
    let types = ["1d", "2d", "3d", "1d_array", "2d_array", "cube"];
    let ty = types[rng.gen_range(0..types.len())];
    let (a_df, a_nf, a_plain) = format(rng, false);
    let w = rng.gen_range(1..=9u32);
    let h = if ty == "cube" {
        w
    } else {
        rng.gen_range(1..=9u32)
    };
    let mips = rng.gen_range(1..=3u32);
    let extra = match ty {
        "3d" => format!("height = {h}\ndepth = {}\n", rng.gen_range(1..=4)),
        "1d_array" => format!("layers = {}\n", rng.gen_range(1..=3)),
        "2d_array" => format!("height = {h}\nlayers = {}\n", rng.gen_range(1..=3)),
        "cube" => format!("height = {h}\nlayers = 6\n"),
        "2d" => format!("height = {h}\n"),
        _ => String::new(),
    };
    let (d_df, d_nf, _) = format(rng, true);
    let mut body = String::from(
        "[sgpr]\n\"s[4:11]\" = { image = \"a\" }\n\"s[12:19]\" = { image = \"dst\" }\n\"s[20:27]\" = { image = \"cnt\" }\n\"s[28:35]\" = { image = \"cnt64\" }\n\n[vgpr]\n",
    );
    // Coordinates: hashes of lane and wave a little past the image (so some
    // lanes are out of bounds), levels 0..3.
    for (reg, range) in [(0, w + 2), (1, h + 2), (2, 8), (3, 4)] {
        let (k, j) = (rng.gen_range(1..1000u32), rng.gen_range(1..1000u32));
        body.push_str(&format!(
            "v{reg} = {{ u32 = \"(lane * {k} + wave * {j} + {}) % {range}\" }}\n",
            rng.gen_range(0..100)
        ));
    }
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
    let mut asm = Vec::new();
    let n = rng.gen_range(4..12);
    for _ in 0..n {
        let dst = rng.gen_range(16..40u32);
        let line = match rng.gen_range(0..9) {
            0..=2 => {
                let dmask = rng.gen_range(0..16u32);
                let comps = dmask.count_ones().max(1);
                let d16 = rng.gen_bool(0.25);
                let status = !d16 && rng.gen_bool(0.3);
                let data = if d16 { comps.div_ceil(2) } else { comps } + u32::from(status);
                let op = match rng.gen_range(0..4) {
                    0 => "image_load_mip",
                    1 if a_plain && !d16 => "image_load_pck",
                    2 if a_plain && !d16 => "image_load_pck_sgn",
                    _ => "image_load",
                };
                let tfe = if status {
                    if rng.gen_bool(0.5) {
                        " tfe"
                    } else {
                        " lwe"
                    }
                } else {
                    ""
                };
                let d16s = if d16 { " d16" } else { "" };
                let r = if data == 1 {
                    format!("v{dst}")
                } else {
                    format!("v[{dst}:{}]", dst + data - 1)
                };
                // lwe without tfe: llvm-mc rejects the wider register (errata S6); use tfe there.
                let tfe = if tfe == " lwe" { " tfe lwe" } else { tfe };
                format!("{op} {r}, v[0:3], s[4:11] dmask:{dmask:#x} unorm{d16s}{tfe}")
            }
            3 => "image_store v[8:11], v[4:5], s[12:19] dmask:0xf unorm".to_string(),
            4 => {
                let dmask = [1u32, 3, 5, 7, 9, 15][rng.gen_range(0..6)];
                let comps = dmask.count_ones();
                format!(
                    "image_store v[{}:{}], v[4:5], s[12:19] dmask:{dmask:#x} unorm",
                    8,
                    7 + comps
                )
                .replace("v[8:8]", "v8")
            }
            5 => {
                let op = ATOMICS32[rng.gen_range(0..ATOMICS32.len())];
                let src = rng.gen_range(8..16);
                format!(
                    "v_mov_b32 v{dst}, v{src}\n  image_atomic_{op} v{dst}, v6, s[20:27] dmask:0x1 unorm glc"
                )
            }
            6 => {
                let op = ATOMICS64[rng.gen_range(0..ATOMICS64.len())];
                let src = rng.gen_range(8..15);
                let d = dst & !1;
                format!(
                    "v_mov_b32 v{d}, v{src}\n  v_mov_b32 v{}, v{}\n  image_atomic_{op} v[{d}:{}], v6, s[28:35] dmask:0x3 unorm glc",
                    d + 1,
                    src + 1,
                    d + 1
                )
            }
            7 => {
                let dmask = rng.gen_range(1..16u32);
                let c = dmask.count_ones();
                let r = if c == 1 {
                    format!("v{dst}")
                } else {
                    format!("v[{dst}:{}]", dst + c - 1)
                };
                format!("image_get_resinfo {r}, v7, s[4:11] dmask:{dmask:#x} unorm")
            }
            _ => {
                if rng.gen_bool(0.5) {
                    format!("s_mov_b32 exec_lo, {:#x}", rng.gen::<u32>() | 1)
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
    let ci = std::env::var("CI").is_ok_and(|v| v == "true");
    let gpu = match gcnrun::gpu::device::open(std::env::var("GCNRUN_ADAPTER").ok().as_deref()) {
        Ok(g) => g,
        Err(e) if ci => panic!("{test}: no GPU adapter under CI=true: {e}"),
        Err(e) => {
            println!("SKIPPED {test}: {e}");
            return;
        }
    };
    let seed: u64 = common::env_number("GCNRUN_SEED", 1);
    let count: usize = common::env_number("GCNRUN_GPU_PROGRAMS", 24);
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut bad = Vec::new();
    let (mut instructions, mut contended) = (0, 0);
    for i in 0..count {
        let waves = rng.gen_range(1..=3u32);
        let (body, asm) = program(&mut rng, waves);
        let lines: Vec<String> = asm
            .iter()
            .flat_map(|l| l.lines().map(|x| x.trim().to_string()))
            .collect();
        let source = lines.join("\n  ");
        let mut bytes = Vec::new();
        for (line, r) in lines.iter().zip(mc.assemble("gfx900", &lines)) {
            match r {
                Ok(b) => bytes.extend(b),
                Err(e) => panic!("program {i}: llvm-mc-19 rejects `{line}`: {e}"),
            }
        }
        instructions += lines.len();
        let hex: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
        let text = format!("arch = \"gfx900\"\nhex = \"{hex}\"\nwaves = {waves}\n\n{body}");
        let p = prepare_text(&text, &format!("random program {i}"), None)
            .unwrap_or_else(|e| panic!("program {i}: {e}\n{text}"));
        match run_diff(p, &gpu) {
            Ok(d) => {
                contended += d.report.atomic_texels;
                if d.report.count > 0 {
                    bad.push(format!(
                        "program {i} (seed {seed}): {} difference(s), first {:?}\n  {source}\n{body}",
                        d.report.count,
                        d.report.mismatches.first()
                    ));
                }
            }
            // The CPU refusing a random combination (e.g. a _pck load of a
            // packed format) is not what this test is about; the GPU must then
            // refuse it too, which run_diff's CPU-first order already shows.
            Err(gcnrun::launch::run::GpuRunError::Input(e)) if e.to_string().contains("wave") => {
                println!("program {i}: the CPU refuses it: {e}");
            }
            Err(e) => bad.push(format!("program {i} (seed {seed}): {e:?}\n  {source}")),
        }
    }
    println!(
        "{count} random programs, {instructions} instructions, {contended} contended texels checked by replay (seed {seed})"
    );
    assert!(bad.is_empty(), "{}", bad.join("\n\n"));
}
