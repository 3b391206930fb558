//! The address layout of samples, gathers and get_lod (`texture::sample::vaddr`) for
//! AMD opcodes: dword counts and operand order, 32-bit and with A16/G16.

use gcnrun::arch::Gen;
use gcnrun::gcn::lower::gradients_16;
use gcnrun::gcn::mimg_ops::by_name;
use gcnrun::texture::descriptor::ImageType;
use gcnrun::texture::sample::vaddr::{half_input, Layout, Part, Role, Shape};

fn layout(name: &str, t: ImageType) -> Layout {
    Layout::new(by_name(name).unwrap(), Shape::of(t).unwrap())
}

/// Address counts from CLRX's VADDR ranges (2D: `image_sample_c_d_cl_o`
/// VADDR(6:13) = offset, compare, 4 derivatives, s, t, clamp = 9 for 2D).
#[test]
fn dword_counts() {
    assert_eq!(layout("image_sample", ImageType::D2).dwords(), 2);
    assert_eq!(layout("image_sample_lz", ImageType::D1).dwords(), 1);
    assert_eq!(layout("image_sample_c_d_cl_o", ImageType::D2).dwords(), 9);
    assert_eq!(layout("image_sample_d", ImageType::D3).dwords(), 9);
    assert_eq!(layout("image_sample_cd_cl", ImageType::Cube).dwords(), 8);
    assert_eq!(
        layout("image_gather4_c_b_cl_o", ImageType::D2Array).dwords(),
        7
    );
    assert_eq!(layout("image_get_lod", ImageType::D2).dwords(), 2);
}

#[test]
fn operands_in_order() {
    // image_sample_c_b_o on 2D: offset, bias, reference, s, t.
    let l = layout("image_sample_c_b_o", ImageType::D2);
    let words = [
        0x3f,
        2.0f32.to_bits(),
        0.5f32.to_bits(),
        0.25f32.to_bits(),
        0.75f32.to_bits(),
    ];
    let o = l.read(|k| words[k]);
    assert_eq!(o.offset, 0x3f);
    assert_eq!((o.bias, o.reference), (2.0, 0.5));
    assert_eq!(o.coords, [0.25, 0.75, 0.0, 0.0]);
    // image_sample_d_cl on 3D: dx/dh, dy/dh, dz/dh, dx/dv, dy/dv, dz/dv, s, t, r, clamp.
    let l = layout("image_sample_d_cl", ImageType::D3);
    let o = l.read(|k| (k as f32 + 1.0).to_bits());
    assert_eq!(o.ddx, [1.0, 2.0, 3.0]);
    assert_eq!(o.ddy, [4.0, 5.0, 6.0]);
    assert_eq!(o.coords, [7.0, 8.0, 9.0, 0.0]);
    assert_eq!(o.trailing, 10.0);
}

fn layout16(name: &str, t: ImageType, a16: bool, gen: Gen) -> Layout {
    let op = by_name(name).unwrap();
    Layout {
        a16,
        g16: op.gradients() && gradients_16(op.flags, a16, gen),
        ..Layout::new(op, Shape::of(t).unwrap())
    }
}

