//! Lowering scalar memory (SMEM/SMRD), FLAT/GLOBAL and LDS (DS)
//! instructions into [`crate::ir::mem`], and the program-control SOPP
//! instructions into [`crate::ir::flow`].
//!
//! What an access moves comes from the mnemonic's tail (`dwordx4`, `b128`,
//! `ubyte`, `u16`, …: one table, `width_of`); the registers from the
//! decoder's typed operands.

use super::buffer::Buffer;
use super::decoded::BufFormat;
use super::ds::Ds as GDs;
use super::flat::{Flat, Segment};
use super::operand::{Operand as GOperand, Special};
use super::signature::Fld;
use super::smem::{Offset, Smem};
use super::smrd::Smrd;
use super::sopp::Sopp;
use crate::arch::Arch;
use crate::ir::atomic::AtomicOp;
use crate::ir::flow::{Cond, HwReg, WaveOp};
use crate::ir::mem::{
    Access, Addr, Ds, DsKind, ScalarLoad, TypedCode, TypedData, VectorMem, Width,
};
use crate::ir::{Op, Reg, Src};
use crate::texture::typed::{self, FormatCode};

/// Data sizes by the name's tail, both spellings (gfx6–gfx10 `dword`,
/// `ubyte`…; gfx11 `b32`, `u8`…).
const WIDTHS: &[(&str, Width)] = &[
    ("dword", Width::Dwords(1)),
    ("dwordx2", Width::Dwords(2)),
    ("dwordx3", Width::Dwords(3)),
    ("dwordx4", Width::Dwords(4)),
    ("dwordx8", Width::Dwords(8)),
    ("dwordx16", Width::Dwords(16)),
    ("b32", Width::Dwords(1)),
    ("b64", Width::Dwords(2)),
    ("b96", Width::Dwords(3)),
    ("b128", Width::Dwords(4)),
    ("b256", Width::Dwords(8)),
    ("b512", Width::Dwords(16)),
    ("ubyte", Width::U8),
    ("u8", Width::U8),
    ("sbyte", Width::I8),
    ("i8", Width::I8),
    ("ushort", Width::U16),
    ("u16", Width::U16),
    ("sshort", Width::I16),
    ("i16", Width::I16),
    ("byte", Width::U8),
    ("b8", Width::U8),
    ("short", Width::U16),
    ("b16", Width::U16),
];

/// The D16 forms by the name's tail, both spellings (gfx9/gfx10
/// `load_short_d16_hi`, gfx11 `load_d16_hi_b16`): a byte or half into one
/// half of the register, the other half kept; a store sends the high half
/// (AMD Vega ISA FLAT_LOAD_SHORT_D16_HI, FLAT_STORE_SHORT_D16_HI).
const D16_WIDTHS: &[(&str, Width)] = &[
    ("ubyte_d16", Width::D16U8),
    ("sbyte_d16", Width::D16I8),
    ("short_d16", Width::D16B16),
    ("ubyte_d16_hi", Width::D16HiU8),
    ("sbyte_d16_hi", Width::D16HiI8),
    ("short_d16_hi", Width::D16HiB16),
    ("byte_d16_hi", Width::D16HiU8),
    ("d16_u8", Width::D16U8),
    ("d16_i8", Width::D16I8),
    ("d16_b16", Width::D16B16),
    ("d16_hi_u8", Width::D16HiU8),
    ("d16_hi_i8", Width::D16HiI8),
    ("d16_hi_b16", Width::D16HiB16),
    ("d16_hi_b8", Width::D16HiU8),
];

/// The width a memory mnemonic's tail names.
fn width_of(name: &str) -> Option<Width> {
    if name.contains("d16") {
        return D16_WIDTHS
            .iter()
            .find(|(t, _)| name.ends_with(&format!("_{t}")))
            .map(|&(_, w)| w);
    }
    let last = name.rsplit('_').next()?;
    WIDTHS.iter().find(|(t, _)| *t == last).map(|&(_, w)| w)
}

