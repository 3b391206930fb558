//! Scalar loads, vector loads, stores and atomics on the launch's memory,
//! and LDS operations (docs/semantics, "Memory operations").
//!
//! Every access is checked: a byte outside the launch's memory is a fault
//! that stops the run naming the lane and the address — gcnrun places
//! everything a program may legitimately reach (kernel arguments, buffers,
//! images, descriptors), so an address outside is a bug in the program or
//! its launch, and the hardware's answer (a page fault, or memory the
//! reference has no model of) is not something to imitate. LDS reads out of
//! range return 0 and writes are dropped (AMD Vega ISA §9.3 "LDS", out of
//! range accesses), as for `WaveState::lds_dword`.

use crate::arch::Gen;
use crate::ir::atomic::AtomicOp;
use crate::ir::mem::{
    scratch_address, Access, Addr, Ds, DsKind, ScalarLoad, Scratch, TypedData, VectorMem, Width,
    LDS_APERTURE,
};
use crate::machine::buffer::{self, Vsharp};
use crate::machine::{MemAccess, WaveState};
use crate::texture::atomic::{apply32, apply64};
use crate::texture::data::{load_dwords, store_values, DataWidth};
use crate::texture::format::NumFormat;
use crate::texture::typed::{self, FormatCode, TypedFormat};

/// Bytes of `mem` at `addr`, or the fault message.
///
/// WGSL twin: `gmem_offset` (docs/gpu.md, "Twins").
fn read<'m>(
    mem: &'m MemAccess<'_>,
    addr: u64,
    len: u32,
    lane: Option<u32>,
) -> Result<std::borrow::Cow<'m, [u8]>, String> {
    mem.read(addr, len).ok_or_else(|| fault(addr, len, lane))
}

fn fault(addr: u64, len: u32, lane: Option<u32>) -> String {
    let who = lane.map(|l| format!("lane {l}: ")).unwrap_or_default();
    format!("{who}an access of {len} bytes at {addr:#x} is outside the launch's memory (a fault)")
}

fn write(mem: &mut MemAccess<'_>, addr: u64, data: &[u8], lane: Option<u32>) -> Result<(), String> {
    if !mem.contains(addr, data.len() as u32) {
        return Err(fault(addr, data.len() as u32, lane));
    }
    mem.write(addr, data);
    Ok(())
}

fn dword(b: &[u8], i: usize) -> u32 {
    u32::from_le_bytes([b[4 * i], b[4 * i + 1], b[4 * i + 2], b[4 * i + 3]])
}

/// The four words of the V# in SGPRs from `first`, for an access that
/// reads an index VGPR (`idxen`) or not.
fn vsharp(w: &WaveState, first: u32, gen: Gen, idxen: bool) -> Result<Vsharp, String> {
    let v = Vsharp::new(std::array::from_fn(|i| w.sgpr(first + i as u32)), gen);
    match v.refusal(gen, idxen) {
        Some(why) => Err(why.into()),
        None => Ok(v),
    }
}

/// `s_load_dword*` (SMEM/SMRD): `dwords` dwords at the 64-bit base in
/// SGPRs `sbase` plus the offsets. The address's low two bits are ignored
/// (AMD Vega ISA §5.2 "Scalar Memory Reads": "the address is dword
/// aligned"). `s_buffer_load_dword*` reads at the V#'s base plus the
/// offsets (unsigned: LLVM `SelectSMRDBufferImm`), each dword past the
/// V#'s bound ([`buffer::scalar_bound`]) reading 0.
pub fn scalar_load(
    w: &mut WaveState,
    l: &ScalarLoad,
    mem: &MemAccess<'_>,
    gen: Gen,
) -> Result<(), String> {
    let off = u64::from(w.scalar_src(l.offset));
    let vals: Vec<u32> = if l.buffer {
        let v = vsharp(w, l.sbase, gen, false)?;
        let rel = off.wrapping_add(u64::from(l.imm as u32)) & 0xffff_fffc;
        let bound = buffer::scalar_bound(&v);
        (0..u64::from(l.dwords))
            .map(|i| {
                let at = rel + 4 * i;
                if at + 4 <= bound {
                    Ok(dword(&read(mem, v.base.wrapping_add(at), 4, None)?, 0))
                } else {
                    Ok(0)
                }
            })
            .collect::<Result<_, String>>()?
    } else {
        let base = u64::from(w.sgpr(l.sbase)) | u64::from(w.sgpr(l.sbase + 1) & 0xffff) << 32;
        let addr = base.wrapping_add(off).wrapping_add(l.imm as i64 as u64) & !3;
        let bytes = read(mem, addr, 4 * l.dwords, None)?;
        (0..l.dwords as usize).map(|i| dword(&bytes, i)).collect()
    };
    for (i, v) in vals.into_iter().enumerate() {
        w.set_sgpr(l.sdst + i as u32, v);
    }
    Ok(())
}

