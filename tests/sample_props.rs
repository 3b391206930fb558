//! Property tests of the sampler: arbitrary descriptors, coordinates and
//! opcodes never panic (bad input is an answer), and filtered results stay
//! within the range of the texels they blend.

use gcnrun::arch::{Arch, Gen};
use gcnrun::cpu::sample;
use gcnrun::gcn::mimg::decode;
use gcnrun::gcn::mimg_ops::{BaseKind, OPS};
use gcnrun::machine::{MemAccess, Memory, WaveState};
use gcnrun::texture::descriptor::{encode_image, ImageDesc, ImageType};
use proptest::prelude::*;

/// The gfx9 MIMG words of a sampler instruction: opcode at bits 24:18, DMASK
/// 11:8, UNORM 12, TFE 16; VADDR v0, VDATA v32, T# s[4:11] (srsrc 1), S#
/// s[12:15] (ssamp 3) (research/encodings.md, MIMG gfx6–gfx9).
fn words(op: u32, dmask: u32, unorm: bool, tfe: bool) -> [u32; 2] {
    let w0 =
        0xf000_0000 | (op << 18) | (dmask << 8) | (u32::from(unorm) << 12) | (u32::from(tfe) << 16);
    let w1 = 32 << 8 | 1 << 16 | 3 << 21;
    [w0, w1]
}

fn sampler_ops(gen: Gen) -> Vec<u32> {
    OPS.iter()
        .filter(|o| {
            matches!(
                o.kind,
                BaseKind::Sample | BaseKind::Gather4 | BaseKind::GetLod
            )
        })
        .filter_map(|o| o.opcode(gen))
        .collect()
}

const TYPES: [ImageType; 6] = [
    ImageType::D1,
    ImageType::D2,
    ImageType::D3,
    ImageType::Cube,
    ImageType::D1Array,
    ImageType::D2Array,
];

