//! Lowering the scalar and vector ALU (SOP1/SOP2/SOPK/SOPC, VOP1/VOP2/VOPC/
//! VOP3/VOP3B and their SDWA forms) into [`crate::ir::alu`].
//!
//! The mnemonic says what an instruction computes: `<unit>_<op>_<types>`
//! (`v_add_co_u32`, `s_lshl_b64`, `v_cvt_f32_i32`). `OPS` maps each
//! operation name to an IR family and its quirks (swapped sources,
//! an accumulator read from the destination, a shift built into the name),
//! and the types come from the name's tail — so one row serves every type
//! and generation that spells the operation the same way. The operands come
//! from the decoder in LLVM's order, typed; destinations come first, then
//! the sources, then (for carry-in and `v_cndmask`) a lane mask.

use super::lower::FLAT_SCRATCH_SGPR;
use super::operand::{Operand as GOperand, Special, TypedOperand};
use super::salu::Salu;
use super::signature::{Fld, Form};
use super::vop::Vop;
use crate::arch::{Arch, Gen};
use crate::ir::alu::{
    AluFn, AluOp, DotShape, Dpp, Dst, Family, Mix, Mods, Packed, Rel, Sdwa, Ty, Unit,
};
use crate::ir::flow::{HwReg, WaveOp};
use crate::ir::mem::LDS_APERTURE;
use crate::ir::{Op, Operand, Reg, Src};

/// How an operation name lowers.
#[derive(Clone, Copy)]
struct Row {
    /// The name between the unit prefix and the types (`add_co`, `lshlrev`).
    name: &'static str,
    /// The IR family (`None`: the name's types decide, see [`family_of`]).
    family: Family,
    /// Quirks.
    flags: u8,
}

/// The encoding lists the sources in the opposite order (`*rev`).
const REV: u8 = 1;
/// The destination is also the last input (`v_mac`, `v_fmac`, `s_cmov`,
/// `s_bitset*`, `s_addk`, `s_mulk`).
const ACC: u8 = 2;
/// A fixed shift of the first source in the name (`s_lshl<n>_add_u32`).
const SHIFT: u8 = 4;
/// `s_cmov`/`s_cmovk`: the destination keeps its value unless SCC.
const CMOV: u8 = 16;

const fn row(name: &'static str, family: Family) -> Row {
    Row {
        name,
        family,
        flags: 0,
    }
}

const fn rowf(name: &'static str, family: Family, flags: u8) -> Row {
    Row {
        name,
        family,
        flags,
    }
}

/// Operation names (after `s_`/`v_`, before the types) and their families
/// (AMD Vega ISA chapter 12 and RDNA3 ISA chapter 16 for the semantics;
/// gfx10+ spellings beside the older ones).
const OPS: &[Row] = &[
    row("mov", Family::Mov),
    row("movk", Family::Mov),
    rowf("cmov", Family::Select, CMOV),
    rowf("cmovk", Family::Select, CMOV),
    row("add", Family::Add),
    row("addk", Family::Add),
    row("add_co", Family::Add),
    row("add_nc", Family::Add),
    row("addc", Family::AddCarry),
    row("addc_co", Family::AddCarry),
    row("add_co_ci", Family::AddCarry),
    row("sub", Family::Sub),
    row("sub_co", Family::Sub),
    row("sub_nc", Family::Sub),
    rowf("subrev", Family::Sub, REV),
    rowf("subrev_co", Family::Sub, REV),
    rowf("subrev_nc", Family::Sub, REV),
    row("subb", Family::SubBorrow),
    row("subb_co", Family::SubBorrow),
    row("sub_co_ci", Family::SubBorrow),
    rowf("subbrev", Family::SubBorrow, REV),
    rowf("subbrev_co", Family::SubBorrow, REV),
    rowf("subrev_co_ci", Family::SubBorrow, REV),
    row("mul", Family::Mul),
    row("mul_lo", Family::Mul),
    row("mulk", Family::Mul),
    row("mul_hi", Family::MulHi),
    row("add3", Family::Add3),
    row("lshl_add", Family::LshlAdd),
    rowf("lshl1_add", Family::LshlAdd, SHIFT),
    rowf("lshl2_add", Family::LshlAdd, SHIFT),
    rowf("lshl3_add", Family::LshlAdd, SHIFT),
    rowf("lshl4_add", Family::LshlAdd, SHIFT),
    row("add_lshl", Family::AddLshl),
    row("lshl_or", Family::LshlOr),
    row("and_or", Family::AndOr),
    row("or3", Family::Or3),
    row("xor3", Family::Xor3),
    row("xad", Family::XorAdd),
    row("min", Family::Min),
    row("max", Family::Max),
    row("min3", Family::Min3),
    row("max3", Family::Max3),
    row("med3", Family::Med3),
    row("minmax", Family::MinMax),
    row("maxmin", Family::MaxMin),
    row("and", Family::And),
    row("or", Family::Or),
    row("xor", Family::Xor),
    row("not", Family::Not),
    row("nand", Family::Nand),
    row("nor", Family::Nor),
    row("xnor", Family::Xnor),
    row("andn2", Family::AndNot),
    row("and_not1", Family::AndNot),
    row("orn2", Family::OrNot),
    row("or_not1", Family::OrNot),
    row("lshl", Family::Shl),
    row("lshr", Family::Lshr),
    row("ashr", Family::Ashr),
    rowf("lshlrev", Family::Shl, REV),
    rowf("lshrrev", Family::Lshr, REV),
    rowf("ashrrev", Family::Ashr, REV),
    row("bfe", Family::Bfe),
    row("bfi", Family::Bfi),
    row("bfm", Family::Bfm),
    row("brev", Family::Brev),
    row("bfrev", Family::Brev),
    row("bcnt1", Family::Bcnt1),
    row("bcnt", Family::Bcnt1),
    row("bcnt0", Family::Bcnt0),
    row("ff1", Family::FindLsb),
    row("ffbl", Family::FindLsb),
    row("ctz", Family::FindLsb),
    row("flbit", Family::FindMsb),
    row("ffbh", Family::FindMsb),
    row("clz", Family::FindMsb),
    row("cls", Family::FindMsbSigned),
    row("abs", Family::Abs),
    row("alignbit", Family::AlignBit),
    row("alignbyte", Family::AlignByte),
    row("perm", Family::Perm),
    row("bitcmp1", Family::BitTest),
    row("bitcmp0", Family::BitTest0),
    row("mbcnt_lo", Family::MbcntLo),
    row("mbcnt_hi", Family::MbcntHi),
    rowf("bitset1", Family::BitSet, ACC),
    rowf("bitset0", Family::BitClear, ACC),
    row("cselect", Family::Select),
    row("cndmask", Family::Cndmask),
    row("fma", Family::Fma),
    rowf("fmac", Family::Fma, ACC),
    row("fmaak", Family::Fma),
    row("fmamk", Family::Fma),
    row("mad", Family::Mad),
    rowf("mac", Family::Mad, ACC),
    row("madak", Family::Mad),
    row("madmk", Family::Mad),
    row("mul_legacy", Family::MulLegacy),
    row("mul_dx9_zero", Family::MulLegacy),
    row("mad_legacy", Family::MadLegacy),
    rowf("mac_legacy", Family::MadLegacy, ACC),
    row("fma_legacy", Family::FmaLegacy),
    rowf("fmac_legacy", Family::FmaLegacy, ACC),
    row("fma_dx9_zero", Family::FmaLegacy),
    rowf("fmac_dx9_zero", Family::FmaLegacy, ACC),
    row("floor", Family::Floor),
    row("ceil", Family::Ceil),
    row("trunc", Family::Trunc),
    row("rndne", Family::Rndne),
    row("fract", Family::Fract),
    row("frexp_mant", Family::FrexpMant),
    row("frexp_exp", Family::FrexpExp),
    row("ldexp", Family::Ldexp),
    row("rcp", Family::Rcp),
    // v_rcp_iflag_f32: the reciprocal of v_rcp_f32 that raises the integer
    // divide-by-zero flag instead of the float one (AMD Vega ISA
    // V_RCP_IFLAG_F32); gcnrun models no exception flags. The integer
    // division sequences LLVM emits around it correct any reciprocal within
    // their error bound, the correctly rounded one included.
    row("rcp_iflag", Family::Rcp),
    row("rsq", Family::Rsq),
    row("sqrt", Family::Sqrt),
    row("exp", Family::Exp),
    row("log", Family::Log),
    row("sin", Family::Sin),
    row("cos", Family::Cos),
    row("div_scale", Family::DivScale),
    row("div_fmas", Family::DivFmas),
    row("div_fixup", Family::DivFixup),
    row("cmp_class", Family::Class),
    row("cvt_pkrtz", Family::CvtPkrtz),
    // gfx11's spelling of the same instruction (LLVM VOP2Instructions.td).
    row("cvt_pk_rtz", Family::CvtPkrtz),
    row("cvt_pk", Family::CvtPkSat),
    row("pack_ll", Family::Pack),
    row("pack", Family::Pack),
    row("wqm", Family::Wqm),
    row("quadmask", Family::QuadMask),
];

