//! Comparing a GPU run with the CPU reference (docs/gpu.md, "Diff policy").
//!
//! Registers and image memory are compared bit for bit: every operation the
//! backends share is integer or correctly rounded arithmetic done the same way
//! on both sides. Contended atomics are the exception: their GLC returns and
//! the final value of their texel are checked against some serial order of the
//! GPU's own executions ([`super::linearize`]) rather than the CPU's order.

use super::linearize::Relaxation;
use crate::cpu::{Memory, WaveState};
use crate::texture::descriptor::ImageDesc;
use serde::Serialize;

/// Mismatches reported in full (the count covers all of them).
pub const REPORT_LIMIT: usize = 64;

/// One difference between the CPU and the GPU.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Mismatch {
    /// `register` or `memory`.
    pub kind: &'static str,
    /// Register name (`v4`, `s2`, `m0`, `exec_lo`, …) for registers.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub register: Option<String>,
    /// Wave, for registers.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub wave: Option<u32>,
    /// Lane, for VGPRs.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub lane: Option<u32>,
    /// Image name, for memory.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub image: Option<String>,
    /// Byte address, for memory.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub address: Option<u64>,
    /// `[level, slice, x, y, z]` of the texel holding the byte, when it is one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub texel: Option<[u32; 5]>,
    /// The CPU's value (a dword for registers, a byte for memory).
    pub cpu: u32,
    /// The GPU's value.
    pub gpu: u32,
    /// What an `atomic_order` mismatch found.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
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
}

impl Report {
    fn push(&mut self, m: Mismatch) {
        self.count += 1;
        if self.mismatches.len() < REPORT_LIMIT {
            self.mismatches.push(m);
        }
    }
}

fn reg(name: String, wave: u32, lane: Option<u32>, cpu: u32, gpu: u32) -> Mismatch {
    Mismatch {
        kind: "register",
        register: Some(name),
        wave: Some(wave),
        lane,
        image: None,
        address: None,
        texel: None,
        cpu,
        gpu,
        note: None,
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
    let mut r = Report::default();
    let empty = Relaxation::default();
    let relax = relax.unwrap_or(&empty);
    r.atomic_texels = relax.texels;
    for f in &relax.failures {
        r.push(Mismatch {
            kind: "atomic_order",
            register: None,
            wave: None,
            lane: None,
            image: None,
            address: None,
            texel: None,
            cpu: 0,
            gpu: 0,
            note: Some(f.clone()),
        });
    }
    for (a, b) in cpu.0.iter().zip(gpu.0) {
        let w = a.wave;
        for n in 0..crate::cpu::state::SGPRS {
            if a.sgpr(n) != b.sgpr(n) {
                r.push(reg(format!("s{n}"), w, None, a.sgpr(n), b.sgpr(n)));
            }
        }
        let scalars = [
            ("m0", a.m0, b.m0),
            ("exec_lo", a.exec as u32, b.exec as u32),
            ("exec_hi", (a.exec >> 32) as u32, (b.exec >> 32) as u32),
            ("vcc_lo", a.vcc as u32, b.vcc as u32),
            ("vcc_hi", (a.vcc >> 32) as u32, (b.vcc >> 32) as u32),
        ];
        for (name, x, y) in scalars {
            if x != y {
                r.push(reg(name.into(), w, None, x, y));
            }
        }
        for n in 0..crate::cpu::state::VGPRS {
            for lane in 0..a.wave_size {
                let (x, y) = (a.vgpr(n, lane), b.vgpr(n, lane));
                if x != y && !relax.registers.contains(&(w, n, lane)) {
                    r.push(reg(format!("v{n}"), w, Some(lane), x, y));
                }
            }
        }
    }
    let (ma, mb) = (cpu.1, gpu.1);
    for (i, (&x, &y)) in ma.bytes.iter().zip(&mb.bytes).enumerate() {
        let addr = ma.base + i as u64;
        if x != y && !relax.bytes.contains(&addr) {
            let (image, texel) = locate(images, addr);
            r.push(Mismatch {
                kind: "memory",
                register: None,
                wave: None,
                lane: None,
                image,
                address: Some(addr),
                texel,
                cpu: x.into(),
                gpu: y.into(),
                note: None,
            });
        }
    }
    r
}

/// The image and texel `[level, slice, x, y, z]` a byte address falls in.
fn locate(images: &[(String, ImageDesc)], addr: u64) -> (Option<String>, Option<[u32; 5]>) {
    for (name, d) in images {
        let Ok(s) = crate::cpu::image::surface_of(d) else {
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
