//! Kernel launches of HSA code objects (`launch::hsa`, docs/hsa.md): the
//! initial state a launch builds from the clang-19 code objects of
//! `assets/kernels/` (SGPRs per kernel descriptor, work-item VGPRs per lane,
//! packed or not, wave32 and wave64, the kernarg segment with explicit and
//! hidden arguments, the dispatch packet, image and sampler objects), the
//! `[kernel.expect]` check, every refusal through the binary (one line, exit
//! 2), and that `assets/kernels/regen.sh` reproduces the code objects.

mod common;

use gcnrun::launch::hsa::{self, build, Built, ManifestText, Options};
use gcnrun::machine::{Memory, WaveState};
use sha2::Digest;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn kernels() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/kernels")
}

fn code(name: &str) -> (String, Vec<u8>) {
    let p = kernels().join(name);
    (p.display().to_string(), std::fs::read(&p).unwrap())
}

/// Builds a launch of `object` in the environment of manifest text `m`.
fn launch(object: &str, m: Option<&str>, opts: Options) -> Built {
    let (file, bytes) = code(object);
    let dir = kernels();
    let mt = m.map(|text| ManifestText {
        text,
        name: "test.toml",
        dir: &dir,
    });
    build(&file, &bytes, mt, &opts).unwrap_or_else(|e| panic!("{object}: {e}"))
}

fn opts(kernel: Option<&str>, grid: &str, block: &str) -> Options {
    use gcnrun::launch::hsa::dispatch::Dims;
    Options {
        kernel: kernel.map(str::to_string),
        grid: Some(Dims::parse(grid).unwrap()),
        block: Some(Dims::parse(block).unwrap()),
        ..Default::default()
    }
}

fn u16_at(m: &Memory, a: u64) -> u16 {
    let b = m.read(a, 2).unwrap();
    u16::from_le_bytes([b[0], b[1]])
}

fn u32_at(m: &Memory, a: u64) -> u32 {
    let b = m.read(a, 4).unwrap();
    u32::from_le_bytes([b[0], b[1], b[2], b[3]])
}

fn u64_at(m: &Memory, a: u64) -> u64 {
    u64::from(u32_at(m, a)) | u64::from(u32_at(m, a + 4)) << 32
}

fn sgpr64(w: &WaveState, n: u32) -> u64 {
    u64::from(w.sgpr(n)) | u64::from(w.sgpr(n + 1)) << 32
}

fn buffer(b: &Built, name: &str) -> (u64, u64) {
    let x = b.run.buffers.iter().find(|x| x.name == name).unwrap();
    (x.base, x.bytes)
}

const VADD: &str = r#"
[kernel]
grid = [100]
block = [64]
[kernel.args]
a = { buffer = "a" }
b = { buffer = "b" }
c = { buffer = "c" }
n = { u32 = 100 }
[[buffer]]
name = "a"
bytes = 400
data = { "0" = { u32 = [1, 2, 3] } }
[[buffer]]
name = "b"
bytes = 400
data = { "0" = { u32 = [10, 20, 30] } }
[[buffer]]
name = "c"
bytes = 400
[kernel.expect]
c = { u32 = [11, 22, 33] }
"#;

