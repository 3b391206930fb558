//! `[[buffer]]`: a named range of memory after the images, zero-filled, with
//! optional initial data. Intel launches bind buffers through the binding table;
//! AMD launches point a BVH T# at one (`{ bvh = "name" }` in `[sgpr]`).
//!
//! ```toml
//! [[buffer]]
//! name = "scene"
//! bytes = 512                    # zero-filled
//! data = { "0x0" = { u32 = [0x10005, 0x10045] }, "0x10" = { f32 = [1.0, 2.5] },
//!          "0x40" = { f16 = [0.5, -1.0] } }     # byte offset → values
//! data = { "0x0" = { image = "tex" }, "0x50" = { sampler = "smp" } }
//!                                      # a T# (8 dwords) or S# (4) in memory
//! ```

use super::manifest::ManifestError;
use crate::machine::Memory;

fn err(field: impl Into<String>, problem: impl Into<super::manifest::Problem>) -> ManifestError {
    ManifestError::new(field, problem)
}

/// A buffer as the manifest declares it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BufferSpec {
    /// Name.
    pub name: String,
    /// Size in bytes.
    pub bytes: u64,
    /// Initial data: byte offset and little-endian bytes, in manifest order.
    pub data: Vec<(u64, Vec<u8>)>,
    /// Descriptors written after the images are placed: byte offset and
    /// what goes there, in manifest order (after `data`).
    pub descriptors: Vec<(u64, Descriptor)>,
}

/// A descriptor a buffer holds (`{ image = … }`, `{ sampler = … }`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Descriptor {
    /// The named image's T# (8 dwords).
    Image(String),
    /// The named sampler's S# (4 dwords).
    Sampler(String),
}

/// A placed buffer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Buffer {
    /// Name.
    pub name: String,
    /// Address in memory (256-byte aligned).
    pub base: u64,
    /// Size in bytes.
    pub bytes: u64,
}

/// The largest buffer a manifest may declare before the memory cap applies
/// (the cap is checked when buffers are placed).
const MAX_BUFFER_BYTES: i64 = 1 << 40;

/// Parses the `[[buffer]]` array (`buffer[i].…` fields in errors).
pub fn parse_buffers(raw: &[toml::Value]) -> Result<Vec<BufferSpec>, ManifestError> {
    let mut out: Vec<BufferSpec> = Vec::new();
    for (i, b) in raw.iter().enumerate() {
        let field = |f: &str| format!("buffer[{i}].{f}");
        let t = b
            .as_table()
            .ok_or_else(|| err(format!("buffer[{i}]"), "must be a table"))?;
        for k in t.keys() {
            if !matches!(k.as_str(), "name" | "bytes" | "data") {
                return Err(err(field(k), "unknown key (name, bytes, data)"));
            }
        }
        let name = t
            .get("name")
            .and_then(|v| v.as_str())
            .ok_or_else(|| err(field("name"), "missing"))?;
        if out.iter().any(|o| o.name == name) {
            return Err(err(
                field("name"),
                format!("two [[buffer]] entries are named `{name}`"),
            ));
        }
        let bytes =
            t.get("bytes")
                .and_then(|v| v.as_integer())
                .filter(|n| (1..=MAX_BUFFER_BYTES).contains(n))
                .ok_or_else(|| err(field("bytes"), "a positive byte count"))? as u64;
        let mut descriptors = Vec::new();
        let data = match t.get("data") {
            None => Vec::new(),
            Some(toml::Value::Table(d)) => {
                let mut data = Vec::new();
                for (key, v) in d {
                    let f = field(&format!("data.\"{key}\""));
                    match descriptor(&f, key, v, bytes)? {
                        Some(dsc) => descriptors.push(dsc),
                        None => data.push(chunk(&f, key, v, bytes)?),
                    }
                }
                data
            }
            Some(_) => {
                return Err(err(
                    field("data"),
                    "expected a table of byte offset = { u32 | f32 | f16 = [...] }",
                ))
            }
        };
        out.push(BufferSpec {
            name: name.to_string(),
            bytes,
            data,
            descriptors,
        });
    }
    Ok(out)
}

/// A `"offset" = { image = "name" }` or `{ sampler = "name" }` entry, whose
/// words are known once the images are placed; `None` for other entries.
fn descriptor(
    field: &str,
    key: &str,
    v: &toml::Value,
    size: u64,
) -> Result<Option<(u64, Descriptor)>, ManifestError> {
    let Some((kind, toml::Value::String(name))) = v.as_table().and_then(|t| t.iter().next()) else {
        return Ok(None);
    };
    let (d, bytes) = match kind.as_str() {
        "image" => (Descriptor::Image(name.clone()), 32),
        "sampler" => (Descriptor::Sampler(name.clone()), 16),
        _ => return Ok(None),
    };
    let offset = parse_offset(key).ok_or_else(|| err(field, "the key must be a byte offset"))?;
    if offset % 4 != 0 || offset.checked_add(bytes).is_none_or(|e| e > size) {
        return Err(err(
            field,
            format!("a {bytes}-byte descriptor at {offset:#x} is not dword-aligned or passes the buffer's {size} bytes"),
        ));
    }
    Ok(Some((offset, d)))
}

