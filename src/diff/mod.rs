//! Comparing a GPU run with the CPU reference (docs/gpu.md, "Diff policy").
//!
//! Registers and image memory are compared bit for bit: every operation the
//! backends share is integer or correctly rounded arithmetic done the same way
//! on both sides. Contended atomics are the exception: their GLC returns and
//! the final value of their texel are checked against some serial order of the
//! GPU's own executions ([`linearize`]) rather than the CPU's order.
//!
//! An Intel vISA launch is compared by the same rules, but reported in the
//! program's terms ([`compare_visa`], child module `visa`): GRF bytes by
//! declared variable, element and type, predicates by name.

pub mod linearize;
mod visa;

pub use visa::compare_visa;

use crate::machine::{Memory, WaveState};
use crate::texture::descriptor::ImageDesc;
use linearize::Relaxation;
use serde::Serialize;

/// Mismatches reported in full (the count covers all of them).
pub const REPORT_LIMIT: usize = 64;

/// One difference between the CPU and the GPU.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Mismatch {
    /// `register`, `lds` or `memory`; for an Intel launch also `variable`
    /// and `predicate`.
    pub kind: &'static str,
    /// Register name (`v4`, `s2`, `m0`, `exec_lo`, …) for registers.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub register: Option<String>,
    /// Wave, for registers and LDS.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub wave: Option<u32>,
    /// Lane, for VGPRs.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub lane: Option<u32>,
    /// Thread, for an Intel launch's variables, predicates and registers.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub thread: Option<u32>,
    /// Where an Intel difference lies in the program's terms.
    #[serde(flatten, skip_serializing_if = "Option::is_none")]
    pub visa: Option<VisaPlace>,
    /// Image name, for memory.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub image: Option<String>,
    /// Byte address, for memory; the byte's offset in the wave's LDS, for
    /// LDS.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub address: Option<u64>,
    /// `[level, slice, x, y, z]` of the texel holding the byte, when it is one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub texel: Option<[u32; 5]>,
    /// Intel buffer holding the byte, for memory.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub buffer: Option<String>,
    /// Byte offset in that buffer.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub offset: Option<u64>,
    /// The CPU's value as raw bits: a dword for registers, a byte for memory,
    /// an element for a vISA variable, 0 or 1 for a predicate channel.
    pub cpu: u64,
    /// The GPU's value.
    pub gpu: u64,
    /// What an `atomic_order` mismatch found.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

/// An Intel difference in the program's terms: the declared variable that
/// owns the GRF bytes (aliases resolved to it), the element's row, column and
/// index, its vISA type and the two values typed by it; or a predicate channel.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct VisaPlace {
    /// Declared variable (never an alias) or predicate name.
    pub variable: String,
    /// GRF row of the element within the variable.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub row: Option<u32>,
    /// Column (in elements) within the row.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub col: Option<u32>,
    /// Element index within the variable.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub element: Option<u32>,
    /// Channel, for a predicate.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub channel: Option<u32>,
    /// vISA type name (`f`, `hf`, `d`, …; `bool` for a predicate).
    #[serde(rename = "type")]
    pub ty: &'static str,
    /// The CPU's value typed by `ty` (a number; `"NaN"`, `"inf"`, `"-inf"`
    /// for floats JSON cannot hold; hex for types that do not execute).
    pub cpu_value: serde_json::Value,
    /// The GPU's value, typed likewise.
    pub gpu_value: serde_json::Value,
    /// Bytes per element of `ty` (the text report reads the values by it).
    #[serde(skip)]
    pub elem_bytes: u32,
    /// Aliases declared over the element's bytes.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub aliases: Vec<String>,
}

/// The result of a comparison.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Report {
    /// Number of differing register dwords and memory bytes.
    pub count: usize,
    /// The first [`REPORT_LIMIT`] of them.
    pub mismatches: Vec<Mismatch>,
    /// Contended texels whose atomics were checked against a serial order
    /// instead of lane by lane.
    pub atomic_texels: usize,
    /// True when the mismatches are in an Intel program's terms.
    #[serde(skip)]
    pub visa: bool,
}

impl Report {
    fn push(&mut self, m: Mismatch) {
        self.count += 1;
        if self.mismatches.len() < REPORT_LIMIT {
            self.mismatches.push(m);
        }
    }

    /// The `diff` object of `gcn-run --json`.
    pub fn json(&self) -> serde_json::Value {
        serde_json::json!({
            "count": self.count,
            "mismatches": self.mismatches,
            "contended_atomic_texels": self.atomic_texels,
        })
    }

