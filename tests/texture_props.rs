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

/// `|f * m - c|` scaled by `2^-e_min`, exactly: `f = sig * 2^e` with `e >= e_min`.
fn scaled_distance(f: f32, c: u64, m: u64, e_min: i32) -> u128 {
    let (sig, e) = parts(f);
    let a = (u128::from(sig) * u128::from(m)) << (e - e_min);
    let b = u128::from(c) << (-e_min);
    a.abs_diff(b)
}

/// A positive finite f32 as `(significand, exponent)`.
fn parts(f: f32) -> (u32, i32) {
    let b = f.to_bits();
    let (e, m) = ((b >> 23) & 0xff, b & 0x7f_ffff);
    if e == 0 {
        (m, -149)
    } else {
        (m | 0x80_0000, e as i32 - 150)
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(20_000))]

    /// UNORM loads up to 24 bits equal the f64 route of sampling.md §3.3 (divide
    /// in f64, round once: no double rounding is possible below 25 bits).
    #[test]
    fn unorm_load_matches_f64(bits in 1u32..=24, c in any::<u32>()) {
        let c = c & ((1u32 << bits) - 1);
        let want = (f64::from(c) / ((1u64 << bits) - 1) as f64) as f32;
        prop_assert_eq!(unorm_to_f32(c, bits).to_bits(), want.to_bits());
    }

    /// 32-bit UNORM loads are the f32 nearest to c / (2^32 - 1), checked with
    /// exact integer arithmetic against both neighbours.
    #[test]
    fn unorm32_load_is_nearest(c in 1u32..) {
        let m = u64::from(u32::MAX);
        let f = unorm_to_f32(c, 32);
        let (lo, hi) = (f32::from_bits(f.to_bits() - 1), f32::from_bits(f.to_bits() + 1));
        let e_min = parts(lo).1.min(parts(f).1) - 1;
        let d = scaled_distance(f, c.into(), m, e_min);
        prop_assert!(d <= scaled_distance(lo, c.into(), m, e_min));
        if f < 1.0 {
            prop_assert!(d <= scaled_distance(hi, c.into(), m, e_min));
        }
    }

    /// SNORM loads up to 24 bits equal the f64 route, clamped to -1.
    #[test]
    fn snorm_load_matches_f64(bits in 2u32..=24, c in any::<u32>()) {
        let c = c & ((1u32 << bits) - 1);
        let s = sign_extend(c, bits);
        let want = (f64::from(s) / ((1u64 << (bits - 1)) - 1) as f64).max(-1.0) as f32;
        prop_assert_eq!(snorm_to_f32(c, bits).to_bits(), want.to_bits());
    }

    /// UNORM stores of every width pick the code nearest to x * (2^n - 1): the
    /// distance, in exact arithmetic, is at most one half.
    #[test]
    fn unorm_store_is_exactly_nearest(x in 1e-6f32..1.0, bits in 1u32..=32) {
        let m = (1u64 << bits) - 1;
        let c = f32_to_unorm(x, bits);
        let (sig, e) = parts(x);
        // |c - sig * m * 2^e| <= 1/2  <=>  |c * 2^-e - sig * m| <= 2^(-e-1).
        let exact = u128::from(sig) * u128::from(m);
        let code = u128::from(c) << -e;
        prop_assert!(code.abs_diff(exact) <= 1u128 << (-e - 1), "x {} bits {} -> {}", x, bits, c);
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
        // unpack(pack(v)) == v for every value a load can return.
        prop_assert_eq!(load_texel(df, nf, &back).unwrap(), rgba);
        if nf == NumFormat::Snorm {
            // Compare through a second load: equal values, whatever code was used.
            prop_assert_eq!(load_texel(df, nf, &back).unwrap(), rgba);
        } else {
            prop_assert_eq!(back.as_slice(), texel);
        }
    }
}

