//! The `[kernel]` table of a code-object launch manifest, and the kernarg
//! segment built from it and the kernel's metadata.
//!
//! ```toml
//! code = "vadd_gfx900.hsaco"
//! [kernel]
//! name = "vadd"              # needed when the code object has several kernels
//! grid = [256]               # work-items per dimension (OpenCL global size)
//! block = [64]               # work-group size (OpenCL local size)
//! offset = [0]               # global offset (hidden_global_offset_*), default 0
//! [kernel.args]              # by the metadata's .name, or by position ("0", "1", …)
//! a = { buffer = "a" }       # global_buffer: the address of a [[buffer]]
//! n = { u32 = 256 }          # by_value: u8 u16 u32 u64 i8 i16 i32 i64 f16 f32 f64 (a value
//!                            # or a list), or { hex = "…" }; the rest of .size is zero
//! src = { image = "img" }    # image: the address of the image's object (T# and more)
//! smp = { sampler = "s" }    # sampler: the address of the sampler's object (S#)
//! tmp = { lds = 256 }        # dynamic_shared_pointer: bytes of dynamic LDS
//! p = { address = 0 }        # any pointer: a raw 64-bit address
//! [kernel.expect]            # buffer contents after the run, from a byte offset
//! out = { u32 = [3, 5, 7], offset = 0 }
//! ```

use super::dispatch::Dims;
use super::metadata::{ArgMeta, Hidden, ValueKind};
use crate::launch::manifest::ManifestError;

fn err(field: impl Into<String>, message: impl Into<String>) -> ManifestError {
    ManifestError::new(field.into(), message.into())
}

/// The value a manifest gives one argument.
#[derive(Clone, Debug, PartialEq)]
pub enum ArgValue {
    /// The address of the named `[[buffer]]`.
    Buffer(String),
    /// The address of the named `[[image]]`'s image object.
    Image(String),
    /// The address of the named `[[sampler]]`'s sampler object.
    Sampler(String),
    /// Bytes (a `by_value` argument), little-endian.
    Bytes(Vec<u8>),
    /// Bytes of dynamic LDS (a `dynamic_shared_pointer`).
    Lds(u32),
    /// A raw address.
    Address(u64),
}

/// One `[kernel.expect]` entry: bytes of a buffer after the run.
#[derive(Clone, Debug, PartialEq)]
pub struct BufferExpect {
    /// The buffer.
    pub buffer: String,
    /// Byte offset in it.
    pub offset: u64,
    /// Element size in bytes.
    pub elem: u32,
    /// The expected elements' bits.
    pub values: Vec<u64>,
    /// f32 values compare within `ulp` units in the last place.
    pub f32: bool,
    /// Allowed ULP distance (f32 only).
    pub ulp: u32,
}

/// The `[kernel]` table, parsed.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct KernelSpec {
    /// The kernel to run.
    pub name: Option<String>,
    /// Grid size in work-items.
    pub grid: Option<Dims>,
    /// Work-group size.
    pub block: Option<Dims>,
    /// Global offset.
    pub offset: [u64; 3],
    /// Arguments by key (metadata name or position), in manifest order.
    pub args: Vec<(String, ArgValue)>,
    /// Expected buffer contents.
    pub expect: Vec<BufferExpect>,
}

/// Parses the `[kernel]` table (fields `kernel.…` in errors).
pub fn parse_kernel(t: &toml::Table) -> Result<KernelSpec, ManifestError> {
    let mut spec = KernelSpec::default();
    for (k, v) in t {
        let field = format!("kernel.{k}");
        match k.as_str() {
            "name" => {
                spec.name = Some(
                    v.as_str()
                        .ok_or_else(|| err(&field, "expected the kernel's name"))?
                        .to_string(),
                )
            }
            "grid" | "block" => {
                let d = dims(&field, v)?;
                if k == "grid" {
                    spec.grid = Some(d);
                } else {
                    spec.block = Some(d);
                }
            }
            "offset" => {
                let list = int_list(&field, v)?;
                if list.len() > 3 || list.iter().any(|n| *n < 0) {
                    return Err(err(&field, "expected 1 to 3 non-negative integers"));
                }
                for (i, n) in list.iter().enumerate() {
                    spec.offset[i] = *n as u64;
                }
            }
            "args" => {
                let args = v
                    .as_table()
                    .ok_or_else(|| err(&field, "expected a table of argument = value"))?;
                for (name, value) in args {
                    let f = format!("kernel.args.\"{name}\"");
                    spec.args.push((name.clone(), arg_value(&f, value)?));
                }
            }
            "expect" => {
                let e = v
                    .as_table()
                    .ok_or_else(|| err(&field, "expected a table of buffer = { … }"))?;
                for (name, value) in e {
                    let f = format!("kernel.expect.\"{name}\"");
                    match value {
                        toml::Value::Array(items) => {
                            for (i, item) in items.iter().enumerate() {
                                spec.expect
                                    .push(expect_entry(&format!("{f}[{i}]"), name, item)?);
                            }
                        }
                        _ => spec.expect.push(expect_entry(&f, name, value)?),
                    }
                }
            }
            _ => {
                return Err(err(
                    &field,
                    "unknown key (name, grid, block, offset, args, expect)",
                ))
            }
        }
    }
    Ok(spec)
}

