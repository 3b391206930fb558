//! The WGSL translator without a GPU: every launch the GPU tests run (every
//! asset, every format pair, every atomic) translates, and naga validates every
//! module it emits, so a translator bug shows even where no adapter exists.

mod common;

use gcnrun::gpu::{translate::translate, wgsl};
use gcnrun::ir::{Op, Program};

/// How many of `prog`'s operations `kind` accepts.
fn ops_where(prog: &Program, kind: impl Fn(&Op) -> bool) -> usize {
    prog.ops.iter().filter(|(_, op)| kind(op)).count()
}

/// The per-lane writes test `lane_on`, which must follow EXEC: every line
/// that writes `exec_lo` or `exec_hi` is followed, after any other such
/// line, by `lane_on`'s update (`translate::LANE_ON_UPDATE`), and nothing
/// tests the lane's own EXEC bit otherwise.
fn lane_on_follows_exec(wgsl: &str) -> Result<(), String> {
    let update = "lane_on = is_active(exec_lo, exec_hi, lane);";
    let writes = |l: &str| {
        let l = l.trim_start().trim_start_matches("var ");
        l.starts_with("exec_lo = ") || l.starts_with("exec_hi = ")
    };
    let lines: Vec<&str> = wgsl.lines().collect();
    for (i, l) in lines.iter().enumerate() {
        if l.contains("is_active(exec_lo, exec_hi, lane)") && !l.contains(update) {
            return Err(format!("line {}: tests EXEC itself: {l}", i + 1));
        }
        if writes(l) {
            let next = lines[i + 1..].iter().find(|n| !writes(n));
            let updated = next.is_some_and(|n| n.trim_start().trim_start_matches("var ") == update);
            if !updated {
                return Err(format!(
                    "line {}: EXEC written, lane_on not updated: {l}",
                    i + 1
                ));
            }
        }
    }
    Ok(())
}

#[test]
fn every_launch_translates_to_valid_wgsl() {
    let launches = common::launches::all_launches();
    assert!(launches.len() > 100, "only {} launches", launches.len());
    let mut modules = 0;
    let mut speculative = 0;
    let mut refused = 0;
    for (name, p) in &launches {
        let tr = match (
            translate(&p.prog, &p.waves, &p.memory),
            common::launches::expected_refusal(name),
        ) {
            (Ok(tr), None) => tr,
            (Err(e), Some(why)) => {
                assert!(
                    e.kind.to_string().contains(why),
                    "{name}: refused for another reason: {e}"
                );
                println!("refused as documented: {name}: {e}");
                refused += 1;
                continue;
            }
            (Ok(_), Some(why)) => {
                panic!("{name} translates now: remove its GPU_REFUSED entry ({why})")
            }
            (Err(e), None) => panic!("{name}: translation failed: {e}"),
        };
        assert!(!tr.kernels.is_empty(), "{name}: no kernel");
        // Every wave runs each part of the program once (a split program's
        // parts are modules of their own, each running every wave).
        let mut runs = vec![0usize; p.waves.len()];
        for k in &tr.kernels {
            for &w in &k.waves {
                runs[w] += 1;
            }
        }
        assert!(
            runs.iter().all(|&n| n >= 1 && n == runs[0]),
            "{name}: every wave runs each part once: {runs:?}"
        );
        for k in &tr.kernels {
            if let Err(e) = wgsl::validate(&k.wgsl) {
                panic!("{name}: naga rejects the module:\n{e}");
            }
            if let Err(e) = lane_on_follows_exec(&k.wgsl) {
                panic!("{name}: {e}");
            }
            modules += 1;
            // A whole program that writes memory has a speculative module
            // too (docs/gpu.md, "Speculative workgroups"): valid, its entry
            // point reaching the table the runtime binds, which the plain
            // module must not reach (wgpu's derived layout follows use).
            assert!(
                !wgsl::main_size_and_use(&k.wgsl, "spec").1,
                "{name}: the plain module reaches the speculation table"
            );
            if let Some(spec) = &k.spec_wgsl {
                if let Err(e) = wgsl::validate(spec) {
                    panic!("{name}: naga rejects the speculative module:\n{e}");
                }
                if let Err(e) = lane_on_follows_exec(spec) {
                    panic!("{name}: the speculative module: {e}");
                }
                assert!(
                    wgsl::main_size_and_use(spec, "spec").1,
                    "{name}: the speculative module does not reach its table"
                );
                speculative += 1;
            }
        }
    }
    println!(
        "{} launches, {modules} modules validated and {speculative} speculative ones, {refused} refused as documented",
        launches.len()
    );
    assert!(speculative > 0, "no launch has a speculative module");
}