/// A16/G16 address counts, each the count llvm-mc-19 accepts for gfx1030
/// (`image address size does not match dim and a16` otherwise; the full
/// sweep is tests/sample_a16.rs), and gfx9's gradients that follow A16.
#[test]
fn dword_counts_16bit() {
    use ImageType::*;
    let g10 = Gen::Gfx10;
    // offset, bias (f16 alone), compare, (s, t).
    assert_eq!(layout16("image_sample_c_b_o", D2, true, g10).dwords(), 4);
    // (s, t), (slice, lod); 1D: (s, lod).
    assert_eq!(layout16("image_sample_l", D2Array, true, g10).dwords(), 2);
    assert_eq!(layout16("image_sample_l", D1, true, g10).dwords(), 1);
    // gfx10 A16 alone: 4 f32 derivatives + (s, t).
    assert_eq!(layout16("image_sample_d", D2, true, g10).dwords(), 5);
    assert_eq!(layout16("image_sample_d_cl", D3, true, g10).dwords(), 8);
    // _g16: 2D (dx, dy/dh), (dx, dy/dv); 1D and 3D pad each group.
    assert_eq!(layout16("image_sample_d_g16", D2, false, g10).dwords(), 4);
    assert_eq!(layout16("image_sample_d_g16", D2, true, g10).dwords(), 3);
    assert_eq!(layout16("image_sample_d_g16", D1, false, g10).dwords(), 3);
    assert_eq!(layout16("image_sample_d_g16", D1, true, g10).dwords(), 3);
    assert_eq!(layout16("image_sample_d_g16", D3, false, g10).dwords(), 7);
    assert_eq!(layout16("image_sample_d_g16", D3, true, g10).dwords(), 6);
    // gfx9: A16 packs the derivatives too.
    assert_eq!(layout16("image_sample_d", D3, true, Gen::Gfx9).dwords(), 6);
    assert_eq!(layout16("image_sample_cd", D1, true, Gen::Gfx9).dwords(), 3);
    assert_eq!(layout16("image_sample_d", D2, false, Gen::Gfx9).dwords(), 6);
    // Cube: (s', t'), (face, lod).
    assert_eq!(layout16("image_gather4_l", Cube, true, g10).dwords(), 2);
}

#[test]
fn a16_operands_in_order() {
    // image_sample_c_b_cl_o on a 2D array, A16: offset (32), bias (f16 in
    // the low half; the high half is padding), reference (32), (s, t),
    // (slice, clamp).
    let l = layout16("image_sample_c_b_cl_o", ImageType::D2Array, true, Gen::Gfx9);
    let words = [
        0x0001_0203,
        0xdead_4000, // 2.0
        0.25f32.to_bits(),
        0x3a00_3400, // s = 0.25, t = 0.75
        0x3c00_4200, // slice 3.0, clamp 1.0
    ];
    let o = l.read(|k| words[k]);
    assert_eq!(o.offset, 0x0001_0203);
    assert_eq!((o.bias, o.reference), (2.0, 0.25));
    assert_eq!(o.coords, [0.25, 0.75, 3.0, 0.0]);
    assert_eq!(o.trailing, 1.0);
    // image_sample_d_g16 on 3D, A16 off: (dx, dy/dh), (dz/dh), (dx, dy/dv),
    // (dz/dv), then s, t, r 32-bit.
    let l = layout16("image_sample_d_g16", ImageType::D3, false, Gen::Gfx10);
    let slots = l.slots();
    assert_eq!(
        slots[..6]
            .iter()
            .map(|s| (s.role, s.dword, s.part))
            .collect::<Vec<_>>(),
        [
            (Role::Ddx(0), 0, Part::Low),
            (Role::Ddx(1), 0, Part::High),
            (Role::Ddx(2), 1, Part::Low),
            (Role::Ddy(0), 2, Part::Low),
            (Role::Ddy(1), 2, Part::High),
            (Role::Ddy(2), 3, Part::Low),
        ]
    );
    let words = [
        0x4000_3c00, // 1, 2
        0xffff_4200, // 3, padding
        0x4400_3800, // 0.5, 4
        0x0000_b800, // -0.5
        0.5f32.to_bits(),
        0.25f32.to_bits(),
        0.125f32.to_bits(),
    ];
    let o = l.read(|k| words[k]);
    assert_eq!(o.ddx, [1.0, 2.0, 3.0]);
    assert_eq!(o.ddy, [0.5, 4.0, -0.5]);
    assert_eq!(o.coords, [0.5, 0.25, 0.125, 0.0]);
}

/// f16 operands convert exactly; f16 denormals flush to a signed zero.
#[test]
fn half_inputs() {
    assert_eq!(half_input(0x3c00), 1.0);
    assert_eq!(half_input(0x3555), 0.333_251_95); // 1365/4096
    assert_eq!(half_input(0x7bff), 65504.0);
    assert_eq!(half_input(0x0400), 2f32.powi(-14)); // smallest normal
    assert_eq!(half_input(0x0001).to_bits(), 0);
    assert_eq!(half_input(0x83ff).to_bits(), 0x8000_0000);
    assert_eq!(half_input(0xfc00), f32::NEG_INFINITY);
    assert!(half_input(0x7e00).is_nan());
}