fn int_list(field: &str, v: &toml::Value) -> Result<Vec<i64>, ManifestError> {
    match v {
        toml::Value::Integer(n) => Ok(vec![*n]),
        toml::Value::Array(a) => a
            .iter()
            .map(|x| {
                x.as_integer()
                    .ok_or_else(|| err(field, format!("{x} is not an integer")))
            })
            .collect(),
        other => Err(err(
            field,
            format!("expected integers, found {}", other.type_str()),
        )),
    }
}

fn dims(field: &str, v: &toml::Value) -> Result<Dims, ManifestError> {
    Dims::from_list(&int_list(field, v)?).map_err(|m| err(field, m))
}

/// One argument's value: `{ buffer | image | sampler = "name" }`, `{ lds = n }`,
/// `{ address = n }`, `{ hex = "…" }` or `{ TYPE = value or [values] }`.
fn arg_value(field: &str, v: &toml::Value) -> Result<ArgValue, ManifestError> {
    let t = v
        .as_table()
        .filter(|t| t.len() == 1)
        .ok_or_else(|| err(field, "expected { buffer | image | sampler = \"name\" }, { TYPE = value }, { hex = \"…\" }, { lds = bytes } or { address = n }"))?;
    let (k, x) = t.iter().next().ok_or_else(|| err(field, "empty"))?;
    let name = || {
        x.as_str()
            .map(str::to_string)
            .ok_or_else(|| err(format!("{field}.{k}"), "expected a name"))
    };
    Ok(match k.as_str() {
        "buffer" => ArgValue::Buffer(name()?),
        "image" => ArgValue::Image(name()?),
        "sampler" => ArgValue::Sampler(name()?),
        "lds" => ArgValue::Lds(
            x.as_integer()
                .and_then(|n| u32::try_from(n).ok())
                .filter(|n| *n <= 64 * 1024)
                .ok_or_else(|| err(format!("{field}.lds"), "expected bytes in 0..=65536"))?,
        ),
        "address" => ArgValue::Address(
            x.as_integer()
                .map(|n| n as u64)
                .ok_or_else(|| err(format!("{field}.address"), "expected an integer"))?,
        ),
        "hex" => ArgValue::Bytes(
            crate::input::parse_hex(
                x.as_str()
                    .ok_or_else(|| err(format!("{field}.hex"), "expected a string"))?,
            )
            .map_err(|e| err(format!("{field}.hex"), e.message))?,
        ),
        ty => {
            let (bytes, _, _) = typed(field, ty, x)?;
            ArgValue::Bytes(bytes)
        }
    })
}

/// `TYPE = value or [values]` as little-endian bytes, the element size and
/// each element's bits.
fn typed(
    field: &str,
    ty: &str,
    v: &toml::Value,
) -> Result<(Vec<u8>, u32, Vec<u64>), ManifestError> {
    let items: Vec<&toml::Value> = match v {
        toml::Value::Array(a) => a.iter().collect(),
        x => vec![x],
    };
    let (size, float) = match ty {
        "u8" | "i8" => (1, false),
        "u16" | "i16" => (2, false),
        "u32" | "i32" => (4, false),
        "u64" | "i64" => (8, false),
        "f16" => (2, true),
        "f32" => (4, true),
        "f64" => (8, true),
        other => {
            return Err(err(
                field,
                format!("unknown type `{other}` (u8 u16 u32 u64 i8 i16 i32 i64 f16 f32 f64, or buffer, image, sampler, hex, lds, address)"),
            ))
        }
    };
    let signed = ty.starts_with('i');
    let mut bits = Vec::with_capacity(items.len());
    for x in items {
        let b = if float {
            let f = match x {
                toml::Value::Float(f) => *f,
                toml::Value::Integer(n) => *n as f64,
                other => {
                    return Err(err(
                        field,
                        format!("expected a number, found {}", other.type_str()),
                    ))
                }
            };
            match size {
                2 => u64::from(crate::texture::convert::f32_to_f16(f as f32)),
                4 => u64::from((f as f32).to_bits()),
                _ => f.to_bits(),
            }
        } else {
            let n = x
                .as_integer()
                .ok_or_else(|| err(field, format!("{x} is not an integer")))?;
            let bitsz = 8 * size;
            let fits = if signed {
                bitsz == 64 || (-(1i64 << (bitsz - 1))..(1i64 << (bitsz - 1))).contains(&n)
            } else {
                n >= 0 && (bitsz == 64 || n < 1i64 << bitsz)
            };
            // TOML integers are i64: a u64 past i64::MAX is written negative
            // or in hex as two's complement, which u64 accepts.
            if !fits && ty != "u64" {
                return Err(err(field, format!("{n} does not fit {ty}")));
            }
            n as u64
        };
        bits.push(b);
    }
    let mut bytes = Vec::with_capacity(bits.len() * size as usize);
    for b in &bits {
        bytes.extend_from_slice(&b.to_le_bytes()[..size as usize]);
    }
    Ok((bytes, size, bits))
}