/// Where a lane's MUBUF access lands: the address of its first byte, and
/// the V# and lane inputs its range check needs (`None` with ADDR64, which
/// is not range-checked: CLRX GcnMemHandling.md, "no range checking for
/// 64-bit mode addressing"; LLVM gives such V#s NUM_RECORDS 0).
struct BufferLane {
    addr: u64,
    check: Option<(Vsharp, buffer::Lane)>,
}

impl BufferLane {
    /// The address of the element `rel` bytes in, `size` bytes long, or
    /// `None` when the range check puts it outside the buffer.
    fn element(&self, gen: Gen, rel: u32, size: u32) -> Option<u64> {
        match &self.check {
            Some((v, l)) if !buffer::in_range(v, gen, l, rel, size) => None,
            _ => Some(self.addr.wrapping_add(u64::from(rel))),
        }
    }
}

/// A lane's MUBUF address through the wave's V# `v` and SOFFSET value:
/// ADDR64 adds the 64-bit VGPR pair to the V#'s base (with the offsets);
/// otherwise [`buffer::address`] of the index VGPR (IDXEN) and offset VGPR
/// (OFFEN, after the index).
fn buffer_lane(
    w: &WaveState,
    addr: &Addr,
    v: &Vsharp,
    soffset: u32,
    lane: u32,
) -> Result<BufferLane, String> {
    let Addr::Buffer {
        vaddr,
        idxen,
        offen,
        addr64,
        offset,
        ..
    } = *addr
    else {
        return Err("internal: a non-buffer access reached buffer_lane".into());
    };
    if addr64 {
        let a = u64::from(w.vgpr(vaddr, lane)) | u64::from(w.vgpr(vaddr + 1, lane)) << 32;
        let addr = v
            .base
            .wrapping_add(a)
            .wrapping_add(u64::from(offset))
            .wrapping_add(u64::from(soffset));
        return Ok(BufferLane { addr, check: None });
    }
    let index = buffer::index(v, idxen, w.vgpr(vaddr, lane), lane);
    let voff = if offen {
        w.vgpr(vaddr + u32::from(idxen), lane)
    } else {
        0
    };
    let l = buffer::Lane {
        idxen,
        index,
        offset: offset.wrapping_add(voff),
        soffset,
    };
    Ok(BufferLane {
        addr: buffer::address(v, &l),
        check: Some((*v, l)),
    })
}

