//! The CPU interpreter core on kernels assembled by llvm-mc-19: moves, EXEC,
//! VINTRP (newprimmask, LDS layout, P1/P2/MOV) with hand-computed results.

mod common;

use common::llvm::LlvmMc;
use gcnrun::cpu;
use gcnrun::machine::WaveState;
use gcnrun::{gcn, ir, Arch};

/// Assembles `lines` for `mcpu` and lowers them; `None` when llvm-mc-19 is absent.
fn program(test: &str, mcpu: &str, lines: &[&str]) -> Option<ir::Program> {
    let mc = LlvmMc::find(test)?;
    let lines: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
    let mut bytes = Vec::new();
    for (l, r) in lines.iter().zip(mc.assemble(mcpu, &lines)) {
        bytes.extend(r.unwrap_or_else(|e| panic!("`{l}`: {e}")));
    }
    let arch = Arch::parse(mcpu).unwrap();
    let insts = gcn::decode_stream(&bytes, &arch).unwrap();
    Some(gcn::lower::lower(&insts, &arch).expect("lowers"))
}

fn put_f32(lds: &mut [u8], dword: usize, v: f32) {
    lds[4 * dword..4 * dword + 4].copy_from_slice(&v.to_le_bytes());
}

const KERNEL: &[&str] = &[
    // newprimmask = 1 (M0[16]): quad 0 is primitive 0, quads 1.. are primitive 1;
    // LDS offset 0. Two primitives → 12 dwords each per attribute.
    "s_mov_b32 m0, 0x10000",
    // Only lanes 0-15 run.
    "s_mov_b32 exec_lo, 0xffff",
    "s_mov_b32 exec_hi, 0",
    "v_mov_b32 v1, 0.5",
    "v_mov_b32 v2, 0x3e800000",
    "v_interp_p1_f32 v3, v1, attr0.x",
    "v_interp_p2_f32 v3, v2, attr0.x",
    "v_interp_mov_f32 v4, p20, attr0.x",
    "s_movk_i32 s5, 0x8000",
    "s_waitcnt vmcnt(0)",
    "s_endpgm",
    // Never reached.
    "v_mov_b32 v1, 0",
];

fn initial(wave: u32) -> WaveState {
    let mut w = WaveState::new(wave, 64, 64 * 1024);
    // Primitive 0: P0.x = 1, P10.x = 2, P20.x = 4 (dwords 0, 1, 8).
    // Primitive 1 (12 dwords on): P0.x = 10, P10.x = 20, P20.x = 40.
    for (d, v) in [
        (0, 1.0),
        (1, 2.0),
        (8, 4.0),
        (12, 10.0),
        (13, 20.0),
        (20, 40.0),
    ] {
        put_f32(&mut w.lds, d, v + wave as f32);
    }
    w
}

#[test]
fn moves_exec_and_vintrp() {
    for mcpu in ["tahiti", "tonga", "gfx900", "gfx1030"] {
        let Some(prog) = program("moves_exec_and_vintrp", mcpu, KERNEL) else {
            return;
        };
        let mut w = initial(0);
        cpu::run_wave(&prog, &mut w, &mut gcnrun::machine::Memory::default()).unwrap();
        let f = |v: u32, lane: u32| f32::from_bits(w.vgpr(v, lane));
        // Lane 0, primitive 0: P1 = 1 + 0.5 × 2 = 2; P2 = 2 + 0.25 × 4 = 3.
        assert_eq!(f(3, 0), 3.0, "{mcpu}");
        // Lane 4, primitive 1: 10 + 0.5 × 20 = 20; 20 + 0.25 × 40 = 30.
        assert_eq!(f(3, 4), 30.0, "{mcpu}");
        // v_interp_mov p20: P20.x of the lane's primitive.
        assert_eq!((f(4, 0), f(4, 15)), (4.0, 40.0), "{mcpu}");
        // Lanes 16+ are off in EXEC: untouched.
        assert_eq!((w.vgpr(1, 16), w.vgpr(3, 16)), (0, 0), "{mcpu}");
        // s_movk_i32 sign-extends 0x8000.
        assert_eq!(w.sgpr(5), 0xffff_8000, "{mcpu}");
        assert_eq!(w.exec, 0xffff, "{mcpu}");
        // s_endpgm stopped the wave before the last v_mov.
        assert_eq!(f(1, 0), 0.5, "{mcpu}");
    }
}