/// A type token of a mnemonic.
fn ty_of(t: &str) -> Option<Ty> {
    Some(match t {
        "b16" => Ty::B16,
        "b32" => Ty::B32,
        "b64" => Ty::B64,
        "u16" => Ty::U16,
        "i16" => Ty::I16,
        "u32" | "u24" => Ty::U32,
        "i32" | "i24" => Ty::I32,
        "u64" => Ty::U64,
        "i64" => Ty::I64,
        "f16" => Ty::F16,
        "f32" => Ty::F32,
        "f64" => Ty::F64,
        // s_sext_i32_i8 and the 8-bit conversions.
        "i8" | "u8" => Ty::B16,
        _ => return None,
    })
}

/// A comparison's name (`lt`, `neq`, …) and its relation; integers spell
/// `!=` as `ne`, and gfx10+ spells always-true `t` (older: `tru`).
fn rel_of(name: &str) -> Option<Rel> {
    Some(match name {
        "f" => Rel::F,
        "lt" => Rel::Lt,
        "eq" => Rel::Eq,
        "le" => Rel::Le,
        "gt" => Rel::Gt,
        "lg" | "ne" => Rel::Lg,
        "ge" => Rel::Ge,
        "o" => Rel::O,
        "u" => Rel::U,
        "nge" => Rel::Nge,
        "nlg" => Rel::Nlg,
        "ngt" => Rel::Ngt,
        "nle" => Rel::Nle,
        "neq" => Rel::Neq,
        "nlt" => Rel::Nlt,
        "t" | "tru" => Rel::T,
        _ => return None,
    })
}

/// What a mnemonic computes.
struct Parsed {
    func: AluFn,
    flags: u8,
    /// `v_cmpx`: the compare writes EXEC.
    cmpx: bool,
    /// The shift of `s_lshl<n>_add_u32`.
    shift: u32,
}

/// Splits `v_add_co_u32_e32` into its family and type.
fn parse(mnemonic: &str) -> Result<Parsed, String> {
    let base = mnemonic
        .trim_end_matches("_e32")
        .trim_end_matches("_e64")
        .trim_end_matches("_sdwa")
        .trim_end_matches("_dpp");
    let body = base
        .strip_prefix("s_")
        .or_else(|| base.strip_prefix("v_"))
        .ok_or_else(|| format!("`{mnemonic}` is not an ALU instruction"))?;
    let tokens: Vec<&str> = body.split('_').collect();
    let first_ty = tokens
        .iter()
        .position(|t| ty_of(t).is_some())
        .ok_or_else(|| format!("`{mnemonic}` names no operand type"))?;
    let name = tokens[..first_ty].join("_");
    let tys: Vec<Ty> = tokens[first_ty..].iter().filter_map(|t| ty_of(t)).collect();
    let not_executed = || format!("`{mnemonic}` is not executed by gcnrun yet");
    // Compares: cmp[x]_<rel>_<ty>, cmps/cmpsx (gfx6/7 signalling) refused.
    if let Some(rest) = name
        .strip_prefix("cmpx_")
        .or_else(|| name.strip_prefix("cmp_"))
    {
        let cmpx = name.starts_with("cmpx_");
        if rest == "class" {
            return Ok(Parsed {
                func: AluFn::new(Family::Class, tys[0]),
                flags: 0,
                cmpx,
                shift: 0,
            });
        }
        let rel = rel_of(rest).ok_or_else(not_executed)?;
        let ty = tys[0];
        // Integer relations beyond the eight do not exist.
        return Ok(Parsed {
            func: AluFn::new(Family::Cmp(rel), ty),
            flags: 0,
            cmpx,
            shift: 0,
        });
    }
    // v_cvt_f32_ubyte0–3: byte n of the source, as an unsigned integer, to
    // f32 (AMD Vega ISA V_CVT_F32_UBYTE0); lowered as u32 → f32 of an SDWA
    // byte selection (`lower_vop`).
    if name == "cvt" && tokens.last().is_some_and(|t| t.starts_with("ubyte")) {
        return Ok(Parsed {
            func: AluFn::new(Family::Cvt(Ty::F32), Ty::U32),
            flags: 0,
            cmpx: false,
            shift: 0,
        });
    }
    if name == "cvt" && tys.len() == 2 {
        // v_cvt_<to>_<from>.
        return Ok(Parsed {
            func: AluFn::new(Family::Cvt(tys[0]), tys[1]),
            flags: 0,
            cmpx: false,
            shift: 0,
        });
    }
    if name == "sext" && tokens.last() == Some(&"i8") {
        return Ok(Parsed {
            func: AluFn::new(Family::Sext8, Ty::I32),
            flags: 0,
            cmpx: false,
            shift: 0,
        });
    }
    if name == "sext" {
        return Ok(Parsed {
            func: AluFn::new(Family::Sext16, Ty::I32),
            flags: 0,
            cmpx: false,
            shift: 0,
        });
    }
    // v_mad_u32_u16 / v_mad_i32_i16: Mad24 on the 16-bit source type.
    let mixed16 = name == "mad" && matches!(tys[..], [Ty::U32, Ty::U16] | [Ty::I32, Ty::I16]);
    if mixed16 {
        return Ok(Parsed {
            func: AluFn::new(Family::Mad24, tys[1]),
            flags: 0,
            cmpx: false,
            shift: 0,
        });
    }
    // The 24-bit multiplies (v_mul_u32_u24, v_mul_hi_i32_i24, v_mad_u32_u24)
    // and the wide multiply-add (v_mad_u64_u32, v_mad_i64_i32).
    let is24 = tokens.iter().any(|t| *t == "u24" || *t == "i24");
    let wide_mad = name == "mad" && matches!(tys.first(), Some(Ty::U64 | Ty::I64));
    let special = match name.as_str() {
        "mul" if is24 => Some(Family::Mul24),
        "mul_hi" if is24 => Some(Family::MulHi24),
        "mad" if is24 => Some(Family::Mad24),
        "mad" if wide_mad => Some(Family::MadWide),
        _ => None,
    };
    if let Some(family) = special {
        return Ok(Parsed {
            func: AluFn::new(family, tys[0]),
            flags: 0,
            cmpx: false,
            shift: 0,
        });
    }
    let row = OPS
        .iter()
        .find(|r| r.name == name)
        .ok_or_else(not_executed)?;
    // `cvt_pk` names the saturating 32 → 16-bit packs only: v_cvt_pk_u8_f32
    // (a float to a byte of a dword) has no rule here.
    if row.family == Family::CvtPkSat && !matches!(tys[..], [Ty::U16, Ty::U32] | [Ty::I16, Ty::I32])
    {
        return Err(not_executed());
    }
    // The type the function computes on: the sources' (the last type) for
    // counting and conversion-like names, else the first.
    let ty = match row.family {
        // s_bcnt1_i32_b64, v_bcnt_u32_b32, s_ff1_i32_b64, s_flbit_i32_b64,
        // v_frexp_exp_i32_f32, v_mad_u64_u32: the source type is last.
        Family::Bcnt0
        | Family::Bcnt1
        | Family::FindLsb
        | Family::FindMsb
        | Family::FrexpExp
        | Family::CvtPkrtz
        | Family::CvtPkSat => *tys.last().expect("a type"),
        Family::FindMsbSigned if tys.len() == 2 => tys[1],
        _ => tys[0],
    };
    // s_flbit_i32 (one type) is the signed form; s_flbit_i32_b32 unsigned.
    // s_flbit_i32 and s_flbit_i32_i64 are the signed forms (the b32/b64
    // ones unsigned); v_ffbh_i32 likewise.
    let signed_flbit = name == "flbit" && (tys.len() == 1 || tys.get(1) == Some(&Ty::I64));
    let family = if signed_flbit || (name == "ffbh" && ty == Ty::I32) {
        Family::FindMsbSigned
    } else {
        row.family
    };
    let ty = if family == Family::FindMsbSigned {
        if tys.last() == Some(&Ty::I64) {
            Ty::I64
        } else {
            Ty::I32
        }
    } else {
        ty
    };
    let shift = match name.as_str() {
        "lshl1_add" => 1,
        "lshl2_add" => 2,
        "lshl3_add" => 3,
        "lshl4_add" => 4,
        _ => 0,
    };
    Ok(Parsed {
        func: AluFn::new(family, ty),
        flags: row.flags,
        cmpx: false,
        shift,
    })
}