/// A gfx11 `scratch_*` load or store, lane by lane: the lane's private
/// offset is the VGPR (SVE) plus the SGPR plus the instruction's offset;
/// each byte lands at [`scratch_address`] (the swizzled layout, so a dword
/// at an unaligned offset spans two of the lane's dwords). An access past
/// the kernel's private bytes per work-item is a fault, as any access
/// outside what the launch placed is.
fn scratch_vector(
    w: &mut WaveState,
    op: &VectorMem,
    mem: &mut MemAccess<'_>,
    s: &Scratch,
) -> Result<(), String> {
    let Addr::Scratch {
        vaddr,
        saddr,
        offset,
    } = op.addr
    else {
        return Err("internal: a non-scratch access reached scratch_vector".into());
    };
    let (width, store) = match op.access {
        Access::Load(wd) => (wd, false),
        Access::Store(wd) => (wd, true),
        Access::Atomic { .. } => return Err("scratch atomics are not executed by gcnrun".into()),
        Access::Typed { .. } => return Err("internal: a typed access reached scratch".into()),
    };
    let n = width.bytes();
    let lanes = w.active_lanes();
    for lane in lanes {
        let o = vaddr
            .map_or(0, |v| w.vgpr(v, lane))
            .wrapping_add(saddr.map_or(0, |r| w.sgpr(r)))
            .wrapping_add(offset as u32);
        if u64::from(o) + u64::from(n) > u64::from(s.per_lane) {
            return Err(format!(
                "lane {lane}: a private access of {n} bytes at offset {o:#x} is past the kernel's {} private bytes per work-item (a fault)",
                s.per_lane
            ));
        }
        let at = |k: u32| scratch_address(s, w.wave, w.wave_size, lane, o + k);
        if store {
            let data = store_data(w, op.vdata, width, lane);
            for (k, b) in data.iter().enumerate() {
                write(mem, at(k as u32), &[*b], Some(lane))?;
            }
        } else {
            let bytes = (0..n)
                .map(|k| Ok(read(mem, at(k), 1, Some(lane))?[0]))
                .collect::<Result<Vec<u8>, String>>()?;
            put_loaded(w, op.vdst, width, &bytes, lane);
        }
    }
    Ok(())
}

/// A MUBUF load, store or atomic through its V#, lane by lane in lane
/// order: each dword of a load or store is range-checked on its own (an
/// element outside reads 0 and is not written), an atomic as a whole (one
/// outside returns 0 and writes nothing); an element inside the buffer but
/// outside the launch's memory is a fault, as for global accesses.
fn buffer_vector(
    w: &mut WaveState,
    op: &VectorMem,
    mem: &mut MemAccess<'_>,
    gen: Gen,
) -> Result<(), String> {
    let lanes = w.active_lanes();
    let Addr::Buffer {
        srsrc,
        idxen,
        soffset,
        ..
    } = op.addr
    else {
        return Err("internal: a non-buffer access reached buffer_vector".into());
    };
    if lanes.is_empty() {
        return Ok(());
    }
    // The V# and SOFFSET are scalar: read (and the V# checked) once.
    let v = vsharp(w, srsrc, gen, idxen)?;
    let soffset = w.scalar_src(soffset);
    let typed = typed_format(w, &op.access, srsrc, gen)?;
    for lane in lanes {
        let at = buffer_lane(w, &op.addr, &v, soffset, lane)?;
        match op.access {
            Access::Load(width) => {
                let size = width.bytes().min(4);
                let mut bytes = Vec::with_capacity(width.bytes() as usize);
                for i in 0..width.dwords() {
                    match at.element(gen, 4 * i, size) {
                        Some(a) => bytes.extend_from_slice(&read(mem, a, size, Some(lane))?),
                        None => bytes.extend(std::iter::repeat_n(0, size as usize)),
                    }
                }
                put_loaded(w, op.vdst, width, &bytes, lane);
            }
            Access::Store(width) => {
                let data = store_data(w, op.vdata, width, lane);
                let size = width.bytes().min(4);
                for (i, chunk) in data.chunks(size as usize).enumerate() {
                    if let Some(a) = at.element(gen, 4 * i as u32, size) {
                        write(mem, a, chunk, Some(lane))?;
                    }
                }
            }
            Access::Atomic {
                op: aop,
                wide,
                returns,
            } => {
                let size = if wide { 8 } else { 4 };
                let slots = if wide { 2 } else { 1 };
                let data = lane_value(w, op.vdata, lane, wide);
                let cmp = lane_value(w, op.vdata + slots, lane, wide);
                let old = match at.element(gen, 0, size) {
                    Some(a) => {
                        let found = read(mem, a, size, Some(lane))?.to_vec();
                        let (old, new) = read_modify(aop, wide, &found, data, cmp);
                        write(mem, a, &new, Some(lane))?;
                        old
                    }
                    None => 0,
                };
                if returns {
                    put_returned(w, op.vdst, lane, old, wide);
                }
            }
            Access::Typed {
                store, comps, data, ..
            } => {
                let Some((t, dst_sel)) = typed else {
                    return Err("internal: a typed access without its format".into());
                };
                // One element of the format's size, range-checked as a
                // whole (docs/errata.md MB6).
                let at = at.element(gen, 0, t.df.bytes);
                let n = u32::from(comps);
                if store {
                    let regs = data_width(data).map_or(1, |d| d.dwords(n));
                    let dwords: Vec<u32> = (0..regs).map(|k| w.vgpr(op.vdata + k, lane)).collect();
                    let vals = typed_values(data, &dwords, n, t.nf);
                    let bytes = typed::store(&t, &vals)
                        .ok_or("internal: a typed store of a read-only format")?;
                    if let Some(a) = at {
                        write(mem, a, &bytes, Some(lane))?;
                    }
                } else {
                    let bytes = at
                        .map(|a| read(mem, a, t.df.bytes, Some(lane)))
                        .transpose()?;
                    let vals = typed::load(&t, dst_sel, bytes.as_deref(), n);
                    let old = w.vgpr(op.vdst, lane);
                    let dwords = typed_dwords(data, &vals, t.nf.is_integer(), old);
                    for (k, v) in dwords.into_iter().enumerate() {
                        w.set_vgpr(op.vdst + k as u32, lane, v);
                    }
                }
            }
        }
    }
    Ok(())
}

