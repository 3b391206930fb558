//! `--out DIR`: every image of a launch, level 0 of slice 0, as an RGBA8 PNG.
//!
//! Texels are converted with the texture model ([`format::load_texel`]); float
//! results are clamped to [0, 1] and scaled to 0–255 (round to nearest), integer
//! results clamped to 0–255. Missing components read as the model says (W = one).

use super::run::Outcome;
use crate::texture::format::{self, data_format, NumFormat};
use std::path::{Path, PathBuf};

/// Writes `<name>.png` for every image into `dir` (created if missing).
pub fn write_pngs(out: &Outcome, dir: &Path) -> Result<Vec<PathBuf>, String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let mut written = Vec::new();
    for (spec, placed) in out.launch.images.iter().zip(&out.images) {
        let d = &placed.desc;
        let df = data_format(d.data_format).ok_or("unsupported data format")?;
        let nf = NumFormat::from_code(d.num_format).ok_or("unsupported number format")?;
        let surf = crate::cpu::image::surface_of(d)?;
        let (w, h, _) = surf.level_dims(0);
        let mut rgba = Vec::with_capacity((w * h * 4) as usize);
        for y in 0..h {
            for x in 0..w {
                let texel = surf
                    .texel_offset(0, 0, x, y, 0)
                    .and_then(|o| out.memory.read(d.base_address + o, df.bytes))
                    .and_then(|b| format::load_texel(df, nf, b))
                    .unwrap_or([0; 4]);
                rgba.extend(texel.map(|v| to_byte(v, nf)));
            }
        }
        let path = dir.join(format!("{}.png", spec.name));
        image::save_buffer(&path, &rgba, w, h, image::ExtendedColorType::Rgba8)
            .map_err(|e| format!("{}: {e}", path.display()))?;
        written.push(path);
    }
    Ok(written)
}

/// One loaded component as an 8-bit channel.
fn to_byte(v: u32, nf: NumFormat) -> u8 {
    match nf {
        NumFormat::Uint => v.min(255) as u8,
        NumFormat::Sint => (v as i32).clamp(0, 255) as u8,
        _ => {
            let f = f32::from_bits(v);
            if f.is_nan() {
                0
            } else {
                (f.clamp(0.0, 1.0) * 255.0).round() as u8
            }
        }
    }
}