/// Refuses a function without a written rule (`AluFn::defined`).
fn require_defined(p: Parsed, mnemonic: &str) -> Result<Parsed, String> {
    if p.func.defined() {
        Ok(p)
    } else {
        Err(format!(
            "`{mnemonic}` is not executed by gcnrun yet (docs/semantics/programs.md, \"What is refused\")"
        ))
    }
}

/// A decoded operand as an IR source of `slots` dwords.
fn source(t: &TypedOperand, slots: u32) -> Result<Operand, String> {
    let reg = |r: Reg| Ok(Operand::Reg(r));
    match t.operand {
        GOperand::Sgpr { first, .. } => reg(Reg::Sgpr(u32::from(first))),
        GOperand::Vgpr { first, .. } => reg(Reg::Vgpr(u32::from(first))),
        GOperand::Special(s) => match s {
            Special::VccLo | Special::Vcc => reg(Reg::VccLo),
            Special::VccHi => reg(Reg::VccHi),
            Special::ExecLo | Special::Exec => reg(Reg::ExecLo),
            Special::ExecHi => reg(Reg::ExecHi),
            Special::M0 => reg(Reg::M0),
            Special::Scc => reg(Reg::Scc),
            Special::Null => Ok(Operand::Const(0)),
            Special::FlatScratchLo | Special::FlatScratch => reg(Reg::Sgpr(FLAT_SCRATCH_SGPR)),
            Special::FlatScratchHi => reg(Reg::Sgpr(FLAT_SCRATCH_SGPR + 1)),
            // The apertures: a 64-bit read gives the base address; gcnrun's
            // LDS aperture (ir::mem::LDS_APERTURE) in the high dword.
            Special::SharedBase if slots == 2 => Ok(Operand::Const(u64::from(LDS_APERTURE) << 32)),
            other => Err(format!(
                "the operand `{}` is not executed by gcnrun yet",
                other.name()
            )),
        },
        GOperand::Int(_) | GOperand::Float(_) | GOperand::Literal(_) => {
            let v = t
                .operand
                .constant_bits(t.ty)
                .ok_or("a constant without a value")?;
            Ok(Operand::Const(if slots == 2 { v } else { v & 0xffff_ffff }))
        }
        GOperand::Ttmp { .. } => Err("trap temporaries are not executed by gcnrun".into()),
        GOperand::VgprHalf { .. } => {
            Err("16-bit register halves (true16) are not executed by gcnrun yet".into())
        }
    }
}

/// A decoded destination register, or `None` for `null`.
fn dest(t: &TypedOperand) -> Result<Option<Reg>, String> {
    match t.operand {
        GOperand::Special(Special::Null) => Ok(None),
        _ => match source(t, 1)? {
            Operand::Reg(r) => Ok(Some(r)),
            Operand::Const(_) => Ok(None),
        },
    }
}

/// Lowers a scalar ALU instruction.
pub fn lower_salu(s: &Salu, arch: &Arch) -> Result<Op, String> {
    let name = s.mnemonic();
    if let Some(op) = wave_salu(s, name, arch)? {
        return Ok(op);
    }
    let p = require_defined(parse(name)?, name)?;
    let sig = p.func.signature();
    let ops = s.operands();
    let is_sopc = s.form() == Form::Sopc;
    let is_sopk = s.form() == Form::Sopk;
    let (dst, srcs): (Option<&TypedOperand>, Vec<&TypedOperand>) = if is_sopc {
        (None, ops.iter().collect())
    } else {
        (ops.first(), ops.iter().skip(1).collect())
    };
    let mut src: Vec<Operand> = Vec::new();
    for (i, t) in srcs.iter().enumerate() {
        let slots = sig.inputs.get(i).copied().flatten().map_or(1, Ty::slots);
        src.push(source(t, slots)?);
    }
    // SOPK: the 16-bit immediate, sign-extended for signed types and the
    // moves, zero-extended for unsigned compares (AMD Vega ISA "SOPK").
    if is_sopk {
        let k = s.simm16();
        let v = if p.func.ty == Ty::U32 {
            u64::from(k)
        } else {
            i64::from(k as u16 as i16) as u64 & 0xffff_ffff
        };
        src = vec![Operand::Const(v)];
    }
    let dst_reg = match dst {
        Some(t) => dest(t)?,
        None => None,
    };
    let acc = dst_reg.map(Operand::Reg).unwrap_or(Operand::Const(0));
    // Accumulating forms read the destination: s_addk_i32 D = D + K,
    // s_mulk_i32, s_bitset*: D = D with bit S0 changed, s_cmovk/s_cmov.
    if is_sopk && matches!(p.func.family, Family::Add | Family::Mul) || p.flags & ACC != 0 {
        src.insert(0, acc);
    }
    if p.flags & CMOV != 0 {
        // D = SCC ? S0 : D.
        src.push(acc);
    }
    if is_sopk && matches!(p.func.family, Family::Cmp(_)) {
        // s_cmpk_<rel> SDST, K compares the register SDST with K.
        src.insert(0, acc);
    }
    if p.flags & SHIFT != 0 {
        // s_lshl<n>_add_u32 D = (S0 << n) + S1.
        src = vec![src[0], Operand::Const(u64::from(p.shift)), src[1]];
    }
    let mut op = AluOp::new(p.func, Unit::Scalar, None, &src);
    let writes_value = sig.output.is_some()
        && !is_sopc
        && !matches!(p.func.family, Family::BitTest | Family::Cmp(_));
    if writes_value {
        op.dst = dst_reg.map(Dst::Reg);
    }
    if matches!(p.func.family, Family::Cmp(_)) && is_sopk {
        op.dst = None;
    }
    op.bit_dst = scc_out(name, p.func.family).then_some(Dst::Scc);
    if matches!(
        p.func.family,
        Family::AddCarry | Family::SubBorrow | Family::Select
    ) {
        op.bit_src = Some(Operand::Reg(Reg::Scc));
    }
    let _ = arch;
    Ok(Op::Alu(Box::new(op)))
}