/// The D16 register layout of a typed access's data (`None` for the high
/// half of `_d16_hi`, which holds one component).
fn data_width(data: TypedData) -> Option<DataWidth> {
    match data {
        TypedData::Full => Some(DataWidth::Full),
        TypedData::Packed16 => Some(DataWidth::Packed16),
        TypedData::Unpacked16 => Some(DataWidth::Unpacked16),
        TypedData::High16 => None,
    }
}

/// A typed load's component values as its data VGPRs: 32-bit, or D16
/// halves as image loads pack them (`texture::data::load_dwords`); `_d16_hi`
/// puts the one half above the register's low half (`old`), which it keeps.
fn typed_dwords(data: TypedData, vals: &[u32], integer: bool, old: u32) -> Vec<u32> {
    match data_width(data) {
        Some(d) => load_dwords(vals, d, integer),
        None => {
            let half = load_dwords(&vals[..1], DataWidth::Unpacked16, integer)[0];
            vec![half << 16 | old & 0xffff]
        }
    }
}

/// A typed store's component values from its data VGPRs
/// (`texture::data::store_values`; `_d16_hi`: the high half).
fn typed_values(data: TypedData, dwords: &[u32], n: u32, nf: NumFormat) -> Vec<u32> {
    match data_width(data) {
        Some(d) => store_values(dwords, n, d, nf),
        None => store_values(&[dwords[0] >> 16], 1, DataWidth::Unpacked16, nf),
    }
}

/// The format and DST_SEL of a typed access (`texture::typed`): MTBUF's
/// from the instruction with DST_SEL identity, a MUBUF `_format` form's from
/// word 3 of the V# in SGPRs from `srsrc` — read once, as the V# is scalar;
/// a format gcnrun does not model stops the run naming it. `None` for the
/// untyped accesses.
fn typed_format(
    w: &WaveState,
    access: &Access,
    srsrc: u32,
    gen: Gen,
) -> Result<Option<(TypedFormat, [u8; 4])>, String> {
    let Access::Typed { store, format, .. } = *access else {
        return Ok(None);
    };
    let (code, dst_sel) = match format {
        Some(c) => (
            FormatCode::Split {
                dfmt: c.data_format,
                nfmt: c.num_format,
            },
            [4, 5, 6, 7],
        ),
        None => {
            let w3 = w.sgpr(srsrc + 3);
            (
                typed::vsharp_format_code(w3, gen),
                typed::vsharp_dst_sel(w3),
            )
        }
    };
    let t = typed::resolve(code, gen, store).map_err(|m| format!("typed access: {m}"))?;
    if let Some(bad) = dst_sel.iter().find(|&&s| matches!(s, 2 | 3)) {
        return Err(format!("the V#'s DST_SEL holds the reserved code {bad}"));
    }
    Ok(Some((t, dst_sel)))
}

/// The address a lane's access reaches.
enum Place {
    /// The launch's memory.
    Global(u64),
    /// The wave's LDS (a flat address in the LDS aperture).
    Lds(u64),
}

