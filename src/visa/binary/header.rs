//! The file header (research notes §1.2): magic, version, the kernel's name,
//! object range and input offset, Gen binaries; no relocations, file-scope
//! variables or functions.

use super::cursor::{Cur, Res};
use crate::visa::Version;

/// Whether `v` is at least `major.minor` (the version gates).
pub(crate) fn at_least(v: Version, major: u8, minor: u8) -> bool {
    (v.major, v.minor) >= (major, minor)
}

/// What the file header says about its one kernel.
pub(crate) struct Header {
    pub(crate) name: String,
    pub(crate) name_at: usize,
    pub(crate) offset: usize,
    pub(crate) size: usize,
    pub(crate) input_offset: usize,
}

/// The file header (§1.2). One kernel and no functions: that is what a
/// kernel compile writes, and a [`Program`] holds one kernel.
pub(crate) fn header(c: &mut Cur, v: Version) -> Res<Header> {
    let at = c.pos;
    let kernels = c.u16("kernel count")?;
    if kernels != 1 {
        return Err(Cur::err_at(
            at,
            format!("{kernels} kernels: gcn-run reads objects with exactly one"),
        ));
    }
    let name_at = c.pos;
    let len = if at_least(v, 3, 7) {
        usize::from(c.u16("kernel name length")?)
    } else {
        usize::from(c.u8("kernel name length")?)
    };
    let name = std::str::from_utf8(c.take(len, "kernel name")?)
        .map_err(|_| Cur::err_at(name_at, "the kernel name is not UTF-8"))?
        .to_string();
    let offset = c.u32("kernel object offset")? as usize;
    let size = c.u32("kernel object size")? as usize;
    let input_offset = c.u32("kernel input offset")? as usize;
    for what in ["variable relocation count", "function relocation count"] {
        let at = c.pos;
        if c.u16(what)? != 0 {
            return Err(Cur::err_at(at, format!("{what} must be 0")));
        }
    }
    let at = c.pos;
    let gen = c.u8("Gen binary count")?;
    if gen > 4 {
        return Err(Cur::err_at(at, format!("{gen} Gen binaries (at most 4)")));
    }
    for _ in 0..gen {
        let at = c.pos;
        c.u8("Gen binary platform")?;
        let off = u64::from(c.u32("Gen binary offset")?);
        let len = u64::from(c.u32("Gen binary size")?);
        if off + len > c_len(c) {
            return Err(Cur::err_at(
                at,
                format!("Gen binary at {off:#x}, {len} bytes, ends past the file"),
            ));
        }
    }
    let at = c.pos;
    if c.u16("file-scope variable count")? != 0 {
        return Err(Cur::err_at(at, "file-scope variables are not supported"));
    }
    let at = c.pos;
    let functions = c.u16("function count")?;
    if functions != 0 {
        return Err(Cur::err_at(
            at,
            format!(
                "{functions} functions: gcn-run reads objects with one kernel and no functions"
            ),
        ));
    }
    if offset.checked_add(size).is_none_or(|e| e as u64 > c_len(c)) || offset < c.pos {
        return Err(Cur::err_at(
            name_at,
            format!(
                "kernel object at {offset:#x}, {size} bytes, is not inside the file after the header"
            ),
        ));
    }
    Ok(Header {
        name,
        name_at,
        offset,
        size,
        input_offset,
    })
}

/// The file length as the cursor sees it.
fn c_len(c: &Cur) -> u64 {
    (c.pos + c.left()) as u64
}
