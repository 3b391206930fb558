//! An Intel vISA launch's comparison in the program's terms (docs/visa.md,
//! "Diff reports"): each differing element of a declared variable, by name,
//! row, column, element and type, with both values typed; each differing
//! predicate channel by name; everything else (GRF bytes no variable covers,
//! the registers the lowering stages sampler operands in, memory) as before.

use super::{memory, registers, start, Mismatch, Named, Relaxation, Report, VisaPlace};
use crate::ir::visa::{grf_slot, VarMap, THREAD_LANES};
use crate::machine::{Memory, WaveState};
use crate::texture::convert::f16_to_f32;
use crate::texture::descriptor::ImageDesc;
use std::fmt;

/// How an element's bits read as a value of its vISA type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Reading {
    F32,
    F16,
    F64,
    Signed,
    Unsigned,
    /// Types that do not execute (`v`, `vf`, `uv`, `bf`, `bool`): hex.
    Bits,
}

impl Reading {
    fn of(type_name: &str) -> Reading {
        match type_name {
            "f" => Reading::F32,
            "hf" => Reading::F16,
            "df" => Reading::F64,
            "d" | "w" | "b" | "q" => Reading::Signed,
            "ud" | "uw" | "ub" | "uq" => Reading::Unsigned,
            _ => Reading::Bits,
        }
    }
}

/// A variable with its own GRF bytes (declared without `alias=`, or a
/// predefined one the layout places: `%r0`, `%cr0`), or an alias over one.
#[derive(Clone, Debug)]
struct Place {
    name: String,
    byte: u32,
    bytes: u32,
    ty: &'static str,
    elem: u32,
}

impl Place {
    /// Bytes per element (1 for a type of unknown size).
    fn elem(&self) -> u32 {
        self.elem
    }
}

/// The program's variables split into owners and aliases, and its predicates
/// with their SGPRs.
struct Names {
    grf: u32,
    owners: Vec<Place>,
    aliases: Vec<Place>,
    predicates: Vec<(String, u32)>,
}

impl Names {
    fn of(map: &VarMap) -> Names {
        let mut owners = Vec::new();
        let mut aliases = Vec::new();
        for v in &map.vars {
            let place = Place {
                name: v.name.clone(),
                byte: v.byte,
                bytes: v.bytes,
                ty: v.ty,
                elem: v.elem,
            };
            if v.alias {
                aliases.push(place);
            } else {
                owners.push(place);
            }
        }
        // GRF order, so that a report reads in the order of the register file.
        owners.sort_by_key(|p| (p.byte, p.name.clone()));
        Names {
            grf: map.grf.max(1),
            owners,
            aliases,
            predicates: map.predicates.clone(),
        }
    }

    /// Per GRF dword, the mask of its bytes some owner covers.
    fn covered(&self, total: u32) -> Vec<u32> {
        let mut m = vec![0u32; total.div_ceil(4) as usize];
        for p in &self.owners {
            for b in p.byte..p.byte.saturating_add(p.bytes).min(total) {
                m[(b / 4) as usize] |= 0xff << (8 * (b % 4));
            }
        }
        m
    }
}

/// Compares final thread states and memory of an Intel launch, naming GRF
/// differences by variable and predicate differences by predicate (`vars`, the
/// lowering's map) and memory differences by buffer (`buffers`: name, base
/// address, bytes) (docs/visa.md, "Diff reports"); `images` and `relax` as for
/// [`super::compare`].
pub fn compare_visa(
    cpu: (&[WaveState], &Memory),
    gpu: (&[WaveState], &Memory),
    images: &[(String, ImageDesc)],
    relax: Option<&Relaxation>,
    vars: &VarMap,
    buffers: &[(&str, u64, u64)],
) -> Report {
    let empty = Relaxation::default();
    let relax = relax.unwrap_or(&empty);
    let mut r = start(relax);
    r.visa = true;
    let names = Names::of(vars);
    // Every GRF byte lies in the VGPRs the GRF overlays.
    let total = crate::ir::visa::GRF_MAX_BYTES;
    let covered = names.covered(total);
    let predicate_sgprs: Vec<u32> = names.predicates.iter().map(|p| p.1).collect();
    for (a, b) in cpu.0.iter().zip(gpu.0) {
        variables(&mut r, a, b, &names, relax);
        predicates(&mut r, a, b, &names);
        let named = Named {
            covered: &covered,
            predicate_sgprs: &predicate_sgprs,
        };
        registers(&mut r, a, b, relax, Some(&named));
    }
    memory(&mut r, cpu.1, gpu.1, images, buffers, relax);
    r
}