fn lane_address(w: &WaveState, addr: &Addr, lane: u32) -> Result<Place, String> {
    let vpair = |v: u32| u64::from(w.vgpr(v, lane)) | u64::from(w.vgpr(v + 1, lane)) << 32;
    match *addr {
        Addr::Flat { vaddr, offset } => {
            let a = vpair(vaddr).wrapping_add(offset as i64 as u64);
            if (a >> 32) as u32 == LDS_APERTURE {
                Ok(Place::Lds(a & 0xffff_ffff))
            } else {
                Ok(Place::Global(a))
            }
        }
        Addr::Global {
            saddr,
            vaddr,
            offset,
        } => {
            let base = match saddr {
                Some(s) => (u64::from(w.sgpr(s)) | u64::from(w.sgpr(s + 1)) << 32)
                    .wrapping_add(u64::from(w.vgpr(vaddr, lane))),
                None => vpair(vaddr),
            };
            Ok(Place::Global(base.wrapping_add(offset as i64 as u64)))
        }
        // `vector` sends buffer accesses to `buffer_vector`.
        Addr::Buffer { .. } => Err("internal: a buffer access reached lane_address".into()),
        // `vector` sends scratch accesses to `scratch_vector`.
        Addr::Scratch { .. } => Err("internal: a scratch access reached lane_address".into()),
    }
}

/// A short load's dword from its bytes and the register's old value.
///
/// WGSL twin: `widen_load` (docs/gpu.md, "Twins").
fn widen(width: Width, b: &[u8], old: u32) -> u32 {
    let u8v = u32::from(b[0]);
    let i8v = b[0] as i8 as i32 as u32;
    let u16v = || u32::from(u16::from_le_bytes([b[0], b[1]]));
    let i16v = || i16::from_le_bytes([b[0], b[1]]) as i32 as u32;
    match width {
        Width::U8 => u8v,
        Width::I8 => i8v,
        Width::U16 => u16v(),
        Width::I16 => i16v(),
        Width::D16U8 => old & 0xffff_0000 | u8v,
        Width::D16I8 => old & 0xffff_0000 | i8v & 0xffff,
        Width::D16B16 => old & 0xffff_0000 | u16v(),
        Width::D16HiU8 => old & 0xffff | u8v << 16,
        Width::D16HiI8 => old & 0xffff | i8v << 16,
        Width::D16HiB16 => old & 0xffff | u16v() << 16,
        Width::Dwords(_) => dword(b, 0),
    }
}

/// The bytes a short store writes from its data dword.
fn narrow(width: Width, v: u32) -> Vec<u8> {
    match width {
        Width::U8 | Width::I8 | Width::D16U8 | Width::D16I8 => vec![v as u8],
        Width::D16HiU8 | Width::D16HiI8 => vec![(v >> 16) as u8],
        Width::U16 | Width::I16 | Width::D16B16 => (v as u16).to_le_bytes().to_vec(),
        Width::D16HiB16 => ((v >> 16) as u16).to_le_bytes().to_vec(),
        Width::Dwords(_) => v.to_le_bytes().to_vec(),
    }
}

/// LDS bytes for an access (`None` out of range).
///
/// WGSL twin: `lds_ok` (docs/gpu.md, "Twins").
fn lds_range(w: &WaveState, a: u64, len: u32) -> Option<std::ops::Range<usize>> {
    let s = usize::try_from(a).ok()?;
    let e = s.checked_add(len as usize)?;
    (e <= w.lds.len()).then_some(s..e)
}

/// `len` bytes of LDS at `a`; zeros out of range.
fn lds_read(w: &WaveState, a: u64, len: u32) -> Vec<u8> {
    lds_range(w, a, len).map_or_else(|| vec![0; len as usize], |r| w.lds[r].to_vec())
}

/// Writes LDS at `a`; dropped out of range.
fn lds_write(w: &mut WaveState, a: u64, data: &[u8]) {
    if let Some(r) = lds_range(w, a, data.len() as u32) {
        w.lds[r].copy_from_slice(data);
    }
}

