//! A16 and G16 samples against LLVM and against their 32-bit twins.
//!
//! - `layouts_match_llvm_mc`: for every sampler opcode of gfx10.3 (and gfx10.1),
//!   every DIM and A16 on and off, llvm-mc-19 accepts an address tuple of exactly
//!   `vaddr::Layout::dwords()` VGPRs and rejects one more ("image address size
//!   does not match dim and a16"): the operand counts of the layout are LLVM's.
//! - `a16_equals_the_32_bit_twins`: every sample, gather4 and get_lod opcode on
//!   every image type, on gfx9 (A16 packs the derivatives too) and gfx10.3
//!   (A16, `_g16`, both), run on the CPU with operands exactly representable
//!   in f16, packed here by LLVM's rule (written out independently of
//!   `vaddr`): the destination VGPRs equal those of the 32-bit instruction.
//!   The hand-computed cases where f16 rounding matters are in
//!   `assets/sample_a16.toml` and `assets/sample_g16.toml`.

mod common;

use common::llvm::LlvmMc;
use gcnrun::gcn::lower::gradients_16;
use gcnrun::gcn::mimg_ops::{flag, BaseKind, MimgOp, OPS};
use gcnrun::launch::run::{prepare_text, run_cpu};
use gcnrun::texture::convert::{f16_to_f32, f32_to_f16};
use gcnrun::texture::descriptor::ImageType;
use gcnrun::texture::sample::vaddr::{Layout, Shape};
use gcnrun::Gen;

/// (image type, manifest type, gfx10 DIM name).
const TYPES: [(ImageType, &str, &str); 6] = [
    (ImageType::D1, "1d", "1D"),
    (ImageType::D2, "2d", "2D"),
    (ImageType::D3, "3d", "3D"),
    (ImageType::Cube, "cube", "CUBE"),
    (ImageType::D1Array, "1d_array", "1D_ARRAY"),
    (ImageType::D2Array, "2d_array", "2D_ARRAY"),
];

fn sampler_ops(gen: Gen) -> impl Iterator<Item = &'static MimgOp> {
    OPS.iter().filter(move |o| {
        matches!(
            o.kind,
            BaseKind::Sample | BaseKind::Gather4 | BaseKind::GetLod
        ) && o.opcode(gen).is_some()
    })
}

/// `vN` or `v[N:M]`.
fn vregs(first: usize, n: usize) -> String {
    if n == 1 {
        format!("v{first}")
    } else {
        format!("v[{first}:{}]", first + n - 1)
    }
}

/// VDATA and DMASK of a test instruction.
fn data(op: &MimgOp) -> (usize, &'static str) {
    match op.kind {
        BaseKind::Gather4 => (4, "0x2"),
        BaseKind::GetLod => (2, "0x3"),
        _ => (4, "0xf"),
    }
}

fn layout(op: &MimgOp, t: ImageType, a16: bool, gen: Gen) -> Layout {
    Layout {
        a16,
        g16: op.gradients() && gradients_16(op.flags, a16, gen),
        ..Layout::new(op, Shape::of(t).unwrap())
    }
}

#[test]
fn layouts_match_llvm_mc() {
    let Some(mc) = LlvmMc::find("layouts_match_llvm_mc") else {
        return;
    };
    for mcpu in ["gfx1030", "gfx1010"] {
        let mut lines = Vec::new();
        let mut cases = Vec::new();
        for op in sampler_ops(Gen::Gfx10) {
            if mcpu == "gfx1010" && op.has(flag::G16) {
                continue; // gfx10.3 opcodes
            }
            for (t, _, dim) in TYPES {
                for a16 in [false, true] {
                    let n = layout(op, t, a16, Gen::Gfx10).dwords();
                    let (vd, dmask) = data(op);
                    // One fewer and one more VGPR must be rejected, except the
                    // 8-VGPR tuple LLVM allows for 5–7 addresses.
                    let mut sizes = vec![(n, true), (n + 1, false)];
                    if (5..=7).contains(&n) {
                        sizes.pop();
                    }
                    if n > 1 {
                        sizes.push((n - 1, false));
                    }
                    for (size, want_ok) in sizes {
                        lines.push(format!(
                            "{} {}, {}, s[0:7], s[8:11] dmask:{dmask} dim:SQ_RSRC_IMG_{dim}{}",
                            op.name,
                            vregs(100, vd),
                            vregs(0, size),
                            if a16 { " a16" } else { "" }
                        ));
                        cases.push(want_ok);
                    }
                }
            }
        }
        let got = mc.assemble(mcpu, &lines);
        let mut bad = Vec::new();
        for ((line, want_ok), r) in lines.iter().zip(&cases).zip(&got) {
            match (want_ok, r) {
                (true, Ok(_)) => {}
                // "invalid operand", "unsupported register size": no machine
                // instruction (or no register class) has a tuple that size.
                (false, Err(e))
                    if e.contains("image address size does not match")
                        || e.contains("invalid operand for instruction")
                        || e.contains("invalid or unsupported register size") => {}
                _ => bad.push(format!("{mcpu}: {line}: {r:?}")),
            }
        }
        assert!(lines.len() > 1000, "{mcpu}: only {} lines", lines.len());
        assert!(
            bad.is_empty(),
            "{} of {}:\n{}",
            bad.len(),
            lines.len(),
            bad.join("\n")
        );
    }
}