/// Whether a scalar instruction writes SCC (AMD Vega ISA chapter 12: every
/// SOP2 arithmetic and logic op but the moves, multiplies, `s_bfm`,
/// `s_cselect` and `s_pack_*`; SOP1 `s_not`, `s_wqm`, `s_bcnt*`, `s_abs`,
/// `s_quadmask`; every SOPC compare).
fn scc_out(name: &str, f: Family) -> bool {
    use Family::*;
    match f {
        Mov | Select | Mul | MulHi | Bfm | Pack | Brev | FindLsb | FindMsb | FindMsbSigned
        | Sext8 | Sext16 | BitSet | BitClear => false,
        Add | Sub => !name.starts_with("v_"),
        _ => true,
    }
}

/// SALU instructions that are wave operations (PC, EXEC saving, MODE).
fn wave_salu(s: &Salu, name: &str, arch: &Arch) -> Result<Option<Op>, String> {
    let ops = s.operands();
    let sgpr = |i: usize| -> Result<u32, String> {
        match ops.get(i).map(|t| t.operand) {
            Some(GOperand::Sgpr { first, .. }) => Ok(u32::from(first)),
            _ => Err(format!(
                "`{name}` with a non-SGPR operand is not executed by gcnrun yet"
            )),
        }
    };
    let wave = |op: WaveOp| Ok(Some(Op::Wave(Box::new(op))));
    match name {
        "s_getpc_b64" => return wave(WaveOp::GetPc { sdst: sgpr(0)? }),
        "s_setpc_b64" => return wave(WaveOp::SetPc { src: sgpr(0)? }),
        "s_swappc_b64" => {
            return wave(WaveOp::SwapPc {
                sdst: sgpr(0)?,
                src: sgpr(1)?,
            })
        }
        "s_getreg_b32" | "s_setreg_b32" | "s_setreg_imm32_b32" => {
            // HWREG(id, offset, size): id 5:0, offset 10:6, size−1 15:11.
            let k = s.simm16();
            // gfx10's FLAT_SCR_LO/HI (ids 20, 21; LLVM SIDefines.h): the
            // prologue's write sets the base of FLAT_SCRATCH, which no
            // instruction gcnrun runs addresses through (as the gfx7–gfx9
            // pair, `lower::FLAT_SCRATCH_SGPR`): a no-op. Reading it back is refused.
            if matches!(k & 0x3f, 20 | 21) && arch.gen == Gen::Gfx10 && name != "s_getreg_b32" {
                return Ok(Some(Op::Nop));
            }
            if k & 0x3f != 1 {
                return Err(format!(
                    "`{name}` of a hardware register other than MODE is not executed by gcnrun"
                ));
            }
            let (offset, size) = (k >> 6 & 0x1f, (k >> 11 & 0x1f) + 1);
            if name == "s_getreg_b32" {
                return wave(WaveOp::GetReg {
                    reg: HwReg::Mode,
                    offset,
                    size,
                    sdst: sgpr(0)?,
                });
            }
            let src = if name == "s_setreg_imm32_b32" {
                Src::Const(s.literal().unwrap_or(0))
            } else {
                Src::Reg(Reg::Sgpr(sgpr(0)?))
            };
            return wave(WaveOp::SetReg {
                reg: HwReg::Mode,
                offset,
                size,
                src,
            });
        }
        _ => {}
    }
    // s_<op>_saveexec_b32/b64 (gfx10+ also _not0/_not1 spellings).
    if let Some(rest) = name.strip_prefix("s_").and_then(|n| {
        n.strip_suffix("_saveexec_b64")
            .or_else(|| n.strip_suffix("_saveexec_b32"))
    }) {
        let ty = if name.ends_with("b64") {
            Ty::B64
        } else {
            Ty::B32
        };
        let (family, exec_first) = match rest {
            "and" => (Family::And, false),
            "or" => (Family::Or, false),
            "xor" => (Family::Xor, false),
            "andn2" | "and_not1" => (Family::AndNot, false),
            "orn2" | "or_not1" => (Family::OrNot, false),
            "nand" => (Family::Nand, false),
            "nor" => (Family::Nor, false),
            "xnor" => (Family::Xnor, false),
            // andn1: EXEC = ~S0 & EXEC = EXEC & ~S0.
            "andn1" | "and_not0" => (Family::AndNot, true),
            "orn1" | "or_not0" => (Family::OrNot, true),
            _ => return Err(format!("`{name}` is not executed by gcnrun yet")),
        };
        let t = ops.get(1).ok_or("saveexec without a source")?;
        let src = source(t, ty.slots())?;
        let sdst = match ops.first().map(|t| t.operand) {
            Some(GOperand::Sgpr { first, .. }) => Some(u32::from(first)),
            Some(GOperand::Special(Special::Null)) => None,
            Some(GOperand::Special(Special::Vcc | Special::VccLo)) => {
                return Err(format!(
                    "`{name}` saving EXEC into VCC is not executed by gcnrun yet"
                ))
            }
            _ => {
                return Err(format!(
                    "`{name}` with this destination is not executed by gcnrun yet"
                ))
            }
        };
        return wave(WaveOp::SaveExec {
            func: AluFn::new(family, ty),
            sdst,
            src,
            exec_first,
        });
    }
    Ok(None)
}