#[test]
fn waves_are_independent_of_thread_count() {
    let Some(prog) = program("waves_are_independent_of_thread_count", "gfx900", KERNEL) else {
        return;
    };
    let fresh = || (0..16).map(initial).collect::<Vec<_>>();
    let mut one = fresh();
    rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .unwrap()
        .install(|| cpu::run(&prog, &mut one, &mut gcnrun::machine::Memory::default()))
        .unwrap();
    let mut many = fresh();
    cpu::run(&prog, &mut many, &mut gcnrun::machine::Memory::default()).unwrap();
    assert_eq!(one, many);
    // Wave 3's parameters are offset by 3: lane 0 gives 4 + 0.5 × 5 + 0.25 × 7 = 8.25.
    assert_eq!(f32::from_bits(one[3].vgpr(3, 0)), 8.25);
}

#[test]
fn unsupported_instructions_are_refused_by_name() {
    let Some(mc) = LlvmMc::find("unsupported_instructions_are_refused_by_name") else {
        return;
    };
    let arch = Arch::parse("gfx900").unwrap();
    let bytes = mc.assemble(
        "gfx900",
        &["s_nop 0".into(), "v_exp_legacy_f32 v1, v2".into()],
    );
    let bytes: Vec<u8> = bytes.into_iter().flat_map(|r| r.unwrap()).collect();
    let insts = gcn::decode_stream(&bytes, &arch).unwrap();
    let e = gcn::lower::lower(&insts, &arch).unwrap_err();
    assert_eq!(e.offset, 4);
    assert!(e.what.contains("v_exp_legacy_f32"), "{e}");
    // A sample lowers, and the interpreter refuses by name what it does not
    // model: LWE on a T# whose MIN_LOD_WARN (dword 6, s14 here) asks for LOD
    // warnings.
    let img = mc.assemble(
        "gfx900",
        &["image_sample v[0:3], v4, s[8:15], s[0:3] dmask:0xf a16 lwe".into()],
    );
    let bytes: Vec<u8> = img.into_iter().flat_map(|r| r.unwrap()).collect();
    let prog = gcn::lower::lower(&gcn::decode_stream(&bytes, &arch).unwrap(), &arch).unwrap();
    let mut w = WaveState::new(0, 64, 0);
    w.set_sgpr(14, 0x100);
    let e = cpu::run_wave(&prog, &mut w, &mut gcnrun::machine::Memory::default()).unwrap_err();
    assert!(e.to_string().contains("image_sample"), "{e}");
    assert!(e.to_string().contains("lwe"), "{e}");
}

/// `image_gather4h` decodes and lowers, but its footprint is undocumented, so the
/// interpreter and the WGSL translator both refuse it by name (docs/errata.md S15)
/// instead of running it as a plain gather4.
#[test]
fn gather4h_is_refused_by_name() {
    let Some(mc) = LlvmMc::find("gather4h_is_refused_by_name") else {
        return;
    };
    for (mcpu, line) in [
        (
            "gfx900",
            "image_gather4h v[0:3], v[4:5], s[8:15], s[0:3] dmask:0x1",
        ),
        (
            "gfx1010",
            "image_gather4h v[0:3], v[4:5], s[8:15], s[0:3] dmask:0x1 dim:SQ_RSRC_IMG_2D",
        ),
    ] {
        let arch = Arch::parse(mcpu).unwrap();
        let bytes: Vec<u8> = mc
            .assemble(mcpu, &[line.into()])
            .into_iter()
            .flat_map(|r| r.unwrap())
            .collect();
        let prog = gcn::lower::lower(&gcn::decode_stream(&bytes, &arch).unwrap(), &arch).unwrap();
        let mut w = WaveState::new(0, if mcpu == "gfx900" { 64 } else { 32 }, 0);
        let e = cpu::run_wave(&prog, &mut w, &mut gcnrun::machine::Memory::default()).unwrap_err();
        assert!(e.to_string().contains("image_gather4h"), "{mcpu}: {e}");
        assert!(e.to_string().contains("S15"), "{mcpu}: {e}");
        let e = gcnrun::gpu::translate::translate(&prog, &[w], &gcnrun::machine::Memory::default())
            .unwrap_err();
        assert!(e.to_string().contains("image_gather4h"), "{mcpu}: {e}");
    }
}