/// Each differing element of each owner, in GRF order. A byte two owners
/// share (inputs over the payload, say) is reported once, under the first.
fn variables(r: &mut Report, a: &WaveState, b: &WaveState, names: &Names, relax: &Relaxation) {
    // GRF bytes reported so far (allocated at the first difference).
    let mut reported: Vec<bool> = Vec::new();
    for p in &names.owners {
        let n = p.elem();
        for k in 0..p.bytes / n {
            let at = p.byte + k * n;
            let (x, y) = (a.grf_bits(at, n), b.grf_bits(at, n));
            let bytes = at as usize..(at + n) as usize;
            if x == y
                || reported
                    .get(bytes.clone())
                    .is_some_and(|s| s.iter().all(|&b| b))
            {
                continue;
            }
            // A dword traced as a contended atomic's return is checked by order.
            let relaxed = (at..at + n).any(|byte| {
                let (v, lane, _) = grf_slot(byte);
                relax.registers.contains(&(a.wave, v, lane))
            });
            if relaxed {
                continue;
            }
            if reported.len() < bytes.end {
                reported.resize(crate::ir::visa::GRF_MAX_BYTES.max(at + n) as usize, false);
            }
            reported[bytes].fill(true);
            let off = at - p.byte;
            let reading = Reading::of(p.ty);
            let aliases = names
                .aliases
                .iter()
                .filter(|q| q.byte < at + n && at < q.byte + q.bytes)
                .map(|q| q.name.clone())
                .collect();
            r.push(Mismatch {
                kind: "variable",
                thread: Some(a.wave),
                visa: Some(VisaPlace {
                    variable: p.name.clone(),
                    row: Some(off / names.grf),
                    col: Some(off % names.grf / n),
                    element: Some(k),
                    channel: None,
                    ty: p.ty,
                    cpu_value: json_value(x, n, reading),
                    gpu_value: json_value(y, n, reading),
                    elem_bytes: n,
                    aliases,
                }),
                cpu: x,
                gpu: y,
                ..Mismatch::default()
            });
        }
    }
}

/// Each differing channel of each predicate (one bit per channel of its SGPR).
fn predicates(r: &mut Report, a: &WaveState, b: &WaveState, names: &Names) {
    for (name, sgpr) in &names.predicates {
        let (x, y) = (a.sgpr(*sgpr), b.sgpr(*sgpr));
        for c in (0..THREAD_LANES).filter(|c| (x ^ y) >> c & 1 != 0) {
            let (bx, by) = (u64::from(x >> c & 1), u64::from(y >> c & 1));
            r.push(Mismatch {
                kind: "predicate",
                thread: Some(a.wave),
                visa: Some(VisaPlace {
                    variable: name.clone(),
                    channel: Some(c),
                    ty: "bool",
                    elem_bytes: 1,
                    cpu_value: serde_json::json!(bx),
                    gpu_value: serde_json::json!(by),
                    ..VisaPlace::default()
                }),
                cpu: bx,
                gpu: by,
                ..Mismatch::default()
            });
        }
    }
}

/// A float as JSON: a number when finite, else `"NaN"`, `"inf"` or `"-inf"`
/// (JSON has no such numbers).
fn json_float(v: f64) -> serde_json::Value {
    if v.is_finite() {
        serde_json::json!(v)
    } else {
        serde_json::json!(float_text(v))
    }
}