use gcnrun::texture::descriptor::{
    decode_image, decode_sampler, decode_sampler_checked, decode_sampler_for, encode_image,
    encode_sampler, encode_sampler_for, Image, ImageDesc, ImageType, SamplerDesc,
};
use gcnrun::texture::format::{combined_code, combined_format, GFX10_FORMATS, GFX11_FORMATS};
use gcnrun::Gen;

/// Every (data format, number format) pair a generation's T# can carry: on
/// gfx6–gfx9 the pairs `check` accepts, on gfx10 and gfx11 their FORMAT tables.
fn format_pairs(gen: Gen) -> Vec<(u8, u8)> {
    if let Some(table) = combined_table(gen) {
        table
            .iter()
            .flat_map(|r| (0..r.nums.len()).map(move |i| r.first + i as u16))
            .filter_map(|code| combined_format(table, code))
            .map(|(df, nf)| (df.code, nf.code()))
            .collect()
    } else {
        let nfs = [0u8, 1, 2, 3, 4, 5, 7, 9];
        DATA_FORMATS
            .iter()
            .flat_map(|df| nfs.iter().map(move |&n| (df, n)))
            .filter(|(df, n)| check(df, NumFormat::from_code(*n).unwrap()).is_ok())
            .map(|(df, n)| (df.code, n))
            .collect()
    }
}

/// The combined FORMAT table of gfx10+, none before.
fn combined_table(gen: Gen) -> Option<&'static [gcnrun::texture::format::Gfx10Run]> {
    match gen {
        Gen::Gfx10 => Some(GFX10_FORMATS),
        Gen::Gfx11 => Some(GFX11_FORMATS),
        _ => None,
    }
}

/// Valid image models for `gen`'s layout: sizes within the fields, BASE_LEVEL at
/// most LAST_LEVEL (MSAA aside), BASE_ARRAY at most the last slice of layered
/// views; on gfx9+ the last slice is DEPTH's (depth − 1), on gfx10 the pitch is
/// the width.
fn any_image_desc(gen: Gen) -> impl Strategy<Value = ImageDesc> {
    let pairs = format_pairs(gen);
    let gfx6_8 = gen <= Gen::Gfx8;
    (
        (any::<u32>(), 0u32..256, 0u32..4096),
        prop::sample::select(pairs),
        (1u32..=16384, 1u32..=16384, 1u32..=8192, 1u32..=16384),
        (0u8..16, 0u8..16, 0u8..32, 0u8..8),
        (0u32..8192, 0u32..8192, prop::array::uniform4(0usize..6)),
    )
        .prop_filter_map("valid ranges", move |(a, f, size, lv, arr)| {
            let image_type = ImageType::from_index(usize::from(lv.3))?;
            let depth = size.2;
            let last_array = if gfx6_8 { arr.1 } else { depth - 1 };
            let d = ImageDesc {
                base_address: (u64::from(a.0) << 8) | (u64::from(a.1) << 40),
                min_lod: a.2,
                data_format: f.0,
                num_format: f.1,
                width: size.0,
                height: size.1,
                depth,
                pitch: if gen >= Gen::Gfx10 { size.0 } else { size.3 },
                dst_sel: arr.2.map(|i| [0u8, 1, 4, 5, 6, 7][i]),
                base_level: lv.0,
                last_level: lv.1,
                tiling: lv.2,
                image_type,
                base_array: arr.0,
                last_array,
            };
            let levels_ok = image_type.is_msaa() || d.base_level <= d.last_level;
            let slices_ok = !image_type.is_layered() || d.base_array <= d.last_array;
            (levels_ok && slices_ok).then_some(d)
        })
}