    /// The text `gcn-run --diff` prints: one `DIFF` line per reported
    /// mismatch, then the verdict.
    pub fn text(&self) -> String {
        let mut text = String::new();
        for m in &self.mismatches {
            text.push_str(&format!("DIFF {m}\n"));
        }
        if self.count > self.mismatches.len() {
            text.push_str(&format!(
                "DIFF … {} more\n",
                self.count - self.mismatches.len()
            ));
        }
        if self.atomic_texels > 0 {
            text.push_str(&format!(
                "diff: {} contended texel(s): their atomics checked against a serial order of the GPU's executions\n",
                self.atomic_texels
            ));
        }
        text.push_str(&match (self.count, self.visa) {
            (0, false) => "diff: GPU equals CPU (every register of every lane, every byte of LDS and of image memory)\n".to_string(),
            (0, true) => "diff: GPU equals CPU (every variable, predicate and register of every thread, every byte of memory)\n".to_string(),
            (n, _) => format!("diff: {n} difference(s) between CPU and GPU\n"),
        });
        text
    }
}

impl std::fmt::Display for Mismatch {
    /// One line: `v4 wave 0 lane 3: cpu 0x… gpu 0x…` for AMD registers,
    /// `thread 0, variable D(1,3) element 11 (f): cpu=1.5 (0x3fc00000) gpu=…`
    /// for vISA variables, `memory 0x… image `img` …` for memory.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if let Some(note) = &self.note {
            return write!(f, "{}: {note}", self.kind);
        }
        if let Some(p) = &self.visa {
            return visa::describe(f, self.thread.unwrap_or(0), p, self.cpu, self.gpu);
        }
        if let Some(r) = &self.register {
            match self.thread {
                Some(t) => write!(f, "thread {t}, lowering register {r}")?,
                None => write!(f, "{r} wave {}", self.wave.unwrap_or(0))?,
            }
            if let Some(l) = self.lane {
                write!(f, " lane {l}")?;
            }
            return write!(f, ": cpu {:#010x} gpu {:#010x}", self.cpu, self.gpu);
        }
        if self.kind == "lds" {
            return write!(
                f,
                "lds wave {} byte {:#x}: cpu {:#04x} gpu {:#04x}",
                self.wave.unwrap_or(0),
                self.address.unwrap_or(0),
                self.cpu,
                self.gpu
            );
        }
        write!(f, "memory {:#x}", self.address.unwrap_or(0))?;
        if let Some(i) = &self.image {
            write!(f, " image `{i}`")?;
        }
        if let Some([l, sl, x, y, z]) = self.texel {
            write!(f, " level {l} slice {sl} texel ({x}, {y}, {z})")?;
        }
        if let (Some(b), Some(o)) = (&self.buffer, self.offset) {
            write!(f, " buffer `{b}` byte {o}")?;
        }
        write!(f, ": cpu {:#04x} gpu {:#04x}", self.cpu, self.gpu)
    }
}

fn reg(name: String, wave: u32, lane: Option<u32>, cpu: u32, gpu: u32) -> Mismatch {
    Mismatch {
        kind: "register",
        register: Some(name),
        wave: Some(wave),
        lane,
        cpu: cpu.into(),
        gpu: gpu.into(),
        ..Mismatch::default()
    }
}

/// Compares final wave states and memory. `images` names the image regions
/// (for reporting texel coordinates).
pub fn compare(
    cpu: (&[WaveState], &Memory),
    gpu: (&[WaveState], &Memory),
    images: &[(String, ImageDesc)],
    relax: Option<&Relaxation>,
) -> Report {
    let empty = Relaxation::default();
    let relax = relax.unwrap_or(&empty);
    let mut r = start(relax);
    for (a, b) in cpu.0.iter().zip(gpu.0) {
        registers(&mut r, a, b, relax, None);
        lds(&mut r, a, b);
    }
    memory(&mut r, cpu.1, gpu.1, images, &[], relax);
    r
}

/// A report holding the atomic-order failures of `relax`.
fn start(relax: &Relaxation) -> Report {
    let mut r = Report {
        atomic_texels: relax.texels,
        ..Report::default()
    };
    for f in &relax.failures {
        r.push(Mismatch {
            kind: "atomic_order",
            note: Some(f.clone()),
            ..Mismatch::default()
        });
    }
    r
}

/// What an Intel comparison already reported in the program's terms: per
/// GRF dword (`v * 32 + lane` order of [`crate::ir::visa::grf_slot`]) the
/// mask of its bytes that variables cover, and the predicate SGPRs.
struct Named<'a> {
    covered: &'a [u32],
    predicate_sgprs: &'a [u32],
}