fn float_text(v: f64) -> String {
    match v {
        v if v.is_nan() => "NaN".into(),
        v if v.is_infinite() && v > 0.0 => "inf".into(),
        v if v.is_infinite() => "-inf".into(),
        v => v.to_string(),
    }
}

/// `n`-byte `bits` sign-extended to i64.
fn signed(bits: u64, n: u32) -> i64 {
    let shift = 64 - 8 * n.clamp(1, 8);
    ((bits << shift) as i64) >> shift
}

/// The value of `n`-byte `bits` as JSON, typed by `reading`.
fn json_value(bits: u64, n: u32, reading: Reading) -> serde_json::Value {
    match reading {
        Reading::F32 => json_float(f64::from(f32::from_bits(bits as u32))),
        Reading::F16 => json_float(f64::from(f16_to_f32(bits as u16))),
        Reading::F64 => json_float(f64::from_bits(bits)),
        Reading::Signed => serde_json::json!(signed(bits, n)),
        Reading::Unsigned => serde_json::json!(bits),
        Reading::Bits => serde_json::json!(format!("{bits:#x}")),
    }
}

/// The value of `n`-byte `bits` as text, typed by `reading`; floats also
/// show their bits, since two floats that print alike may differ in them
/// (−0 and +0, NaN payloads).
fn text_value(bits: u64, n: u32, reading: Reading) -> String {
    let hex = |digits: usize| format!("{bits:#0w$x}", w = digits + 2);
    match reading {
        Reading::F32 => format!("{} ({})", f32::from_bits(bits as u32), hex(8)),
        Reading::F16 => format!("{} ({})", f16_to_f32(bits as u16), hex(4)),
        Reading::F64 => format!("{} ({})", f64::from_bits(bits), hex(16)),
        Reading::Signed => signed(bits, n).to_string(),
        Reading::Unsigned => bits.to_string(),
        Reading::Bits => hex(2 * n as usize),
    }
}

/// `thread T, variable NAME(row,col) element E (type): cpu=… gpu=…` or
/// `thread T, predicate NAME channel C: cpu=0 gpu=1`.
pub(super) fn describe(
    f: &mut fmt::Formatter<'_>,
    thread: u32,
    p: &VisaPlace,
    cpu: u64,
    gpu: u64,
) -> fmt::Result {
    if let Some(c) = p.channel {
        return write!(
            f,
            "thread {thread}, predicate {} channel {c}: cpu={cpu} gpu={gpu}",
            p.variable
        );
    }
    let (n, reading) = (p.elem_bytes, Reading::of(p.ty));
    write!(
        f,
        "thread {thread}, variable {}({},{}) element {} ({}): cpu={} gpu={}",
        p.variable,
        p.row.unwrap_or(0),
        p.col.unwrap_or(0),
        p.element.unwrap_or(0),
        p.ty,
        text_value(cpu, n, reading),
        text_value(gpu, n, reading)
    )?;
    if !p.aliases.is_empty() {
        write!(f, " [aliases: {}]", p.aliases.join(", "))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_read_by_type() {
        assert_eq!(text_value(0x3fc0_0000, 4, Reading::F32), "1.5 (0x3fc00000)");
        assert_eq!(text_value(0x3c00, 2, Reading::F16), "1 (0x3c00)");
        assert_eq!(text_value(0xffff_fffe, 4, Reading::Signed), "-2");
        assert_eq!(text_value(0xfe, 1, Reading::Signed), "-2");
        assert_eq!(text_value(0xfe, 1, Reading::Unsigned), "254");
        assert_eq!(json_value(0x7fc0_0000, 4, Reading::F32), "NaN");
        assert_eq!(json_value(0xff80_0000, 4, Reading::F32), "-inf");
        assert_eq!(json_value(0x8000, 2, Reading::Signed), -32768);
        assert_eq!(json_value(0x1234, 2, Reading::Bits), "0x1234");
    }
}