/// One lane's operands, all exactly representable in f16 except the
/// reference and the offsets (32-bit under A16 too).
struct Operands {
    offset: u32,
    bias: f32,
    reference: f32,
    ddx: [f32; 3],
    ddy: [f32; 3],
    coords: [f32; 4],
    trailing: f32,
}

fn operands(lane: u32, t: ImageType, op: &MimgOp) -> Operands {
    let q = lane / 4;
    let (kx, ky) = ((lane & 1) as f32, (lane >> 1 & 1) as f32);
    let shape = Shape::of(t).unwrap();
    // Quad origins on a 1/16 grid from −0.25 to 1.1875 (edges and wrapping),
    // steps of 1/64 or 3/64 within the quad: implicit LODs around −2 to 0 on a
    // 16-texel axis.
    let grid = |k: u32| (k % 24) as f32 / 16.0 - 0.25;
    let step = match q % 3 {
        0 => 3.0 / 64.0,
        _ => 1.0 / 64.0,
    };
    let mut coords = [
        grid(q * 5) + kx * step,
        grid(q * 7 + 3) + ky * step,
        grid(q * 11 + 1) + (kx + ky) * step,
        0.0,
    ];
    if shape.cube {
        // Face-local s', t' in [1, 2], face id 8 × cube + face.
        coords[0] = 1.0 + (q % 16) as f32 / 16.0 + kx / 64.0;
        coords[1] = 1.0 + (q * 3 % 16) as f32 / 16.0 + ky / 64.0;
        coords[2] = (q % 6) as f32;
    } else if shape.layered {
        // Slices 0, 1, 2 and a half-way 1.5 (rounds to even: 2).
        coords[shape.axes] = [0.0, 1.0, 2.0, 1.5][(q % 4) as usize];
    }
    let d = |k: u32| [0.0, 1.0 / 16.0, -1.0 / 8.0, 0.25, 1.0 / 32.0, -0.5][(k % 6) as usize];
    let trailing = if op.has(flag::CL) {
        [0.0, 0.5, 1.25, 3.0][(q % 4) as usize]
    } else {
        [-0.5, 0.0, 0.75, 1.5, 2.25, 4.0][(q % 6) as usize]
    };
    Operands {
        offset: (q * 0x0b_05_03) & 0x003f_3f3f,
        bias: [-1.0, -0.25, 0.0, 0.5, 1.75][(q % 5) as usize],
        reference: 0.3 + q as f32 / 37.0,
        ddx: [d(q), d(q + 1), d(q + 2)],
        ddy: [d(q + 3), d(q + 4), d(q + 5)],
        coords,
        trailing,
    }
}

fn half(x: f32) -> u32 {
    let h = f32_to_f16(x);
    assert_eq!(f16_to_f32(h), x, "{x} is not exact in f16");
    u32::from(h)
}

/// Packs f16 values two per dword, low half first, an odd last one alone.
fn pairs(v: &[f32]) -> Vec<u32> {
    v.chunks(2)
        .map(|p| half(p[0]) | p.get(1).map_or(0, |&x| half(x) << 16))
        .collect()
}

/// The address dwords by LLVM's `packImage16bitOpsToDwords`: offset, bias (an
/// f16 alone under A16), z-compare, the d/dh and d/dv groups (each packed
/// under G16), then body and lod/clamp (packed under A16).
fn address(o: &Operands, op: &MimgOp, t: ImageType, a16: bool, g16: bool) -> Vec<u32> {
    let shape = Shape::of(t).unwrap();
    let mut out = Vec::new();
    if op.has(flag::O) {
        out.push(o.offset);
    }
    if op.has(flag::B) {
        out.push(if a16 { half(o.bias) } else { o.bias.to_bits() });
    }
    if op.has(flag::C) {
        out.push(o.reference.to_bits());
    }
    if op.gradients() {
        for g in [&o.ddx, &o.ddy] {
            let g = &g[..shape.axes];
            if g16 {
                out.extend(pairs(g));
            } else {
                out.extend(g.iter().map(|x| x.to_bits()));
            }
        }
    }
    let mut tail: Vec<f32> = o.coords[..shape.body()].to_vec();
    if op.has(flag::L) || op.has(flag::CL) {
        tail.push(o.trailing);
    }
    if a16 {
        out.extend(pairs(&tail));
    } else {
        out.extend(tail.iter().map(|x| x.to_bits()));
    }
    out
}