/// Atomic operation names (before an optional type or `_x2`), both
/// spellings (AMD Vega ISA "FLAT" and "DS" opcode tables; RDNA3).
const ATOMICS: &[(&str, AtomicOp)] = &[
    ("swap", AtomicOp::Swap),
    ("cmpswap", AtomicOp::CmpSwap),
    ("add", AtomicOp::Add),
    ("sub", AtomicOp::Sub),
    ("smin", AtomicOp::Smin),
    ("umin", AtomicOp::Umin),
    ("smax", AtomicOp::Smax),
    ("umax", AtomicOp::Umax),
    ("min_i32", AtomicOp::Smin),
    ("min_u32", AtomicOp::Umin),
    ("max_i32", AtomicOp::Smax),
    ("max_u32", AtomicOp::Umax),
    ("min_i64", AtomicOp::Smin),
    ("min_u64", AtomicOp::Umin),
    ("max_i64", AtomicOp::Smax),
    ("max_u64", AtomicOp::Umax),
    ("and", AtomicOp::And),
    ("or", AtomicOp::Or),
    ("xor", AtomicOp::Xor),
    ("inc", AtomicOp::Inc),
    ("dec", AtomicOp::Dec),
];

/// An atomic's operation and width from the text after `atomic_`.
fn atomic_of(rest: &str) -> Option<(AtomicOp, bool)> {
    let wide = rest.ends_with("_x2") || rest.ends_with("64");
    let base = rest.trim_end_matches("_x2");
    for &(n, op) in ATOMICS {
        if base == n
            || base.strip_prefix(n).is_some_and(|t| {
                matches!(
                    t,
                    "_u32" | "_b32" | "_i32" | "_u64" | "_b64" | "_i64" | "_rtn_u32" | "_rtn_b32"
                )
            })
        {
            return Some((op, wide));
        }
    }
    None
}

fn vgpr_of(o: Option<GOperand>, what: &str) -> Result<u32, String> {
    match o {
        Some(GOperand::Vgpr { first, .. }) => Ok(u32::from(first)),
        _ => Err(format!("{what} is not a VGPR")),
    }
}

fn sgpr_of(o: GOperand, what: &str) -> Result<u32, String> {
    match o {
        GOperand::Sgpr { first, .. } => Ok(u32::from(first)),
        _ => Err(format!("{what} is not an SGPR")),
    }
}

/// A scalar offset register (or an inline integer constant, or a
/// literal) as a source.
fn scalar_src(o: GOperand) -> Result<Src, String> {
    Ok(match o {
        GOperand::Int(i) => Src::Const(i32::from(i) as u32),
        GOperand::Literal(l) => Src::Const(l),
        GOperand::Sgpr { first, .. } => Src::Reg(Reg::Sgpr(u32::from(first))),
        GOperand::Special(Special::M0) => Src::Reg(Reg::M0),
        GOperand::Special(Special::Null) => Src::Const(0),
        GOperand::Special(Special::VccLo) => Src::Reg(Reg::VccLo),
        GOperand::Special(Special::VccHi) => Src::Reg(Reg::VccHi),
        GOperand::Special(Special::ExecLo) => Src::Reg(Reg::ExecLo),
        GOperand::Special(Special::ExecHi) => Src::Reg(Reg::ExecHi),
        other => {
            return Err(format!(
                "the offset register {other:?} is not executed by gcnrun yet"
            ))
        }
    })
}

/// What a scalar load's mnemonic says (SMEM and SMRD alike): through a V#
/// (`s_buffer_load_*`) or not, and the dwords it loads.
fn scalar_load_kind(name: &str) -> Result<(bool, u8), String> {
    let buffer = name.starts_with("s_buffer_load_");
    if !buffer && !name.starts_with("s_load_") {
        return Err(format!("`{name}` is not executed by gcnrun yet"));
    }
    match width_of(name) {
        Some(Width::Dwords(dwords)) => Ok((buffer, dwords)),
        _ => Err(format!("`{name}`: unknown width")),
    }
}

