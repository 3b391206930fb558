//! From a validated [`Launch`] to the initial wave states, and the `[expect]`
//! check after a run.

use super::expr::LaneVars;
use super::manifest::{Expect, Launch, ManifestError, SgprInit, VgprInit};
use super::regs::RegRange;
use crate::cpu::WaveState;
use crate::texture::descriptor::{encode_sampler, SamplerDesc};

fn err(field: String, message: impl Into<String>) -> ManifestError {
    ManifestError {
        field,
        message: message.into(),
    }
}

/// The S# a manifest sampler stands for (sampling.md §2.1; LOD range 0–15.996
/// as drivers program it by default).
pub fn sampler_desc(s: &super::manifest::SamplerSpec) -> SamplerDesc {
    SamplerDesc {
        clamp: s.address,
        max_aniso: 0,
        compare: s.compare,
        force_unnormalized: false,
        force_degamma: false,
        disable_cube_wrap: false,
        filter_mode: 0,
        min_lod: 0,
        max_lod: 0xfff,
        lod_bias: 0,
        mag_filter: s.mag,
        min_filter: s.min,
        z_filter: 0,
        mip_filter: s.mip,
        border_ptr: 0,
        border_type: s.border,
    }
}

/// Builds every wave's initial state. Images named in `[sgpr]` are not placed
/// in memory yet (they come with the image operations): such a manifest is
/// refused with the field that names the image.
pub fn initial_waves(l: &Launch, lds_bytes: u32) -> Result<Vec<WaveState>, ManifestError> {
    let mut waves = Vec::with_capacity(l.waves.min(1 << 16) as usize);
    for wave in 0..l.waves {
        let mut w = WaveState::new(wave, l.wave_size, lds_bytes);
        for (reg, init) in &l.sgpr {
            let field = format!("sgpr.\"{reg}\"");
            let dwords: Vec<u32> = match init {
                SgprInit::Dwords(d) => d.clone(),
                SgprInit::Sampler(name) => {
                    let s = l.samplers.iter().find(|s| &s.name == name).ok_or_else(|| err(field.clone(), "unknown sampler"))?;
                    encode_sampler(&sampler_desc(s)).to_vec()
                }
                SgprInit::Image(name) => {
                    return Err(err(field, format!("image `{name}`: placing images in memory comes with the image operations (not built yet)")))
                }
            };
            write_scalar(&mut w, *reg, &dwords);
        }
        for (reg, init) in &l.vgpr {
            let RegRange::Vgpr { first, count } = *reg else {
                continue;
            };
            let field = format!("vgpr.\"{reg}\"");
            for lane in 0..l.wave_size {
                let vars = LaneVars {
                    lane,
                    wave,
                    wave_size: l.wave_size,
                };
                for k in 0..count {
                    let v = match init {
                        VgprInit::Consts(c) => c.get(k as usize).copied().unwrap_or(0),
                        VgprInit::U32(e) => e.eval_u32(vars).map_err(|m| err(field.clone(), m))?,
                        VgprInit::F32(e) => {
                            e.eval_f32_bits(vars).map_err(|m| err(field.clone(), m))?
                        }
                    };
                    w.set_vgpr(first + k, lane, v);
                }
            }
        }
        for (offset, values) in &l.lds {
            for (k, v) in values.iter().enumerate() {
                let at = *offset as usize + 4 * k;
                if let Some(dst) = w.lds.get_mut(at..at + 4) {
                    dst.copy_from_slice(&v.to_le_bytes());
                } else {
                    return Err(err(format!("lds.\"{offset:#x}\""), "past the LDS"));
                }
            }
        }
        waves.push(w);
    }
    Ok(waves)
}

fn write_scalar(w: &mut WaveState, reg: RegRange, d: &[u32]) {
    let lo = d.first().copied().unwrap_or(0);
    let hi = d.get(1).copied().unwrap_or(0);
    match reg {
        RegRange::Sgpr { first, count } => {
            for k in 0..count {
                w.set_sgpr(first + k, d.get(k as usize).copied().unwrap_or(0));
            }
        }
        RegRange::M0 => w.m0 = lo,
        RegRange::Exec => w.exec = u64::from(lo) | (u64::from(hi) << 32),
        RegRange::Vcc => w.vcc = u64::from(lo) | (u64::from(hi) << 32),
        RegRange::Vgpr { .. } => {}
    }
}

/// Reads the values of `reg` for one lane (scalar registers ignore the lane).
pub fn read(w: &WaveState, reg: RegRange, lane: u32) -> Vec<u32> {
    match reg {
        RegRange::Sgpr { first, count } => (first..first + count).map(|n| w.sgpr(n)).collect(),
        RegRange::Vgpr { first, count } => {
            (first..first + count).map(|n| w.vgpr(n, lane)).collect()
        }
        RegRange::M0 => vec![w.m0],
        RegRange::Exec => vec![w.exec as u32, (w.exec >> 32) as u32],
        RegRange::Vcc => vec![w.vcc as u32, (w.vcc >> 32) as u32],
    }
}

/// One failed expectation.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Mismatch {
    /// Register as written in the manifest.
    pub register: String,
    /// Wave.
    pub wave: u32,
    /// Lane.
    pub lane: u32,
    /// Expected raw values.
    pub expected: Vec<u32>,
    /// Actual raw values.
    pub actual: Vec<u32>,
}

/// ULP distance between two f32 bit patterns (monotonic integer mapping).
fn ulp_distance(a: u32, b: u32) -> u64 {
    let key = |x: u32| -> i64 {
        if x & 0x8000_0000 != 0 {
            -i64::from(x & 0x7fff_ffff)
        } else {
            i64::from(x)
        }
    };
    key(a).abs_diff(key(b))
}

/// Checks every `[expect]` entry against the final states.
pub fn check(expects: &[Expect], waves: &[WaveState]) -> Vec<Mismatch> {
    let mut out = Vec::new();
    for e in expects {
        for w in waves.iter().filter(|w| e.wave.is_none_or(|n| n == w.wave)) {
            for lane in (0..w.wave_size).filter(|l| e.lane.is_none_or(|n| n == *l)) {
                let actual = read(w, e.reg, lane);
                let ok = actual
                    .iter()
                    .zip(&e.values)
                    .all(|(&a, &x)| a == x || (e.is_f32 && ulp_distance(a, x) <= u64::from(e.ulp)));
                if !ok {
                    out.push(Mismatch {
                        register: e.reg.to_string(),
                        wave: w.wave,
                        lane,
                        expected: e.values.clone(),
                        actual,
                    });
                }
            }
        }
    }
    out
}