/// The f16 interps on every generation that has them (gfx8 encodes p2_f16 as
/// VOP3 0x276, gfx9 as 0x277, gfx10 as 0x35a), with the same hand-computed values.
#[test]
fn f16_interps_on_gfx8_gfx9_gfx10() {
    const F16: &[&str] = &[
        "s_mov_b32 m0, 0",
        "v_mov_b32 v1, 0.5",
        "v_interp_p1ll_f16 v3, v1, attr0.x high",
        "v_interp_p2_f16 v4, v1, attr0.x, v3 high",
        "v_interp_p1lv_f16 v5, v1, attr0.x, v2",
        "s_endpgm",
    ];
    for mcpu in ["tonga", "gfx900", "gfx1030"] {
        let Some(prog) = program("f16_interps_on_gfx8_gfx9_gfx10", mcpu, F16) else {
            return;
        };
        let mut w = WaveState::new(0, 64, 64 * 1024);
        // One primitive: P0.x (dword 0) high half 3.0 (0x4200), P10.x (dword 1)
        // high half -4.0 (0xc400), P20.x (dword 8) high half 0.25 (0x3400); the
        // low halves are 1.0 (0x3c00), never read by the `high` forms.
        for (d, v) in [(0, 0x4200_3c00u32), (1, 0xc400_3c00), (8, 0x3400_3c00)] {
            w.lds[4 * d..4 * d + 4].copy_from_slice(&v.to_le_bytes());
        }
        for lane in 0..64 {
            // v2: low half 2.0 (0x4000) as p1lv's P0; v4's high half is kept.
            w.set_vgpr(2, lane, 0x0000_4000);
            w.set_vgpr(4, lane, 0x1234_0000);
        }
        cpu::run_wave(&prog, &mut w, &mut gcnrun::machine::Memory::default()).unwrap();
        // p1ll high: 3.0 + 0.5 × (−4.0) = 1.0 (f32).
        assert_eq!(f32::from_bits(w.vgpr(3, 7)), 1.0, "{mcpu}");
        // p2 high: 1.0 + 0.5 × 0.25 = 1.125 = f16 0x3c80, high half kept.
        assert_eq!(w.vgpr(4, 7), 0x1234_3c80, "{mcpu}");
        // p1lv low: v2's low half 2.0 + 0.5 × P10.x low 1.0 = 2.5.
        assert_eq!(f32::from_bits(w.vgpr(5, 7)), 2.5, "{mcpu}");
    }
}

/// A T# pointing outside image memory is bad input (exit 2, naming the
/// offset), not a silent zero: on the CPU and in the GPU translator alike.
#[test]
fn a_descriptor_outside_image_memory_is_an_error() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/image_rw.toml");
    let mut p = gcnrun::launch::run::prepare_manifest(&path, None, None, None).unwrap();
    // s4 holds BASE_ADDRESS[39:8] on gfx9: move the first image to 16 MiB.
    for w in &mut p.waves {
        w.set_sgpr(4, 0x1_0000);
    }
    let e = gcnrun::launch::run::run_cpu(p.clone())
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("outside image memory") && e.contains("offset 0x0"),
        "{e}"
    );
    let t = gcnrun::gpu::translate::translate(&p.prog, &p.waves, &p.memory).unwrap_err();
    assert!(
        matches!(
            t.kind,
            gcnrun::gpu::translate::TranslateErrorKind::Texture(
                gcnrun::texture::TextureError::OutsideMemory { .. }
            )
        ),
        "{t}"
    );
}