/// One twin: the instruction, its A16 bit and whether its derivatives are f16.
struct Twin {
    op: &'static MimgOp,
    a16: bool,
    g16: bool,
}

fn twins(op: &'static MimgOp, gen: Gen) -> Vec<Twin> {
    let mut v = vec![Twin {
        op,
        a16: true,
        g16: op.gradients() && gen < Gen::Gfx10,
    }];
    if gen >= Gen::Gfx10 && op.gradients() {
        if let Some(g) = OPS
            .iter()
            .find(|o| o.name == format!("{}_g16", op.name).as_str())
        {
            v.push(Twin {
                op: g,
                a16: false,
                g16: true,
            });
            v.push(Twin {
                op: g,
                a16: true,
                g16: true,
            });
        }
    }
    v
}

fn manifest(arch: &str, hex: &str, t: &str) -> String {
    let (size, extra) = match t {
        "3d" => (8, "depth = 8\n"),
        "1d_array" | "2d_array" => (16, "layers = 3\n"),
        _ => (16, ""),
    };
    let height = if t.starts_with("1d") { 1 } else { size };
    format!(
        "arch = \"{arch}\"\nhex = \"{hex}\"\n\n[sgpr]\n\"s[4:11]\" = {{ image = \"img\" }}\n\"s[12:15]\" = {{ sampler = \"smp\" }}\n\n\
         [[image]]\nname = \"img\"\ntype = \"{t}\"\nwidth = {size}\nheight = {height}\n{extra}mips = \"full\"\nformat = \"8_8_8_8\"\nnum_format = \"unorm\"\ninit = \"noise\"\n\n\
         [[sampler]]\nname = \"smp\"\nfilter = {{ mag = \"linear\", min = \"linear\", mip = \"linear\" }}\naddress = [\"wrap\", \"mirror\", \"clamp_last_texel\"]\ncompare = \"less\"\n"
    )
}

