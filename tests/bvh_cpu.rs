//! BVH ray intersection on the CPU: what gcnrun refuses (one line, exit 2) and a
//! property test of the box test against an independent f64 slab test.

use gcnrun::texture::bvh::{box_hit, box_interval, grow_factor, Aabb, Ray};
use proptest::prelude::*;
use std::path::PathBuf;
use std::process::Command;

/// `image_bvh_intersect_ray v[40:43], v[8:18], s[4:7]` + `s_endpgm` for gfx1030
/// (llvm-mc-19 -show-encoding).
const BVH: &str = "019f98f108280100000081bf";
/// `image_bvh64_intersect_ray v[40:43], v[8:19], s[4:7]` + `s_endpgm`, gfx1030.
const BVH64: &str = "019f9cf108280100000081bf";
/// `image_bvh_intersect_ray v[40:43], v[8:18], s[4:7]` + `s_endpgm`, gfx1100
/// (whose `s_endpgm` is 0xbfb00000).
const BVH_GFX11: &str = "808f64f0082801000000b0bf";

/// A one-box32-node BVH (children 1..4, every box (1,1,1)-(2,2,2)) and a ray
/// along +x, with `node` in v8 (and v9 = `node_hi` for bvh64).
fn manifest(arch: &str, hex: &str, sgpr: &str, node: &str, wide: bool) -> String {
    let ray = "0x42c80000, 0, 0x3fc00000, 0x3fc00000, 0x3f800000, 0, 0, 0x3f800000, 0x7f800000, 0x7f800000";
    let regs = if wide { "v[8:19]" } else { "v[8:18]" };
    format!(
        "arch = \"{arch}\"\nhex = \"{hex}\"\nwave_size = 32\n[sgpr]\n\"s[4:7]\" = {sgpr}\n\
         [vgpr]\n\"{regs}\" = {{ u32 = [{node}, {ray}] }}\n\
         [[buffer]]\nname = \"scene\"\nbytes = 128\n[buffer.data]\n\
         \"0x0\" = {{ u32 = [1, 2, 3, 4] }}\n\
         \"0x10\" = {{ f32 = [1,1,1,2,2,2, 1,1,1,2,2,2, 1,1,1,2,2,2, 1,1,1,2,2,2] }}\n"
    )
}

fn run(tag: &str, text: &str) -> (Option<i32>, String, String) {
    run_with(tag, text, &[])
}