/// Lowers a vector ALU instruction.
pub fn lower_vop(v: &Vop, arch: &Arch) -> Result<Op, String> {
    let name = v.mnemonic();
    match name.trim_end_matches("_e32").trim_end_matches("_e64") {
        "v_nop" => return Ok(Op::Nop),
        "v_readfirstlane_b32"
        | "v_readlane_b32"
        | "v_writelane_b32"
        | "v_permlane16_b32"
        | "v_permlanex16_b32" => return lane_op(v, name),
        _ => {}
    }
    let form = v.form();
    let vop3p = matches!(form, Form::Vop3p | Form::Vop3pDpp | Form::Vop3pDpp8);
    // Packed math: `v_pk_<op>_<ty>` is `v_<op>_<ty>` on each 16-bit half
    // (ir::alu::Packed); gfx10's `v_pk_fmac_f16` is a VOP2 form of it.
    let pk = name.strip_prefix("v_pk_");
    let mix = mix_of(name);
    let dot = dot_of(name).transpose()?;
    if vop3p && pk.is_none() && mix.is_none() && dot.is_none() {
        return Err(format!(
            "`{name}`: this VOP3P operation is not executed by gcnrun yet"
        ));
    }
    let p = match (pk, mix, dot) {
        (Some(rest), _, _) => parse(&format!("v_{rest}"))?,
        (_, Some((family, _)), _) => Parsed {
            func: AluFn::new(family, Ty::F32),
            flags: 0,
            cmpx: false,
            shift: 0,
        },
        // The VOP2 forms (`v_dot4c_i32_i8`) accumulate into the destination.
        (_, _, Some((shape, ty, acc))) => Parsed {
            func: AluFn::new(Family::Dot(shape), ty),
            flags: if acc { ACC } else { 0 },
            cmpx: false,
            shift: 0,
        },
        _ => parse(name)?,
    };
    let p = require_defined(p, name)?;
    if pk.is_some() && p.func.signature().output.is_none_or(|t| t.bits() != 16) {
        return Err(format!(
            "`{name}`: packed math on other than 16-bit halves is not executed by gcnrun"
        ));
    }
    let sig = p.func.signature();
    let ops = vop_operands(v);
    // Destinations come first (LLVM order): the value's VGPR, then a lane
    // mask (carry out, compare result); then the sources; a trailing mask
    // is a carry-in or v_cndmask's selector.
    let mut dsts: Vec<&TypedOperand> = Vec::new();
    let mut srcs: Vec<&TypedOperand> = Vec::new();
    for t in &ops {
        let is_src = matches!(t.field, Fld::Src0 | Fld::Src1 | Fld::Src2 | Fld::Vsrc1);
        if is_src || !srcs.is_empty() {
            srcs.push(t);
        } else {
            dsts.push(t);
        }
    }
    let mut mask_in = None;
    if p.func.family == Family::DivFmas {
        // v_div_fmas reads VCC without naming it (AMD Vega ISA
        // V_DIV_FMAS_F32; LLVM prints no operand for it).
        mask_in = Some(Operand::Reg(Reg::VccLo));
    } else if sig.bit_in {
        let last = srcs
            .pop()
            .ok_or_else(|| format!("`{name}` without its lane-mask input"))?;
        mask_in = Some(source(last, 2)?);
    }
    let nin = sig.inputs.iter().filter(|t| t.is_some()).count();
    let mut src: Vec<Operand> = Vec::new();
    for (i, t) in srcs.iter().enumerate() {
        // The input this source becomes (`*rev` swaps the first two).
        let k = if p.flags & REV != 0 && i < 2 {
            1 - i
        } else {
            i
        };
        let slots = sig.inputs.get(k).copied().flatten().map_or(1, Ty::slots);
        src.push(source(t, slots)?);
    }
    if p.flags & REV != 0 && src.len() >= 2 {
        src.swap(0, 1);
    }
    let value_dst = dsts.iter().find(|t| t.field == Fld::Vdst).copied();
    if p.flags & ACC != 0 {
        // v_mac/v_fmac: D = S0 * S1 + D.
        let d = value_dst.ok_or_else(|| format!("`{name}` without a destination"))?;
        src.push(source(d, 1)?);
    }
    if src.len() < nin {
        return Err(format!(
            "`{name}`: {} sources for a function of {nin}",
            src.len()
        ));
    }
    let mut op = AluOp::new(p.func, Unit::Vector, None, &src);
    op.bit_src = mask_in;
    if sig.output.is_some() {
        op.dst = match value_dst {
            Some(t) => dest(t)?.map(Dst::Reg),
            None => None,
        };
    }
    // The lane-mask destination: VOPC's (VCC or SDST), or the carry out
    // of VOP2/VOP3B (VCC or SDST).
    // A compare has no value: its first destination is the mask, whatever
    // field holds it (VOP3-encoded VOPC puts the SGPR in VDST on gfx10+).
    let mask_dst = if sig.output.is_none() {
        dsts.first().copied()
    } else {
        dsts.iter().find(|t| t.field != Fld::Vdst).copied()
    };
    if sig.bit_out {
        if let Some(t) = mask_dst {
            op.bit_dst = dest(t)?.map(Dst::Mask);
        }
    }
    // gfx6–gfx7 `v_add_i32`, `v_sub_i32`, `v_subrev_i32`: despite the name,
    // the carry out is the unsigned one (AMD Southern Islands ISA V_ADD_I32:
    // "D.u = S0.u + S1.u; VCC = carry out"; what gfx8 calls `v_add_u32` and
    // gfx9 `v_add_co_u32`, the low half of a 64-bit add before `v_addc_u32`),
    // not the signed overflow of `s_add_i32` (docs/errata.md). The sum's bits
    // are the same either way.
    if matches!(op.bit_dst, Some(Dst::Mask(_)))
        && matches!(p.func.family, Family::Add | Family::Sub)
        && p.func.ty == Ty::I32
    {
        op.func.ty = Ty::U32;
    }
    if p.cmpx {
        // v_cmpx writes EXEC; before gfx10 it writes the mask destination
        // (VCC or SDST) too (AMD Vega ISA "VOPC": "V_CMPX writes EXEC and
        // VCC"; RDNA: EXEC only).
        let also = if arch.gen < Gen::Gfx10 {
            mask_dst.map(dest).transpose()?.flatten()
        } else {
            None
        };
        op.bit_dst = Some(Dst::Exec(also));
    }
    // VOP3 modifiers; the VOP1/VOP2 forms have none. OP_SEL (gfx9+): bits
    // 0–2 pick the high half of a 16-bit source, bit 3 the destination's.
    let mut mods = Mods::default();
    let mut op_sel_hi = 0u8;
    for i in 0..3 {
        let m = v.src_mods(i);
        mods.abs |= u8::from(m.abs) << i;
        mods.neg |= u8::from(m.neg) << i;
        op_sel_hi |= u8::from(v.op_sel_hi[i]) << i;
    }
    for (i, &on) in v.op_sel.iter().enumerate() {
        mods.op_sel |= u8::from(on) << i;
    }
    if p.flags & REV != 0 {
        let swap2 = |x: u8| x & !3 | (x & 1) << 1 | (x >> 1 & 1);
        mods.abs = swap2(mods.abs);
        mods.neg = swap2(mods.neg);
        mods.op_sel = swap2(mods.op_sel);
        op_sel_hi = swap2(op_sel_hi);
    }
    if let Some((_, half)) = mix {
        // The mixed forms read ABS from NEG_HI (the decoder's src_mods) and
        // OP_SEL_HI says which sources are f16. A float inline constant is
        // refused: whether the hardware reads it as f16 or f32 in an f32
        // source is written down nowhere public.
        if srcs.iter().any(|t| matches!(t.operand, GOperand::Float(_))) {
            return Err(format!(
                "`{name}`: a float inline constant in mixed-precision math is not executed by gcnrun"
            ));
        }
        op.mix = Some(Mix {
            f16_inputs: op_sel_hi,
            f16_result: half.is_some(),
        });
        // mixlo writes the low half, mixhi the high one; the other is kept.
        mods.op_sel = mods.op_sel & 7 | u8::from(half == Some(true)) << 3;
        op.high_kept16 = true;
    }
    if let (Family::Dot(mut shape), true) = (p.func.family, vop3p) {
        // Dot products read whole dwords: OP_SEL and OP_SEL_HI stay at their
        // defaults (LLVM prints neither; the encoding sets OP_SEL_HI). On the
        // mixed-sign forms (`*_iu8`, `*_iu4`) NEG_LO says which source's
        // elements are signed (RDNA3 ISA V_DOT4_I32_IU8; LLVM
        // `llvm.amdgcn.sudot4`'s a_sign/b_sign); NEG_HI is unused.
        if mods.op_sel != 0 || op_sel_hi != 0b111 {
            return Err(format!(
                "`{name}`: op_sel/op_sel_hi on a dot product are not executed by gcnrun"
            ));
        }
        if name.contains("_iu") {
            shape.signed = mods.neg & 3;
            if mods.abs != 0 || mods.neg & 4 != 0 {
                return Err(format!(
                    "`{name}`: neg_hi, or neg_lo on src2, is not executed by gcnrun"
                ));
            }
            mods.neg = 0;
            op.func = AluFn::new(Family::Dot(shape), p.func.ty);
        }
    }
    if pk.is_some() {
        // VOP3P holds NEG_HI where VOP3 has ABS; the VOP2 form reads each
        // half of its sources for the same half of the result.
        let packed = if vop3p {
            Packed {
                op_sel_hi,
                neg_hi: mods.abs,
            }
        } else {
            Packed {
                op_sel_hi: 0b111,
                neg_hi: 0,
            }
        };
        mods.abs = 0;
        if p.func.modifier_type().is_none() && (mods.neg | packed.neg_hi) != 0 {
            return Err(format!(
                "`{name}`: neg_lo/neg_hi on integer packed math is not executed by gcnrun"
            ));
        }
        op.packed = Some(packed);
    }
    mods.clamp = v.clamp();
    mods.omod = v.omod() as u8;
    if !p.func.ty.is_float() && (mods.omod != 0 || mods.clamp && !p.func.saturates()) {
        return Err(format!(
            "`{name}`: integer clamping is not executed by gcnrun yet"
        ));
    }
    if p.func.modifier_type().is_none()
        && (mods.abs != 0 || mods.neg != 0)
        && !matches!(form, Form::Vop1Sdwa | Form::Vop2Sdwa | Form::VopcSdwa)
    {
        return Err(format!(
            "`{name}`: float source modifiers on an integer operation"
        ));
    }
    op.mods = mods;
    if matches!(form, Form::Vop1Sdwa | Form::Vop2Sdwa | Form::VopcSdwa) {
        let mut sdwa = sdwa_of(v)?;
        if p.flags & REV != 0 {
            // The selections belong to the encoded sources, which `*rev`
            // swaps (found by tests/random_kernels.rs: v_lshlrev_b32_sdwa
            // with src1_sel:WORD_1 selected the shift count's half).
            sdwa.src_sel.swap(0, 1);
            sdwa.sext.swap(0, 1);
        }
        op.sdwa = Some(sdwa);
        op.mods.abs = 0;
        op.mods.neg = 0;
        if p.func.modifier_type().is_none() && (mods.abs != 0 || mods.neg != 0) {
            return Err(format!(
                "`{name}`: SDWA float modifiers on an integer operation"
            ));
        }
        op.mods.abs = mods.abs;
        op.mods.neg = mods.neg;
    }
    if let Some(n) = ubyte_of(name) {
        if op.sdwa.is_some() {
            return Err(format!(
                "`{name}`: SDWA on v_cvt_f32_ubyte is not executed by gcnrun yet"
            ));
        }
        op.sdwa = Some(Sdwa {
            src_sel: [n, 6],
            sext: [false, false],
            dst_sel: 6,
            dst_unused: 0,
        });
    }
    if let Some(d) = v.dpp {
        // DPP shuffles the encoded src0, a VGPR of 32 bits (64-bit DPP is
        // gfx90a's), which `*rev` makes input 1.
        let k = usize::from(p.flags & REV != 0);
        let wide = sig
            .inputs
            .get(k)
            .copied()
            .flatten()
            .is_some_and(|t| t.slots() > 1);
        if wide || !matches!(op.src[k], Operand::Reg(Reg::Vgpr(_))) {
            return Err(format!(
                "`{name}`: DPP on a 64-bit or non-VGPR source is not executed by gcnrun"
            ));
        }
        op.dpp = Some(match d {
            crate::gcn::decoded::Dpp::Dpp16 {
                ctrl,
                row_mask,
                bank_mask,
                bound_ctrl,
                fi,
            } => Dpp::Dpp16 {
                ctrl,
                row_mask,
                bank_mask,
                bound_ctrl,
                fi,
            },
            crate::gcn::decoded::Dpp::Dpp8 { lanes, fi } => Dpp::Dpp8 { sel: lanes, fi },
        });
        op.dpp_input = k;
    }
    op.high_kept16 |= arch.gen >= Gen::Gfx10;
    Ok(Op::Alu(Box::new(op)))
}