/// `s_load_*` / `s_buffer_load_*` (SMEM, gfx8+).
pub fn lower_smem(s: &Smem) -> Result<Op, String> {
    let name = s.mnemonic();
    let (buffer, dwords) = scalar_load_kind(name)?;
    let ops = s.operands();
    let find = |f: Fld| ops.iter().find(|t| t.field == f).map(|t| t.operand);
    let sdst = sgpr_of(find(Fld::Sdata).ok_or("no destination")?, "the destination")?;
    let sbase = sgpr_of(find(Fld::Sbase).ok_or("no base")?, "the base")?;
    let (offset, imm) = match s.offset() {
        Offset::Imm(i) => (Src::Const(0), i),
        Offset::Reg(_) => (
            scalar_src(find(Fld::Soffset).ok_or("no offset register")?)?,
            0,
        ),
        Offset::RegImm(_, i) => (
            scalar_src(find(Fld::Soffset).ok_or("no offset register")?)?,
            i,
        ),
    };
    Ok(Op::ScalarLoad(Box::new(ScalarLoad {
        sdst,
        dwords: u32::from(dwords),
        sbase,
        buffer,
        offset,
        imm,
    })))
}

/// `s_load_*` / `s_buffer_load_*` (SMRD, gfx6/gfx7): an immediate offset
/// counts dwords (AMD Southern Islands ISA §8.2 "SMRD": "OFFSET … in dwords
/// when IMM = 1"), a register offset bytes.
pub fn lower_smrd(s: &Smrd) -> Result<Op, String> {
    let name = s.mnemonic();
    let (buffer, dwords) = scalar_load_kind(name)?;
    if s.literal.is_some() {
        return Err(format!(
            "`{name}` with a literal offset is not executed by gcnrun yet"
        ));
    }
    let (offset, imm) = if s.imm() {
        (Src::Const(0), (s.offset() * 4) as i32)
    } else {
        (Src::Reg(Reg::Sgpr(s.offset())), 0)
    };
    Ok(Op::ScalarLoad(Box::new(ScalarLoad {
        sdst: s.sdst(),
        dwords: u32::from(dwords),
        sbase: 2 * s.sbase(),
        buffer,
        offset,
        imm,
    })))
}

/// What a vector memory mnemonic does, from `rest` (the name after its
/// segment prefix: `load_dwordx4`, `store_b32`, `atomic_add_u32`, …); an
/// atomic `returns` its pre-op value as the caller decides from the
/// encoding.
fn access_of(name: &str, rest: &str, returns: bool) -> Result<Access, String> {
    let width = || width_of(name).ok_or_else(|| format!("`{name}`: unknown width"));
    if rest.starts_with("load_") {
        Ok(Access::Load(width()?))
    } else if rest.starts_with("store_") {
        Ok(Access::Store(width()?))
    } else if let Some((op, wide)) = rest.strip_prefix("atomic_").and_then(atomic_of) {
        Ok(Access::Atomic { op, wide, returns })
    } else {
        Err(format!("`{name}` is not executed by gcnrun yet"))
    }
}

