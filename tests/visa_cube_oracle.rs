//! An independent check of gcnrun's Intel cube-direction rule
//! (`texture::sample::cube_direction`: face by major axis, sc/tc from the
//! GL/Vulkan table, s' = 1.5 + sc / (2 |ma|)): the same directions sampled by
//! a real vISA program on gcnrun's CPU (`sample_lz` / `sample_l` on a CUBE
//! surface, lowered through `VisaOp::StageCube`) and by the adapter's own
//! sampler (`oracle::native`, Mesa lavapipe in CI: `textureSampleLevel` on a
//! `texture_cube` / `texture_cube_array` with the direction vector).
//!
//! Every texel holds a code no other texel has (`r32float`:
//! ((cube · 6 + face) · side + y) · side + x), so a point sample names the face,
//! row, column and cube it read, and a wrong face, sign, transposition or cube
//! index changes the value. Directions are drawn per face (major axis and
//! sign), with magnitudes over 2^±20, and kept a margin away from texel
//! boundaries, face edges and major-axis ties — the drawing needs no face
//! table: the margins are symmetric in both minor components and their signs.
//! Away from those, Vulkan and gcnrun must pick the same texel whatever their
//! arithmetic precision, so point samples must be bit-identical; bilinear
//! samples stay a texel inside the face (no seamless crossing) and must agree
//! within the weight precision (see [`bilinear_tolerance`]). The cube index
//! goes to Intel as a float a fraction off the integer (the rounding rule),
//! to the native side as the integer.
//!
//! Without an adapter the tests fail under `CI=true` and otherwise print
//! `SKIPPED` with the reason.

mod common;

use common::gpu::gpu;
use common::launches::prepare_text;
use gcnrun::gpu::Gpu;
use gcnrun::launch::run::run_cpu;
use gcnrun::oracle::native::{
    self, NativeAddress, NativeDim, NativeFormat, NativeImage, NativeLane, NativeOp, NativeSampler,
};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::path::PathBuf;

/// SIMD width of the vISA kernel (lanes per thread).
const SIMD: usize = 32;

/// The vISA kernel: one 3D_SAMPLE per lane on cube surface T6 (binding 0) with
/// sampler S0; parameters U, V, R (the direction), AI (cube index), L (LOD,
/// `sample_l` only); the result's R, G, B, A blocks in D.
fn kernel(explicit_lod: bool) -> String {
    let op = if explicit_lod {
        "sample_l.RGBA (M1, 32) 0x0:uw S0 T6 D.0 L.0 U.0 V.0 R.0 AI.0"
    } else {
        "sample_lz.RGBA (M1, 32) 0x0:uw S0 T6 D.0 U.0 V.0 R.0 AI.0"
    };
    let mut k = String::from(".version 4.1\n.kernel \"cube_oracle\"\n");
    for v in ["U", "V", "R", "AI", "L"] {
        k += &format!(".decl {v} v_type=G type=f num_elts=32 align=GRF\n");
    }
    k += ".decl D v_type=G type=f num_elts=128 align=GRF\n";
    k += ".decl S0 v_type=S num_elts=1\n.decl T6 v_type=T num_elts=1\n";
    for (i, v) in ["U", "V", "R", "AI", "L"].iter().enumerate() {
        k += &format!(".input {v} offset={} size=128\n", 32 + 128 * i);
    }
    k += ".kernel_attr SimdSize=32\n";
    k += "    movs (M1_NM, 1) S0(0) 0x0:ud\n    movs (M1_NM, 1) T6(0) 0x0:ud\n";
    k += &format!("    {op}\n    ret (M1, 1)\n");
    k
}

/// One oracle run: a cube or cube array of `side`² texels per face, point or
/// bilinear filtering at LOD 0, `threads` × 32 directions.
#[derive(Clone, Copy, Debug)]
struct Family {
    name: &'static str,
    side: u32,
    cubes: u32,
    bilinear: bool,
    threads: usize,
    /// Negative control: the native side gets the direction with its first
    /// minor component negated (what a sign flip in the face table does).
    mirror_native: bool,
}

