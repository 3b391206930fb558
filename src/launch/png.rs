//! `--out DIR`: every image of a launch, level 0 of slice 0, as an RGBA8 PNG.
//!
//! Texels are converted with the texture model ([`format::load_texel`]); float
//! results are clamped to [0, 1] and scaled to 0–255 (round to nearest), integer
//! results clamped to 0–255. Missing components read as the model says (W = one).

use super::run::Outcome;
use crate::input::{FileKind, InputError};
use crate::machine::AllocError;
use crate::texture::error::TextureError;
use crate::texture::format::{self, data_format, NumFormat};
use std::io::Read;
use std::path::{Path, PathBuf};

/// Why an image cannot be written to, or read from, a PNG file.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PngError {
    /// A file or directory that cannot be made, written, opened or decoded:
    /// its path and the system's or the codec's words.
    #[error("{}: {message}", path.display())]
    File {
        /// The path.
        path: PathBuf,
        /// What went wrong.
        message: String,
    },
    /// The PNG file is refused before it is read (not a regular file, past
    /// the size cap).
    #[error(transparent)]
    Input(#[from] InputError),
    /// The texture model cannot read or describe the image.
    #[error(transparent)]
    Texture(#[from] TextureError),
    /// A block-compressed image, which takes `hex` blocks.
    #[error("{format} images take `hex` blocks, not a PNG")]
    BlockCompressed {
        /// The data format's name.
        format: &'static str,
    },
    /// A PNG of another size than the image.
    #[error("{}: the PNG is {}×{}, the image is {}×{}", path.display(), png.0, png.1, image.0, image.1)]
    Size {
        /// The PNG file.
        path: PathBuf,
        /// Its width and height.
        png: (u32, u32),
        /// The image's.
        image: (u32, u32),
    },
    /// A number format the format model cannot store PNG data in.
    #[error("number format {num:?} cannot take PNG data")]
    NumFormat {
        /// The number format.
        num: NumFormat,
    },
    /// The machine cannot give the memory for an image's pixels (named when
    /// writing).
    #[error("{}{source}", image.as_ref().map_or(String::new(), |n| format!("image `{n}`: ")))]
    Alloc {
        /// The image, when writing.
        image: Option<String>,
        /// The refused allocation.
        source: AllocError,
    },
}

impl PngError {
    fn file(path: &Path, e: impl std::fmt::Display) -> PngError {
        PngError::File {
            path: path.to_path_buf(),
            message: e.to_string(),
        }
    }
}

/// The format pair of an image, or the texture model's refusal.
fn formats(data: u8, num: u8) -> Result<(&'static format::DataFormat, NumFormat), TextureError> {
    let df = data_format(data).ok_or(TextureError::DataFormat { code: data })?;
    let nf = NumFormat::from_code(num).ok_or(TextureError::NumFormat { code: num })?;
    Ok((df, nf))
}

/// Writes `<name>.png` for every image into `dir` (created if missing).
pub fn write_pngs(out: &Outcome, dir: &Path) -> Result<Vec<PathBuf>, PngError> {
    std::fs::create_dir_all(dir).map_err(|e| PngError::file(dir, e))?;
    let mut written = Vec::new();
    for (spec, placed) in out.launch.images.iter().zip(&out.images) {
        let d = &placed.desc;
        let (df, nf) = formats(d.data_format, d.num_format)?;
        let surf = crate::texture::resource::surface_of(d)?;
        let (w, h, _) = surf.level_dims(0);
        let mut rgba = Vec::new();
        let bytes = u64::from(w) * u64::from(h) * 4;
        rgba.try_reserve_exact(bytes as usize)
            .map_err(|_| PngError::Alloc {
                image: Some(spec.name.clone()),
                source: AllocError::new(bytes),
            })?;
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
        // The manifest reader admits plain file names only
        // (manifest::check_image_name): the file lands inside `dir`.
        let path = dir.join(format!("{}.png", spec.name));
        let mut png = Vec::new();
        image::ImageEncoder::write_image(
            image::codecs::png::PngEncoder::new(&mut png),
            &rgba,
            w,
            h,
            image::ExtendedColorType::Rgba8,
        )
        .map_err(|e| PngError::file(&path, e))?;
        write_atomically(&path, &png).map_err(|e| PngError::file(&path, e))?;
        written.push(path);
    }
    Ok(written)
}

/// Distinguishes the temporary files of one process.
static TEMP_COUNTER: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

/// Writes `bytes` to `path` so that nobody sees a partial file: into a new
/// temporary file in the same folder (named after the target, this process and
/// a counter, created exclusively), then renamed over `path`. A rename within
/// a folder replaces the name at once, so a reader, or another run writing the
/// same name, sees the old file or a whole new one, never a mix; and a link
/// at `path` is replaced, not written through. (Not synced to disk: atomic for
/// concurrent runs and readers, not against a power cut.)
pub fn write_atomically(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    use std::io::Write;
    let dir = path.parent().unwrap_or(Path::new("."));
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let pid = std::process::id();
    let mut tries = 0;
    let (tmp, mut file) = loop {
        let n = TEMP_COUNTER.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let tmp = dir.join(format!(".{name}.{pid}.{n}.tmp"));
        match std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&tmp)
        {
            Ok(f) => break (tmp, f),
            // Left behind by a dead process that had this pid: take the next.
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists && tries < 16 => tries += 1,
            Err(e) => return Err(e),
        }
    };
    let written = file
        .write_all(bytes)
        .and_then(|()| file.flush())
        .and_then(|()| {
            drop(file);
            std::fs::rename(&tmp, path)
        });
    if written.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    written
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

/// `init = { png = "file.png" }`: the picture's pixels as the image's level-0
/// texels of slice 0, tightly packed (the form `init = { hex = … }` takes).
///
/// The PNG is read as RGBA8 (grey, grey-alpha, RGB and 16-bit PNGs are widened
/// or narrowed by the `image` crate) and must be exactly `width × height`. Each
/// 8-bit channel c becomes the component value the number format stores: UNORM,
/// SNORM and FLOAT take c / 255 (so a round trip through `--out` gives the same
/// bytes for 8-bit UNORM); SRGB keeps the code c (PNG pixels are sRGB-encoded);
/// UINT, SINT, USCALED and SSCALED take the integer c. Components the format
/// lacks are dropped; block-compressed formats take `hex` blocks instead.
pub fn texels_from_png(
    path: &Path,
    spec: &super::manifest::ImageSpec,
) -> Result<Vec<u8>, PngError> {
    let (df, nf) = formats(spec.data_format, spec.num_format)?;
    if df.layout == format::Layout::Block {
        return Err(PngError::BlockCompressed { format: df.name });
    }
    let height = if matches!(spec.dim, 0 | 4) {
        1
    } else {
        spec.height
    };
    // One checked open (a regular file under the PNG cap; crate::input), read
    // through a reader that cannot pass the cap either.
    let (file, _) = crate::input::open_regular(path, FileKind::PNG)?;
    let bad = |e: &dyn std::fmt::Display| PngError::file(path, e);
    let reader = std::io::BufReader::new(file.take(FileKind::PNG.cap));
    let decoder = image::ImageReader::new(reader)
        .with_guessed_format()
        .map_err(|e| bad(&e))?
        .into_decoder()
        .map_err(|e| bad(&e))?;
    // Refuse a picture of the wrong size before decoding it: the header gives it.
    let (w, h) = image::ImageDecoder::dimensions(&decoder);
    if (w, h) != (spec.width, height) {
        return Err(PngError::Size {
            path: path.to_path_buf(),
            png: (w, h),
            image: (spec.width, height),
        });
    }
    let rgba = image::DynamicImage::from_decoder(decoder)
        .map_err(|e| bad(&e))?
        .to_rgba8();
    let store_nf = match nf {
        NumFormat::Unorm | NumFormat::Snorm | NumFormat::Float => nf,
        NumFormat::Sint | NumFormat::Sscaled => NumFormat::Sint,
        _ => NumFormat::Uint,
    };
    let mut out = Vec::new();
    let bytes = u64::from(w) * u64::from(h) * u64::from(df.bytes);
    out.try_reserve_exact(bytes as usize)
        .map_err(|_| PngError::Alloc {
            image: None,
            source: AllocError::new(bytes),
        })?;
    for p in rgba.pixels() {
        let vals = p.0.map(|c| {
            if store_nf.is_integer() {
                u32::from(c)
            } else {
                crate::texture::convert::unorm_to_f32(u32::from(c), 8).to_bits()
            }
        });
        let texel =
            format::store_texel(df, store_nf, vals).ok_or(PngError::NumFormat { num: nf })?;
        out.extend_from_slice(&texel);
    }
    Ok(out)
}