/// `len` bytes where a lane's access lands.
fn place_read(
    w: &WaveState,
    mem: &MemAccess<'_>,
    place: &Place,
    len: u32,
    lane: u32,
) -> Result<Vec<u8>, String> {
    match *place {
        Place::Global(a) => Ok(read(mem, a, len, Some(lane))?.to_vec()),
        Place::Lds(a) => Ok(lds_read(w, a, len)),
    }
}

/// Writes `data` where a lane's access lands.
fn place_write(
    w: &mut WaveState,
    mem: &mut MemAccess<'_>,
    place: &Place,
    data: &[u8],
    lane: u32,
) -> Result<(), String> {
    match *place {
        Place::Global(a) => write(mem, a, data, Some(lane)),
        Place::Lds(a) => {
            lds_write(w, a, data);
            Ok(())
        }
    }
}

/// A load's bytes into `vdst` of `lane`: whole dwords, or a short load
/// widened into its register (`widen`).
fn put_loaded(w: &mut WaveState, vdst: u32, width: Width, bytes: &[u8], lane: u32) {
    if let Width::Dwords(d) = width {
        for i in 0..u32::from(d) {
            w.set_vgpr(vdst + i, lane, dword(bytes, i as usize));
        }
    } else {
        let old = w.vgpr(vdst, lane);
        w.set_vgpr(vdst, lane, widen(width, bytes, old));
    }
}

/// The bytes a store of `width` sends from `vdata` of `lane`.
fn store_data(w: &WaveState, vdata: u32, width: Width, lane: u32) -> Vec<u8> {
    match width {
        Width::Dwords(d) => (0..u32::from(d))
            .flat_map(|i| w.vgpr(vdata + i, lane).to_le_bytes())
            .collect(),
        _ => narrow(width, w.vgpr(vdata, lane)),
    }
}

/// A 32-bit value (VGPR `v`) or a 64-bit one (`v`, `v + 1`) of `lane`.
fn lane_value(w: &WaveState, v: u32, lane: u32, wide: bool) -> u64 {
    let lo = u64::from(w.vgpr(v, lane));
    if wide {
        lo | u64::from(w.vgpr(v + 1, lane)) << 32
    } else {
        lo
    }
}

/// One lane's atomic on the bytes it found: the value before (to return)
/// and the bytes to write back (`texture::atomic`'s arithmetic).
fn read_modify(aop: AtomicOp, wide: bool, old: &[u8], data: u64, cmp: u64) -> (u64, Vec<u8>) {
    if wide {
        let mut b = [0u8; 8];
        b.copy_from_slice(&old[..8]);
        let old = u64::from_le_bytes(b);
        (old, apply64(aop, old, data, cmp).to_le_bytes().to_vec())
    } else {
        let old = dword(old, 0);
        let new = apply32(aop, old, data as u32, cmp as u32);
        (u64::from(old), new.to_le_bytes().to_vec())
    }
}

/// A returning atomic's value before the operation into `vdst` of `lane`.
fn put_returned(w: &mut WaveState, vdst: u32, lane: u32, old: u64, wide: bool) {
    w.set_vgpr(vdst, lane, old as u32);
    if wide {
        w.set_vgpr(vdst + 1, lane, (old >> 32) as u32);
    }
}

/// A vector load, store or atomic, lane by lane in lane order (one valid
/// order of the wave's accesses: on hardware lanes of one instruction that
/// touch the same address are ordered by the memory system; gcnrun's order
/// is ascending lanes, docs/semantics "Memory operations").
pub fn vector(
    w: &mut WaveState,
    op: &VectorMem,
    mem: &mut MemAccess<'_>,
    gen: Gen,
    scratch: &Scratch,
) -> Result<(), String> {
    match op.addr {
        Addr::Buffer { .. } => return buffer_vector(w, op, mem, gen),
        Addr::Scratch { .. } => return scratch_vector(w, op, mem, scratch),
        _ => {}
    }
    let lanes = w.active_lanes();
    for lane in lanes {
        let place = lane_address(w, &op.addr, lane)?;
        match op.access {
            Access::Load(width) => {
                let bytes = place_read(w, mem, &place, width.bytes(), lane)?;
                put_loaded(w, op.vdst, width, &bytes, lane);
            }
            Access::Store(width) => {
                let data = store_data(w, op.vdata, width, lane);
                place_write(w, mem, &place, &data, lane)?;
            }
            Access::Atomic {
                op: aop,
                wide,
                returns,
            } => {
                let slots = if wide { 2 } else { 1 };
                let data = lane_value(w, op.vdata, lane, wide);
                // Compare-swap sends {data, cmp} (AMD Vega ISA
                // FLAT_ATOMIC_CMPSWAP: "src = DATA[0]; cmp = DATA[1]").
                let cmp = lane_value(w, op.vdata + slots, lane, wide);
                let found = place_read(w, mem, &place, if wide { 8 } else { 4 }, lane)?;
                let (old, new) = read_modify(aop, wide, &found, data, cmp);
                place_write(w, mem, &place, &new, lane)?;
                if returns {
                    put_returned(w, op.vdst, lane, old, wide);
                }
            }
            Access::Typed { .. } => {
                return Err("internal: a typed access without a V# reached memops".into())
            }
        }
    }
    Ok(())
}