/// The typed access of a MUBUF `_format` form or an MTBUF instruction
/// (`buffer_load_format_xy`, `tbuffer_store_format_xyzw`, …): load or store,
/// the component count its suffix names, and MTBUF's format resolved to a
/// data and number format (`texture::typed::resolve`; gfx10+'s combined
/// FORMAT through that generation's table).
fn typed_of(b: &Buffer, arch: &Arch) -> Result<Access, String> {
    let gen = arch.gen;
    let name = b.mnemonic();
    // gfx11 spells the D16 forms `buffer_load_d16_format_x`,
    // `buffer_load_d16_hi_format_x`: read as the older `_format_d16_x`.
    let spelled = name
        .replace("_d16_hi_format_", "_format_d16_hi_")
        .replace("_d16_format_", "_format_d16_");
    let (op, rest) = spelled
        .strip_prefix("t")
        .unwrap_or(&spelled)
        .strip_prefix("buffer_")
        .and_then(|r| r.split_once("_format_"))
        .ok_or_else(|| format!("`{name}` is not executed by gcnrun yet"))?;
    let store = match op {
        "load" => false,
        "store" => true,
        _ => return Err(format!("`{name}` is not executed by gcnrun yet")),
    };
    // `_d16` halves, packed two to a VGPR where the target packs D16
    // (Arch::packed_d16); `_d16_hi` one half in the high half.
    let (data, comps) = if let Some(c) = rest.strip_prefix("d16_hi_") {
        (TypedData::High16, c)
    } else if let Some(c) = rest.strip_prefix("d16_") {
        let d = if arch.packed_d16 {
            TypedData::Packed16
        } else {
            TypedData::Unpacked16
        };
        (d, c)
    } else {
        (TypedData::Full, rest)
    };
    let comps = match comps {
        "x" => 1,
        "xy" => 2,
        "xyz" => 3,
        "xyzw" => 4,
        _ => return Err(format!("`{name}` is not executed by gcnrun yet")),
    };
    let format = match b.format {
        None => None,
        Some(f) => {
            let code = match f {
                BufFormat::Split { dfmt, nfmt } => FormatCode::Split { dfmt, nfmt },
                BufFormat::Unified(c) => FormatCode::Unified(u16::from(c)),
            };
            let t = typed::resolve(code, gen, store).map_err(|m| format!("`{name}`: {m}"))?;
            Some(TypedCode {
                data_format: t.df.code,
                num_format: t.nf.code(),
            })
        }
    };
    Ok(Access::Typed {
        store,
        comps,
        data,
        format,
    })
}

/// MUBUF loads, stores and atomics through a V# (`buffer_load_dword`,
/// `buffer_store_b32`, `buffer_atomic_add`, …), and the typed accesses of
/// MUBUF's `_format` forms and MTBUF (`typed_of`): the address registers
/// and offsets as the instruction names them; the V#'s base, stride, range
/// and (typed, MUBUF) format apply at run time (`cpu::memops`,
/// docs/semantics/programs.md). LDS loads and TFE are refused by name.
pub fn lower_buffer(b: &Buffer, arch: &Arch) -> Result<Op, String> {
    let name = b.mnemonic();
    let refuse = |why: &str| Err(format!("`{name}`{why} is not executed by gcnrun yet"));
    if b.lds {
        return refuse(" with LDS (a load into LDS)");
    }
    if b.tfe {
        return refuse(" with TFE");
    }
    let typed = b.format.is_some() || name.contains("_format_");
    let rest = name.strip_prefix("buffer_").unwrap_or(name);
    // MUBUF atomics return the value before the operation into VDATA when
    // GLC is set (AMD Vega ISA §9.1.9 "Buffer atomics": "GLC = 1: return the
    // pre-op value").
    let access = if typed {
        typed_of(b, arch)?
    } else {
        access_of(name, rest, b.glc)?
    };
    let vdata = vgpr_of(b.vdata.map(|t| t.operand), "the data")?;
    let vaddr = match b.vaddr {
        Some(t) => vgpr_of(Some(t.operand), "the address")?,
        None => 0,
    };
    let srsrc = sgpr_of(
        b.srsrc.ok_or("no resource")?.operand,
        "the resource descriptor",
    )?;
    let soffset = scalar_src(b.soffset.ok_or("no soffset")?.operand)?;
    Ok(Op::VectorMem(Box::new(VectorMem {
        access,
        addr: Addr::Buffer {
            srsrc,
            vaddr,
            idxen: b.idxen,
            offen: b.offen,
            addr64: b.addr64,
            soffset,
            offset: u32::from(b.offset),
        },
        vdata,
        vdst: vdata,
    })))
}

fn access_is_atomic(a: &Access) -> bool {
    matches!(a, Access::Atomic { .. })
}