/// gfx900, wave64, code object V5: a 100-item grid of 64-item groups is two
/// work-groups of one wave each, the second partial (36 lanes).
#[test]
fn vadd_gfx900_sgprs_vgprs_kernarg_and_hidden_arguments() {
    let b = launch("vadd_gfx900.hsaco", Some(VADD), Options::default());
    assert_eq!(b.run.kernel, "vadd");
    assert_eq!(b.run.code_object_version, 5);
    assert_eq!(b.run.wave_size, 64);
    assert_eq!(b.launch.arch.mcpu, "gfx900");
    assert_eq!(b.waves.len(), 2);
    assert_eq!(b.waves[0].exec, u64::MAX);
    assert_eq!(b.waves[1].exec, (1 << 36) - 1);
    // kernel_code_properties 0x9: private segment buffer s[0:3], kernarg
    // segment ptr s[4:5]; USER_SGPR_COUNT 6: work-group id x in s6.
    let kd = &b.run.descriptor;
    assert_eq!(kd.kernel_code_properties, 0x9);
    assert_eq!(kd.user_sgpr_count(), 6);
    let (kernarg, size) = b.run.kernarg;
    assert_eq!(size, 288);
    for (i, w) in b.waves.iter().enumerate() {
        assert_eq!(sgpr64(w, 4), kernarg);
        assert_eq!(w.sgpr(6), i as u32, "work-group id x");
        assert_eq!(w.sgpr(7), 0, "nothing past the enabled system SGPRs");
        // v0: the work-item id in x within the work-group.
        for lane in 0..36 {
            assert_eq!(w.vgpr(0, lane), lane);
        }
        assert_eq!(w.vgpr(1, 5), 0, "no y id (ENABLE_VGPR_WORKITEM_ID = 0)");
    }
    // The scratch V# (ROCr's form): swizzled, 32-bit UINT, ADD_TID.
    let w = &b.waves[0];
    assert_eq!(w.sgpr(1) >> 31, 1, "SWIZZLE_ENABLE");
    assert_eq!(w.sgpr(3), 0x00EA_4FAC, "gfx9 V# word 3");
    // Explicit arguments in .offset order.
    let m = &b.memory;
    let (a, _) = buffer(&b, "a");
    let (bb, _) = buffer(&b, "b");
    let (c, _) = buffer(&b, "c");
    assert_eq!(u64_at(m, kernarg), a);
    assert_eq!(u64_at(m, kernarg + 8), bb);
    assert_eq!(u64_at(m, kernarg + 16), c);
    assert_eq!(u32_at(m, kernarg + 24), 100);
    assert_eq!(u32_at(m, a + 8), 3);
    assert_eq!(u32_at(m, bb + 4), 20);
    // Hidden arguments (V5): block counts of whole groups, group sizes,
    // remainders, global offsets, dimensions.
    assert_eq!(
        u32_at(m, kernarg + 32),
        1,
        "hidden_block_count_x = 100 / 64"
    );
    assert_eq!(u32_at(m, kernarg + 36), 1);
    assert_eq!(u32_at(m, kernarg + 40), 1);
    assert_eq!(u16_at(m, kernarg + 44), 64, "hidden_group_size_x");
    assert_eq!(u16_at(m, kernarg + 46), 1);
    assert_eq!(u16_at(m, kernarg + 48), 1);
    assert_eq!(u16_at(m, kernarg + 50), 36, "hidden_remainder_x = 100 % 64");
    assert_eq!(u16_at(m, kernarg + 52), 0);
    assert_eq!(u16_at(m, kernarg + 54), 0);
    assert_eq!(u64_at(m, kernarg + 72), 0, "hidden_global_offset_x");
    assert_eq!(u16_at(m, kernarg + 96), 1, "hidden_grid_dims");
    // The dispatch packet (not pointed at by this kernel's SGPRs).
    let p = b.run.dispatch;
    assert_eq!(u16_at(m, p), 0x1502, "header");
    assert_eq!(u16_at(m, p + 2), 1, "setup: 1 dimension");
    assert_eq!(u16_at(m, p + 4), 64);
    assert_eq!(u32_at(m, p + 12), 100);
    assert_eq!(u32_at(m, p + 16), 1);
    assert_eq!(u64_at(m, p + 40), kernarg);
    let kd_addr = u64_at(m, p + 32);
    assert_eq!(
        u32_at(m, kd_addr + 52),
        kd.compute_pgm_rsrc2,
        "kernel_object"
    );
    // The code starts at the entry.
    assert_eq!(
        &b.code[..4],
        &[0x82, 0x00, 0x02, 0xc0],
        "s_load_dword s2, s[4:5], 0x2c"
    );
    assert!(b.code_name.ends_with("kernel `vadd`"));
}

/// [kernel.expect] compares buffer memory after the run; the kernel cannot
/// run yet (scalar ALU and SMEM are another part), so its result is written
/// by hand.
#[test]
fn kernel_expect_checks_buffers() {
    let mut b = launch("vadd_gfx900.hsaco", Some(VADD), Options::default());
    assert_eq!(hsa::check(&b.run, &b.memory).len(), 3);
    let (c, _) = buffer(&b, "c");
    for (k, v) in [11u32, 22, 33].iter().enumerate() {
        b.memory.write(c + 4 * k as u64, &v.to_le_bytes());
    }
    assert!(hsa::check(&b.run, &b.memory).is_empty());
    b.memory.write(c + 4, &23u32.to_le_bytes());
    let m = hsa::check(&b.run, &b.memory);
    assert_eq!(m.len(), 1);
    assert_eq!(m[0].register, "c+0x4");
    assert_eq!(
        (m[0].expected.clone(), m[0].actual.clone()),
        (vec![22], vec![23])
    );
    // The run JSON describes the kernel and every buffer.
    let doc = hsa::describe(&b.run, &b.memory);
    assert_eq!(doc["kernel"]["name"], "vadd");
    assert_eq!(doc["buffers"]["c"]["u32"][1], 23);
    assert_eq!(doc["buffers"]["a"]["bytes"], 400);
}

/// gfx1030 runs the same kernel in wave32 (ENABLE_WAVEFRONT_SIZE32), or in
/// wave64 when built with -mwavefrontsize64.
#[test]
fn wave32_and_wave64_on_gfx1030() {
    let b = launch("vadd_gfx1030.hsaco", Some(VADD), Options::default());
    assert!(b.run.descriptor.wave32());
    assert_eq!(b.run.wave_size, 32);
    // Group 0: 64 items, 2 waves; group 1: 36 items, 2 waves (32 + 4).
    assert_eq!(b.waves.len(), 4);
    assert_eq!(b.waves[1].exec, 0xffff_ffff);
    assert_eq!(b.waves[3].exec, 0xf);
    assert_eq!(
        b.waves[1].vgpr(0, 3),
        35,
        "second wave of group 0: x = 32 + lane"
    );
    assert_eq!(b.waves[3].vgpr(0, 3), 35);
    assert_eq!(
        (b.waves[2].sgpr(6), b.waves[3].sgpr(6)),
        (1, 1),
        "work-group id x"
    );
    let b = launch("vadd_gfx1030_w64.hsaco", Some(VADD), Options::default());
    assert!(!b.run.descriptor.wave32());
    assert_eq!(b.run.wave_size, 64);
    assert_eq!(b.waves.len(), 2);
    // gfx10 V# word 3: FORMAT 32_UINT (20), INDEX_STRIDE 3, ADD_TID,
    // RESOURCE_LEVEL, OOB_SELECT 2.
    assert_eq!(
        b.waves[0].sgpr(3),
        0xFAC | 20 << 12 | 3 << 21 | 1 << 23 | 1 << 24 | 2 << 28
    );
}