/// The lane whose register lane `lane` reads under `ds_swizzle_b32`'s 16-bit
/// offset (below 0xc000; the lowering refuses the rest): with bit 15 set,
/// quad permute — lane `offset >> 2(lane & 3) & 3` of the lane's quad;
/// otherwise bit masks within each 32 lanes — `((lane & and) | or) ^ xor`
/// with and = bits 4:0, or = bits 9:5, xor = bits 14:10 (AMD's
/// DS_SWIZZLE_B32 pseudocode; LLVM's `swizzle(QUAD_PERM…)` and
/// `swizzle(BITMASK_PERM…)`).
///
/// WGSL twin: `swizzle_source` in `shaders/program.wgsl` (docs/gpu.md, "Twins").
pub fn swizzle_source(offset: u32, lane: u32) -> u32 {
    if offset & 0x8000 != 0 {
        lane & !3 | offset >> (2 * (lane & 3)) & 3
    } else {
        let (and, or, xor) = (offset & 31, offset >> 5 & 31, offset >> 10 & 31);
        ((lane & and | or) ^ xor) & 31 | lane & 32
    }
}

/// An LDS operation, lane by lane in lane order. The address is the VGPR
/// plus the offset; LDS out of range reads 0, writes are dropped.
///
/// WGSL twin: `xl_pusher` in `shaders/program.wgsl` (docs/gpu.md, "Twins"),
/// for `ds_permute_b32`'s senders.
pub fn ds(w: &mut WaveState, op: &Ds) -> Result<(), String> {
    let lanes = w.active_lanes();
    let address =
        |w: &WaveState, lane: u32| u64::from(w.vgpr(op.addr, lane)) + u64::from(op.offset0);
    match op.kind {
        DsKind::Read(width) => {
            for lane in lanes {
                let bytes = lds_read(w, address(w, lane), width.bytes());
                put_loaded(w, op.vdst, width, &bytes, lane);
            }
        }
        DsKind::Write(width) => {
            for lane in lanes {
                let data = store_data(w, op.data0, width, lane);
                lds_write(w, address(w, lane), &data);
            }
        }
        // read2/write2: two elements of `dwords` dwords at offset0 and
        // offset1 × the element size (× 64 with st64) (AMD Vega ISA
        // DS_READ2_B32: "addr0 = ADDR + OFFSET0 * 4").
        DsKind::Read2 { dwords, st64 } | DsKind::Write2 { dwords, st64 } => {
            let unit = 4 * u64::from(dwords) * if st64 { 64 } else { 1 };
            let width = Width::Dwords(dwords);
            let is_read = matches!(op.kind, DsKind::Read2 { .. });
            for lane in lanes {
                let base = u64::from(w.vgpr(op.addr, lane));
                for (k, off) in [op.offset0, op.offset1].into_iter().enumerate() {
                    let a = base + u64::from(off) * unit;
                    if is_read {
                        let bytes = lds_read(w, a, width.bytes());
                        put_loaded(
                            w,
                            op.vdst + k as u32 * u32::from(dwords),
                            width,
                            &bytes,
                            lane,
                        );
                    } else {
                        let src = if k == 0 { op.data0 } else { op.data1 };
                        let data = store_data(w, src, width, lane);
                        lds_write(w, a, &data);
                    }
                }
            }
        }
        DsKind::Atomic {
            op: aop,
            wide,
            returns,
        } => {
            for lane in lanes {
                let a = address(w, lane);
                // DS compare-swap (`ds_cmpst_b32`): data0 is the compare
                // value, data1 the new one (AMD Vega ISA DS_CMPST_B32:
                // "tmp = MEM[ADDR]; src = DATA2; cmp = DATA").
                let (data, cmp) = if matches!(aop, AtomicOp::CmpSwap | AtomicOp::FCmpSwap) {
                    (
                        lane_value(w, op.data1, lane, wide),
                        lane_value(w, op.data0, lane, wide),
                    )
                } else {
                    (lane_value(w, op.data0, lane, wide), 0)
                };
                let found = lds_read(w, a, if wide { 8 } else { 4 });
                let (old, new) = read_modify(aop, wide, &found, data, cmp);
                lds_write(w, a, &new);
                if returns {
                    put_returned(w, op.vdst, lane, old, wide);
                }
            }
        }
        // ds_bpermute_b32: each active lane reads data0 of lane
        // ((addr + offset) / 4) mod the wave size; a disabled source lane
        // reads 0 (AMD Vega ISA DS_BPERMUTE_B32: "the EXEC mask is applied
        // to both VGPR read and write. If src_lane selects a disabled thread,
        // zero will be returned").
        DsKind::Bpermute => {
            let n = w.wave_size;
            let exec = w.exec;
            let src: Vec<u32> = (0..n)
                .map(|l| {
                    if exec >> l & 1 == 1 {
                        w.vgpr(op.data0, l)
                    } else {
                        0
                    }
                })
                .collect();
            for lane in lanes {
                let from = (w.vgpr(op.addr, lane).wrapping_add(op.offset0) / 4) % n;
                w.set_vgpr(op.vdst, lane, src[from as usize]);
            }
        }
        // ds_permute_b32 pushes: each active lane, in ascending order, puts
        // data0 into lane ((addr + offset) / 4) mod the wave size of a
        // zeroed array, so the highest lane wins a conflict; each active
        // lane then takes its element — 0 when no lane sent one (AMD's
        // DS_PERMUTE_B32 pseudocode; docs/errata.md DP3).
        DsKind::Permute => {
            let n = w.wave_size;
            let mut tmp = vec![0u32; n as usize];
            for lane in lanes {
                let to = (w.vgpr(op.addr, lane).wrapping_add(op.offset0) / 4) % n;
                tmp[to as usize] = w.vgpr(op.data0, lane);
            }
            for lane in lanes {
                w.set_vgpr(op.vdst, lane, tmp[lane as usize]);
            }
        }
        // ds_swizzle_b32: each active lane reads the ADDR register (the one
        // operand; LLVM encodes it there) of the lane `swizzle_source` names;
        // a disabled source reads 0 (AMD's DS_SWIZZLE_B32 pseudocode:
        // "reading from an invalid thread results in 0").
        DsKind::Swizzle => {
            let n = w.wave_size;
            let exec = w.exec;
            let src: Vec<u32> = (0..n)
                .map(|l| {
                    if exec >> l & 1 == 1 {
                        w.vgpr(op.addr, l)
                    } else {
                        0
                    }
                })
                .collect();
            for lane in lanes {
                let from = swizzle_source(op.offset0, lane) % n;
                w.set_vgpr(op.vdst, lane, src[from as usize]);
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::swizzle_source;

    #[test]
    fn swizzle_modes() {
        // QUAD_PERM 3,2,1,0 = 0x801b: quad lane 1 reads quad lane 2.
        assert_eq!(swizzle_source(0x801b, 5), 6);
        // BITMASK and 7, or 8, xor 2 (0x907), within each 32 lanes.
        assert_eq!(swizzle_source(0x907, 5), 15);
        assert_eq!(swizzle_source(0x907, 36), 46);
        // SWAP 16 (and 31, xor 16) and BROADCAST 8, 5 (and 24, or 5).
        assert_eq!(swizzle_source(0x401f, 40), 56);
        assert_eq!(swizzle_source(0x00b8, 17), 21);
    }
}
