//! IR operations on an Intel thread's register file (the vISA lowering,
//! `crate::visa::lower`, produces them; docs/semantics/intel.md).
//!
//! One Intel thread (a SIMD-N program instance) runs as one wave32 wave whose
//! lanes are its channels. Its GRF is a flat byte array laid over the wave's
//! VGPR file: GRF byte `b` is byte `b % 4` of `v[b / 4 / 32]` in lane
//! `(b / 4) % 32` ([`grf_slot`]). Byte offsets in these operations are
//! absolute offsets in that array, resolved by the lowering from variable
//! names, alias offsets, row and column. Predicates live in SGPRs, one bit per
//! channel. Arithmetic, logic and compares are the shared ALU functions of
//! [`crate::ir::alu`], with Intel's type conversions around them.

use crate::ir::alu::AluFn;

/// Lanes of the wave an Intel thread runs as (SIMD32 at most, so one wave).
pub const THREAD_LANES: u32 = 32;
/// VGPRs the GRF may use (`v0`–`v191`): 24 KiB per thread, six times TGLLP's
/// 128 physical 32-byte GRFs, for vISA's virtual variables.
pub const GRF_VGPRS: u32 = 192;
/// The most bytes a thread's GRF file may hold.
pub const GRF_MAX_BYTES: u32 = GRF_VGPRS * THREAD_LANES * 4;
/// VGPRs set aside for the address operands the lowering stages for an image
/// op ([`Staging::addr`] and up).
pub const ADDR_SPAN: u32 = 32;
/// VGPRs set aside for an image op's results ([`Staging::data`] and up).
pub const DATA_SPAN: u32 = 32;

/// Where a program's image ops stage their address operands and results: the
/// VGPRs right above the GRF rows its operations touch, as many as its image
/// ops use, so that a thread's file is the size of its use (a wave stores
/// VGPR rows only up to the highest one its program names).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Staging {
    /// First VGPR of the staged address operands.
    pub addr: u32,
    /// First VGPR of the results.
    pub data: u32,
    /// One past the last VGPR of the results.
    pub end: u32,
}

impl Staging {
    /// The widest staging: [`ADDR_SPAN`] address and [`DATA_SPAN`] result
    /// VGPRs above the largest GRF.
    pub const TOP: Staging = Staging {
        addr: GRF_VGPRS,
        data: GRF_VGPRS + ADDR_SPAN,
        end: GRF_VGPRS + ADDR_SPAN + DATA_SPAN,
    };

    /// `addr_rows` address and `data_rows` result VGPRs above GRF rows
    /// `0..grf_rows`.
    pub fn fitted(grf_rows: u32, addr_rows: u32, data_rows: u32) -> Staging {
        let addr = grf_rows;
        let data = addr + addr_rows;
        Staging {
            addr,
            data,
            end: data + data_rows,
        }
    }
}

/// SGPRs of the T# staged for an image op (`s[0:7]`).
pub const TSHARP_SGPR: u32 = 0;
/// SGPRs of the S# staged for an image op (`s[8:11]`).
pub const SSHARP_SGPR: u32 = 8;
/// The SGPR holding the thread's dispatch mask (the channels that exist).
pub const DISPATCH_SGPR: u32 = 12;
/// The SGPR holding the channels that do not execute because of SIMD control
/// flow: waiting at a `goto` label, or returned (docs/semantics/intel.md, "SIMD
/// control flow"). The active channels are `DISPATCH & !OFF`; zero at launch.
pub const OFF_SGPR: u32 = 13;
/// The SGPR holding the channels that have returned (`ret`); all ones once
/// the thread has ended. Zero at launch.
pub const RETURNED_SGPR: u32 = 14;
/// First SGPR holding a predicate (one per declared predicate); the wait
/// masks of `goto` labels follow the predicates.
pub const PRED_SGPR: u32 = 16;
/// The most predicates a program may declare (SGPRs 16–95).
pub const MAX_PREDS: u32 = 80;
/// The most predicates and branch-target wait masks together (SGPRs 16–105;
/// a loop takes two: its fall-through wait mask and its again flag).
pub const MAX_PRED_AND_WAIT_SGPRS: u32 = 90;
/// The most backward jumps one thread may take, all its loops together: a
/// loop that would jump once more stops the run with an error naming its
/// backward branch, so a loop that never ends cannot hang the CPU or the
/// GPU (docs/semantics/intel.md, "SIMD control flow"). Well below llvmpipe's
/// silent stop after 65535 loop iterations per invocation, every loop of the
/// shader together (Mesa gallivm `LP_MAX_TGSI_LOOP_ITERATIONS`), which would
/// otherwise cut a long loop short without a word (docs/gpu.md).
pub const MAX_BACK_JUMPS: u32 = 1 << 12;