/// gfx1100: only the kernarg pointer is a user SGPR, but USER_SGPR_COUNT is
/// 15, so the work-group id lands in s15 (where the compiled code reads it).
#[test]
fn gfx1100_system_sgprs_start_at_user_sgpr_count() {
    let b = launch("vadd_gfx1100.hsaco", Some(VADD), Options::default());
    let kd = &b.run.descriptor;
    assert_eq!(kd.user_sgpr_count(), 15);
    assert_eq!(kd.kernel_code_properties, 0x408, "kernarg ptr, wave32");
    for w in &b.waves {
        assert_eq!(sgpr64(w, 0), b.run.kernarg.0);
    }
    assert_eq!(b.waves[2].sgpr(15), 1);
    assert_eq!(b.waves[2].sgpr(2), 0);
}

/// 3-D grids with partial work-groups in x and y: work-group ids in three
/// system SGPRs, work-item ids in v0, v1, v2 (gfx900) or packed into v0
/// (gfx1100), the hidden block counts, group sizes and remainders.
#[test]
fn ids_in_three_dimensions_packed_and_unpacked() {
    for (object, packed) in [("ids_gfx900.hsaco", false), ("ids_gfx1100.hsaco", true)] {
        let b = launch(object, None, opts(Some("ids"), "5,3,2", "4,2,2"));
        let kd = b.run.descriptor;
        assert_eq!(kd.workgroup_id(), [true, true, true]);
        assert_eq!(kd.workitem_id(), 2);
        let ws = b.run.wave_size;
        let base = kd.user_sgpr_count();
        // Work-groups (x fastest): (0,0,0) 4×2×2, (1,0,0) 1×2×2, (0,1,0) 4×1×2,
        // (1,1,0) 1×1×2: one wave each in wave32 and in wave64.
        assert_eq!(b.waves.len(), 4, "{object}");
        let sizes = [[4, 2, 2], [1, 2, 2], [4, 1, 2], [1, 1, 2]];
        let ids = [[0, 0, 0], [1, 0, 0], [0, 1, 0], [1, 1, 0]];
        for (w, (size, id)) in b.waves.iter().zip(sizes.iter().zip(ids)) {
            assert_eq!([w.sgpr(base), w.sgpr(base + 1), w.sgpr(base + 2)], id);
            let items = size[0] * size[1] * size[2];
            assert_eq!(w.exec, (1u64 << items) - 1, "{object}");
            for lane in 0..items {
                let (x, y, z) = (
                    lane % size[0],
                    lane / size[0] % size[1],
                    lane / (size[0] * size[1]),
                );
                if packed {
                    assert_eq!(
                        w.vgpr(0, lane),
                        x | y << 10 | z << 20,
                        "{object} lane {lane}"
                    );
                    assert_eq!(w.vgpr(1, lane), 0);
                } else {
                    assert_eq!(
                        [w.vgpr(0, lane), w.vgpr(1, lane), w.vgpr(2, lane)],
                        [x, y, z],
                        "{object} lane {lane}"
                    );
                }
            }
            assert!(ws >= items);
        }
        let (k, _) = b.run.kernarg;
        let m = &b.memory;
        let block_count: Vec<u32> = (0..3).map(|d| u32_at(m, k + 8 + 4 * d)).collect();
        let group_size: Vec<u16> = (0..3).map(|d| u16_at(m, k + 20 + 2 * d)).collect();
        let remainder: Vec<u16> = (0..3).map(|d| u16_at(m, k + 26 + 2 * d)).collect();
        assert_eq!(block_count, [1, 1, 1], "{object}: whole groups only");
        assert_eq!(group_size, [4, 2, 2]);
        assert_eq!(remainder, [1, 1, 0]);
        assert_eq!(u16_at(m, k + 72), 3, "hidden_grid_dims");
        // The default buffer for `out`: 16 bytes per work-item, zero.
        let (out, bytes) = buffer(&b, "out");
        assert_eq!(u64_at(m, k), out);
        assert_eq!(bytes, 16 * 30, "16 bytes per work-item, at least 256");
    }
}

/// The dispatch pointer SGPRs point at the packet; a by-value f32 by name.
#[test]
fn dispatch_ptr_points_at_the_packet() {
    let m = r#"
[kernel]
name = "grid"
grid = [96, 2]
block = [32, 2]
offset = [5, 6]
[kernel.args]
scale = { f32 = 2.5 }
"#;
    let b = launch("ids_gfx1030.hsaco", Some(m), Options::default());
    let kd = b.run.descriptor;
    assert_eq!(
        kd.kernel_code_properties & 0xb,
        0xb,
        "buffer, dispatch, kernarg"
    );
    let w = &b.waves[0];
    // s[0:3] scratch V#, s[4:5] dispatch ptr, s[6:7] kernarg ptr.
    assert_eq!(sgpr64(w, 4), b.run.dispatch);
    assert_eq!(sgpr64(w, 6), b.run.kernarg.0);
    let mem = &b.memory;
    let p = b.run.dispatch;
    assert_eq!(u16_at(mem, p + 2), 2, "two dimensions");
    assert_eq!(
        [u16_at(mem, p + 4), u16_at(mem, p + 6), u16_at(mem, p + 8)],
        [32, 2, 1]
    );
    assert_eq!(
        [
            u32_at(mem, p + 12),
            u32_at(mem, p + 16),
            u32_at(mem, p + 20)
        ],
        [96, 2, 1]
    );
    let k = b.run.kernarg.0;
    assert_eq!(u32_at(mem, k + 8), 2.5f32.to_bits());
    assert_eq!(u64_at(mem, k + 56), 5, "hidden_global_offset_x");
    assert_eq!(u64_at(mem, k + 64), 6, "hidden_global_offset_y");
    assert_eq!(u32_at(mem, k + 16), 3, "hidden_block_count_x");
    // 3 × 1 work-groups of 64 work-items: 2 waves of 32 each.
    assert_eq!(b.waves.len(), 6);
    assert_eq!(b.waves[1].sgpr(kd.user_sgpr_count()), 0);
    assert_eq!(b.waves[2].sgpr(kd.user_sgpr_count()), 1);
    // Wave 1 of a work-group of 32×2 holds y = 1, but this kernel enables
    // only the x id (ENABLE_VGPR_WORKITEM_ID = 0): v1 stays 0.
    assert_eq!(kd.workitem_id(), 0);
    assert_eq!((b.waves[1].vgpr(0, 7), b.waves[1].vgpr(1, 7)), (7, 0));
}