/// The image: every texel its own code.
fn image(f: &Family) -> NativeImage {
    let faces = 6 * f.cubes;
    let n = faces * f.side * f.side;
    let texels: Vec<u8> = (0..n).flat_map(|c| (c as f32).to_le_bytes()).collect();
    NativeImage {
        dim: if f.cubes == 1 {
            NativeDim::Cube
        } else {
            NativeDim::CubeArray
        },
        format: NativeFormat::R32Float,
        width: f.side,
        height: f.side,
        layers: faces,
        levels: vec![texels],
    }
}

/// The face, row, column and cube a code names (for failure messages).
fn decode(code: f32, side: u32) -> String {
    if code.is_nan() || code < 0.0 || code.fract() != 0.0 {
        return format!("{code} (not a texel code)");
    }
    let c = code as u32;
    let (x, y, slice) = (c % side, c / side % side, c / (side * side));
    format!(
        "{code} = cube {} face {} (x {x}, y {y})",
        slice / 6,
        slice % 6
    )
}

/// Margin from texel boundaries (point) in texels: far beyond any sampler's
/// coordinate error at these sizes (lavapipe: f32 arithmetic, 8 subtexel
/// bits), so both sides must pick the same texel.
const POINT_MARGIN: f64 = 1.0 / 32.0;

/// A direction on a random face: major axis and sign drawn uniformly, |ma| in
/// 2^[-20, 20], the minor components uniform in (−|ma|, |ma|), kept where
/// each minor component's face-local texel coordinate t = (m / |ma| + 1) / 2 ·
/// side is `POINT_MARGIN` away from an integer (point: texel boundaries and,
/// at 0 and side, face edges and ties), or inside [1, side − 1] (bilinear:
/// the 2×2 footprint stays on the face, with half a texel to spare).
fn direction(rng: &mut ChaCha8Rng, side: u32, bilinear: bool) -> ([f32; 3], usize) {
    loop {
        let axis = rng.gen_range(0..3);
        let negative = rng.gen_bool(0.5);
        let ma = 2f32.powi(rng.gen_range(-20..=20)) * rng.gen_range(1.0f32..2.0);
        let mut d = [0.0f32; 3];
        for (k, v) in d.iter_mut().enumerate() {
            *v = if k == axis {
                if negative {
                    -ma
                } else {
                    ma
                }
            } else {
                rng.gen_range(-1.0f32..1.0) * ma
            };
        }
        let ok = (0..3).filter(|&k| k != axis).all(|k| {
            let t = (f64::from(d[k]) / f64::from(ma) + 1.0) / 2.0 * f64::from(side);
            if bilinear {
                (1.0..=f64::from(side) - 1.0).contains(&t)
            } else {
                let frac = t - t.floor();
                (POINT_MARGIN..=1.0 - POINT_MARGIN).contains(&frac)
            }
        });
        if ok {
            return (d, 2 * axis + usize::from(negative));
        }
    }
}

/// How far a bilinear result may be from the other side's: the result is
/// multilinear in the two weights, whose slope is at most `spread` (the
/// footprint's largest difference of codes along a row or column: side + 1);
/// each side's weight is within 2^-8 of exact (gcnrun's 1/256 subtexel grid,
/// lavapipe's 8 subtexel bits), so the weights differ by at most 2 · 2^-8 per
/// axis; plus f32 rounding of the lerps (codes < 2^13: a few 2^-10).
fn bilinear_tolerance(side: u32) -> f32 {
    let spread = f64::from(side + 1);
    (spread * 2.0 * (2.0 * 2f64.powi(-8)) + 2f64.powi(-8)) as f32
}

