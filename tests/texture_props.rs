//! Property tests of the number conversions against independent implementations:
//! the `half` crate for binary16 and plain f64 arithmetic for the norm formats.

use gcnrun::texture::convert::*;
use proptest::prelude::*;

proptest! {
    #![proptest_config(ProptestConfig::with_cases(20_000))]

    /// f32 → f16 (RNE) agrees with the `half` crate on every non-NaN input.
    #[test]
    fn f32_to_f16_matches_half(bits in any::<u32>()) {
        let x = f32::from_bits(bits);
        prop_assume!(!x.is_nan());
        prop_assert_eq!(f32_to_f16(x), half::f16::from_f32(x).to_bits());
    }

    /// f16 → f32 is exact, as the `half` crate's.
    #[test]
    fn f16_to_f32_matches_half(h in any::<u16>()) {
        let ours = f16_to_f32(h);
        let theirs = half::f16::from_bits(h).to_f32();
        prop_assert!(ours.to_bits() == theirs.to_bits() || (ours.is_nan() && theirs.is_nan()));
    }

    /// UNORM stores pick the code nearest to x * (2^n - 1) (ties to even), after
    /// clamping; checked against the exact rational comparison.
    #[test]
    fn unorm_store_is_nearest(x in -0.5f32..1.5, bits in 1u32..=16) {
        let c = f32_to_unorm(x, bits);
        let max = ((1u64 << bits) - 1) as f64;
        let target = f64::from(x).clamp(0.0, 1.0) * max;
        prop_assert!((f64::from(c) - target).abs() <= 0.5);
        prop_assert!(u64::from(c) < (1u64 << bits));
    }

    /// SNORM stores never produce the most negative code and read back within
    /// half a step.
    #[test]
    fn snorm_store_stays_in_range(x in -2.0f32..2.0, bits in 2u32..=16) {
        let c = f32_to_snorm(x, bits);
        prop_assert_ne!(c, 1u32 << (bits - 1));
        let back = snorm_to_f32(c, bits);
        let step = 1.0 / (((1u64 << (bits - 1)) - 1) as f32);
        prop_assert!((back - x.clamp(-1.0, 1.0)).abs() <= step / 2.0 + f32::EPSILON);
    }

    /// Past the largest finite uf11 (65024) plus half a step (256), IEEE
    /// round-to-nearest overflows to infinity.
    #[test]
    fn uf11_overflows_to_inf(x in 65280.0f32..1e30) {
        prop_assert_eq!(f32_to_uf11(x), 0x7c0);
    }

    /// Unsigned small floats: the encoding of x decodes to a value no farther from
    /// x than either neighbour code (round to nearest).
    #[test]
    fn uf11_is_nearest(x in 0.0f32..65280.0) {
        let v = f32_to_uf11(x);
        let got = f64::from(uf11_to_f32(v));
        let x = f64::from(x);
        for n in [v.wrapping_sub(1), v + 1] {
            if n < 0x7c0 {
                prop_assert!((got - x).abs() <= (f64::from(uf11_to_f32(n)) - x).abs());
            }
        }
    }
}

use gcnrun::texture::format::{check, load_texel, store_texel, Layout, NumFormat, DATA_FORMATS};

proptest! {
    /// For every plain or packed-float data format and every writable number format
    /// valid for it, storing what a load returned gives the texel back, except for
    /// the codes a load does not map one to one: SNORM's most negative code (reads
    /// as −1.0, stores as the code above), float NaNs (payloads may change) and
    /// 32-bit norm components (wider than an f32 significand).
    #[test]
    fn store_of_load_is_identity(fi in 0..DATA_FORMATS.len(), nfi in 0usize..5, bytes in proptest::collection::vec(any::<u8>(), 16)) {
        let df = &DATA_FORMATS[fi];
        let nf = [NumFormat::Unorm, NumFormat::Snorm, NumFormat::Uint, NumFormat::Sint, NumFormat::Float][nfi];
        prop_assume!(df.layout != Layout::Block && check(df, nf).is_ok());
        // 32-bit UNORM/SNORM codes do not fit an f32's 24-bit significand: they
        // are readable (sampling.md §3.3) but not round-trippable.
        if matches!(nf, NumFormat::Unorm | NumFormat::Snorm) {
            prop_assume!(df.comps.iter().all(|&(_, w)| w <= 24));
        }
        let texel = &bytes[..df.bytes as usize];
        let rgba = load_texel(df, nf, texel).unwrap();
        if nf == NumFormat::Float {
            prop_assume!(rgba.iter().all(|v| !f32::from_bits(*v).is_nan()));
        }
        let back = store_texel(df, nf, rgba).unwrap();
        if nf == NumFormat::Snorm {
            // Compare through a second load: equal values, whatever code was used.
            prop_assert_eq!(load_texel(df, nf, &back).unwrap(), rgba);
        } else {
            prop_assert_eq!(back.as_slice(), texel);
        }
    }
}

use gcnrun::texture::descriptor::{
    decode_image, decode_sampler, encode_image, encode_sampler, Image, ImageDesc, ImageType,
    SamplerDesc,
};
use gcnrun::Gen;