/// FLAT and GLOBAL loads, stores and atomics, and `scratch_*` loads and
/// stores. gfx9/gfx10's `scratch_*` address the wave's FLAT_SCRATCH, which
/// the kernel's prologue sets up from the flat-scratch-init SGPRs the launch
/// gives (the scratch's address); gcnrun places every lane's bytes where the
/// launch lays private memory out, as for gfx11's architected scratch
/// (`ir::mem::scratch_address`, docs/errata.md MB5).
pub fn lower_flat(f: &Flat) -> Result<Op, String> {
    let name = f.mnemonic();
    let rest = name
        .strip_prefix("flat_")
        .or_else(|| name.strip_prefix("global_"))
        .or_else(|| name.strip_prefix("scratch_"))
        .ok_or_else(|| format!("`{name}` is not executed by gcnrun yet"))?;
    if f.lds() || name.contains("addtid") {
        return Err(format!("`{name}` is not executed by gcnrun yet"));
    }
    let access = access_of(name, rest, f.vdst().is_some())?;
    let offset = f.offset();
    if f.segment() == Segment::Scratch {
        let vaddr = f
            .vaddr()
            .map(|o| vgpr_of(Some(o), "the address"))
            .transpose()?;
        // gfx10's SADDR 0x7f (EXEC_HI), which LLVM prints as `off` too,
        // reads no SGPR either.
        let off = f.saddr_off() || f.gen() == crate::arch::Gen::Gfx10 && f.saddr() == 0x7f;
        let saddr = (!off).then(|| f.saddr());
        if saddr.is_some_and(|s| s >= 106) {
            return Err(format!(
                "`{name}` with a scratch offset in a special register is not executed by gcnrun yet"
            ));
        }
        if access_is_atomic(&access) {
            return Err(format!("`{name}` is not executed by gcnrun yet"));
        }
        return Ok(Op::VectorMem(Box::new(VectorMem {
            access,
            addr: Addr::Scratch {
                vaddr,
                saddr,
                offset,
            },
            vdata: match access {
                Access::Load(_) => 0,
                _ => vgpr_of(f.vdata(), "the data")?,
            },
            vdst: match f.vdst() {
                Some(o) => vgpr_of(Some(o), "the destination")?,
                None => 0,
            },
        })));
    }
    let vaddr = vgpr_of(f.vaddr(), "the address")?;
    let addr = match f.segment() {
        Segment::Flat => Addr::Flat { vaddr, offset },
        Segment::Global if f.saddr_off() => Addr::Global {
            saddr: None,
            vaddr,
            offset,
        },
        Segment::Global => Addr::Global {
            saddr: Some(f.saddr()),
            vaddr,
            offset,
        },
        Segment::Scratch => {
            return Err(format!("`{name}`: internal: scratch reached the flat path"))
        }
    };
    let vdata = match access {
        Access::Load(_) => 0,
        _ => vgpr_of(f.vdata(), "the data")?,
    };
    let vdst = match f.vdst() {
        Some(o) => vgpr_of(Some(o), "the destination")?,
        None => 0,
    };
    Ok(Op::VectorMem(Box::new(VectorMem {
        access,
        addr,
        vdata,
        vdst,
    })))
}