proptest! {
    #![proptest_config(ProptestConfig::with_cases(600))]

    /// Any sampler opcode, a valid small T# of any type and format 32 float, a
    /// random S# and random address VGPRs (NaN, inf, huge, denormal included):
    /// execution returns Ok or an error, never panics.
    #[test]
    fn random_samples_never_panic(
        op_pick in any::<prop::sample::Index>(),
        dmask in 0u32..16,
        unorm in any::<bool>(),
        tfe in any::<bool>(),
        t in 0usize..6,
        w in 1u32..9,
        h in 1u32..9,
        levels in 1u8..4,
        ssharp in any::<[u32; 4]>(),
        vgprs in prop::collection::vec(any::<u32>(), 16),
        bytes in prop::collection::vec(any::<u8>(), 4096),
    ) {
        let arch = Arch::parse("gfx900").unwrap();
        let ops = sampler_ops(arch.gen);
        let op = ops[op_pick.index(ops.len())];
        let Ok(m) = decode(&words(op, dmask, unorm, tfe), &arch) else {
            return Ok(());
        };
        let image_type = TYPES[t];
        let layered = matches!(image_type, ImageType::Cube | ImageType::D1Array | ImageType::D2Array);
        let slices = if image_type == ImageType::Cube { 6 } else if layered { 2 } else { 1 };
        let desc = ImageDesc {
            base_address: 0x1_0000,
            min_lod: 0,
            data_format: 4,
            num_format: 7,
            width: if image_type == ImageType::Cube { h } else { w },
            height: h,
            depth: if image_type == ImageType::D3 { 2 } else { slices },
            pitch: 16,
            dst_sel: [4, 5, 6, 7],
            base_level: 0,
            last_level: levels - 1,
            tiling: 0,
            image_type,
            base_array: 0,
            last_array: slices - 1,
        };
        let tsharp = encode_image(&desc, arch.gen).unwrap();
        let mut wave = WaveState::new(0, 64, 0);
        for (i, &d) in tsharp.iter().enumerate() {
            wave.set_sgpr(4 + i as u32, d);
        }
        // Keep the S# mostly valid so that execution gets past its decode:
        // FILTER_MODE (word 0 bits 30:29) and Z_FILTER (word 2 bits 25:24) below 3,
        // MAX_ANISO_RATIO (word 0 bits 11:9) at most 4.
        let mut ssharp = ssharp;
        let field = |w: u32, lo: u32, bits: u32| (w >> lo) & ((1 << bits) - 1);
        let set = |w: u32, lo: u32, bits: u32, v: u32| (w & !(((1 << bits) - 1) << lo)) | (v << lo);
        ssharp[0] = set(ssharp[0], 29, 2, field(ssharp[0], 29, 2) % 3);
        ssharp[0] = set(ssharp[0], 9, 3, field(ssharp[0], 9, 3) % 5);
        ssharp[2] = set(ssharp[2], 24, 2, field(ssharp[2], 24, 2) % 3);
        for (i, &d) in ssharp.iter().enumerate() {
            wave.set_sgpr(12 + i as u32, d);
        }
        for lane in 0..64 {
            for (k, &v) in vgprs.iter().enumerate() {
                // Mix the lane in so quads see different coordinates.
                wave.set_vgpr(k as u32, lane, v.rotate_left(lane));
            }
        }
        let mut mem = Memory { base: 0x1_0000, bytes };
        let mem = MemAccess::Direct(&mut mem);
        let _ = sample::execute(&gcnrun::gcn::lower::image_op(&m).unwrap(), &mut wave, &mem, &arch);
    }

    /// A bilinear, trilinear or anisotropic sample of a float image never leaves
    /// the range of the image's texels (the weights are non-negative and sum to 1;
    /// every product and sum is rounded, so allow a relative 2^-20).
    #[test]
    fn filtered_values_stay_within_the_texels(
        texels in prop::collection::vec(-1000.0f32..1000.0, 16 * 2),
        s in -2.0f32..3.0,
        t in -2.0f32..3.0,
        lod in -1.0f32..3.0,
        mode in 0u32..8,
    ) {
        let arch = Arch::parse("gfx900").unwrap();
        // image_sample_l (0x24), DMASK 1.
        let m = decode(&words(0x24, 1, false, false), &arch).unwrap();
        let desc = ImageDesc {
            base_address: 0x1_0000,
            min_lod: 0,
            data_format: 4,
            num_format: 7,
            width: 4,
            height: 4,
            depth: 1,
            pitch: 16,
            dst_sel: [4, 0, 0, 1],
            base_level: 0,
            last_level: 1,
            tiling: 0,
            image_type: ImageType::D2,
            base_array: 0,
            last_array: 0,
        };
        let tsharp = encode_image(&desc, arch.gen).unwrap();
        let mut bytes = vec![0u8; 4096];
        // Level 0: 4 rows of 16-texel pitch; level 1 starts after 16 * 4 texels and
        // has a pitch of 16 (max(2, 64 / 4)) texels, 2 rows.
        for y in 0..4 {
            for x in 0..4 {
                let v = texels[y * 4 + x];
                let o = (y * 16 + x) * 4;
                bytes[o..o + 4].copy_from_slice(&v.to_le_bytes());
            }
        }
        for y in 0..2 {
            for x in 0..2 {
                let v = texels[16 + y * 2 + x];
                let o = (64 + y * 16 + x) * 4;
                bytes[o..o + 4].copy_from_slice(&v.to_le_bytes());
            }
        }
        let used: Vec<f32> = (0..16).map(|i| texels[i]).chain((16..20).map(|i| texels[i])).collect();
        let lo = used.iter().copied().fold(f32::INFINITY, f32::min);
        let hi = used.iter().copied().fold(f32::NEG_INFINITY, f32::max);
        let mut wave = WaveState::new(0, 64, 0);
        for (i, &d) in tsharp.iter().enumerate() {
            wave.set_sgpr(4 + i as u32, d);
        }
        // Bilinear, trilinear, address mode `mode` (border: transparent black, 0,
        // so widen the range by 0), MAX_LOD 15.996.
        let clamp = mode | mode << 3 | mode << 6;
        let ssharp = [clamp, 0xfff << 12, 1 << 20 | 1 << 22 | 2 << 26, 0];
        for (i, &d) in ssharp.iter().enumerate() {
            wave.set_sgpr(12 + i as u32, d);
        }
        for lane in 0..64 {
            wave.set_vgpr(0, lane, s.to_bits());
            wave.set_vgpr(1, lane, t.to_bits());
            wave.set_vgpr(2, lane, lod.to_bits());
        }
        let mut mem = Memory { base: 0x1_0000, bytes };
        let mem = MemAccess::Direct(&mut mem);
        sample::execute(&gcnrun::gcn::lower::image_op(&m).unwrap(), &mut wave, &mem, &arch).unwrap();
        let got = f32::from_bits(wave.vgpr(32, 0));
        let (lo, hi) = (lo.min(0.0), hi.max(0.0));
        let slack = 1e-5 * lo.abs().max(hi.abs());
        prop_assert!(got >= lo - slack && got <= hi + slack, "{got} not in [{lo}, {hi}]");
    }
}