#[test]
fn a16_equals_the_32_bit_twins() {
    let Some(mc) = LlvmMc::find("a16_equals_the_32_bit_twins") else {
        return;
    };
    let mut compared = 0usize;
    let mut distinct = std::collections::HashSet::new();
    for (mcpu, gen) in [("gfx900", Gen::Gfx9), ("gfx1030", Gen::Gfx10)] {
        // Every (op, type) case as lines: the 32-bit instruction, its twins,
        // s_endpgm; one llvm-mc run per generation.
        let mut cases = Vec::new();
        let mut lines = Vec::new();
        // image_gather4h is refused by name (docs/errata.md S15): no twin to run.
        for op in sampler_ops(gen).filter(|o| !o.has(flag::G16) && !o.has(flag::UNDOCUMENTED)) {
            for (t, ty, dim) in TYPES {
                if op.kind == BaseKind::Gather4
                    && !matches!(t, ImageType::D2 | ImageType::D2Array | ImageType::Cube)
                {
                    continue; // gather4 reads a 2D footprint
                }
                let (vd, dmask) = data(op);
                // LLVM's modifier order: dim … a16 … da.
                let suffix = |a16: bool| {
                    let mut s = String::new();
                    if gen >= Gen::Gfx10 {
                        s.push_str(&format!(" dim:SQ_RSRC_IMG_{dim}"));
                    }
                    if a16 {
                        s.push_str(" a16");
                    }
                    if gen < Gen::Gfx10
                        && matches!(t, ImageType::Cube | ImageType::D1Array | ImageType::D2Array)
                    {
                        s.push_str(" da");
                    }
                    s
                };
                let inst = |op: &MimgOp, vdata: usize, vaddr: usize, n: usize, a16: bool| {
                    format!(
                        "{} {}, {}, s[4:11], s[12:15] dmask:{dmask}{}",
                        op.name,
                        vregs(vdata, vd),
                        vregs(vaddr, n),
                        suffix(a16)
                    )
                };
                let tw = twins(op, gen);
                let first = lines.len();
                let n32 = layout(op, t, false, gen).dwords();
                lines.push(inst(op, 64, 0, n32, false));
                for (k, w) in tw.iter().enumerate() {
                    let n = layout(w.op, t, w.a16, gen).dwords();
                    lines.push(inst(w.op, 68 + 4 * k, 16 * (k + 1), n, w.a16));
                }
                cases.push((op, t, ty, tw, first));
            }
        }
        let enc = mc.assemble(mcpu, &lines);
        for (op, t, ty, tw, first) in cases {
            let mut hex = String::new();
            for (k, r) in enc[first..=first + tw.len()].iter().enumerate() {
                let bytes = r
                    .as_ref()
                    .unwrap_or_else(|e| panic!("{}: {e}", lines[first + k]));
                hex.push_str(&common::llvm::hex(bytes));
            }
            hex.push_str("000081bf"); // s_endpgm
            let text = manifest(mcpu, &hex, ty);
            let mut p = prepare_text(&text, "twins.toml", None)
                .unwrap_or_else(|e| panic!("{} {ty}: {e}", op.name));
            let w = &mut p.waves[0];
            for lane in 0..w.wave_size {
                let o = operands(lane, t, op);
                let mut set = |base: usize, words: Vec<u32>| {
                    for (i, x) in words.into_iter().enumerate() {
                        w.set_vgpr((base + i) as u32, lane, x);
                    }
                };
                set(0, address(&o, op, t, false, false));
                for (k, tw) in tw.iter().enumerate() {
                    set(16 * (k + 1), address(&o, tw.op, t, tw.a16, tw.g16));
                }
            }
            let out = run_cpu(p).unwrap_or_else(|e| panic!("{} {ty}: {e}", op.name));
            let w = &out.waves[0];
            let (vd, _) = data(op);
            for lane in 0..w.wave_size {
                let regs = |base: u32| -> Vec<u32> {
                    (0..vd as u32).map(|i| w.vgpr(base + i, lane)).collect()
                };
                let want = regs(64);
                distinct.insert(want.clone());
                for (k, tw) in tw.iter().enumerate() {
                    assert_eq!(
                        regs(68 + 4 * k as u32),
                        want,
                        "{mcpu} {} on {ty}, lane {lane}: {} a16={} g16={}",
                        op.name,
                        tw.op.name,
                        tw.a16,
                        tw.g16
                    );
                    compared += 1;
                }
            }
        }
    }
    // Not vacuous: many comparisons, of results that vary.
    assert!(compared > 40_000, "{compared} comparisons");
    assert!(distinct.len() > 1000, "{} distinct results", distinct.len());
}

/// LWE on a T# whose MIN_LOD_WARN is nonzero (a partially resident texture that
/// asks for LOD warnings) is refused by name on the CPU and by the translator;
/// the same T# without LWE samples, and LWE with MIN_LOD_WARN 0 writes status 0.
#[test]
fn lwe_with_lod_warnings_is_refused() {
    let Some(mc) = LlvmMc::find("lwe_with_lod_warnings_is_refused") else {
        return;
    };
    let lines = [
        "image_sample_lz v17, v0, s[4:11], s[12:15] dmask:0x1 a16 lwe".to_string(),
        "image_sample_lz v[17:18], v0, s[4:11], s[12:15] dmask:0x1 a16 tfe".to_string(),
    ];
    let enc = mc.assemble("gfx900", &lines);
    for (line, r) in lines.iter().zip(enc) {
        let hex = format!("{}000081bf", common::llvm::hex(&r.unwrap()));
        let text = manifest("gfx900", &hex, "2d");
        for warn in [0u32, 0x100] {
            let mut p = prepare_text(&text, "lwe.toml", None).unwrap();
            // T# dword 6 bits 11:0: MIN_LOD_WARN (gfx9), 1.0 in 4.8 fixed point.
            let w6 = p.waves[0].sgpr(4 + 6);
            p.waves[0].set_sgpr(4 + 6, w6 & !0xfff | warn);
            p.waves[0].set_vgpr(18, 0, 0xdead);
            let gpu = gcnrun::gpu::translate::translate(&p.prog, &p.waves, &p.memory);
            let cpu = run_cpu(p);
            if warn != 0 && line.contains("lwe") {
                let Err(e) = cpu else {
                    panic!("{line}: the CPU must refuse")
                };
                assert!(e.to_string().contains("MIN_LOD_WARN = 0x100"), "{e}");
                let Err(e) = gpu else {
                    panic!("{line}: the translator must refuse")
                };
                assert!(e.to_string().contains("MIN_LOD_WARN = 0x100"), "{e}");
            } else {
                let out = cpu.unwrap_or_else(|e| panic!("{line}, warn {warn}: {e}"));
                assert_eq!(out.waves[0].vgpr(18, 0), 0, "{line}: status dword");
                assert!(gpu.is_ok(), "{line}: {:?}", gpu.err());
            }
        }
    }
}