/// LDS reads, writes, read2/write2, atomics and `ds_bpermute_b32`.
pub fn lower_ds(d: &GDs) -> Result<Op, String> {
    let name = d.mnemonic();
    if d.gds() {
        return Err(format!("`{name}`: GDS is not executed by gcnrun"));
    }
    let rest = name.strip_prefix("ds_").unwrap_or(name);
    let ops = d.operands();
    let find = |f: Fld| ops.iter().find(|t| t.field == f).map(|t| t.operand);
    let reg = |f: Fld| find(f).map_or(Ok(0), |o| vgpr_of(Some(o), f.name()));
    let addr = reg(Fld::Addr)?;
    let data0 = reg(Fld::Data0)?;
    let data1 = reg(Fld::Data1)?;
    let vdst = reg(Fld::Vdst)?;
    let two = |r: &str| -> Option<(u8, bool)> {
        let (n, st64) = match r {
            "b32" | "b32_st64" => (1, r.ends_with("st64")),
            "b64" | "b64_st64" => (2, r.ends_with("st64")),
            _ => return None,
        };
        Some((n, st64))
    };
    // ds_read2st64_b32 / ds_write2st64_b64 (gfx6–gfx10 spell the stride in
    // the name without a separator).
    let rest = rest
        .replace("read2st64_", "read2_stride64_")
        .replace("write2st64_", "write2_stride64_");
    let rest = rest.as_str();
    let kind = if let Some(r) = rest
        .strip_prefix("read2_")
        .or_else(|| rest.strip_prefix("load_2addr_"))
    {
        let (dwords, st64) = two(r.trim_start_matches("stride64_"))
            .map(|(n, s)| (n, s || r.starts_with("stride64")))
            .ok_or_else(|| format!("`{name}` is not executed by gcnrun yet"))?;
        DsKind::Read2 { dwords, st64 }
    } else if let Some(r) = rest
        .strip_prefix("write2_")
        .or_else(|| rest.strip_prefix("store_2addr_"))
    {
        let (dwords, st64) = two(r.trim_start_matches("stride64_"))
            .map(|(n, s)| (n, s || r.starts_with("stride64")))
            .ok_or_else(|| format!("`{name}` is not executed by gcnrun yet"))?;
        DsKind::Write2 { dwords, st64 }
    } else if rest.starts_with("read_") || rest.starts_with("load_") {
        DsKind::Read(
            width_of(name).ok_or_else(|| format!("`{name}` is not executed by gcnrun yet"))?,
        )
    } else if rest.starts_with("write_") || rest.starts_with("store_") {
        DsKind::Write(
            width_of(name).ok_or_else(|| format!("`{name}` is not executed by gcnrun yet"))?,
        )
    } else if rest == "bpermute_b32" {
        DsKind::Bpermute
    } else if rest == "permute_b32" {
        DsKind::Permute
    } else if rest == "swizzle_b32" {
        // Offsets from 0xc000 select the rotate and FFT modes of the CDNA
        // ISA's pseudocode, which no source describes for gfx8-gfx11.
        if d.offset() >= 0xc000 {
            return Err(format!(
                "`{name}` in rotate or FFT mode (offset {:#x} ≥ 0xc000) is not executed by gcnrun yet",
                d.offset()
            ));
        }
        DsKind::Swizzle
    } else {
        // ds_<op>[_rtn]_<ty>: atomics.
        let returns = rest.contains("_rtn_");
        let base = rest.replace("_rtn_", "_");
        let base = base
            .replace("cmpstore", "cmpswap")
            .replace("cmpst_", "cmpswap_");
        let (op, wide) =
            atomic_of(&base).ok_or_else(|| format!("`{name}` is not executed by gcnrun yet"))?;
        DsKind::Atomic { op, wide, returns }
    };
    if matches!(kind, DsKind::Read(w) | DsKind::Write(w) if !matches!(w, Width::Dwords(_) | Width::U8 | Width::I8 | Width::U16 | Width::I16))
    {
        return Err(format!("`{name}` is not executed by gcnrun yet"));
    }
    let (offset0, offset1) = match kind {
        DsKind::Read2 { .. } | DsKind::Write2 { .. } => (d.offset0(), d.offset1()),
        _ => (d.offset(), 0),
    };
    Ok(Op::Ds(Box::new(Ds {
        kind,
        addr,
        data0,
        data1,
        vdst,
        offset0,
        offset1,
    })))
}