/// Writes the buffers' descriptors: `image` gives a named image's T# as the
/// launch encodes it, `sampler` a named sampler's S# for the generation. An
/// unknown name is an error naming the entry.
pub fn write_descriptors(
    specs: &[BufferSpec],
    placed: &[Buffer],
    memory: &mut Memory,
    image: &dyn Fn(&str) -> Option<[u32; 8]>,
    sampler: &dyn Fn(&str) -> Option<[u32; 4]>,
) -> Result<(), ManifestError> {
    for (i, (spec, b)) in specs.iter().zip(placed).enumerate() {
        for (offset, d) in &spec.descriptors {
            let field = format!("buffer[{i}].data.\"{offset:#x}\"");
            let words: Vec<u32> = match d {
                Descriptor::Image(n) => image(n)
                    .ok_or_else(|| err(&field, format!("no [[image]] named `{n}`")))?
                    .to_vec(),
                Descriptor::Sampler(n) => sampler(n)
                    .ok_or_else(|| err(&field, format!("no [[sampler]] named `{n}`")))?
                    .to_vec(),
            };
            let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
            memory.write(b.base + offset, &bytes);
        }
    }
    Ok(())
}

/// One `"offset" = { u32 | f32 | f16 = value or [values] }` entry as bytes:
/// u32 as given (negative i32 as two's complement), f32 rounded from the TOML
/// number, f16 rounded to nearest even, two bytes each.
fn chunk(
    field: &str,
    key: &str,
    v: &toml::Value,
    size: u64,
) -> Result<(u64, Vec<u8>), ManifestError> {
    let offset = parse_offset(key).ok_or_else(|| err(field, "the key must be a byte offset"))?;
    let t = v
        .as_table()
        .filter(|t| t.len() == 1)
        .ok_or_else(|| err(field, "expected { u32 = … }, { f32 = … } or { f16 = … }"))?;
    let (ty, vals) = t.iter().next().ok_or_else(|| err(field, "empty"))?;
    let items: Vec<&toml::Value> = match vals {
        toml::Value::Array(a) => a.iter().collect(),
        x => vec![x],
    };
    let number = |x: &toml::Value| match x {
        toml::Value::Float(f) => Ok(*f),
        toml::Value::Integer(n) => Ok(*n as f64),
        other => Err(err(
            field,
            format!("expected a number, found {}", other.type_str()),
        )),
    };
    let mut bytes = Vec::new();
    let align = match ty.as_str() {
        "u32" => {
            for x in &items {
                let n = x
                    .as_integer()
                    .filter(|n| (i64::from(i32::MIN)..=i64::from(u32::MAX)).contains(n))
                    .ok_or_else(|| err(field, format!("{x} is not a 32-bit integer")))?;
                bytes.extend_from_slice(&(n as u32).to_le_bytes());
            }
            4
        }
        "f32" => {
            for x in &items {
                bytes.extend_from_slice(&(number(x)? as f32).to_bits().to_le_bytes());
            }
            4
        }
        "f16" => {
            for x in &items {
                let h = crate::texture::convert::f32_to_f16(number(x)? as f32);
                bytes.extend_from_slice(&h.to_le_bytes());
            }
            2
        }
        other => {
            return Err(err(
                field,
                format!("unknown type `{other}` (u32, f32, f16)"),
            ))
        }
    };
    let end = offset.checked_add(bytes.len() as u64);
    if offset % align != 0 || end.is_none_or(|e| e > size) {
        return Err(err(
            field,
            format!("{} bytes at offset {offset:#x} are not {align}-byte aligned or pass the buffer's {size} bytes", bytes.len()),
        ));
    }
    Ok((offset, bytes))
}

fn parse_offset(s: &str) -> Option<u64> {
    let s = s.trim();
    match s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) {
        Some(h) => u64::from_str_radix(h, 16).ok(),
        None => s.parse().ok(),
    }
}

/// Places the buffers after what `memory` already holds, each 256-byte aligned
/// (a BVH T# base must be), zero-filled, then writes their data. `taken` are
/// the names images use; a buffer may not reuse one. The memory may grow to at
/// most `cap` bytes; the first buffer past it is an error naming it, before
/// anything is allocated for it.
pub fn place_buffers(
    specs: &[BufferSpec],
    memory: &mut Memory,
    taken: &[&str],
    cap: u64,
) -> Result<Vec<Buffer>, ManifestError> {
    let mut placed = Vec::new();
    for (i, b) in specs.iter().enumerate() {
        let start = (memory.bytes.len() as u64).next_multiple_of(256);
        let end = start.checked_add(b.bytes).filter(|e| *e <= cap);
        let Some(end) = end.filter(|_| !taken.contains(&b.name.as_str())) else {
            return Err(err(
                format!("buffer[{i}].bytes"),
                format!(
                    "buffer `{}` passes the {cap}-byte memory cap or reuses a name",
                    b.name
                ),
            ));
        };
        // Under the cap, but the machine may still not have it (`--mem-cap
        // 2000g` and a 1 TiB buffer): one line, not an abort.
        memory.try_grow(end).map_err(|source| {
            err(
                format!("buffer[{i}].bytes"),
                super::manifest::Problem::Alloc {
                    what: format!("buffer `{}` brings memory to {end} bytes", b.name),
                    source,
                },
            )
        })?;
        for (offset, data) in &b.data {
            // parse_buffers keeps every chunk inside its buffer.
            let at = (start + offset) as usize;
            if let Some(dst) = memory.bytes.get_mut(at..at + data.len()) {
                dst.copy_from_slice(data);
            }
        }
        placed.push(Buffer {
            name: b.name.clone(),
            base: memory.base + start,
            bytes: b.bytes,
        });
    }
    Ok(placed)
}