/// Registers of one wave: every SGPR, the scalar registers (SCC and MODE
/// included), every VGPR of every lane. With `named` (an Intel thread),
/// predicate SGPRs and the GRF bytes of variables are left out (compared by
/// name) and the rest is reported as the lowering's registers of the thread.
fn registers(
    r: &mut Report,
    a: &WaveState,
    b: &WaveState,
    relax: &Relaxation,
    named: Option<&Named>,
) {
    let w = a.wave;
    let mut push = |name: String, lane: Option<u32>, x: u32, y: u32| {
        let mut m = reg(name, w, lane, x, y);
        if named.is_some() {
            (m.wave, m.thread) = (None, Some(w));
        }
        r.push(m);
    };
    for n in 0..crate::machine::state::SGPRS {
        if named.is_some_and(|v| v.predicate_sgprs.contains(&n)) {
            continue;
        }
        if a.sgpr(n) != b.sgpr(n) {
            push(format!("s{n}"), None, a.sgpr(n), b.sgpr(n));
        }
    }
    let scalars = [
        ("m0", a.m0, b.m0),
        ("exec_lo", a.exec as u32, b.exec as u32),
        ("exec_hi", (a.exec >> 32) as u32, (b.exec >> 32) as u32),
        ("vcc_lo", a.vcc as u32, b.vcc as u32),
        ("vcc_hi", (a.vcc >> 32) as u32, (b.vcc >> 32) as u32),
        ("scc", u32::from(a.scc), u32::from(b.scc)),
        ("mode", a.mode, b.mode),
    ];
    for (name, x, y) in scalars {
        if x != y {
            push(name.into(), None, x, y);
        }
    }
    for n in 0..crate::machine::state::VGPRS {
        for lane in 0..a.wave_size {
            let (x, y) = (a.vgpr(n, lane), b.vgpr(n, lane));
            let dword = (n * a.wave_size + lane) as usize;
            let covered = named.and_then(|v| v.covered.get(dword)).copied();
            let differs = (x ^ y) & !covered.unwrap_or(0) != 0;
            if differs && !relax.registers.contains(&(w, n, lane)) {
                push(format!("v{n}"), Some(lane), x, y);
            }
        }
    }
}

/// Every byte of one wave's LDS. A workgroup's LDS ends with its first
/// wave on both back ends (`cpu::run_group`, the runtime's read-back), so
/// the bytes compare wave by wave; LDS of different sizes is one mismatch
/// saying so, and the bytes both hold are compared.
fn lds(r: &mut Report, a: &WaveState, b: &WaveState) {
    if a.lds.len() != b.lds.len() {
        r.push(Mismatch {
            kind: "lds",
            wave: Some(a.wave),
            note: Some(format!(
                "wave {} holds {} bytes of LDS on the CPU, {} on the GPU",
                a.wave,
                a.lds.len(),
                b.lds.len()
            )),
            ..Mismatch::default()
        });
    }
    for (i, (&x, &y)) in a.lds.iter().zip(&b.lds).enumerate() {
        if x != y {
            r.push(Mismatch {
                kind: "lds",
                wave: Some(a.wave),
                address: Some(i as u64),
                cpu: x.into(),
                gpu: y.into(),
                ..Mismatch::default()
            });
        }
    }
}

/// Every byte of memory; `buffers` (`name`, base, bytes) name Intel buffers.
fn memory(
    r: &mut Report,
    ma: &Memory,
    mb: &Memory,
    images: &[(String, ImageDesc)],
    buffers: &[(&str, u64, u64)],
    relax: &Relaxation,
) {
    for (i, (&x, &y)) in ma.bytes.iter().zip(&mb.bytes).enumerate() {
        let addr = ma.base + i as u64;
        if x != y && !relax.bytes.contains(&addr) {
            let (image, texel) = locate(images, addr);
            let buffer = buffers
                .iter()
                .find(|(_, base, n)| (*base..base + n).contains(&addr));
            r.push(Mismatch {
                kind: "memory",
                image,
                address: Some(addr),
                texel,
                buffer: buffer.map(|b| b.0.to_string()),
                offset: buffer.map(|b| addr - b.1),
                cpu: x.into(),
                gpu: y.into(),
                ..Mismatch::default()
            });
        }
    }
}

/// The image and texel `[level, slice, x, y, z]` a byte address falls in.
fn locate(images: &[(String, ImageDesc)], addr: u64) -> (Option<String>, Option<[u32; 5]>) {
    for (name, d) in images {
        let Ok(s) = crate::texture::resource::surface_of(d) else {
            continue;
        };
        let Some(rel) = addr.checked_sub(d.base_address) else {
            continue;
        };
        if rel >= s.total_bytes().unwrap_or(0) {
            continue;
        }
        for m in 0..s.levels {
            let (Some(lo), Some(len), Some(plane)) =
                (s.level_offset(m), s.level_bytes(m), s.slice_pitch(m))
            else {
                break;
            };
            if rel < lo || rel >= lo + len {
                continue;
            }
            let (_, _, depth) = s.level_dims(m);
            let in_level = rel - lo;
            let p = in_level / plane.max(1);
            let (slice, z) = ((p / u64::from(depth)) as u32, (p % u64::from(depth)) as u32);
            let row = s.row_pitch(m).max(1);
            let y = ((in_level % plane.max(1)) / row) as u32;
            let x = ((in_level % row) / u64::from(s.bpe.max(1))) as u32;
            return (Some(name.clone()), Some([m, slice, x, y, z]));
        }
        return (Some(name.clone()), None);
    }
    (None, None)
}