proptest! {
    /// Decoding arbitrary dwords never panics, on any generation, and whatever
    /// decodes to a bound image is a model its generation can encode again, to
    /// the same model (decode ∘ encode ∘ decode = decode).
    #[test]
    fn descriptor_decode_never_panics(dw in prop::array::uniform8(any::<u32>())) {
        for gen in [Gen::Gfx6, Gen::Gfx8, Gen::Gfx9, Gen::Gfx10, Gen::Gfx11] {
            let _ = decode_image(&dw[..4], gen);
            let _ = decode_sampler_checked(&dw[..4], gen);
            if let Ok(Image::Bound(d)) = decode_image(&dw, gen) {
                let again = encode_image(&d, gen).unwrap();
                prop_assert_eq!(decode_image(&again, gen).unwrap(), Image::Bound(d));
            }
        }
        let _ = decode_sampler(&dw[..4]);
    }

    /// Random T#s with a valid TYPE and a supported format mostly decode (the
    /// dword-level test above rarely reaches `Bound` on its own).
    #[test]
    fn plausible_t_sharps_round_trip(
        dw in prop::array::uniform8(any::<u32>()), pair in 0usize..64, ty in 8u32..16,
    ) {
        for gen in [Gen::Gfx7, Gen::Gfx9, Gen::Gfx10, Gen::Gfx11] {
            let pairs = format_pairs(gen);
            let (dfmt, nfmt) = pairs[pair % pairs.len()];
            let mut dw = dw;
            // TYPE at W3[31:28]; the format fields (gfx6-9: W1[25:20], [29:26];
            // gfx10: W1[28:20] + RESOURCE_LEVEL W2[31]; gfx11: W1[27:20]); DST_SEL
            // codes 2 and 3 turned into 6 and 7.
            dw[3] = (dw[3] & 0x0fff_ffff) | (ty << 28);
            for c in 0..4 {
                if (dw[3] >> (3 * c + 1)) & 3 == 1 {
                    dw[3] |= 4 << (3 * c);
                }
            }
            if let Some(table) = combined_table(gen) {
                let code = combined_code(table, dfmt, NumFormat::from_code(nfmt).unwrap()).unwrap();
                let mask = if gen == Gen::Gfx10 { 0x1ff } else { 0xff };
                dw[1] = (dw[1] & !(mask << 20)) | (u32::from(code) << 20);
                if gen == Gen::Gfx10 {
                    dw[2] |= 1 << 31;
                }
            } else {
                dw[1] = (dw[1] & !(0x3ff << 20)) | (u32::from(dfmt) << 20) | (u32::from(nfmt) << 26);
            }
            match decode_image(&dw, gen) {
                Ok(Image::Bound(d)) => {
                    prop_assert_eq!((d.data_format, d.num_format), (dfmt, nfmt));
                    let again = encode_image(&d, gen).unwrap();
                    prop_assert_eq!(decode_image(&again, gen).unwrap(), Image::Bound(d));
                }
                Ok(other) => prop_assert!(false, "{:?}", other),
                // Only the range rules may refuse these dwords, by name.
                Err(e) => prop_assert!(
                    matches!(
                        e,
                        gcnrun::texture::DescriptorError::BaseLevel { .. }
                            | gcnrun::texture::DescriptorError::BaseArray { .. }
                    ),
                    "{}",
                    e
                ),
            }
        }
    }

    /// encode then decode is the identity on the model (gfx6–gfx8 layout).
    #[test]
    fn t_sharp_round_trips_gfx7(d in any_image_desc(Gen::Gfx7)) {
        let dw = encode_image(&d, Gen::Gfx7).unwrap();
        prop_assert_eq!(decode_image(&dw, Gen::Gfx7).unwrap(), Image::Bound(d));
    }

    /// encode then decode is the identity on the model (gfx9 layout).
    #[test]
    fn t_sharp_round_trips_gfx9(d in any_image_desc(Gen::Gfx9)) {
        let dw = encode_image(&d, Gen::Gfx9).unwrap();
        prop_assert_eq!(decode_image(&dw, Gen::Gfx9).unwrap(), Image::Bound(d));
    }

    /// encode then decode is the identity on the model (gfx10 layout, combined
    /// FORMAT and split WIDTH).
    #[test]
    fn t_sharp_round_trips_gfx10(d in any_image_desc(Gen::Gfx10)) {
        let dw = encode_image(&d, Gen::Gfx10).unwrap();
        prop_assert_eq!(decode_image(&dw, Gen::Gfx10).unwrap(), Image::Bound(d));
    }

    /// encode then decode is the identity on the model (gfx11 layout: 8-bit
    /// renumbered FORMAT, MIN_LOD split over W5/W6, no RESOURCE_LEVEL).
    #[test]
    fn t_sharp_round_trips_gfx11(d in any_image_desc(Gen::Gfx11)) {
        let dw = encode_image(&d, Gen::Gfx11).unwrap();
        prop_assert_eq!(decode_image(&dw, Gen::Gfx11).unwrap(), Image::Bound(d));
    }

    /// S# fields survive encode/decode at their full widths; the checked decoder
    /// accepts exactly the non-reserved values.
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
            filter_mode: small[0],
            min_lod: lods.0,
            max_lod: lods.1,
            lod_bias: lods.2,
            mag_filter: small[1],
            min_filter: small[2],
            z_filter: small[3],
            mip_filter: small[4],
            border_ptr: lods.3,
            border_type: small[5],
        };
        let dw = encode_sampler(&d);
        prop_assert_eq!(decode_sampler(&dw), d);
        // gfx11 layout (border pointer at W3[29:18]): its own round trip.
        let dw11 = encode_sampler_for(&d, Gen::Gfx11);
        prop_assert_eq!(decode_sampler_for(&dw11, Gen::Gfx11), d);
        let reserved = d.filter_mode == 3 || d.max_aniso > 4 || d.z_filter == 3;
        prop_assert_eq!(decode_sampler_checked(&dw, Gen::Gfx9).is_ok(), !reserved);
        prop_assert_eq!(
            decode_sampler_checked(&dw, Gen::Gfx7).is_ok(),
            !reserved && d.mip_filter != 3
        );
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