/// The mixed-precision forms: `v_fma_mix_f32`, `v_fma_mixlo_f16`,
/// `v_fma_mixhi_f16` (fused) and gfx9's `v_mad_mix*` (unfused, as
/// `v_mad_f32`): the f32 family, and for the f16 results whether the high
/// half is written.
fn mix_of(name: &str) -> Option<(Family, Option<bool>)> {
    let (family, rest) = if let Some(r) = name.strip_prefix("v_fma_mix") {
        (Family::Fma, r)
    } else {
        (Family::Mad, name.strip_prefix("v_mad_mix")?)
    };
    let half = match rest {
        "_f32" => None,
        "lo_f16" => Some(false),
        "hi_f16" => Some(true),
        _ => return None,
    };
    Some((family, half))
}

/// The integer dot products (`v_dot<n>[c]_<i32|u32>_<i|u|iu><bits>`): the
/// element shape (signed elements for `i`; `iu`'s signedness comes from
/// NEG_LO, set by the caller), the result type, and whether the VOP2 `c`
/// form accumulates into its destination. The float ones (`v_dot2_f32_f16`,
/// `v_dot2c_f32_f16`, `v_dot2_f16_f16`, the bf16 forms) are refused: no
/// public source gives their intermediate rounding.
fn dot_of(name: &str) -> Option<Result<(DotShape, Ty, bool), String>> {
    let rest = name.strip_prefix("v_dot")?;
    let (n, rest) = rest.split_at(rest.find(|c: char| !c.is_ascii_digit())?);
    let n: u32 = n.parse().ok()?;
    let (acc, rest) = match rest.strip_prefix('c') {
        Some(r) => (true, r),
        None => (false, rest),
    };
    let (ty, elem) = match rest.strip_prefix("_i32_").map(|e| (Ty::I32, e)) {
        Some(t) => t,
        None => match rest.strip_prefix("_u32_") {
            Some(e) => (Ty::U32, e),
            None => {
                return Some(Err(format!(
                    "`{name}`: float dot products are not executed by gcnrun (no public rule for their intermediate rounding)"
                )))
            }
        },
    };
    let (signed, bits) = if let Some(b) = elem.strip_prefix("iu") {
        (0, b)
    } else if let Some(b) = elem.strip_prefix('i') {
        (3, b)
    } else {
        (0, elem.strip_prefix('u')?)
    };
    let bits: u32 = bits.parse().ok()?;
    if !matches!(bits, 4 | 8 | 16) || n * bits != 32 {
        return None;
    }
    let shape = DotShape {
        bits: bits as u8,
        signed,
    };
    Some(Ok((shape, ty, acc)))
}

/// Every printed operand of a vector instruction in LLVM's order: the
/// decoder's register operands, plus the implicit `vcc` of the 32-bit
/// encodings (carry out and in, the compare result, `v_cndmask`'s selector)
/// and the literal constant `K` of `v_fmamk`/`v_madak`-style opcodes, which
/// have no register field.
fn vop_operands(v: &Vop) -> Vec<TypedOperand> {
    let listed = v.operands();
    let mut it = listed.iter().peekable();
    let mut out = Vec::new();
    for s in v.enc.row.opds {
        if let Some(t) = it.peek() {
            if t.field == s.field || (s.field == Fld::Vcc && t.field == Fld::Sdst) {
                out.push(**t);
                it.next();
                continue;
            }
        }
        match s.field {
            Fld::Vcc => out.push(TypedOperand {
                field: Fld::Vcc,
                operand: GOperand::Special(Special::Vcc),
                ty: s.ty,
            }),
            Fld::Imm => {
                if let Some(k) = v.enc.literal {
                    out.push(TypedOperand {
                        field: Fld::Imm,
                        operand: GOperand::Literal(k),
                        ty: s.ty,
                    });
                }
            }
            _ => {}
        }
    }
    out.extend(it.copied());
    out
}

