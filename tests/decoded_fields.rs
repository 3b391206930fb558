//! The decoded form of each operand-decoded class exposes its operands and
//! modifiers as public fields (what a lowering to the IR reads), and they say
//! what LLVM's text says. Each case is an encoding llvm-mc-19 printed for the
//! text in its comment (`llvm-mc-19 -arch=amdgcn -mcpu=… -show-encoding`).

use gcnrun::gcn::decode::decode_one;
use gcnrun::gcn::decoded::{BufFormat, Dpp, DstUnused, HwReg, Omod, SdwaSel};
use gcnrun::gcn::flat::Segment;
use gcnrun::gcn::operand::{Operand, Special, TypedOperand};
use gcnrun::gcn::signature::Fld;
use gcnrun::gcn::{Inst, Kind};
use gcnrun::Arch;

fn inst(mcpu: &str, bytes: &[u8]) -> Inst {
    let mut words: Vec<u32> = bytes
        .chunks(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect();
    let n = words.len();
    words.extend([0xbf80_0000; 4]);
    let arch = Arch::parse(mcpu).expect("arch");
    let i = decode_one(&words, 0, &arch).expect("decodes");
    assert_eq!(i.words.len(), n, "{mcpu} {bytes:02x?}: {}", i.text());
    i
}

fn v(first: u8, count: u8) -> Operand {
    Operand::Vgpr { first, count }
}

fn s(first: u8, count: u8) -> Operand {
    Operand::Sgpr { first, count }
}

fn op(o: &Option<TypedOperand>) -> Option<Operand> {
    o.map(|t| t.operand)
}

#[test]
fn vector_alu() {
    // v_add_f32_sdwa v3, -v2, |v3| dst_sel:WORD_1 dst_unused:UNUSED_PRESERVE
    //   src0_sel:BYTE_2 src1_sel:DWORD
    let i = inst("gfx900", &[0xf9, 0x06, 0x06, 0x02, 0x02, 0x15, 0x12, 0x26]);
    let Kind::Vop(x) = &i.kind else { panic!() };
    assert_eq!(x.name, "v_add_f32_sdwa");
    assert_eq!(x.dst.len(), 1);
    assert_eq!(x.dst[0].operand, v(3, 1));
    assert_eq!(x.src.len(), 2);
    assert!(x.src[0].neg && !x.src[0].abs);
    assert!(x.src[1].abs && !x.src[1].neg);
    let sdwa = x.sdwa.expect("sdwa");
    assert_eq!(sdwa.dst_sel, Some(SdwaSel::Word1));
    assert_eq!(sdwa.dst_unused, Some(DstUnused::Preserve));
    assert_eq!(sdwa.src0_sel, Some(SdwaSel::Byte2));
    assert_eq!(sdwa.src1_sel, Some(SdwaSel::Dword));

    // v_mov_b32_dpp v1, v2 quad_perm:[1,0,3,2] row_mask:0xa bank_mask:0x5 bound_ctrl:1
    let i = inst("gfx900", &[0xfa, 0x02, 0x02, 0x7e, 0x02, 0xb1, 0x08, 0xa5]);
    let Kind::Vop(x) = &i.kind else { panic!() };
    assert_eq!(
        x.dpp,
        Some(Dpp::Dpp16 {
            ctrl: 0xb1,
            row_mask: 0xa,
            bank_mask: 0x5,
            bound_ctrl: true,
            fi: false
        })
    );

    // v_add_f32_dpp v1, v2, v3 dpp8:[7,6,5,4,3,2,1,0] fi:1 (gfx1030)
    let i = inst("gfx1030", &[0xea, 0x06, 0x02, 0x06, 0x02, 0x77, 0x39, 0x05]);
    let Kind::Vop(x) = &i.kind else { panic!() };
    assert_eq!(
        x.dpp,
        Some(Dpp::Dpp8 {
            lanes: [7, 6, 5, 4, 3, 2, 1, 0],
            fi: true
        })
    );

    // v_fma_f32 v1, -v2, |v3|, s4 clamp mul:2
    let i = inst("gfx900", &[0x01, 0x82, 0xcb, 0xd1, 0x02, 0x07, 0x12, 0x28]);
    let Kind::Vop(x) = &i.kind else { panic!() };
    assert!(x.clamp);
    assert_eq!(x.omod, Omod::Mul2);
    assert_eq!(x.src.len(), 3);
    assert!(x.src[0].neg && x.src[1].abs);
    assert_eq!(x.src[2].opd.operand, s(4, 1));

    // v_pk_fma_f16 v1, v2, v3, v4 op_sel:[1,0,0] op_sel_hi:[0,1,1]
    //   neg_lo:[0,1,0] neg_hi:[0,0,1]
    let i = inst("gfx900", &[0x01, 0x4c, 0x8e, 0xd3, 0x02, 0x07, 0x12, 0x54]);
    let Kind::Vop(x) = &i.kind else { panic!() };
    assert_eq!(x.op_sel[..3], [true, false, false]);
    assert_eq!(x.op_sel_hi, [false, true, true]);
    assert_eq!(
        x.src.iter().map(|s| (s.neg, s.neg_hi)).collect::<Vec<_>>(),
        [(false, false), (true, false), (false, true)]
    );

    // v_add_co_u32_e64 v1, s[4:5], v2, 5: a vector and a scalar destination.
    let i = inst("gfx900", &[0x01, 0x04, 0x19, 0xd1, 0x02, 0x0b, 0x01, 0x00]);
    let Kind::Vop(x) = &i.kind else { panic!() };
    assert_eq!(
        x.dst.iter().map(|d| d.operand).collect::<Vec<_>>(),
        [v(1, 1), s(4, 2)]
    );
    assert_eq!(x.src[1].opd.operand, Operand::Int(5));

    // v_cmp_lt_f32_e64 s[2:3], v1, 1.0
    let i = inst("gfx900", &[0x02, 0x00, 0x41, 0xd0, 0x01, 0xe5, 0x01, 0x00]);
    let Kind::Vop(x) = &i.kind else { panic!() };
    assert_eq!(x.dst[0].operand, s(2, 2));
    assert_eq!(x.src[1].opd.operand, Operand::Float(242));

    // v_madmk_f32 v1, v2, 0x42000000, v3: K is a literal source in its place.
    let i = inst("gfx900", &[0x02, 0x07, 0x02, 0x2e, 0x00, 0x00, 0x00, 0x42]);
    let Kind::Vop(x) = &i.kind else { panic!() };
    assert_eq!(
        x.src.iter().map(|s| s.opd.field).collect::<Vec<_>>(),
        [Fld::Src0, Fld::Imm, Fld::Vsrc1]
    );
    assert_eq!(x.src[1].opd.operand, Operand::Literal(0x4200_0000));

    // gfx6 v_readlane_b32 s1, v2, m0: scalar destination, scalar lane select.
    let i = inst("tahiti", &[0x02, 0xf9, 0x02, 0x02]);
    let Kind::Vop(x) = &i.kind else { panic!() };
    assert_eq!(x.name, "v_readlane_b32");
    assert_eq!(x.dst[0].operand, s(1, 1));
    assert_eq!(x.src[1].opd.operand, Operand::Special(Special::M0));
}

#[test]
fn dual_issue() {
    // v_dual_fmamk_f32 v1, v2, 0x42000000, v3 :: v_dual_cndmask_b32 v4, v5, v6
    let i = inst(
        "gfx1100",
        &[
            0x02, 0x07, 0x92, 0xc8, 0x05, 0x0d, 0x04, 0x01, 0x00, 0x00, 0x00, 0x42,
        ],
    );
    let Kind::Vopd(x) = &i.kind else { panic!() };
    assert_eq!(x.x.dst.operand, v(1, 1));
    assert_eq!(
        x.x.src.iter().map(|s| s.operand).collect::<Vec<_>>(),
        [v(2, 1), Operand::Literal(0x4200_0000), v(3, 1)]
    );
    assert_eq!(x.y.dst.operand, v(4, 1));
    assert_eq!(
        x.y.src.iter().map(|s| s.operand).collect::<Vec<_>>(),
        [v(5, 1), v(6, 1), Operand::Special(Special::VccLo)]
    );
}

#[test]
fn scalar_alu_and_memory() {
    // s_getreg_b32 s5, hwreg(HW_REG_MODE, 4, 8)
    let i = inst("gfx900", &[0x01, 0x39, 0x85, 0xb8]);
    let Kind::Salu(x) = &i.kind else { panic!() };
    assert_eq!(x.operands[0].operand, s(5, 1));
    assert_eq!(
        x.hwreg,
        Some(HwReg {
            id: 1,
            offset: 4,
            size: 8
        })
    );

    // s_load_dwordx4 s[8:11], s[2:3], 0x40
    let i = inst("gfx900", &[0x01, 0x02, 0x0a, 0xc0, 0x40, 0x00, 0x00, 0x00]);
    let Kind::Smem(x) = &i.kind else { panic!() };
    assert_eq!(op(&x.sdata), Some(s(8, 4)));
    assert_eq!(op(&x.sbase), Some(s(2, 2)));
    assert_eq!((x.offset, x.soffset, x.glc), (0x40, None, false));

    // s_load_b64 s[4:5], s[2:3], 0x10 glc (gfx11)
    let i = inst("gfx1100", &[0x01, 0x41, 0x04, 0xf4, 0x10, 0x00, 0x00, 0xf8]);
    let Kind::Smem(x) = &i.kind else { panic!() };
    assert_eq!((x.offset, x.glc), (0x10, true));

    // gfx6 s_buffer_load_dword s5, s[8:11], 0x3
    let i = inst("tahiti", &[0x03, 0x89, 0x02, 0xc2]);
    let Kind::Smrd(x) = &i.kind else { panic!() };
    assert_eq!(op(&x.sdata), Some(s(5, 1)));
    assert_eq!(op(&x.sbase), Some(s(8, 4)));
    assert_eq!(x.offset_dwords, Some(3));
}

#[test]
fn vector_memory_and_exports() {
    // ds_write2_b32 v1, v2, v3 offset0:4 offset1:8 gds
    let i = inst("gfx900", &[0x04, 0x08, 0x1d, 0xd8, 0x01, 0x02, 0x03, 0x00]);
    let Kind::Ds(x) = &i.kind else { panic!() };
    assert_eq!(
        (op(&x.addr), op(&x.data0), op(&x.data1), op(&x.vdst)),
        (Some(v(1, 1)), Some(v(2, 1)), Some(v(3, 1)), None)
    );
    assert_eq!((x.offset2, x.gds), (Some((4, 8)), true));

    // tbuffer_load_format_xyzw v[4:7], v1, s[8:11], s3
    //   format:[BUF_DATA_FORMAT_32,BUF_NUM_FORMAT_FLOAT] idxen offset:16 glc
    let i = inst("gfx900", &[0x10, 0xe0, 0xa1, 0xeb, 0x01, 0x04, 0x02, 0x03]);
    let Kind::Buffer(x) = &i.kind else { panic!() };
    assert_eq!(op(&x.vdata), Some(v(4, 4)));
    assert_eq!(op(&x.vaddr), Some(v(1, 1)));
    assert_eq!(op(&x.srsrc), Some(s(8, 4)));
    assert_eq!(op(&x.soffset), Some(s(3, 1)));
    assert_eq!((x.offset, x.idxen, x.offen, x.glc), (16, true, false, true));
    assert_eq!(x.format, Some(BufFormat::Split { dfmt: 4, nfmt: 7 }));

    // gfx6 buffer_store_dword v1, v[2:3], s[4:7], 0 addr64 offset:12
    let i = inst("tahiti", &[0x0c, 0x80, 0x70, 0xe0, 0x02, 0x01, 0x01, 0x80]);
    let Kind::Buffer(x) = &i.kind else { panic!() };
    assert!(x.addr64);
    assert_eq!(op(&x.vaddr), Some(v(2, 2)));
    assert_eq!(op(&x.soffset), Some(Operand::Int(0)));

    // global_atomic_add v5, v[2:3], v4, off offset:-16 glc
    let i = inst("gfx900", &[0xf0, 0x9f, 0x09, 0xdd, 0x02, 0x04, 0x7f, 0x05]);
    let Kind::Flat(x) = &i.kind else { panic!() };
    assert_eq!(x.segment, Segment::Global);
    assert_eq!(
        (op(&x.vdst), op(&x.vaddr), op(&x.vdata), op(&x.saddr)),
        (Some(v(5, 1)), Some(v(2, 2)), Some(v(4, 1)), None)
    );
    assert_eq!((x.offset, x.glc), (-16, true));

    // exp pos0 v1, v2, off, off done
    let i = inst("gfx900", &[0xc3, 0x08, 0x00, 0xc4, 0x01, 0x02, 0x00, 0x00]);
    let Kind::Exp(x) = &i.kind else { panic!() };
    assert_eq!((x.target, x.en, x.done, x.compr), (12, 3, true, false));
    assert_eq!(x.sources, [Some(v(1, 1)), Some(v(2, 1)), None, None]);
}