fn run_with(tag: &str, text: &str, extra: &[&str]) -> (Option<i32>, String, String) {
    let dir = std::env::temp_dir().join(format!("gcnrun-bvh-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p: PathBuf = dir.join(format!("{tag}.toml"));
    std::fs::write(&p, text).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_gcn-run"))
        .args([p.to_str().unwrap(), "--json"])
        .args(extra)
        .output()
        .unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn refused(tag: &str, text: &str, words: &[&str]) {
    let (code, _, stderr) = run(tag, text);
    assert_eq!(code, Some(2), "{tag}: {stderr}");
    assert_eq!(stderr.trim_end().lines().count(), 1, "{tag}: {stderr}");
    for w in words {
        assert!(stderr.contains(w), "{tag}: `{w}` not in {stderr}");
    }
}

const SORTED: &str = "{ bvh = \"scene\", box_sort = true }";

#[test]
fn the_test_manifest_runs() {
    // The base case the refusals below vary: node 0x5 hits all four boxes at
    // the same distance, so sorting keeps child order.
    let text = manifest("gfx1030", BVH, SORTED, "0x5", false);
    let (code, stdout, stderr) = run_with("ok", &text, &["--dump", "v[40:43]"]);
    assert_eq!(code, Some(0), "{stderr}");
    let doc: serde_json::Value = serde_json::from_slice(stdout.as_bytes()).unwrap();
    for (k, want) in [(40, 1), (41, 2), (42, 3), (43, 4)] {
        assert_eq!(doc["registers"][format!("v{k}")][0], want, "v{k}");
    }
}

#[test]
fn nodes_gcnrun_cannot_answer_are_refused_naming_lane_and_pointer() {
    let m = |node: &str| manifest("gfx1030", BVH, SORTED, node, false);
    // Triangle node types 2 and 3: the public sources disagree (errata B3).
    refused(
        "type2",
        &m("0x2"),
        &["offset 0x0", "lane 0", "node pointer 0x2", "B3"],
    );
    refused("type3", &m("0x3"), &["lane 0", "node pointer 0x3"]);
    // A node past the T#'s size (128 bytes = units 0 and 1; a box32 at unit 1
    // would need unit 2 too).
    refused(
        "size",
        &m("0xd"),
        &["lane 0", "node pointer 0xd", "past the BVH T#"],
    );
    // A triangle whose ID names barycentric source 3.
    let bary = "{ bvh = \"scene\", triangle_return = \"barycentrics\" }";
    let text = manifest("gfx1030", BVH, bary, "0x0", false)
        .replace("[1, 2, 3, 4] }", "[1, 2, 3, 4] }\n\"0x3c\" = { u32 = 3 }");
    refused("src3", &text, &["lane 0", "barycentric source 3"]);
}

#[test]
fn bvh64_pointers_outside_memory_are_refused() {
    // A Mesa-style T# (base 0, size 2^42 units): a pointer whose high dword is
    // set addresses far outside memory, which proves the high dword is read.
    let raw = "[0x0, 0x80000000, 0xffffffff, 0x800003ff]";
    let text = manifest("gfx1030", BVH64, raw, "0x2005, 0x100", true);
    refused(
        "bvh64",
        &text,
        &["lane 0", "node pointer 0x10000002005", "outside memory"],
    );
    // The low dword alone names the node: base 0x10000 >> 3 | 5.
    let (code, _, stderr) = run(
        "bvh64-ok",
        &manifest("gfx1030", BVH64, raw, "0x2005, 0", true),
    );
    assert_eq!(code, Some(0), "{stderr}");
}

#[test]
fn descriptors_and_generations_gcnrun_does_not_model_are_refused() {
    refused(
        "type0",
        &manifest("gfx1030", BVH, "[0, 0, 0, 0]", "0x5", false),
        &["s[4:7]", "type is 0, not 8"],
    );
    refused(
        "gfx11",
        &manifest("gfx1100", BVH_GFX11, SORTED, "0x5", false),
        &["image_bvh_intersect_ray", "gfx10.3 only", "gfx11"],
    );
    // gfx1013 (gfx10.1) decodes the op as LLVM does, with gfx10's encoding, but
    // its BVH nodes are not public: refused when executed, not run as gfx10.3.
    refused(
        "gfx1013",
        &manifest("gfx1013", BVH, SORTED, "0x5", false),
        &["image_bvh_intersect_ray", "gfx10.3 only", "gfx1013"],
    );
}

#[test]
fn bad_bvh_manifest_fields_name_the_field() {
    let base = manifest("gfx1030", BVH, SORTED, "0x5", false);
    for (tag, from, to, field) in [
        (
            "grow",
            "box_sort = true",
            "box_grow = 300",
            "sgpr.\"s[4:7]\".box_grow",
        ),
        (
            "mode",
            "box_sort = true",
            "triangle_return = \"uv\"",
            "triangle_return",
        ),
        (
            "key",
            "box_sort = true",
            "sorted = true",
            "sgpr.\"s[4:7]\".sorted",
        ),
        (
            "name",
            "bvh = \"scene\"",
            "bvh = \"nope\"",
            "no [[buffer]] named `nope`",
        ),
        ("range", "\"s[4:7]\"", "\"s[4:11]\"", "sgpr.\"s[4:11]\""),
        ("past", "\"0x10\"", "\"0x70\"", "buffer[0].data.\"0x70\""),
        ("type", "f32 = [1,1,1", "f64 = [1,1,1", "unknown type `f64`"),
        ("bytes", "bytes = 128", "bytes = 0", "buffer[0].bytes"),
        ("align", "\"0x10\"", "\"0x12\"", "not 4-byte aligned"),
    ] {
        assert!(base.contains(from), "{tag}");
        refused(tag, &base.replacen(from, to, 1), &[field]);
    }
}

/// The ray's interval through a box by the textbook slab test in f64 (the
/// interval of t ≥ 0 where `origin + t·dir` lies in the box), for directions
/// with no zero component.
fn slab_f64(origin: [f32; 3], dir: [f32; 3], b: &Aabb, extent: f32) -> (f64, f64) {
    let (mut lo, mut hi) = (0f64, f64::from(extent));
    for k in 0..3 {
        let o = f64::from(origin[k]);
        let d = f64::from(dir[k]);
        let t1 = (f64::from(b.min[k]) - o) / d;
        let t2 = (f64::from(b.max[k]) - o) / d;
        lo = lo.max(t1.min(t2));
        hi = hi.min(t1.max(t2));
    }
    (lo, hi)
}

fn coord() -> impl Strategy<Value = f32> {
    (-64i32..64).prop_map(|v| v as f32 * 0.25)
}

fn direction() -> impl Strategy<Value = f32> {
    prop_oneof![
        (1i32..16).prop_map(|v| v as f32 * 0.5),
        (-16i32..-1).prop_map(|v| v as f32 * 0.5)
    ]
}

proptest! {
    /// Away from ties (the f64 entry and exit differ by more than 2^-8 relative,
    /// far above the f32 rounding of the emulation), the box test reports a hit
    /// exactly when the f64 slab test finds a non-empty interval, and its entry
    /// distance is the f64 one to within f32 rounding.
    #[test]
    fn box_hits_agree_with_an_f64_slab_test(
        origin in [coord(), coord(), coord()],
        dir in [direction(), direction(), direction()],
        lo in [coord(), coord(), coord()],
        size in [1i32..32, 1i32..32, 1i32..32],
        extent in (1i32..200).prop_map(|v| v as f32 * 0.5),
    ) {
        let b = Aabb {
            min: lo,
            max: std::array::from_fn(|k| lo[k] + size[k] as f32 * 0.25),
        };
        let ray = Ray { extent, origin, dir, inv_dir: dir.map(|d| 1.0 / d) };
        let (entry, exit) = box_interval(&ray, &b);
        let hit = box_hit(entry, exit, grow_factor(0));
        let (flo, fhi) = slab_f64(origin, dir, &b, extent);
        let scale = flo.abs().max(fhi.abs()).max(1.0);
        prop_assume!((fhi - flo).abs() > scale / 256.0);
        prop_assert_eq!(hit, flo <= fhi, "f64 [{}, {}], f32 [{}, {}]", flo, fhi, entry, exit);
        if hit {
            prop_assert!((f64::from(entry) - flo).abs() <= scale * 1e-6);
        }
    }
}