/// Lowers a gfx11 VOPD pair into [`Op::Dual`]: each half as the VOP2
/// instruction it names (`v_dual_add_f32` is `v_add_f32`), reading the
/// shared literal as its `K`, in an order that reads as the pair does (Y
/// first when it reads X's destination; a pair where each half reads the
/// other's destination is refused).
pub fn lower_vopd(d: &super::vopd::Vopd, arch: &Arch) -> Result<Op, String> {
    use super::vopd::{Half, Shape};
    let half = |h: &Half| -> Result<AluOp, String> {
        let dual = h.op.1;
        let name = dual.replacen("v_dual_", "v_", 1);
        if name == "v_dot2acc_f32_f16" || name == "v_mul_dx9_zero_f32" {
            return Err(format!("`{dual}` is not executed by gcnrun yet"));
        }
        let p = require_defined(parse(&name)?, dual)?;
        let src0 = super::lower::source(h.src0, d.literal, arch)
            .map(Operand::from)
            .ok_or_else(|| format!("`{dual}`: an unsupported source"))?;
        let v1 = Operand::Reg(Reg::Vgpr(h.vsrc1));
        let k = Operand::Const(u64::from(d.literal.unwrap_or(0)));
        let vd = Operand::Reg(Reg::Vgpr(h.vdst));
        let mut src = match h.op.2 {
            Shape::One => vec![src0],
            Shape::Two => vec![src0, v1],
            Shape::Aak => vec![src0, v1, k],
            Shape::Amk => vec![src0, k, v1],
        };
        if p.flags & REV != 0 {
            src.swap(0, 1);
        }
        if p.flags & ACC != 0 {
            src.push(vd);
        }
        let mut op = AluOp::new(
            p.func,
            Unit::Vector,
            Some(Dst::Reg(Reg::Vgpr(h.vdst))),
            &src,
        );
        if p.func.family == Family::Cndmask {
            // v_dual_cndmask_b32 reads vcc_lo (wave32 only).
            op.bit_src = Some(Operand::Reg(Reg::VccLo));
        }
        op.high_kept16 = true;
        Ok(op)
    };
    let (x, y) = (half(&d.x)?, half(&d.y)?);
    // The halves issue together (RDNA3 ISA, "VOPD"): each reads its sources
    // before either writes. Run one after the other, the pair is the same
    // when neither reads what the one before it wrote: Y first when Y reads
    // X's destination (LLVM emits such pairs; found by
    // tests/random_kernels.rs); a pair where each reads the other's is
    // refused.
    let reads = |a: &AluOp, dst: u32| {
        a.src.contains(&Operand::Reg(Reg::Vgpr(dst)))
            || a.bit_src == Some(Operand::Reg(Reg::Vgpr(dst)))
    };
    match (reads(&y, d.x.vdst), reads(&x, d.y.vdst)) {
        (false, _) => Ok(Op::Dual(Box::new([x, y]))),
        (true, false) => Ok(Op::Dual(Box::new([y, x]))),
        (true, true) => Err(format!(
            "`{}`: each half reads the other's destination (v{}, v{}): not executed by gcnrun",
            d.mnemonic(),
            d.x.vdst,
            d.y.vdst
        )),
    }
}

/// The SDWA selections of an instruction (AMD Vega ISA §6.3.1: SRC0_SEL
/// bits 50:48, SRC1_SEL 58:56, DST_SEL 43:41, DST_UNUSED 45:44; sign
/// extension SEXT bits 51 and 59).
fn sdwa_of(v: &Vop) -> Result<Sdwa, String> {
    let b = |lo: u32, w: u32| v.enc.bits(lo, w) as u8;
    let is_vopc = v.form() == Form::VopcSdwa;
    Ok(Sdwa {
        src_sel: [b(48, 3), b(56, 3)],
        sext: [v.src_mods(0).sext, v.src_mods(1).sext],
        dst_sel: if is_vopc { 6 } else { b(40, 3) },
        dst_unused: if is_vopc { 0 } else { b(43, 2) },
    })
}

/// The byte `v_cvt_f32_ubyte<n>` reads.
fn ubyte_of(name: &str) -> Option<u8> {
    let rest = name.split("_ubyte").nth(1)?;
    rest.bytes()
        .next()
        .filter(u8::is_ascii_digit)
        .map(|c| c - b'0')
}