/// Where GRF byte `b` lives: `(vgpr, lane, byte in the dword)`.
pub fn grf_slot(b: u32) -> (u32, u32, u32) {
    let dword = b / 4;
    (dword / THREAD_LANES, dword % THREAD_LANES, b % 4)
}

/// An element type of the GRF (vISA `VISA_Type`, the subset that executes).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ElemType {
    /// 32-bit unsigned.
    Ud,
    /// 32-bit signed.
    D,
    /// 16-bit unsigned.
    Uw,
    /// 16-bit signed.
    W,
    /// 8-bit unsigned.
    Ub,
    /// 8-bit signed.
    B,
    /// 64-bit unsigned.
    Uq,
    /// 64-bit signed.
    Q,
    /// IEEE binary32.
    F,
    /// IEEE binary16.
    Hf,
}

impl ElemType {
    /// Size in bytes.
    pub fn bytes(self) -> u32 {
        match self {
            ElemType::Ub | ElemType::B => 1,
            ElemType::Uw | ElemType::W | ElemType::Hf => 2,
            ElemType::Ud | ElemType::D | ElemType::F => 4,
            ElemType::Uq | ElemType::Q => 8,
        }
    }

    /// True for the floating-point types.
    pub fn is_float(self) -> bool {
        matches!(self, ElemType::F | ElemType::Hf)
    }

    /// True for the signed integer types.
    pub fn is_signed(self) -> bool {
        matches!(self, ElemType::D | ElemType::W | ElemType::B | ElemType::Q)
    }
}

/// A source modifier.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SrcMod {
    /// None.
    None,
    /// `(-)`.
    Neg,
    /// `(abs)`.
    Abs,
    /// `(-abs)`.
    NegAbs,
}

/// A region of the GRF read by element: element `i` lies at
/// `byte + ((i / width) * vstride + (i % width) * hstride) * size`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Region {
    /// GRF byte of element 0.
    pub byte: u32,
    /// Element type.
    pub ty: ElemType,
    /// Vertical stride (elements).
    pub vstride: u32,
    /// Width (elements per row; at least 1).
    pub width: u32,
    /// Horizontal stride (elements).
    pub hstride: u32,
}

impl Region {
    /// One past the last GRF byte the region's first `count` elements touch.
    pub fn end(&self, count: u32) -> u32 {
        (0..count.max(1))
            .map(|i| self.element(i) + self.ty.bytes())
            .max()
            .unwrap_or(0)
    }

    /// The GRF byte of element `i`.
    ///
    /// WGSL twin: `region_element` in `shaders/visa.wgsl` (docs/gpu.md, "Twins").
    pub fn element(&self, i: u32) -> u32 {
        let w = self.width.max(1);
        self.byte + ((i / w) * self.vstride + (i % w) * self.hstride) * self.ty.bytes()
    }
}

/// A source operand.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GrfSrc {
    /// A GRF region with a modifier.
    Region(Region, SrcMod),
    /// An immediate: its bits (the type's width) and type.
    Imm(u64, ElemType),
}

impl GrfSrc {
    /// One past the last GRF byte the operand's first `count` elements read
    /// (0 for an immediate).
    pub fn end(&self, count: u32) -> u32 {
        match self {
            GrfSrc::Region(r, _) => r.end(count),
            GrfSrc::Imm(..) => 0,
        }
    }

    /// The operand's element type.
    pub fn ty(&self) -> ElemType {
        match self {
            GrfSrc::Region(r, _) => r.ty,
            GrfSrc::Imm(_, t) => *t,
        }
    }
}

/// A destination: element `i` at `byte + i * hstride * size`; `None` byte =
/// `%null` (the result is dropped).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GrfDst {
    /// GRF byte of element 0, or `None` for `%null`.
    pub byte: Option<u32>,
    /// Element type.
    pub ty: ElemType,
    /// Horizontal stride (elements).
    pub hstride: u32,
}