/// Code object V4: global offsets and hidden_none in the kernarg segment;
/// this build also asks for the dispatch pointer.
#[test]
fn code_object_v4() {
    let m = "[kernel]\ngrid = 64\noffset = 7\n";
    let b = launch("vadd_gfx900_v4.hsaco", Some(m), Options::default());
    assert_eq!(b.run.code_object_version, 4);
    assert_eq!(b.run.kernarg.1, 88);
    let k = b.run.kernarg.0;
    assert_eq!(u64_at(&b.memory, k + 32), 7, "hidden_global_offset_x");
    assert_eq!(u64_at(&b.memory, k + 40), 0);
    assert!(
        (56..88).all(|o| b.memory.read(k + o, 1).unwrap()[0] == 0),
        "hidden_none"
    );
    let w = &b.waves[0];
    assert_eq!(sgpr64(w, 4), b.run.dispatch);
    assert_eq!(sgpr64(w, 6), k);
    assert_eq!(w.sgpr(8), 0, "work-group id x");
}

/// Image and sampler arguments hold the addresses of a 48-byte image object
/// (T#, HSA channel type and order, width) and a 32-byte sampler object (S#),
/// as ROCr lays them out; left out, they get a default image and sampler.
#[test]
fn image_and_sampler_objects() {
    let m = r#"
[kernel]
grid = [16, 8]
block = [8, 8]
[kernel.args]
src = { image = "in" }
dst = { image = "out" }
smp = { sampler = "lin" }
[[image]]
name = "in"
type = "2d"
width = 16
height = 8
format = "16_16_16_16"
num_format = "float"
init = "noise"
[[image]]
name = "out"
type = "2d"
width = 16
height = 8
format = "8_8_8_8"
num_format = "unorm"
[[sampler]]
name = "lin"
filter = { mag = "linear", min = "linear" }
"#;
    for object in ["img_gfx900.hsaco", "img_gfx1030.hsaco", "img_gfx1100.hsaco"] {
        let b = launch(object, Some(m), Options::default());
        let (k, mem) = (b.run.kernarg.0, &b.memory);
        for (slot, image, ty, order, width) in [(0, 0, 14, 8, 16), (8, 1, 2, 8, 16)] {
            let obj = u64_at(mem, k + slot);
            assert_eq!(obj % 16, 0);
            for d in 0..8 {
                assert_eq!(
                    u32_at(mem, obj + 4 * d),
                    b.images[image].tsharp[d as usize],
                    "{object}"
                );
            }
            assert_eq!(u32_at(mem, obj + 32), ty, "{object}: channel type");
            assert_eq!(u32_at(mem, obj + 36), order, "{object}: channel order");
            assert_eq!(u32_at(mem, obj + 40), width, "{object}: width");
        }
        let s = u64_at(mem, k + 16);
        let want = gcnrun::texture::descriptor::encode_sampler_for(
            &gcnrun::launch::build::sampler_desc(&b.launch.samplers[0]),
            b.launch.arch.gen,
        );
        for d in 0..4 {
            assert_eq!(u32_at(mem, s + 4 * d), want[d as usize], "{object}");
        }
        assert_eq!(u64_at(mem, s + 16), 0);
        // Work-group ids x and y; work-item ids x and y.
        assert_eq!(b.run.descriptor.workitem_id(), 1);
        assert_eq!(b.run.descriptor.workgroup_id(), [true, true, false]);
    }
    // Without a manifest: src (read_only) a 64×64 gradient, dst zero, a
    // point sampler, and a buffer for `info`.
    let b = launch("img_gfx900.hsaco", None, Options::default());
    let names: Vec<&str> = b.launch.images.iter().map(|i| i.name.as_str()).collect();
    assert_eq!(names, ["src", "dst"]);
    assert_eq!(
        b.launch.images[0].init,
        gcnrun::launch::manifest::ImageInit::Gradient
    );
    assert_eq!(b.launch.samplers[0].name, "smp");
    assert_eq!(b.run.buffers[0].name, "info");
}

/// The code runs until the first instruction gcnrun does not execute yet,
/// which is refused in one line naming the kernel and its offset.
#[test]
fn prepare_lowers_the_kernel_code() {
    let (file, bytes) = code("vadd_gfx900.hsaco");
    match hsa::prepare(&file, &bytes, None, &Options::default()) {
        Ok(p) => {
            assert!(p.hsa.is_some());
            assert_eq!(p.waves.len(), 1);
        }
        Err(e) => {
            let s = e.to_string();
            assert!(s.contains("kernel `vadd`: offset 0x0"), "{s}");
        }
    }
}