fn any_image_desc(gen9: bool) -> impl Strategy<Value = ImageDesc> {
    (
        (any::<u32>(), 0u32..256, 0u32..4096),
        (
            0usize..DATA_FORMATS.len(),
            prop::sample::select(vec![0u8, 1, 2, 3, 4, 5, 7, 9]),
        ),
        (1u32..=16384, 1u32..=16384, 1u32..=8192, 1u32..=16384),
        (0u8..16, 0u8..16, 0u8..32, 0u8..8),
        (0u32..8192, 0u32..8192, prop::array::uniform4(0usize..6)),
    )
        .prop_filter_map("valid format pair", move |(a, f, size, lv, arr)| {
            let df = &DATA_FORMATS[f.0];
            let nf = NumFormat::from_code(f.1)?;
            check(df, nf).ok()?;
            let depth = size.2;
            Some(ImageDesc {
                base_address: (u64::from(a.0) << 8) | (u64::from(a.1) << 40),
                min_lod: a.2,
                data_format: df.code,
                num_format: f.1,
                width: size.0,
                height: size.1,
                depth,
                pitch: size.3,
                dst_sel: arr.2.map(|i| [0u8, 1, 4, 5, 6, 7][i]),
                base_level: lv.0,
                last_level: lv.1,
                tiling: lv.2,
                image_type: ImageType::from_dim(lv.3)?,
                base_array: arr.0,
                // gfx9 has no LAST_ARRAY: DEPTH holds the last slice.
                last_array: if gen9 { depth - 1 } else { arr.1 },
            })
        })
}

proptest! {
    /// Decoding arbitrary dwords never panics, on any generation.
    #[test]
    fn descriptor_decode_never_panics(dw in prop::array::uniform8(any::<u32>())) {
        for gen in [Gen::Gfx6, Gen::Gfx8, Gen::Gfx9, Gen::Gfx10, Gen::Gfx11] {
            let _ = decode_image(&dw, gen);
            let _ = decode_image(&dw[..4], gen);
        }
        let _ = decode_sampler(&dw[..4]);
    }

    /// encode then decode is the identity on the model (gfx6–gfx8 layout).
    #[test]
    fn t_sharp_round_trips_gfx7(d in any_image_desc(false)) {
        let dw = encode_image(&d, Gen::Gfx7).unwrap();
        prop_assert_eq!(decode_image(&dw, Gen::Gfx7).unwrap(), Image::Bound(d));
    }

    /// encode then decode is the identity on the model (gfx9 layout).
    #[test]
    fn t_sharp_round_trips_gfx9(d in any_image_desc(true)) {
        let dw = encode_image(&d, Gen::Gfx9).unwrap();
        prop_assert_eq!(decode_image(&dw, Gen::Gfx9).unwrap(), Image::Bound(d));
    }

    /// S# fields survive encode/decode at their full widths.
    #[test]
    fn s_sharp_round_trips(
        clamp in prop::array::uniform3(0u8..8), small in prop::array::uniform8(0u8..4),
        lods in (0u16..4096, 0u16..4096, -8192i16..8192, 0u16..4096),
        flags in prop::array::uniform3(any::<bool>()), aniso in 0u8..8, compare in 0u8..8,
    ) {
        let d = SamplerDesc {
            clamp,
            max_aniso: aniso,
            compare,
            force_unnormalized: flags[0],
            force_degamma: flags[1],
            disable_cube_wrap: flags[2],
            filter_mode: small[0] % 3,
            min_lod: lods.0,
            max_lod: lods.1,
            lod_bias: lods.2,
            mag_filter: small[1],
            min_filter: small[2],
            z_filter: small[3] % 3,
            mip_filter: small[4],
            border_ptr: lods.3,
            border_type: small[5],
        };
        prop_assert_eq!(decode_sampler(&encode_sampler(&d)), d);
    }
}

use gcnrun::texture::layout::Surface;

proptest! {
    /// Arbitrary geometry never panics (all arithmetic is checked).
    #[test]
    fn layout_never_panics(g in prop::array::uniform8(any::<u32>()), c in prop::array::uniform5(any::<u32>())) {
        let s = Surface { bpe: g[0] % 17, block: g[1] & 1 == 1, width: g[2], height: g[3], depth: g[4], slices: g[5], pitch: g[6], levels: g[7] % 40 };
        let _ = s.total_bytes();
        let _ = s.texel_offset(c[0] % 40, c[1], c[2], c[3], c[4]);
    }

    /// On small surfaces every in-bounds texel gets its own bytes inside the
    /// surface: offsets are distinct and `offset + bpe <= total_bytes`.
    #[test]
    fn layout_is_injective_and_in_range(
        bpe in prop::sample::select(vec![1u32, 2, 4, 8, 16]), w in 1u32..12, h in 1u32..12,
        d in 1u32..4, slices in 1u32..4, extra_pitch in 0u32..5, levels in 1u32..5,
    ) {
        let s = Surface { bpe, block: false, width: w, height: h, depth: d, slices, pitch: w + extra_pitch, levels };
        let total = s.total_bytes().unwrap();
        let mut seen = std::collections::HashSet::new();
        for m in 0..levels {
            let (lw, lh, ld) = s.level_dims(m);
            for a in 0..slices { for z in 0..ld { for y in 0..lh { for x in 0..lw {
                let o = s.texel_offset(m, a, x, y, z).unwrap();
                prop_assert!(o + u64::from(bpe) <= total);
                prop_assert!(seen.insert(o), "two texels at {}", o);
            }}}}
        }
    }
}