impl GrfDst {
    /// One past the last GRF byte the destination's first `count` elements
    /// write (0 for `%null`).
    pub fn end(&self, count: u32) -> u32 {
        self.byte.map_or(0, |b| {
            b + count.saturating_sub(1) * self.hstride * self.ty.bytes() + self.ty.bytes()
        })
    }
}

/// `.any` / `.all` on a predicate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PredCtrl {
    /// Per channel.
    None,
    /// Any bit of the instruction's channel group.
    Any,
    /// All bits of the instruction's channel group.
    All,
}

/// A predicate read: the SGPR holding it, `!`, `.any/.all`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PredUse {
    /// The SGPR.
    pub sgpr: u32,
    /// `!`.
    pub invert: bool,
    /// `.any` / `.all`.
    pub ctrl: PredCtrl,
}

/// The channels an instruction executes on: `size` channels from `first`
/// (the `Mk` offset, `4 * (k - 1)`), under the dispatch mask unless
/// `no_mask`, and under the predicate when one masks it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Channels {
    /// First channel.
    pub first: u32,
    /// Execution size.
    pub size: u32,
    /// `_NM`.
    pub no_mask: bool,
    /// Masking predicate (not `sel`'s selector).
    pub pred: Option<PredUse>,
}

/// The MODE value (AMD's register layout, `cpu::alu::float::Mode`) under
/// which Intel float operations run on the shared ALU: round to nearest
/// even, f32/f16 denormals kept (what IGC's `or %cr0 0x4c0` selects; the
/// lowering refuses other `%cr0` modes), IEEE mode (docs/semantics/intel.md,
/// "Types and arithmetic").
pub const INTEL_MODE: u32 = 0xf0 | 1 << 9;

/// The execution type of an Intel ALU instruction: F32 when any source is a
/// float (F/HF sources read as f32), else 64-bit integers (sources sign- or
/// zero-extended by their type).
pub fn exec_float(srcs: &[GrfSrc]) -> bool {
    srcs.iter().any(|s| s.ty().is_float())
}

/// Where `cmp` writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CmpDst {
    /// A predicate's SGPR.
    Pred(u32),
    /// A GRF destination: all ones (true) or zero per element.
    Grf(GrfDst),
}

/// Where one address dword of a staged image operation comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AddrSlot {
    /// A constant.
    Const(u32),
    /// Element `i` of a parameter read as f32 (HF parameters are widened).
    Float {
        /// GRF byte of element 0.
        byte: u32,
        /// F or HF.
        ty: ElemType,
    },
    /// Element `i` of an integer parameter, plus a texel offset (`aoffimmi`
    /// on loads).
    Int {
        /// GRF byte of element 0.
        byte: u32,
        /// The parameter's type.
        ty: ElemType,
        /// Added to the value.
        add: i32,
    },
    /// Element `i` of an integer parameter plus the signed 4-bit field at bit
    /// `shift` of element `i` of a per-channel `aoffimmi` (a load's texel
    /// offset when `aoffimmi` is not an immediate).
    IntAoff {
        /// The parameter: GRF byte of element 0 and type; `None` reads 0.
        param: Option<(u32, ElemType)>,
        /// The `aoffimmi` operand (an integer region).
        aoffimmi: Region,
        /// 8 (U), 4 (V) or 0 (R).
        shift: u32,
    },
    /// AMD's `_o` offset dword built per channel: U, V, R are the signed
    /// 4-bit fields of element `i` of `aoffimmi` (when given) plus element `i`
    /// of the integer parameters `offu`/`offv` (gather4_po, when given), each
    /// kept to 6 bits (`cpu::visa::amd_offset_dword`).
    OffsetDword {
        /// A non-immediate `aoffimmi` (an integer region).
        aoffimmi: Option<Region>,
        /// gather4_po's per-channel U offset: GRF byte and type.
        offu: Option<(u32, ElemType)>,
        /// gather4_po's per-channel V offset: GRF byte and type.
        offv: Option<(u32, ElemType)>,
    },
    /// An MSAA sample index (`load_2dms_w`): element `i` of `si` (0 when not
    /// given) clamped to
    /// `last`, or `u32::MAX` (out of bounds: the load returns 0) when element
    /// `i` of `lod` is not zero (`cpu::visa::ms_sample_index`).
    SampleIndex {
        /// The sample-index parameter: GRF byte and type.
        si: Option<(u32, ElemType)>,
        /// The LOD parameter, when given.
        lod: Option<(u32, ElemType)>,
        /// The surface's last sample (samples − 1).
        last: u32,
    },
}