// ---- the binary ----

fn gcn_run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_gcn-run"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("run gcn-run")
}

fn assert_bad(out: &Output, needles: &[&str]) {
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "exit code; stderr: {err}");
    let lines: Vec<&str> = err.lines().collect();
    assert_eq!(lines.len(), 1, "one stderr line: {err:?}");
    assert!(lines[0].starts_with("gcn-run: ") && !err.contains("panicked"));
    for n in needles {
        assert!(lines[0].contains(n), "{n:?} not in {:?}", lines[0]);
    }
}

fn scratch(name: &str, bytes: &[u8]) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("hsa");
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(name);
    std::fs::write(&p, bytes).unwrap();
    p
}

/// `bytes` with the first occurrence of `from` replaced by `to` (same length).
fn patched(bytes: &[u8], from: &[u8], to: &[u8]) -> Vec<u8> {
    assert_eq!(from.len(), to.len());
    let at = bytes
        .windows(from.len())
        .position(|w| w == from)
        .expect("pattern present");
    let mut v = bytes.to_vec();
    v[at..at + to.len()].copy_from_slice(to);
    v
}

#[test]
fn refusals_are_one_line() {
    let k = "assets/kernels/";
    // Several kernels without --kernel; an unknown kernel lists them.
    assert_bad(
        &gcn_run(&[&format!("{k}ids_gfx900.hsaco")]),
        &["ids_gfx900.hsaco", "2 kernels (ids, grid)", "--kernel"],
    );
    assert_bad(
        &gcn_run(&[&format!("{k}ids_gfx900.hsaco"), "--kernel", "nope"]),
        &["--kernel: no kernel `nope`", "it has: ids, grid"],
    );
    // Caps: too many waves, a work-group past .max_flat_workgroup_size.
    assert_bad(
        &gcn_run(&[
            &format!("{k}vadd_gfx900.hsaco"),
            "--grid",
            "100000000",
            "--block",
            "256",
        ]),
        &["--grid", "waves"],
    );
    assert_bad(
        &gcn_run(&[&format!("{k}vadd_gfx900.hsaco"), "--block", "512"]),
        &["--block", "max_flat_workgroup_size 256"],
    );
    assert_bad(
        &gcn_run(&[&format!("{k}vadd_gfx900.hsaco"), "--grid", "0"]),
        &["--grid"],
    );
    assert_bad(
        &gcn_run(&[
            &format!("{k}vadd_gfx900.hsaco"),
            "--grid",
            "65536",
            "--mem-cap",
            "64k",
        ]),
        &["--mem-cap", "argument `a`", "65536-byte"],
    );
    // --waves, --disasm with kernel options, kernel options on other input.
    assert_bad(
        &gcn_run(&[&format!("{k}vadd_gfx900.hsaco"), "--waves", "2"]),
        &["--waves", "--grid"],
    );
    assert_bad(
        &gcn_run(&[
            "--disasm",
            &format!("{k}vadd_gfx900.hsaco"),
            "--kernel",
            "vadd",
        ]),
        &["--kernel", "--disasm"],
    );
    assert_bad(
        &gcn_run(&["assets/gradient_quad.bin", "--grid", "64"]),
        &["--grid", "gradient_quad.bin", "not an HSA code object"],
    );
    assert_bad(
        &gcn_run(&["--hex", "0x00000000", "--kernel", "k"]),
        &["--kernel", "not an HSA code object"],
    );
    // The metadata note: missing, not MessagePack, an unknown value kind.
    let (_, vadd) = code("vadd_gfx900.hsaco");
    // The note header: namesz 7, descsz, type 32 (NT_AMDGPU_METADATA), "AMDGPU".
    let no_note = patched(
        &vadd,
        b"\x20\x00\x00\x00AMDGPU\x00",
        b"\x21\x00\x00\x00AMDGPU\x00",
    );
    let p = scratch("no_note.hsaco", &no_note);
    assert_bad(
        &gcn_run(&[p.to_str().unwrap()]),
        &["no_note.hsaco", "no AMDGPU metadata note"],
    );
    let kind = patched(&vadd, b"by_value", b"by_vaXue");
    let p = scratch("kind.hsaco", &kind);
    assert_bad(
        &gcn_run(&[p.to_str().unwrap()]),
        &["kind.hsaco", "value kind `by_vaXue`"],
    );
    // The desc's first byte (a map header) made 0xc1, which MessagePack never uses.
    let desc = vadd
        .windows(12)
        .position(|w| w == b"\x20\x00\x00\x00AMDGPU\x00\x00")
        .unwrap()
        + 12;
    let mut bad_msgpack = vadd.clone();
    bad_msgpack[desc] = 0xc1;
    let p = scratch("msgpack.hsaco", &bad_msgpack);
    assert_bad(
        &gcn_run(&[p.to_str().unwrap()]),
        &["msgpack.hsaco", "offset 0x", "metadata note is not valid"],
    );
    // A relocatable object (e_type ET_REL) is refused, not run as raw code.
    let (_, noop) = code("noop_gfx900.hsaco");
    let mut rel = noop.clone();
    rel[16] = 1;
    let p = scratch("rel.o", &rel);
    assert_bad(
        &gcn_run(&[p.to_str().unwrap()]),
        &["rel.o", "relocatable", "ld.lld"],
    );
    // A descriptor entry offset outside the code.
    let (_, bytes) = code("vadd_gfx900.hsaco");
    let co = hsa::elf::parse(&bytes).unwrap();
    let mut far = bytes.clone();
    let at = co.kernels[0].file_offset + 16;
    far[at..at + 8].copy_from_slice(&0x7000_0000i64.to_le_bytes());
    let p = scratch("far.hsaco", &far);
    assert_bad(
        &gcn_run(&[p.to_str().unwrap()]),
        &["far.hsaco", "kernel_code_entry_byte_offset"],
    );
}