use gcnrun::texture::swizzle::{apply_dst_sel, dst_sel_from_codes, DstSel};

proptest! {
    /// DST_SEL: codes 4..7 pick the texel's components, so the identity (4, 5, 6,
    /// 7) returns the texel and a selector built from a permutation permutes it;
    /// SEL_0/SEL_1 ignore the texel; the reserved codes 2 and 3 are errors.
    #[test]
    fn dst_sel_selects(texel in prop::array::uniform4(any::<u32>()), codes in prop::array::uniform4(0u8..8), nfi in 0usize..8) {
        let nf = [NumFormat::Unorm, NumFormat::Snorm, NumFormat::Uscaled, NumFormat::Sscaled,
                  NumFormat::Uint, NumFormat::Sint, NumFormat::Float, NumFormat::Srgb][nfi];
        let identity = dst_sel_from_codes([4, 5, 6, 7]).unwrap();
        prop_assert_eq!(apply_dst_sel(texel, identity, nf), texel);
        match dst_sel_from_codes(codes) {
            Ok(sel) => {
                let out = apply_dst_sel(texel, sel, nf);
                for i in 0..4 {
                    let want = match codes[i] {
                        0 => 0,
                        1 => if nf.is_integer() { 1 } else { 0x3f80_0000 },
                        c => texel[usize::from(c - 4)],
                    };
                    prop_assert_eq!(out[i], want);
                    prop_assert_eq!(sel[i].code(), codes[i]);
                }
            }
            Err(e) => {
                let reserved = matches!(e, gcnrun::texture::DescriptorError::Reserved { .. });
                prop_assert!(codes.iter().any(|&c| c == 2 || c == 3) && reserved, "{}", e)
            }
        }
        prop_assert_eq!(DstSel::from_code(codes[0]).is_some(), codes[0] != 2 && codes[0] != 3);
    }
}