/// What a SOPP instruction does in an in-order interpreter. Branch targets
/// are byte offsets here; [`super::lower::resolve_branches`] turns them into
/// op indices.
pub fn lower_sopp(s: &Sopp, offset: usize) -> Result<Op, String> {
    let name = s.mnemonic();
    // SIMM16 counts dwords from the next instruction (AMD Vega ISA
    // S_BRANCH: "PC = PC + signext(SIMM16 * 4) + 4").
    let target = || -> Result<u32, String> {
        let t = offset as i64 + 4 + 4 * i64::from(s.simm16 as u16 as i16);
        u32::try_from(t).map_err(|_| format!("`{name}` jumps to {t}, before the code"))
    };
    let branch = |cond| -> Result<Op, String> {
        Ok(Op::Wave(Box::new(WaveOp::Branch {
            target: target()?,
            cond,
        })))
    };
    match name {
        "s_endpgm" | "s_code_end" | "s_endpgm_saved" => Ok(Op::End),
        "s_nop"
        | "s_waitcnt"
        | "s_waitcnt_vscnt"
        | "s_waitcnt_vmcnt"
        | "s_waitcnt_expcnt"
        | "s_waitcnt_lgkmcnt"
        | "s_waitcnt_depctr"
        | "s_delay_alu"
        | "s_clause"
        | "s_setprio"
        | "s_sleep"
        | "s_inst_prefetch"
        | "s_set_inst_prefetch_distance"
        | "s_icache_inv"
        | "s_ttracedata"
        | "s_dcache_wb"
        | "s_wait_idle" => Ok(Op::Wait),
        "s_branch" => branch(Cond::Always),
        "s_cbranch_scc0" => branch(Cond::SccZ),
        "s_cbranch_scc1" => branch(Cond::SccNz),
        "s_cbranch_vccz" => branch(Cond::VccZ),
        "s_cbranch_vccnz" => branch(Cond::VccNz),
        "s_cbranch_execz" => branch(Cond::ExecZ),
        "s_cbranch_execnz" => branch(Cond::ExecNz),
        "s_barrier" => Ok(Op::Wave(Box::new(WaveOp::Barrier))),
        // s_sendmsg: MSG_DEALLOC_VGPRS (gfx11) and the GS messages end
        // nothing a compute wave needs; sendmsg(MSG_DEALLOC_VGPRS) comes right
        // before s_endpgm, so it is a no-op here. Other messages are refused.
        "s_sendmsg" | "s_sendmsghalt" => {
            let id = s.simm16 & 0xff;
            // gfx11 MSG_DEALLOC_VGPRS = 3 (LLVM SIDefines.h,
            // ID_DEALLOC_VGPRS_GFX11Plus; llvm-objdump-19 prints
            // `sendmsg(MSG_DEALLOC_VGPRS)` for 3 on gfx11).
            if id == 3 && s.gen == crate::arch::Gen::Gfx11 {
                Ok(Op::Wait)
            } else {
                Err(format!(
                    "`{name}` of message {id} is not executed by gcnrun yet"
                ))
            }
        }
        // s_denorm_mode (gfx10+): MODE bits 7:4; s_round_mode: bits 3:0.
        "s_denorm_mode" => Ok(Op::Wave(Box::new(WaveOp::SetReg {
            reg: HwReg::Mode,
            offset: 4,
            size: 4,
            src: Src::Const(s.simm16 & 0xf),
        }))),
        "s_round_mode" => Ok(Op::Wave(Box::new(WaveOp::SetReg {
            reg: HwReg::Mode,
            offset: 0,
            size: 4,
            src: Src::Const(s.simm16 & 0xf),
        }))),
        other => Err(format!(
            "`{other}` is not executed by gcnrun (neither backend)"
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn widths_and_atomics_come_from_the_name() {
        assert_eq!(width_of("global_load_dwordx4"), Some(Width::Dwords(4)));
        assert_eq!(width_of("global_store_b128"), Some(Width::Dwords(4)));
        assert_eq!(width_of("global_load_sbyte"), Some(Width::I8));
        assert_eq!(width_of("s_load_b256"), Some(Width::Dwords(8)));
        assert_eq!(atomic_of("add"), Some((AtomicOp::Add, false)));
        assert_eq!(atomic_of("add_u32"), Some((AtomicOp::Add, false)));
        assert_eq!(atomic_of("add_x2"), Some((AtomicOp::Add, true)));
        assert_eq!(atomic_of("cmpswap_b64"), Some((AtomicOp::CmpSwap, true)));
        assert_eq!(atomic_of("max_u32"), Some((AtomicOp::Umax, false)));
        assert_eq!(atomic_of("add_f32"), None);
    }
}
