//! Intel cube surfaces (docs/semantics/intel.md, "CUBE surfaces"):
//! the direction → face conversion on the GPU equals the CPU bit for bit on
//! directions chosen to be hard (ties, ±0, denormals, infinities, NaNs,
//! extreme exponents, magnitudes a few ulps apart), and what a cube does not
//! model is refused by name with exit code 2.

mod common;

use gcnrun::gpu;
use gcnrun::launch::run::{prepare_manifest, run_diff, Prepared};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

const BIN: &str = env!("CARGO_BIN_EXE_gcn-run");

fn scratch() -> PathBuf {
    let d = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("visa_cube");
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// A SIMD32 kernel: `op` on cube surface T6 (binding 0) with sampler S0, the
/// parameters U V R AI (f), the result in D.
fn kernel(op: &str) -> String {
    format!(
        ".version 4.1\n.kernel \"k\"\n.decl U v_type=G type=f num_elts=32 align=GRF\n.decl V v_type=G type=f num_elts=32 align=GRF\n.decl R v_type=G type=f num_elts=32 align=GRF\n.decl AI v_type=G type=f num_elts=32 align=GRF\n.decl I v_type=G type=d num_elts=32 align=GRF\n.decl D v_type=G type=f num_elts=128 align=GRF\n.decl S0 v_type=S num_elts=1\n.decl T6 v_type=T num_elts=1\n.input U offset=32 size=128\n.input V offset=160 size=128\n.input R offset=288 size=128\n.input AI offset=416 size=128\n.kernel_attr SimdSize=32\n    movs (M1_NM, 1) S0(0) 0x0:ud\n    movs (M1_NM, 1) T6(0) 0x0:ud\n    {op}\n    ret (M1, 1)\n"
    )
}

const SAMPLE: &str = "sample_lz.RGBA (M1, 32) 0x0:uw S0 T6 D.0 U.0 V.0 R.0 AI.0";

/// A manifest for `kernel`: an 4×4 RGBA32F cube array of 3 cubes with noise,
/// sampler `s` with `address` and a linear filter, the inputs as raw bits.
fn manifest(address: &str, image_type: &str, inputs: &str) -> String {
    format!(
        "code = \"k.visaasm\"\n[intel]\nsimd = 32\nbinding_table = {{ 0 = \"img\" }}\nsampler_table = {{ 0 = \"s\" }}\n[intel.input]\n{inputs}[[image]]\nname = \"img\"\ntype = \"{image_type}\"\nwidth = 4\nheight = 4\nlayers = 3\nformat = \"32_32_32_32\"\nnum_format = \"float\"\ninit = \"noise\"\n[[sampler]]\nname = \"s\"\nfilter = {{ mag = \"linear\", min = \"linear\", mip = \"none\" }}\naddress = {address}\n"
    )
}

const CUBE: &str = "[\"cube\", \"cube\", \"cube\"]";
const CLAMP: &str = "[\"clamp_last_texel\", \"clamp_last_texel\", \"clamp_last_texel\"]";

fn write(name: &str, code: &str, manifest: &str) -> PathBuf {
    let dir = scratch().join(name);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("k.visaasm"), code).unwrap();
    let m = dir.join("k.toml");
    std::fs::write(&m, manifest).unwrap();
    m
}

fn prepare(path: &Path) -> Prepared {
    prepare_manifest(path, None, None, None).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// xorshift64*: a fixed sequence per seed.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn pick<T: Copy>(&mut self, xs: &[T]) -> T {
        xs[(self.next() % xs.len() as u64) as usize]
    }
}

/// Hard f32 bit patterns: specials, denormals, extreme and ordinary
/// exponents.
fn hard_value(r: &mut Rng) -> u32 {
    let sign = (r.next() as u32 & 1) << 31;
    let m = r.next() as u32 & 0x7f_ffff;
    sign | match r.next() % 8 {
        0 => r.pick(&[0, 0x7f80_0000, 0x7fc0_0000, 0x7f80_0001, 1, 0x7f_ffff]),
        1 => m,                                             // denormal
        2 => (r.pick(&[1u32, 2, 250, 253, 254]) << 23) | m, // extreme exponents
        _ => ((120 + (r.next() % 16) as u32) << 23) | m,    // around 1
    }
}

/// One lane's (x, y, z, ai) bits: random, a tie between two or three axes
/// (same magnitude, independent signs), or magnitudes one ulp apart.
fn direction(r: &mut Rng) -> [u32; 4] {
    let mut v = [hard_value(r), hard_value(r), hard_value(r), 0];
    let (a, b) = (r.next() as usize % 3, r.next() as usize % 3);
    match r.next() % 4 {
        0 => v[b] = (v[b] & 0x8000_0000) | (v[a] & 0x7fff_ffff),
        1 => {
            for k in 0..3 {
                v[k] = (v[k] & 0x8000_0000) | (v[a] & 0x7fff_ffff);
            }
        }
        2 => v[b] = (v[a] & 0x7fff_ffff).wrapping_add(1) | (v[b] & 0x8000_0000),
        _ => {}
    }
    // ai: a float index around 0..3 (halves included), or a hard value.
    v[3] = if r.next() & 3 == 0 {
        hard_value(r)
    } else {
        ((r.next() % 16) as f32 / 4.0 - 0.5).to_bits()
    };
    v
}