fn expect_entry(field: &str, buffer: &str, v: &toml::Value) -> Result<BufferExpect, ManifestError> {
    let t = v
        .as_table()
        .ok_or_else(|| err(field, "expected { TYPE = [values], offset = bytes }"))?;
    let mut offset = 0;
    let mut ulp = 0;
    let mut data = None;
    for (k, x) in t {
        match k.as_str() {
            "offset" => {
                offset = x
                    .as_integer()
                    .filter(|n| *n >= 0)
                    .ok_or_else(|| err(format!("{field}.offset"), "expected a byte offset"))?
                    as u64
            }
            "ulp" => {
                ulp = x
                    .as_integer()
                    .and_then(|n| u32::try_from(n).ok())
                    .ok_or_else(|| err(format!("{field}.ulp"), "expected a count"))?
            }
            ty if data.is_none() => data = Some((ty.to_string(), typed(field, ty, x)?)),
            _ => return Err(err(field, "give one TYPE = values (and offset, ulp)")),
        }
    }
    let (ty, (_, elem, values)) =
        data.ok_or_else(|| err(field, "missing the values (e.g. u32 = [1, 2])"))?;
    if ulp > 0 && ty != "f32" {
        return Err(err(format!("{field}.ulp"), "ulp applies to f32 values"));
    }
    Ok(BufferExpect {
        buffer: buffer.to_string(),
        offset,
        elem,
        values,
        f32: ty == "f32",
        ulp,
    })
}

/// The key an argument is given by in `[kernel.args]`: its metadata `.name`,
/// else its position among the explicit (not hidden) arguments.
pub fn arg_key(meta: &ArgMeta, index: usize) -> String {
    meta.name.clone().unwrap_or_else(|| index.to_string())
}

/// What the runtime sets a hidden argument to (ROCm CLR `rocvirtual.cpp`,
/// `VirtualGPU::submitKernelInternal`): the geometry's block counts, group
/// sizes and remainders (1 and 1 and 0 for the dimensions the dispatch does
/// not have), the global offset, the dimensions, the dynamic LDS size and
/// the queue's address; zero for the rest (gcnrun has no printf or hostcall
/// buffer, device queue, multi-grid sync, heap, or flat apertures).
pub fn hidden_value(h: Hidden, g: &super::dispatch::Geometry, dynamic_lds: u32, queue: u64) -> u64 {
    let dims = g.dims as usize;
    match h {
        Hidden::GlobalOffset(d) => g.offset[d],
        Hidden::BlockCount(d) => {
            if d < dims {
                u64::from(g.full_groups()[d])
            } else {
                1
            }
        }
        Hidden::GroupSize(d) => {
            if d < dims {
                u64::from(g.block[d])
            } else {
                1
            }
        }
        Hidden::Remainder(d) => {
            if d < dims {
                u64::from(g.remainder()[d])
            } else {
                0
            }
        }
        Hidden::GridDims => u64::from(g.dims),
        Hidden::DynamicLdsSize => u64::from(dynamic_lds),
        Hidden::QueuePtr => queue,
        Hidden::PrivateBase | Hidden::SharedBase | Hidden::Zero(_) => 0,
    }
}

/// The value kind of an argument's metadata, or the refusal naming it.
pub fn kind_of(meta: &ArgMeta, index: usize) -> Result<ValueKind, String> {
    ValueKind::parse(&meta.value_kind).ok_or_else(|| {
        format!(
            "argument {index} (`{}`) has value kind `{}`, which gcnrun does not set up (by_value, global_buffer, dynamic_shared_pointer, image, sampler and the hidden_* kinds)",
            meta.name.as_deref().unwrap_or("?"),
            crate::input::one_line(&meta.value_kind)
        )
    })
}