fn scratch() -> PathBuf {
    let d = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("visa_cube_oracle");
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// Runs the directions through the vISA program on gcnrun's CPU; per
/// direction the (R, G, B, A) it returns.
fn run_visa(f: &Family, im: &NativeImage, dirs: &[[f32; 3]], ai: &[f32]) -> Vec<[f32; 4]> {
    let code = scratch().join(format!("{}.visaasm", f.name.replace(' ', "_")));
    std::fs::write(&code, kernel(f.bilinear)).unwrap();
    let filter = if f.bilinear { "linear" } else { "point" };
    let manifest = format!(
        "code = \"{code}\"\nthreads = {threads}\n[intel]\nsimd = 32\n\
         binding_table = {{ 0 = \"img\" }}\nsampler_table = {{ 0 = \"s\" }}\n\
         [[image]]\nname = \"img\"\ntype = \"cube\"\nwidth = {side}\nheight = {side}\n\
         layers = {cubes}\nformat = \"32\"\nnum_format = \"float\"\ninit = \"zero\"\n\
         [[sampler]]\nname = \"s\"\nfilter = {{ mag = \"{filter}\", min = \"{filter}\", mip = \"point\" }}\n\
         address = [\"cube\", \"cube\", \"cube\"]\n",
        code = code.display(),
        threads = f.threads,
        side = f.side,
        cubes = f.cubes,
    );
    let mut p = prepare_text(
        &format!("cube_oracle_{}", f.name.replace(' ', "_")),
        &manifest,
    );
    // The texels, at the surface's own offsets (slice = 6 · cube + face).
    let desc = p.images[0].desc;
    let surf = gcnrun::texture::resource::surface_of(&desc).unwrap();
    let bpt = im.format.bytes();
    for slice in 0..im.layers {
        for y in 0..im.height {
            for x in 0..im.width {
                let at = (((slice * im.height + y) * im.width + x) as usize) * bpt;
                let off = surf.texel_offset(0, slice, x, y, 0).unwrap();
                p.memory
                    .write(desc.base_address + off, &im.levels[0][at..at + bpt]);
            }
        }
    }
    // The payload: each thread's 32 lanes of U, V, R, AI (L stays 0).
    let layout = p.visa.as_ref().unwrap().layout.clone();
    let var = |n: &str| layout.var(n).unwrap().byte;
    let (u, v, r, a) = (var("U"), var("V"), var("R"), var("AI"));
    for (i, d) in dirs.iter().enumerate() {
        let w = &mut p.waves[i / SIMD];
        let lane = 4 * (i % SIMD) as u32;
        for (at, x) in [(u, d[0]), (v, d[1]), (r, d[2]), (a, ai[i])] {
            w.set_grf_bits(at + lane, 4, u64::from(x.to_bits()));
        }
    }
    let out = run_cpu(p).unwrap_or_else(|e| panic!("{}: {e}", f.name));
    let d = layout.var("D").unwrap().byte;
    (0..dirs.len())
        .map(|i| {
            let w = &out.waves[i / SIMD];
            // SIMD32 RGBA: four 32-element blocks, R first.
            [0u32, 1, 2, 3].map(|ch| {
                let b = d + 4 * (ch * SIMD as u32 + (i % SIMD) as u32);
                f32::from_bits(w.grf_bits(b, 4) as u32)
            })
        })
        .collect()
}

/// Agreement of one family.
struct Tally {
    samples: usize,
    agree: usize,
    per_face: [usize; 6],
    /// Largest |native − gcnrun| of R among agreeing directions.
    largest: f32,
    first: Vec<String>,
}

fn run_family(g: &Gpu, f: &Family, seed: u64) -> Tally {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let im = image(f);
    let n = f.threads * SIMD;
    let mut dirs = Vec::with_capacity(n);
    let mut faces = Vec::with_capacity(n);
    let mut cubes = Vec::with_capacity(n);
    let mut ai = Vec::with_capacity(n);
    for _ in 0..n {
        let (d, face) = direction(&mut rng, f.side, f.bilinear);
        let c = rng.gen_range(0..f.cubes);
        dirs.push(d);
        faces.push(face);
        cubes.push(c);
        // Intel rounds the float index to nearest (coord::array_slice).
        ai.push(c as f32 + rng.gen_range(-0.4f32..0.4));
    }
    let cpu = run_visa(f, &im, &dirs, &ai);
    let lanes: Vec<NativeLane> = dirs
        .iter()
        .zip(&faces)
        .zip(&cubes)
        .map(|((d, &face), &c)| {
            let mut coords = *d;
            if f.mirror_native {
                let minor = if face / 2 == 0 { 1 } else { 0 };
                coords[minor] = -coords[minor];
            }
            NativeLane {
                coords,
                layer: c as i32,
                lod: 0.0,
                ..Default::default()
            }
        })
        .collect();
    let sampler = NativeSampler {
        mag_linear: f.bilinear,
        min_linear: f.bilinear,
        mip_linear: false,
        address: [NativeAddress::ClampToEdge; 3],
        ..Default::default()
    };
    let nat = native::sample(g, &im, &sampler, NativeOp::SampleLevel, &lanes)
        .unwrap_or_else(|e| panic!("{}: {e}", f.name));
    let tol = if f.bilinear {
        bilinear_tolerance(f.side)
    } else {
        0.0
    };
    let mut t = Tally {
        samples: n,
        agree: 0,
        per_face: [0; 6],
        largest: 0.0,
        first: Vec::new(),
    };
    for i in 0..n {
        t.per_face[faces[i]] += 1;
        let (a, b) = (nat[i], cpu[i]);
        // R: the code (exact for point); G, B, A: r32float's 0, 0, 1.
        let same = if f.bilinear {
            (a[0] - b[0]).abs() <= tol && a[1..] == b[1..]
        } else {
            a.map(f32::to_bits) == b.map(f32::to_bits)
        };
        if same {
            t.agree += 1;
            t.largest = t.largest.max((a[0] - b[0]).abs());
        } else if t.first.len() < 5 {
            t.first.push(format!(
                "direction {:?} (cube {}, ai {}): native {:?} [{}], gcnrun {:?} [{}]",
                dirs[i],
                cubes[i],
                ai[i],
                a,
                decode(a[0], f.side),
                b,
                decode(b[0], f.side)
            ));
        }
    }
    t
}

fn check(test: &str, f: Family, seed: u64) {
    let Some(g) = gpu(test) else { return };
    let t = run_family(g, &f, seed);
    println!(
        "{}: {} of {} directions agree on {} (per face +X..−Z: {:?}{})",
        f.name,
        t.agree,
        t.samples,
        gcnrun::gpu::device::describe(&g.info),
        t.per_face,
        if f.bilinear {
            format!(
                ", largest difference {} within tolerance {}",
                t.largest,
                bilinear_tolerance(f.side)
            )
        } else {
            String::new()
        }
    );
    assert!(
        t.samples >= 1000,
        "{}: only {} directions",
        f.name,
        t.samples
    );
    assert!(
        t.per_face.iter().all(|&c| c * 8 >= t.samples),
        "{}: a face is under-drawn: {:?}",
        f.name,
        t.per_face
    );
    assert!(
        t.agree == t.samples,
        "{}: {} of {} directions disagree with the native sampler; first:\n{}",
        f.name,
        t.samples - t.agree,
        t.samples,
        t.first.join("\n")
    );
}

const SEED: u64 = 0x6375_6265;

#[test]
fn point_cube_matches_native() {
    check(
        "point_cube_matches_native",
        Family {
            name: "sample_lz point cube 16",
            side: 16,
            cubes: 1,
            bilinear: false,
            threads: 128,
            mirror_native: false,
        },
        SEED,
    );
}

#[test]
fn point_cube_array_matches_native() {
    check(
        "point_cube_array_matches_native",
        Family {
            name: "sample_lz point cube array 3x7",
            side: 7,
            cubes: 3,
            bilinear: false,
            threads: 64,
            mirror_native: false,
        },
        SEED + 1,
    );
}

#[test]
fn bilinear_cube_matches_native() {
    check(
        "bilinear_cube_matches_native",
        Family {
            name: "sample_l bilinear cube 16",
            side: 16,
            cubes: 1,
            bilinear: true,
            threads: 64,
            mirror_native: false,
        },
        SEED + 2,
    );
}

#[test]
fn bilinear_cube_array_matches_native() {
    check(
        "bilinear_cube_array_matches_native",
        Family {
            name: "sample_l bilinear cube array 2x8",
            side: 8,
            cubes: 2,
            bilinear: true,
            threads: 32,
            mirror_native: false,
        },
        SEED + 3,
    );
}

/// The oracle can fail: the native side sampling the mirror image of each
/// direction in one minor component (a sign flipped in the face table) must
/// disagree on nearly every direction (an even side has no texel on the
/// mirror line).
#[test]
fn a_mirrored_direction_is_caught() {
    let Some(g) = gpu("a_mirrored_direction_is_caught") else {
        return;
    };
    for bilinear in [false, true] {
        let f = Family {
            name: "mirrored native direction",
            side: 16,
            cubes: 1,
            bilinear,
            threads: 8,
            mirror_native: true,
        };
        let t = run_family(g, &f, SEED + 4);
        println!(
            "{} ({}): {} of {} agree",
            f.name,
            if bilinear { "bilinear" } else { "point" },
            t.agree,
            t.samples
        );
        assert!(
            t.agree * 10 < t.samples,
            "{} of {} directions agree with a mirrored direction",
            t.agree,
            t.samples
        );
    }
}