/// v_readfirstlane_b32, v_readlane_b32, v_writelane_b32.
fn lane_op(v: &Vop, name: &str) -> Result<Op, String> {
    let ops = v.operands();
    let reg = |i: usize| -> Result<Operand, String> {
        source(
            ops.get(i)
                .ok_or_else(|| format!("`{name}` is missing an operand"))?,
            1,
        )
    };
    let sgpr = |o: Operand| match o {
        Operand::Reg(Reg::Sgpr(n)) => Ok(n),
        _ => Err(format!(
            "`{name}` with a non-SGPR scalar operand is not executed by gcnrun yet"
        )),
    };
    let vgpr = |o: Operand| match o {
        Operand::Reg(Reg::Vgpr(n)) => Ok(n),
        _ => Err(format!(
            "`{name}` with a non-VGPR vector operand is not executed by gcnrun yet"
        )),
    };
    let small = |o: Operand| -> Result<Src, String> {
        Ok(match o {
            Operand::Reg(r) => Src::Reg(r),
            Operand::Const(c) => Src::Const(c as u32),
        })
    };
    let op = if name.starts_with("v_readfirstlane") {
        WaveOp::ReadFirstLane {
            sdst: sgpr(reg(0)?)?,
            src: small(reg(1)?)?,
        }
    } else if name.starts_with("v_permlane") {
        // OP_SEL bit 0 is FI, bit 1 BOUND_CTRL (LLVM `llvm.amdgcn.permlane16`:
        // "fi", "bound_control"; the decoder reads them raw).
        WaveOp::Permlane {
            cross: name.starts_with("v_permlanex16"),
            vdst: vgpr(reg(0)?)?,
            src: vgpr(reg(1)?)?,
            sel_lo: small(reg(2)?)?,
            sel_hi: small(reg(3)?)?,
            fi: v.op_sel[0],
            bound_ctrl: v.op_sel[1],
        }
    } else if name.starts_with("v_readlane") {
        WaveOp::ReadLane {
            sdst: sgpr(reg(0)?)?,
            src: vgpr(reg(1)?)?,
            lane: small(reg(2)?)?,
        }
    } else {
        WaveOp::WriteLane {
            vdst: vgpr(reg(0)?)?,
            src: small(reg(1)?)?,
            lane: small(reg(2)?)?,
        }
    };
    Ok(Op::Wave(Box::new(op)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::alu::{Mix, Packed};

    #[test]
    fn names_parse_into_functions() {
        let f = |n: &str| parse(n).map(|p| (p.func.family, p.func.ty)).unwrap();
        assert_eq!(f("v_add_co_u32_e32"), (Family::Add, Ty::U32));
        assert_eq!(f("v_cvt_f32_i32_e32"), (Family::Cvt(Ty::F32), Ty::I32));
        assert_eq!(f("v_cmp_ne_u32_e64"), (Family::Cmp(Rel::Lg), Ty::U32));
        assert_eq!(f("v_cmp_class_f32_e32"), (Family::Class, Ty::F32));
        assert_eq!(f("s_bcnt1_i32_b64"), (Family::Bcnt1, Ty::B64));
        assert_eq!(f("v_mad_u64_u32"), (Family::MadWide, Ty::U64));
        assert_eq!(f("v_mul_u32_u24_e32"), (Family::Mul24, Ty::U32));
        assert_eq!(f("v_mad_u32_u24"), (Family::Mad24, Ty::U32));
        assert_eq!(f("v_mad_i64_i32"), (Family::MadWide, Ty::I64));
        assert_eq!(f("v_cvt_pkrtz_f16_f32_e32"), (Family::CvtPkrtz, Ty::F32));
        assert_eq!(f("v_cvt_pk_rtz_f16_f32_e32"), (Family::CvtPkrtz, Ty::F32));
        assert_eq!(f("v_cvt_pk_u16_u32_e64"), (Family::CvtPkSat, Ty::U32));
        assert_eq!(f("v_cvt_pk_i16_i32"), (Family::CvtPkSat, Ty::I32));
        assert!(parse("v_cvt_pk_u8_f32").is_err());
        // The DX9 multiplies under their gfx6–gfx10 and gfx11 names.
        assert_eq!(f("v_mul_legacy_f32_e32"), (Family::MulLegacy, Ty::F32));
        assert_eq!(f("v_mul_dx9_zero_f32_e32"), (Family::MulLegacy, Ty::F32));
        assert_eq!(f("v_fma_dx9_zero_f32"), (Family::FmaLegacy, Ty::F32));
        assert_eq!(f("v_mad_legacy_f32"), (Family::MadLegacy, Ty::F32));
        assert_eq!(f("v_minmax_f32"), (Family::MinMax, Ty::F32));
        assert_eq!(f("v_maxmin_i32"), (Family::MaxMin, Ty::I32));
        assert_eq!(f("v_frexp_exp_i32_f32_e32"), (Family::FrexpExp, Ty::F32));
        // v_cvt_f32_ubyte2: u32 → f32 of byte 2 (an SDWA selection, lower_vop).
        assert_eq!(f("v_cvt_f32_ubyte2_e32"), (Family::Cvt(Ty::F32), Ty::U32));
        assert_eq!(ubyte_of("v_cvt_f32_ubyte2_e32"), Some(2));
        assert_eq!(ubyte_of("v_cvt_f32_u32_e32"), None);
        assert_eq!(f("s_flbit_i32"), (Family::FindMsbSigned, Ty::I32));
        assert_eq!(f("s_flbit_i32_b32"), (Family::FindMsb, Ty::B32));
        assert_eq!(f("v_ffbh_i32_e32"), (Family::FindMsbSigned, Ty::I32));
        assert!(parse("v_lshlrev_b32_sdwa").unwrap().flags & REV != 0);
        assert_eq!(parse("s_lshl2_add_u32").unwrap().shift, 2);
    }

    fn lowered(words: &[u32], arch: &str) -> Vec<Op> {
        let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
        let arch = Arch::parse(arch).unwrap();
        crate::gcn::lower::lower_bytes(&bytes, &arch)
            .unwrap()
            .ops
            .into_iter()
            .map(|(_, o)| o)
            .collect()
    }

    /// `*rev` swaps the SDWA selections with the sources they belong to
    /// (clang-19's code for `(x >> 16) << y` on gfx900).
    #[test]
    fn rev_sdwa_swaps_the_selections_with_the_sources() {
        // v_lshlrev_b32_sdwa v2, v3, v1 dst_sel:DWORD dst_unused:UNUSED_PAD
        // src0_sel:DWORD src1_sel:WORD_1
        let ops = lowered(&[0x2404_02f9, 0x0506_0603], "gfx900");
        let Op::Alu(a) = &ops[0] else {
            panic!("{ops:?}")
        };
        assert_eq!(a.src[0], Operand::Reg(Reg::Vgpr(1)));
        assert_eq!(a.sdwa.unwrap().src_sel, [5, 6]);
    }

    /// gfx6's `v_add_i32` family carries unsigned (docs/errata.md, A5); gfx9's
    /// VOP3 `v_add_i32`, which has no carry out, stays signed (its CLAMP
    /// saturates as a signed sum).
    #[test]
    fn gfx6_add_i32_carries_unsigned() {
        let func = |words: &[u32], arch: &str| match &lowered(words, arch)[0] {
            Op::Alu(a) => (a.func, a.bit_dst),
            other => panic!("{other:?}"),
        };
        // v_sub_i32_e32 v3, vcc, 0, v0 (tahiti)
        assert_eq!(
            func(&[0x4c06_0080], "tahiti"),
            (
                AluFn::new(Family::Sub, Ty::U32),
                Some(Dst::Mask(Reg::VccLo))
            )
        );
        // v_add_i32_e32 v0, vcc, s6, v0 (tahiti)
        assert_eq!(
            func(&[0x4a00_0006], "tahiti").0,
            AluFn::new(Family::Add, Ty::U32)
        );
        // v_sub_i32_e64 v3, s[4:5], 0, v0 (tahiti): the mask in SGPRs.
        assert_eq!(
            func(&[0xd24c_0403, 0x0002_0080], "tahiti"),
            (
                AluFn::new(Family::Sub, Ty::U32),
                Some(Dst::Mask(Reg::Sgpr(4)))
            )
        );
        // v_add_i32 v0, v1, v2 clamp (gfx900)
        assert_eq!(
            func(&[0xd29c_8000, 0x0002_0501], "gfx900"),
            (AluFn::new(Family::Add, Ty::I32), None)
        );
    }

    /// VOP3P: `v_pk_*` lowers to the 16-bit function with both halves'
    /// selections; the mixed forms to f32 with f16 inputs.
    #[test]
    fn packed_and_mixed_forms_lower_with_their_selections() {
        // v_pk_fma_f16 v6, v0, v1, v0 op_sel:[1,1,0] op_sel_hi:[0,0,0] clamp (gfx900)
        let ops = lowered(&[0xd38e_9806, 0x0402_0300], "gfx900");
        let Op::Alu(a) = &ops[0] else {
            panic!("{ops:?}")
        };
        assert_eq!(a.func, AluFn::new(Family::Fma, Ty::F16));
        assert_eq!(a.mods.op_sel, 0b011);
        assert!(a.mods.clamp);
        assert_eq!(
            a.packed,
            Some(Packed {
                op_sel_hi: 0,
                neg_hi: 0
            })
        );
        // v_pk_lshlrev_b16 v10, 3, v20 op_sel_hi:[0,1] (*rev: the selections
        // follow the swapped sources).
        let ops = lowered(&[0xd384_400a, 0x1002_2883], "gfx900");
        let Op::Alu(a) = &ops[0] else {
            panic!("{ops:?}")
        };
        assert_eq!(a.func, AluFn::new(Family::Shl, Ty::B16));
        assert_eq!(a.src[1], Operand::Const(3));
        // Input 0 (v20) reads its high half, input 1 (3) its low one; bit 2
        // is the unused third source's default.
        assert_eq!(a.packed.map(|p| p.op_sel_hi), Some(0b101));
        // v_fma_mixlo_f16 v6, v0, v1, v0 op_sel:[1,1,0] op_sel_hi:[1,1,1] (gfx1030)
        let ops = lowered(&[0xcc21_5806, 0x1c02_0300], "gfx1030");
        let Op::Alu(a) = &ops[0] else {
            panic!("{ops:?}")
        };
        assert_eq!(a.func, AluFn::new(Family::Fma, Ty::F32));
        assert_eq!(
            a.mix,
            Some(Mix {
                f16_inputs: 0b111,
                f16_result: true
            })
        );
        assert_eq!(a.mods.op_sel, 0b011);
        assert!(a.high_kept16);
    }

    /// A VOPD pair whose Y half reads X's destination runs Y first (the
    /// halves read before either writes; clang-19 emits such pairs).
    #[test]
    fn vopd_runs_y_first_when_it_reads_x_destination() {
        // v_dual_mov_b32 v3, v6 :: v_dual_add_nc_u32 v2, v3, v4
        let ops = lowered(&[0xca20_0106, 0x0302_0903], "gfx1100");
        let Op::Dual(pair) = &ops[0] else {
            panic!("{ops:?}")
        };
        assert_eq!(pair[0].dst, Some(Dst::Reg(Reg::Vgpr(2))));
        assert_eq!(pair[1].dst, Some(Dst::Reg(Reg::Vgpr(3))));
    }
}