#[test]
fn manifest_refusals_name_the_field() {
    let write = |name: &str, text: &str| {
        let p = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("hsa-manifests");
        std::fs::create_dir_all(&p).unwrap();
        let f = p.join(name);
        let abs = kernels().join("vadd_gfx900.hsaco");
        std::fs::write(
            &f,
            format!("code = {:?}\n{text}", abs.display().to_string()),
        )
        .unwrap();
        f
    };
    for (name, text, needles) in [
        (
            "sgpr.toml",
            "[kernel]\n[sgpr]\ns0 = 1\n",
            &["field `sgpr`"][..],
        ),
        (
            "arg.toml",
            "[kernel.args]\nzz = { u32 = 1 }\n",
            &["kernel.args.\"zz\"", "a, b, c, n"][..],
        ),
        (
            "kind.toml",
            "[kernel.args]\na = { u32 = 1 }\n",
            &["kernel.args.\"a\"", "global_buffer"][..],
        ),
        (
            "nobuf.toml",
            "[kernel.args]\na = { buffer = \"q\" }\n",
            &["no [[buffer]] named `q`"][..],
        ),
        (
            "big.toml",
            "[kernel.args]\nn = { u64 = 1 }\n",
            &["8 bytes for argument `n` of 4 bytes"][..],
        ),
        (
            "expect.toml",
            "[kernel.expect]\nc = { u32 = [1, 2], offset = 1020 }\n",
            &["kernel.expect.\"c\"", "run past"][..],
        ),
        (
            "key.toml",
            "[kernel]\ngrids = 4\n",
            &["kernel.grids", "unknown key"][..],
        ),
        (
            "grid.toml",
            "[kernel]\ngrid = [1, 2, 3, 4]\n",
            &["kernel.grid"][..],
        ),
        (
            "waves.toml",
            "waves = 2\n[kernel]\n",
            &["field `waves`"][..],
        ),
    ] {
        let f = write(name, text);
        assert_bad(&gcn_run(&[f.to_str().unwrap()]), needles);
    }
    // A kernel manifest's [expect] (registers) and --waves.
    let f = write("w.toml", "[kernel]\n");
    assert_bad(
        &gcn_run(&[f.to_str().unwrap(), "--waves", "3"]),
        &["--waves"],
    );
}

/// A kernel manifest runs through the binary up to the first instruction
/// gcnrun does not execute yet (the ALU is another part).
#[test]
fn kernel_manifest_runs_through_the_binary() {
    let out = gcn_run(&["assets/kernels/vadd.toml", "--json"]);
    let err = String::from_utf8_lossy(&out.stderr);
    if out.status.code() == Some(2) {
        assert!(err.contains("kernel `vadd`: offset 0x0"), "{err}");
    } else {
        let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(doc["kernel"]["name"], "vadd");
        assert!(doc["buffers"]["c"]["u32"].is_array());
    }
}

/// The integer dot products (`assets/kernels/dot.cl`: every `v_dot*` shape
/// of gfx1030 and gfx1100, with and without CLAMP, the mixed-sign forms'
/// NEG_LO) meet the hand-derived values of `dot.toml` and
/// `dot_gfx1100.toml` on the CPU.
#[test]
fn dot_products_meet_their_hand_derived_values() {
    for manifest in ["dot.toml", "dot_gfx1100.toml"] {
        let path = kernels().join(manifest);
        let out = gcn_run(&[path.to_str().unwrap()]);
        let text = String::from_utf8_lossy(&out.stdout);
        assert_eq!(
            out.status.code(),
            Some(0),
            "{manifest}: {text}{}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(
            text.contains("expect: all 1 entries hold"),
            "{manifest}: {text}"
        );
    }
}