/// `lane_on` follows EXEC in the WGSL `gcn-run --emit-wgsl` prints for
/// every bundled launch manifest, the compiled kernels', the RADV pixel
/// shaders' and the Intel programs' included (`every_launch_…` checks the
/// modules of `assets/*.toml` and of the generated launches, speculative ones
/// too).
#[test]
fn every_bundled_module_keeps_lane_on_in_step_with_exec() {
    let manifests: Vec<_> = common::launches::asset_files(&["toml"])
        .into_iter()
        .filter(|p| !p.to_string_lossy().ends_with(".scene.toml"))
        .collect();
    assert!(manifests.len() > 100, "only {} manifests", manifests.len());
    for m in &manifests {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_gcn-run"))
            .arg("--emit-wgsl")
            .arg(m)
            .output()
            .unwrap();
        let name = m.display();
        assert!(
            out.status.success(),
            "{name}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let wgsl = String::from_utf8(out.stdout).unwrap();
        assert!(wgsl.contains("lane_on"), "{name}: no lane_on");
        if let Err(e) = lane_on_follows_exec(&wgsl) {
            panic!("{name}: {e}");
        }
    }
}

#[test]
fn back_ends_translate_a_module() {
    let (_, p) = common::launches::atomic_launches().remove(0);
    let tr = translate(&p.prog, &p.waves, &p.memory).unwrap();
    let src = &tr.kernels[0].wgsl;
    let spv = wgsl::convert(src, "spirv").unwrap();
    assert_eq!(&spv[..4], &0x0723_0203u32.to_le_bytes(), "SPIR-V magic");
    let msl = String::from_utf8(wgsl::convert(src, "msl").unwrap()).unwrap();
    assert!(msl.contains("kernel void"), "MSL has a kernel entry point");
    let hlsl = String::from_utf8(wgsl::convert(src, "hlsl").unwrap()).unwrap();
    assert!(
        hlsl.contains("[numthreads(64, 1, 1)]"),
        "HLSL has the wave as thread group"
    );
}

#[test]
fn waves_with_different_descriptors_get_their_own_modules() {
    // The default environment binds the same images in every wave: one module.
    let program =
        gcnrun::input::load_file(&common::launches::assets().join("gradient_quad.bin")).unwrap();
    let arch = gcnrun::Arch::parse("gfx6").unwrap();
    let mut p = gcnrun::launch::run::prepare_default(&program, arch, None, None).unwrap();
    let tr = translate(&p.prog, &p.waves, &p.memory).unwrap();
    assert_eq!(tr.kernels.len(), 1);
    // Point wave 1's input T# 256 bytes further (still inside image memory):
    // it needs a module of its own, and the other waves keep sharing theirs.
    let w = &mut p.waves[1];
    w.set_sgpr(4, w.sgpr(4).wrapping_add(1));
    let tr = translate(&p.prog, &p.waves, &p.memory).unwrap();
    assert_eq!(tr.kernels.len(), 2);
    assert_eq!(tr.kernels[1].waves, vec![1]);
    assert_eq!(tr.kernels[0].waves.len(), p.waves.len() - 1);
}

#[test]
fn programs_that_write_no_memory_are_split_into_small_modules() {
    // sample_filter: 17 image instructions and no store, so modules of at
    // most two (translate::IMAGE_OPS_PER_MODULE), each running every wave.
    let path = common::launches::assets().join("sample_filter.toml");
    let p = gcnrun::launch::run::prepare_manifest(&path, None, None, None).unwrap();
    let tr = translate(&p.prog, &p.waves, &p.memory).unwrap();
    let images = ops_where(&p.prog, |op| matches!(op, Op::Image(_)));
    assert_eq!(images, 17);
    let per = gcnrun::gpu::translate::IMAGE_OPS_PER_MODULE;
    assert_eq!(tr.kernels.len(), images.div_ceil(per));
    for k in &tr.kernels {
        assert_eq!(k.waves.len(), p.waves.len());
        assert!(k.wgsl.matches("    // 0x").count() <= per, "{}", k.wgsl);
    }
    // gradient_quad stores: one module, whose waves run it whole.
    let program =
        gcnrun::input::load_file(&common::launches::assets().join("gradient_quad.bin")).unwrap();
    let arch = gcnrun::Arch::parse("gfx6").unwrap();
    let p = gcnrun::launch::run::prepare_default(&program, arch, None, None).unwrap();
    assert_eq!(
        translate(&p.prog, &p.waves, &p.memory)
            .unwrap()
            .kernels
            .len(),
        1
    );
}

/// A whole program whose float calls (and typed conversions) would inline
/// past `Options::share_alu_above` calls its heaviest repeated functions
/// through shared sites (docs/gpu.md, "Shared ALU sites"): kernels/math.toml (230
/// f32 operations) builds one `alu_shared` whose module inlines to a
/// fraction of the bytes; with the budget raised past it, none; a program
/// within it (packed.toml, f16 and f32 operations) shares nothing at the
/// default.
#[test]
fn heavy_float_calls_go_through_shared_sites() {
    use gcnrun::gpu::translate::{translate_with, Options};
    use gcnrun::gpu::wgsl::inlined_bytes;
    let prepare = |name: &str| {
        let path = common::launches::assets().join(name);
        gcnrun::launch::run::prepare_manifest(&path, None, None, None).unwrap()
    };
    let p = prepare("kernels/math.toml");
    let module = |share_alu_above| {
        let options = Options {
            share_alu_above,
            ..Default::default()
        };
        let tr = translate_with(&p.prog, &p.waves, &p.memory, options).unwrap();
        assert_eq!(tr.kernels.len(), 1);
        tr.kernels[0].wgsl.clone()
    };
    let shared = module(Options::default().share_alu_above);
    let inline = module(1 << 30);
    assert!(shared.contains("fn alu_shared("));
    assert!(!inline.contains("fn alu_shared("));
    let (s, i) = (inlined_bytes(&shared), inlined_bytes(&inline));
    assert!(3 * s < i, "shared {s} bytes, inline {i}");
    // Each shared call ends its case and resumes in the next one.
    // Statements starting with `prefix` (not the declarations).
    let count = |w: &str, prefix: &str| {
        w.lines()
            .filter(|l| l.trim_start().starts_with(prefix))
            .count()
    };
    let sites = count(&shared, "alu_site = ");
    assert!(sites > 100, "{sites} shared calls");
    assert_eq!(
        count(&shared, "cont = "),
        sites + 1,
        "and `cont = 0u` in the loop"
    );
    // Packed f16 operations share a half at a time: two trips of the loop,
    // the low half's result kept in `alu_h` between them.
    let p = prepare("packed.toml");
    let tr = translate(&p.prog, &p.waves, &p.memory).unwrap();
    let w = &tr.kernels[0].wgsl;
    assert!(w.contains("fn alu_shared("));
    let halves = count(w, "alu_h = ");
    assert!(halves >= 5, "{halves} packed operations shared");
    let options = Options {
        share_alu_above: 1 << 30,
        ..Default::default()
    };
    let inline = translate_with(&p.prog, &p.waves, &p.memory, options).unwrap();
    let (s, i) = (inlined_bytes(w), inlined_bytes(&inline.kernels[0].wgsl));
    // (A quarter smaller at least: the add, sub, mul and fma of each width are one
    // function since 2026-11-27, which made the inline module smaller too.)
    assert!(4 * s < 3 * i, "shared {s} bytes, inline {i}");
    // Typed buffer loads whose format comes from the V# convert at a site,
    // each of them (MTBUF's, whose format is a constant, in place).
    use gcnrun::ir::mem::Access;
    let p = prepare("typed_buffer.toml");
    // The program's typed loads or stores whose format comes from the V#.
    let from_vsharp = |store: bool| {
        ops_where(
            &p.prog,
            |op| matches!(op, Op::VectorMem(m) if matches!(m.access, Access::Typed { store: s, format: None, .. } if s == store)),
        )
    };
    let loads = from_vsharp(false);
    assert!(loads >= 5, "{loads}");
    let tr = translate(&p.prog, &p.waves, &p.memory).unwrap();
    let w = &tr.kernels[0].wgsl;
    assert!(w.contains("case 0u: { return typed_convert("), "{w}");
    assert_eq!(count(w, "alu_site = 0u;"), loads);
    // So do its typed stores whose format comes from the V#, though their
    // bytes alone would fit the budget: a run-time format's packing never
    // folds to one format's path (docs/gpu.md, "Shared ALU sites").
    let stores = from_vsharp(true);
    assert!(stores >= 2, "{stores}");
    assert!(w.contains("{ return typed_pack("), "{w}");
    assert_eq!(count(w, "alu_c = vec2<u32>(tf, off0);"), stores);
    // A gfx11 pixel shader's VINTERP multiply-adds (a dozen in RADV's
    // textured quad, `fma_bits` each) go through one site, every one of them.
    let p = prepare("radv/tex.gfx1100.toml");
    let vinterps = ops_where(&p.prog, |op| matches!(op, Op::Vinterp(_)));
    assert!(vinterps >= 8, "{vinterps}");
    let predict = gcnrun::launch::run::predictor(&p.prog, &p.waves, &p.memory);
    let tr = gcnrun::gpu::translate::translate_predicted(
        &p.prog,
        &p.waves,
        &p.memory,
        Options::default(),
        Some(&predict),
    )
    .unwrap();
    let w = &tr.kernels[0].wgsl;
    let at = w
        .find("u: { return vec4<u32>(fma_bits(a.x, b.x, c.x), 0u, 0u, 0u); }")
        .expect("an fma_bits site");
    let site = w[..at].rsplit("case ").next().unwrap();
    assert_eq!(count(w, &format!("alu_site = {site}u;")), vinterps);
}

#[test]
fn lane_masks_are_gathered_only_where_read_whole() {
    // A vector compare's or carry's mask waits as each lane's bit and is
    // gathered (a workgroup exchange and a barrier) only before something
    // reads it whole (src/gpu/translate/whole/lanemask.rs). Statements
    // starting with `prefix`:
    let count = |w: &str, prefix: &str| {
        w.lines()
            .filter(|l| l.trim_start().starts_with(prefix))
            .count()
    };
    let module = |name: &str| {
        let path = common::launches::assets().join(name);
        let p = gcnrun::launch::run::prepare_manifest(&path, None, None, None).unwrap();
        translate(&p.prog, &p.waves, &p.memory).unwrap().kernels[0]
            .wgsl
            .clone()
    };
    // lane_masks.s writes eleven masks: VCC's first two are replaced unread
    // (the second read only as v_addc's carry-in), the other nine are read
    // whole, by a scalar move, a branch or, past the four places masks wait
    // in, the next mask's arrival.
    let w = module("lane_masks.toml");
    let (writes, gathers) = (count(&w, "lm"), count(&w, "let mk = xl_mask(lm"));
    assert_eq!((writes, gathers), (11, 9), "{w}");
    // OCML's compares in the math kernel feed v_cndmask and v_addc: most
    // are never gathered (14 of 54 when this was written).
    let w = module("kernels/math.toml");
    let (writes, gathers) = (count(&w, "lm"), count(&w, "let mk = xl_mask(lm"));
    assert!(
        writes >= 40 && 3 * gathers <= writes,
        "{gathers} of {writes} gathered"
    );
}

#[test]
fn unsupported_instructions_are_refused_by_name() {
    // LWE on a T# whose MIN_LOD_WARN (dword 6) asks for LOD warnings is not
    // modelled (on the CPU either); the error names the instruction.
    // image_sample v[1:4], v[1:2], s[4:11], s[12:15] dmask:0xf a16 lwe (gfx9).
    let program = gcnrun::input::from_hex("00 8f 82 f0 01 01 61 00").unwrap();
    let arch = gcnrun::Arch::parse("gfx9").unwrap();
    let mut p = gcnrun::launch::run::prepare_default(&program, arch, None, None).unwrap();
    for w in &mut p.waves {
        w.set_sgpr(10, w.sgpr(10) | 0x100);
    }
    let e = translate(&p.prog, &p.waves, &p.memory).unwrap_err();
    assert!(e.kind.to_string().contains("image_sample"), "{e}");
    assert!(e.kind.to_string().contains("MIN_LOD_WARN"), "{e}");
}