impl VisaOp {
    /// One past the last GRF byte the operation reads or writes (the
    /// staging VGPRs, above the GRF, not counted).
    pub fn grf_end(&self) -> u32 {
        match self {
            VisaOp::Alu { ch, dst, srcs, .. } => srcs
                .iter()
                .map(|s| s.end(ch.size))
                .fold(dst.end(ch.size), u32::max),
            VisaOp::Cmp { ch, dst, srcs, .. } => {
                let d = match dst {
                    CmpDst::Grf(d) => d.end(ch.size),
                    CmpDst::Pred(_) => 0,
                };
                srcs.iter().map(|s| s.end(ch.size)).fold(d, u32::max)
            }
            VisaOp::Setp { src, .. } => src.end(1),
            VisaOp::StageAddress { size, slots, .. } => {
                slots.iter().map(|s| s.end(*size)).max().unwrap_or(0)
            }
            VisaOp::StageCube { size, params, .. } => {
                params.iter().map(|s| s.end(*size)).max().unwrap_or(0)
            }
            VisaOp::SetExec { .. }
            | VisaOp::Resinfo { .. }
            | VisaOp::Goto { .. }
            | VisaOp::Join { .. }
            | VisaOp::Ret { .. }
            | VisaOp::IfActive
            | VisaOp::EndIfActive
            | VisaOp::Loop
            | VisaOp::BackGoto { .. }
            | VisaOp::EndLoop { .. } => 0,
            VisaOp::ScatterResult {
                size,
                byte,
                ty,
                count,
                block,
                null_mask,
                ..
            } => {
                let data = byte
                    + count.saturating_sub(1) * block
                    + size.saturating_sub(1) * ty.bytes()
                    + ty.bytes();
                null_mask.map_or(data, |b| data.max(b + 4))
            }
            VisaOp::StoreScaled {
                ch,
                global,
                offsets,
                src,
                mask,
                block,
                ..
            } => {
                let channels = u32::from(mask & 0xf).count_ones().max(1);
                let data = src + (channels - 1) * block + 4 * ch.size.saturating_sub(1) + 4;
                data.max(global.end(1)).max(offsets.end(ch.size))
            }
        }
    }
}

impl AddrSlot {
    /// One past the last GRF byte the slot reads for `size` channels.
    pub fn end(&self, size: u32) -> u32 {
        self.reads(size)
            .into_iter()
            .map(|(_, end)| end)
            .max()
            .unwrap_or(0)
    }

    /// The GRF byte ranges `(start, end)` the slot reads for `size` channels.
    pub fn reads(&self, size: u32) -> Vec<(u32, u32)> {
        let param = |(byte, ty): (u32, ElemType)| (byte, byte + size * ty.bytes());
        // Strides are unsigned, so element 0 is the lowest byte.
        let region = |r: &Region| (r.byte, r.element(size.saturating_sub(1)) + r.ty.bytes());
        match self {
            AddrSlot::Const(_) => vec![],
            AddrSlot::Float { byte, ty } | AddrSlot::Int { byte, ty, .. } => {
                vec![param((*byte, *ty))]
            }
            AddrSlot::IntAoff {
                param: p, aoffimmi, ..
            } => p
                .iter()
                .map(|p| param(*p))
                .chain([region(aoffimmi)])
                .collect(),
            AddrSlot::OffsetDword {
                aoffimmi,
                offu,
                offv,
            } => aoffimmi
                .iter()
                .map(region)
                .chain(offu.iter().chain(offv.iter()).map(|p| param(*p)))
                .collect(),
            AddrSlot::SampleIndex { si, lod, .. } => {
                si.iter().chain(lod).map(|p| param(*p)).collect()
            }
        }
    }
}

/// One value `resinfo` returns (IGC `INFO.md`'s table, resolved per
/// surface by the lowering: `visa::lower::sample::intel_resinfo`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InfoValue {
    /// The same at every LOD: an array size, the mip count, or 0.
    Const(u32),
    /// A level-0 size shifted right by the channel's LOD, with no floor
    /// (`cpu::visa::resinfo_shift`).
    Shifted(u32),
}