/// `texel_buffers` (texel.cl: image1d_buffer_t read with
/// buffer_load_format_xyzw, written with buffer_store_format_xyzw) on the
/// three targets: the image objects hold the V#s the launch encodes (and no
/// T#), `[kernel.expect]` holds, and `dst` holds each element of `rgba` with
/// its components reversed (UNORM8 round-trips exactly), worked out here
/// from the manifest's element rule.
#[test]
fn texel_buffers_meet_their_hand_derived_values() {
    let manifest = kernels().join("texel.toml");
    let text = std::fs::read_to_string(&manifest).unwrap();
    let mut dst = Vec::new();
    for i in 0..8u8 {
        let (r, g, a) = (17 * i, 255 - 17 * i, if i % 2 == 0 { 255 } else { 0 });
        dst.extend_from_slice(&[a, 51, g, r]);
    }
    for cpu in ["gfx900", "gfx1030", "gfx1100"] {
        let object = format!("texel_{cpu}.hsaco");
        let b = launch(&object, Some(&text), Options::default());
        let k = b.run.kernarg.0;
        for (slot, image) in [(0, 0), (8, 1), (16, 2)] {
            let obj = u64_at(&b.memory, k + slot);
            let v = b.images[image].vsharp.expect("a 1d_buffer image has a V#");
            for d in 0..8u64 {
                let word = v.get(d as usize).copied().unwrap_or(0);
                assert_eq!(u32_at(&b.memory, obj + 4 * d), word, "{object}");
            }
        }
        let path = kernels().join(&object);
        let out = gcn_run(&[
            path.to_str().unwrap(),
            "--manifest",
            manifest.to_str().unwrap(),
            "--json",
        ]);
        assert_eq!(
            out.status.code(),
            Some(0),
            "{object}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(doc["mismatches"].as_array().map(Vec::len), Some(0));
        // gfx9 pads the row to a 16-texel pitch; gfx10+ have none.
        let mut padded = dst.clone();
        padded.resize(if cpu == "gfx900" { 64 } else { 32 }, 0);
        let want = format!("{:x}", sha2::Sha256::digest(&padded));
        assert_eq!(doc["images"]["dst"]["bytes"], padded.len(), "{object}");
        assert_eq!(doc["images"]["dst"]["sha256"], want.as_str(), "{object}");
    }
    // An image1d_buffer_t argument takes only a 1d_buffer image.
    let other = text.replace("type = \"1d_buffer\"\nwidth = 8\nformat = \"8_8_8_8\"\nnum_format = \"unorm\"\n\n[[buffer]]", "type = \"1d\"\nwidth = 8\nformat = \"8_8_8_8\"\nnum_format = \"unorm\"\n\n[[buffer]]");
    assert_ne!(other, text);
    let m = scratch("texel_1d.toml", other.as_bytes());
    let path = kernels().join("texel_gfx900.hsaco");
    let out = gcn_run(&[path.to_str().unwrap(), "--manifest", m.to_str().unwrap()]);
    assert_bad(
        &out,
        &["kernel.args.\"dst\"", "image1d_buffer_t", "1d_buffer"],
    );
}

/// `noop` (one s_endpgm) runs whole: the run JSON has the kernel and its
/// buffers, --dump prints a buffer, [kernel.expect] holds or fails with exit
/// 1, --out writes the manifest's images.
#[test]
fn noop_runs_and_reports_buffers() {
    let noop = kernels().join("noop_gfx900.hsaco");
    let noop = noop.to_str().unwrap();
    let out = gcn_run(&[noop, "--grid", "128", "--json"]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(doc["waves"], 2);
    assert_eq!(doc["kernel"]["name"], "noop");
    assert_eq!(doc["kernel"]["workgroups"], serde_json::json!([2, 1, 1]));
    assert_eq!(doc["kernel"]["args"][0]["name"], "out");
    assert_eq!(
        doc["buffers"]["out"]["bytes"], 2048,
        "16 bytes per work-item"
    );
    let out = gcn_run(&[noop, "--dump", "out,s2", "--quiet"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.starts_with("s2: 0x00000000\nbuffer out (1024 bytes): 0x00000000"),
        "{text}"
    );
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("hsa-noop");
    std::fs::create_dir_all(&dir).unwrap();
    let m = |name: &str, expect: &str| {
        let p = dir.join(name);
        std::fs::write(
            &p,
            format!(
                "code = {noop:?}\n[kernel]\ngrid = 64\n[kernel.args]\nout = {{ buffer = \"o\" }}\n[kernel.expect]\no = {{ {expect}, offset = 4 }}\n[[buffer]]\nname = \"o\"\nbytes = 64\ndata = {{ \"4\" = {{ u32 = [7, 8] }} }}\n[[image]]\nname = \"pic\"\ntype = \"2d\"\nwidth = 4\nheight = 4\nformat = \"8_8_8_8\"\nnum_format = \"unorm\"\ninit = \"checker\"\n"
            ),
        )
        .unwrap();
        p
    };
    let good = m("good.toml", "u32 = [7, 8]");
    let pngs = dir.join("png");
    let out = gcn_run(&[good.to_str().unwrap(), "--out", pngs.to_str().unwrap()]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{text}");
    assert!(
        text.contains("buffer o (64 bytes): 0x00000000 0x00000007 0x00000008"),
        "{text}"
    );
    assert!(text.contains("expect: all 1 entries hold"), "{text}");
    assert!(pngs.join("pic.png").is_file());
    let bad = m("bad.toml", "u32 = [7, 9]");
    let out = gcn_run(&[bad.to_str().unwrap()]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(
        text.contains("MISMATCH o+0x8 wave 0 lane 1: expected [00000009], got [00000008]"),
        "{text}"
    );
}

/// `assets/kernels/regen.sh` reproduces the checked-in code objects byte for
/// byte (clang-19, lld-19, llvm-as-19 and Debian's rocm-device-libs; under
/// CI=true their absence is a failure).
#[test]
fn regen_reproduces_the_code_objects() {
    let have = |tool: &str| {
        Command::new(tool)
            .arg("--version")
            .output()
            .is_ok_and(|o| o.status.success())
    };
    let libs = Path::new("/usr/lib/x86_64-linux-gnu/amdgcn/bitcode/ockl.bc").exists();
    if !(have("clang-19") && have("ld.lld-19") && have("llvm-as-19") && libs) {
        let msg = "regen_reproduces_the_code_objects: clang-19, lld-19, llvm-as-19 or rocm-device-libs missing (apt-get install clang-19 lld-19 llvm-19 rocm-device-libs)";
        if common::is_ci() {
            panic!("{msg} — CI=true requires them");
        }
        eprintln!("SKIPPED {msg}");
        return;
    }
    let out = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("hsa-regen");
    let _ = std::fs::remove_dir_all(&out);
    let status = Command::new("bash")
        .arg(kernels().join("regen.sh"))
        .arg(&out)
        .status()
        .unwrap();
    assert!(status.success());
    let mut n = 0;
    for e in std::fs::read_dir(kernels()).unwrap() {
        let p = e.unwrap().path();
        if p.extension().is_some_and(|x| x == "hsaco") {
            let name = p.file_name().unwrap();
            assert_eq!(
                std::fs::read(&p).unwrap(),
                std::fs::read(out.join(name)).unwrap(),
                "{} differs from regen.sh's",
                name.to_string_lossy()
            );
            n += 1;
        }
    }
    // And nothing regen.sh builds is missing from assets/kernels.
    let produced = std::fs::read_dir(&out)
        .unwrap()
        .filter(|e| {
            e.as_ref()
                .unwrap()
                .path()
                .extension()
                .is_some_and(|x| x == "hsaco")
        })
        .count();
    assert_eq!(
        n, produced,
        "assets/kernels holds {n} code objects, regen.sh builds {produced}"
    );
}

/// `--arch` overrides the object's processor (and is checked against what
/// the descriptor asks: wave32 needs gfx10+).
#[test]
fn arch_overrides_the_code_object() {
    let o = Options {
        arch: Some("gfx906".into()),
        ..Default::default()
    };
    let b = launch("vadd_gfx900.hsaco", None, o);
    assert_eq!(b.launch.arch.mcpu, "gfx906");
    assert_bad(
        &gcn_run(&["assets/kernels/vadd_gfx1030.hsaco", "--arch", "gfx900"]),
        &[
            "vadd_gfx1030.hsaco",
            "ENABLE_WAVEFRONT_SIZE32",
            "wave32 is gfx10+",
        ],
    );
    assert_bad(
        &gcn_run(&["assets/kernels/vadd_gfx1030.hsaco", "--arch", "gfx99"]),
        &["--arch", "unknown architecture"],
    );
}

/// The `ids` kernel runs whole on the CPU: a 3-D launch of 10×6×3 work-items
/// in work-groups of 4×4×2 (partial in every dimension) writes, for every
/// work-item, exactly the global, local and group ids and the local size
/// OpenCL defines (a partial group's local size is its remainder), on
/// gfx900, gfx1030 and gfx1100.
#[test]
fn ids_kernel_computes_every_id_of_a_partial_3d_launch() {
    const G: [u32; 3] = [10, 6, 3];
    const B: [u32; 3] = [4, 4, 2];
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("hsa-ids");
    std::fs::create_dir_all(&dir).unwrap();
    for cpu in ["gfx900", "gfx1030", "gfx1100"] {
        let manifest = dir.join(format!("ids_{cpu}.toml"));
        std::fs::write(
            &manifest,
            format!(
                "code = \"{}\"\n[kernel]\nname = \"ids\"\ngrid = [10, 6, 3]\nblock = [4, 4, 2]\n[kernel.args]\nout = {{ buffer = \"out\" }}\n[[buffer]]\nname = \"out\"\nbytes = {}\n",
                kernels().join(format!("ids_{cpu}.hsaco")).display(),
                32 * G[0] * G[1] * G[2]
            ),
        )
        .unwrap();
        let out = Command::new(env!("CARGO_BIN_EXE_gcn-run"))
            .arg(&manifest)
            .arg("--json")
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{cpu}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        let words: Vec<u32> = json["buffers"]["out"]["u32"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_u64().unwrap() as u32)
            .collect();
        for gz in 0..G[2] {
            for gy in 0..G[1] {
                for gx in 0..G[0] {
                    let g = [gx, gy, gz];
                    let group: Vec<u32> = (0..3).map(|d| g[d] / B[d]).collect();
                    let local: Vec<u32> = (0..3).map(|d| g[d] % B[d]).collect();
                    let size: Vec<u32> = (0..3).map(|d| B[d].min(G[d] - group[d] * B[d])).collect();
                    let want = [
                        gx,
                        gy,
                        gz,
                        local[0] | local[1] << 10 | local[2] << 20,
                        group[0],
                        group[1] | group[2] << 16,
                        size[0],
                        size[1],
                    ];
                    let i = ((gz * G[1] + gy) * G[0] + gx) as usize;
                    assert_eq!(words[8 * i..8 * i + 8], want, "{cpu}: work-item {g:?}");
                }
            }
        }
    }
}

/// A kernel's waves get a work-group's LDS only when its program has an LDS
/// operation (`lds_reduce`), none otherwise (`vadd`): `hsa::build` lays the
/// waves out without it and `hsa::prepare` gives it after lowering, so a
/// launch of many waves never holds 64 KiB a wave it then drops.
#[test]
fn only_kernels_with_lds_operations_get_lds() {
    for (object, want) in [
        ("lds_reduce_gfx900.hsaco", 64 * 1024),
        ("vadd_gfx900.hsaco", 0),
    ] {
        let (file, bytes) = code(object);
        let built = launch(object, None, Options::default());
        assert!(
            built.waves.iter().all(|w| w.lds.is_empty()),
            "{object}: built"
        );
        let p = hsa::prepare(&file, &bytes, None, &Options::default())
            .unwrap_or_else(|e| panic!("{object}: {e}"));
        assert!(
            p.waves.iter().all(|w| w.lds.len() == want),
            "{object}: {} bytes of LDS",
            p.waves[0].lds.len()
        );
    }
}