fn random_launch(seed: u64, address: &str) -> PathBuf {
    let mut r = Rng(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1);
    let lanes: Vec<[u32; 4]> = (0..32).map(|_| direction(&mut r)).collect();
    let mut inputs = String::new();
    for (k, name) in ["U", "V", "R", "AI"].iter().enumerate() {
        let bits: Vec<String> = lanes.iter().map(|l| l[k].to_string()).collect();
        // Raw bits: the payload writes the manifest type's bytes.
        writeln!(inputs, "{name} = {{ ud = [{}] }}", bits.join(", ")).unwrap();
    }
    write(
        &format!("random_{seed}_{}", address.len()),
        &kernel(SAMPLE),
        &manifest(address, "cube", &inputs),
    )
}

/// Every lane's staged cube address (the lowering registers above the GRF, which
/// `--diff` compares) and every result equal on the GPU and the CPU.
#[test]
fn random_directions_equal_the_cpu() {
    let launches: Vec<PathBuf> = (0..12)
        .map(|seed| random_launch(seed, if seed & 1 == 0 { CUBE } else { CLAMP }))
        .collect();
    // The modules validate without a GPU.
    for m in &launches {
        let p = prepare(m);
        let tr = gpu::translate::translate(&p.prog, &p.waves, &p.memory)
            .unwrap_or_else(|e| panic!("{}: {e}", m.display()));
        for k in &tr.kernels {
            assert!(k.wgsl.contains("fn cube_address("));
            if let Err(e) = gpu::wgsl::validate(&k.wgsl) {
                panic!("{}: {e}", m.display());
            }
        }
    }
    let Some(g) = common::gpu::gpu("random_directions_equal_the_cpu") else {
        return;
    };
    for m in &launches {
        let d = run_diff(prepare(m), g).unwrap_or_else(|e| panic!("{}: {e:?}", m.display()));
        assert_eq!(
            d.report.count,
            0,
            "{}: first {:?}",
            m.display(),
            d.report.mismatches.first()
        );
    }
}

/// One stderr line, exit 2, naming what is wrong.
fn bad(name: &str, code: &str, manifest: &str, needles: &[&str]) {
    let m = write(name, code, manifest);
    let out = Command::new(BIN).arg(&m).output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{name}: {err}");
    assert_eq!(err.lines().count(), 1, "{name}: {err}");
    for n in needles {
        assert!(err.contains(n), "{name}: {err} lacks {n}");
    }
}

#[test]
fn what_a_cube_does_not_model_is_refused_by_name() {
    let inputs = "U = { f = 1.0 }\n";
    let cube = |op: &str| kernel(op);
    // The kernel's instruction is line 18.
    bad(
        "load",
        &cube("load_lz.R (M1, 32) 0x0:uw T6 D.0 I.0 I.0 I.0"),
        &manifest(CUBE, "cube", inputs),
        &["line 18", "load_lz", "CUBE", "3D_LOAD"],
    );
    bad(
        "sample_d",
        &cube("sample_d.R (M1, 32) 0x0:uw S0 T6 D.0 U.0 U.0 U.0 V.0 V.0 V.0 R.0 R.0 R.0"),
        &manifest(CUBE, "cube", inputs),
        &["line 18", "sample_d", "gradients"],
    );
    bad(
        "aoffimmi",
        &cube("sample_lz.R (M1, 32) 0x111:uw S0 T6 D.0 U.0 V.0 R.0"),
        &manifest(CUBE, "cube", inputs),
        &["line 18", "aoffimmi"],
    );
    bad(
        "wrap",
        &kernel(SAMPLE),
        &manifest("[\"wrap\", \"wrap\", \"wrap\"]", "cube", inputs),
        &["line 18", "`cube`", "clamp_last_texel"],
    );
    bad(
        "cube_on_2d",
        &kernel(SAMPLE),
        &manifest(CUBE, "2d_array", inputs),
        &["line 18", "address mode `cube`", "not a CUBE"],
    );
    bad(
        "one_axis",
        &kernel(SAMPLE),
        &manifest("[\"cube\", \"clamp_last_texel\", \"cube\"]", "cube", inputs),
        &["sampler[0].address", "all three axes"],
    );
    bad(
        "seamless",
        &kernel(SAMPLE),
        &format!("{}seamless = false\n", manifest(CLAMP, "cube", inputs)),
        &["sampler[0].seamless", "address mode `cube`"],
    );
}