/// One GRF operation.
#[derive(Clone, Debug, PartialEq)]
pub enum VisaOp {
    /// An ALU instruction (`mov add mul sel and or xor not shl shr asr rnd*`):
    /// the shared function `func` ([`crate::ir::alu`]) on the execution type
    /// ([`exec_float`]: `func.ty` is F32, or a 64-bit integer type) under
    /// [`INTEL_MODE`], with Intel's type rules around it: each source is
    /// converted to the execution type; `shr`/`asr` (Lshr/Ashr) see src0 cut
    /// back to its own width (zero- or sign-extended) and every shift count
    /// is masked to the destination's width (5 bits, 6 for a 64-bit one);
    /// `sel` (Select) picks between src0 and src1 each already converted to
    /// the destination type; the result is converted to the destination type
    /// (`.sat` clamps).
    Alu {
        /// The shared function.
        func: AluFn,
        /// `.sat`.
        sat: bool,
        /// Enabled channels.
        ch: Channels,
        /// `sel`'s selecting predicate.
        select: Option<PredUse>,
        /// Destination.
        dst: GrfDst,
        /// Sources.
        srcs: Vec<GrfSrc>,
    },
    /// `cmp.rel`: the shared compare `func` (`Cmp(rel)` on F32 or I64, as for
    /// [`VisaOp::Alu`]'s execution type); a GRF destination takes all ones
    /// (true) or zero per element.
    Cmp {
        /// The shared compare.
        func: AluFn,
        /// Enabled channels.
        ch: Channels,
        /// Destination.
        dst: CmpDst,
        /// Sources.
        srcs: [GrfSrc; 2],
    },
    /// `setp`: predicate bits from a source's low bits (element 0's bits, one
    /// per channel of the group).
    Setp {
        /// Enabled channels.
        ch: Channels,
        /// The predicate's SGPR.
        sgpr: u32,
        /// The source.
        src: GrfSrc,
    },
    /// Copies each channel's parameters (every channel of the range, enabled
    /// or not: coordinates feed the derivatives of their 2×2 quad, as vISA
    /// gathers them with NoMask) into the address VGPRs from
    /// [`Staging::addr`].
    StageAddress {
        /// First channel.
        first: u32,
        /// Execution size.
        size: u32,
        /// One entry per address VGPR.
        slots: Vec<AddrSlot>,
        /// The program's staging VGPRs.
        staging: Staging,
    },
    /// Intel cube coordinates → the shared sampler's cube address: for every
    /// channel of the range (as [`VisaOp::StageAddress`]), the direction
    /// (u, v, r) and cube index ai, read as `AddrSlot::Float` slots, become
    /// `s'`, `t'`, `face_id` in the address VGPRs `staging.addr + at` and
    /// the two after (`texture::sample::cube_direction::cube_address`).
    StageCube {
        /// First channel.
        first: u32,
        /// Execution size.
        size: u32,
        /// u, v, r, ai: `Float` slots, or `Const` bits for a missing one.
        params: [AddrSlot; 4],
        /// Address VGPR (from `staging.addr`) of `s'`.
        at: u32,
        /// The program's staging VGPRs.
        staging: Staging,
    },
    /// EXEC = the channel-enable mask of `ch`.
    SetExec {
        /// The channels.
        ch: Channels,
    },
    /// Writes an image op's results (from [`Staging::data`]) for the channels
    /// EXEC enables into the vISA destination layout: each of `count` values
    /// in its own block of `block` bytes, element `i` at `i * size`, then
    /// the pixel-null-mask dword when asked.
    ScatterResult {
        /// First channel.
        first: u32,
        /// Execution size.
        size: u32,
        /// GRF byte of the destination.
        byte: u32,
        /// Destination element type.
        ty: ElemType,
        /// Values per channel.
        count: u32,
        /// Bytes per value block (whole GRFs).
        block: u32,
        /// True when the results are integers (no float conversion for F/HF).
        integer: bool,
        /// `.pixel_null_mask`: the GRF byte of the mask dword.
        null_mask: Option<u32>,
        /// The program's staging VGPRs.
        staging: Staging,
    },
    /// Intel `resinfo` (3D_INFO): for each channel of the range that EXEC
    /// enables, the LOD staged in [`Staging::addr`] gives the enabled RGBA
    /// values, packed from [`Staging::data`] as an image op's results are (a
    /// [`VisaOp::ScatterResult`] writes them out).
    Resinfo {
        /// First channel.
        first: u32,
        /// Execution size.
        size: u32,
        /// The enabled channels' values, in R, G, B, A order.
        values: Vec<InfoValue>,
        /// The program's staging VGPRs.
        staging: Staging,
    },
    /// `goto`: the channels it enables (all active ones when `uniform` and
    /// its predicate, if any, holds for the first channel) stop executing and
    /// wait at its label, whose wait mask is SGPR `wait`.
    Goto {
        /// Enabled channels (never `_NM`).
        ch: Channels,
        /// Exec size 1: a branch of the whole thread.
        uniform: bool,
        /// The label's wait-mask SGPR.
        wait: u32,
    },
    /// A branch-target label: the channels waiting there execute again
    /// (those that have not returned), and its wait mask is cleared.
    Join {
        /// The label's wait-mask SGPR.
        wait: u32,
    },
    /// `ret`: the channels it enables return; when every dispatched
    /// channel has returned, or a `uniform` return's predicate holds, the
    /// thread ends (nothing executes any more, no waiting channel rejoins).
    Ret {
        /// Enabled channels.
        ch: Channels,
        /// Exec size 1.
        uniform: bool,
    },
    /// Opens a region that executes only when some channel is active
    /// (else the thread skips to the matching [`VisaOp::EndIfActive`]).
    IfActive,
    /// Closes the innermost [`VisaOp::IfActive`] region.
    EndIfActive,
    /// Opens a loop: the code up to the matching [`VisaOp::EndLoop`] runs
    /// again each time the loop's [`VisaOp::BackGoto`] takes some channel.
    /// Loops nest properly with each other and with `IfActive` regions.
    Loop,
    /// A backward `goto` or `jmp` (IGC `GOTO.md`, backward jump): when some
    /// channel takes it (those it enables; all active ones when `uniform`
    /// and its predicate holds for the first channel), the other active
    /// channels wait at the next instruction (wait mask SGPR `wait`) and
    /// `again` is set to 1; when none does, `again` is set to 0 and every
    /// channel falls through.
    BackGoto {
        /// Enabled channels (never `_NM`).
        ch: Channels,
        /// Exec size 1, or a `jmp`: a branch of the whole thread.
        uniform: bool,
        /// The wait mask of the instruction after the branch.
        wait: u32,
        /// The SGPR saying the branch was taken.
        again: u32,
    },
    /// Closes the innermost [`VisaOp::Loop`]: when SGPR `again` is set, it is
    /// cleared and execution goes back to the loop's start (at most
    /// [`MAX_BACK_JUMPS`] times per thread); else execution goes on. A
    /// skipped `BackGoto` (no active channel) leaves it clear.
    EndLoop {
        /// The loop's again flag.
        again: u32,
    },
    /// `scatter4_scaled`: for each enabled channel, the enabled colour
    /// channels' dwords to `buffer + global + offset[i] + 4 * c`; a dword
    /// not wholly inside the buffer is dropped.
    StoreScaled {
        /// Enabled channels.
        ch: Channels,
        /// Buffer address in memory.
        base: u64,
        /// Buffer size in bytes.
        bytes: u64,
        /// The global offset (scalar).
        global: GrfSrc,
        /// Per-channel byte offsets (UD).
        offsets: Region,
        /// GRF byte of the source: colour channel `n` (the n-th enabled) of
        /// element `i` at `src + n * block + 4 * i`.
        src: u32,
        /// Colour channel mask (bit 0 = R).
        mask: u8,
        /// Bytes per source block.
        block: u32,
    },
}

/// Where a vISA program's names live, for reports in the program's terms: the
/// lowering's account of its variables and predicates (`diff` reads it; it is
/// not needed to run the program).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct VarMap {
    /// GRF bytes (32 or 64).
    pub grf: u32,
    /// Every general variable with its GRF bytes.
    pub vars: Vec<NamedVar>,
    /// Predicates by name, with the SGPR that holds their channels.
    pub predicates: Vec<(String, u32)>,
}

/// A variable's place in the GRF.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NamedVar {
    /// The name as declared.
    pub name: String,
    /// First GRF byte.
    pub byte: u32,
    /// Bytes.
    pub bytes: u32,
    /// The vISA type name of its elements (`f`, `ud`, `hf`, …).
    pub ty: &'static str,
    /// Bytes per element (1 for a type of unknown size).
    pub elem: u32,
    /// Declared with `alias=` over another variable's bytes.
    pub alias: bool,
}
