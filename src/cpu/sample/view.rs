//! A bound image and its sampler as the pipeline sees them: texel fetch from
//! memory (format conversion, sRGB, denormal flush, border colours) and the
//! footprint of one mip level (address modes, cube seams, compare, weights).
//! The stage functions live in [`crate::texture::sample`]; this module only
//! strings them together and reads memory.

use crate::machine::MemAccess;
use crate::texture::bcn;
use crate::texture::convert::srgb_to_linear;
use crate::texture::descriptor::{ImageDesc, SamplerDesc};
use crate::texture::format::{DataFormat, NumFormat, TexelDecoder};
use crate::texture::layout::Levels;
use crate::texture::sample::address::{self, Tap};
use crate::texture::sample::coord::{self, flush_denorm};
use crate::texture::sample::filter::{self, AxisTaps};
use crate::texture::sample::vaddr::Shape;
use crate::texture::sample::{compare, cube};

/// A cube-map tap past two face edges at once: no texel.
struct Corner;

/// The taps of one footprint as (value, weight): at most 2 × 2 × 2.
struct Footprint {
    taps: [([f32; 4], u32); 8],
    len: usize,
}

impl Footprint {
    /// No taps.
    const EMPTY: Footprint = Footprint {
        taps: [([0.0; 4], 0); 8],
        len: 0,
    };

    fn as_slice(&self) -> &[([f32; 4], u32)] {
        &self.taps[..self.len]
    }
}

/// Everything a lane's sample needs that is the same for the whole instruction.
pub struct View<'a> {
    /// The T#.
    pub desc: &'a ImageDesc,
    /// The S#.
    pub sampler: &'a SamplerDesc,
    /// Its linear surface's levels, worked out once per instruction.
    pub levels: Levels,
    /// Texel decoding for the data and number format, chosen once.
    pub decoder: TexelDecoder,
    /// Data format.
    pub df: &'static DataFormat,
    /// Number format.
    pub nf: NumFormat,
    /// The image shape.
    pub shape: Shape,
    /// Coordinates are normalized (neither the instruction's UNORM nor the S#'s
    /// FORCE_UNNORMALIZED is set; the two are ORed, sampling.md §5.1).
    pub normalized: bool,
    /// The border colour (X, Y, Z, W raw values), if the sampler's border type
    /// has one.
    pub border: Option<[u32; 4]>,
    /// Image memory.
    pub mem: &'a MemAccess<'a>,
}

/// How one mip level is read.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LevelRead {
    /// Level relative to the view's BASE_LEVEL.
    pub level: u32,
    /// Linear filtering across x and y (else point).
    pub linear_xy: bool,
    /// Linear filtering across z (3D).
    pub linear_z: bool,
    /// Packed `_o` offsets.
    pub offset: u32,
    /// `_c`: the depth reference (already clamped for UNORM depth) and function.
    pub compare: Option<(f32, u8)>,
}

impl View<'_> {
    /// True for UINT/SINT images, whose texels are integers: never blended.
    pub fn integer(&self) -> bool {
        self.nf.is_integer()
    }

    /// The view's last level relative to BASE_LEVEL (`q` of sampling.md §5.4).
    pub fn last_level(&self) -> u32 {
        u32::from(self.desc.last_level.saturating_sub(self.desc.base_level))
    }

    /// Size in texels of view level `level` (relative to BASE_LEVEL) along
    /// x, y, z: `max(1, size >> (BASE_LEVEL + level))`; 1D has height 1, and only
    /// 3D has a depth.
    ///
    /// WGSL twin: `level_size` in `shaders/sample.wgsl` (docs/gpu.md, "Twins").
    pub fn level_size(&self, level: u32) -> [u32; 3] {
        let m = u32::from(self.desc.base_level) + level;
        let s = |v: u32| v.checked_shr(m).unwrap_or(0).max(1);
        [
            s(self.desc.width),
            if self.shape.axes >= 2 {
                s(self.desc.height)
            } else {
                1
            },
            if self.shape.axes == 3 {
                s(self.desc.depth)
            } else {
                1
            },
        ]
    }

    /// Number of selectable slices (arrays) or cubes (cube maps) of the view.
    fn layers(&self) -> u32 {
        let slices = self.desc.last_array.saturating_sub(self.desc.base_array) + 1;
        if self.shape.cube {
            (slices / 6).max(1)
        } else {
            slices
        }
    }

    /// The raw texel (X, Y, Z, W after format conversion, before DST_SEL) at
    /// view level `level`, view slice `slice`; texels the memory does not hold
    /// read 0. A block-compressed texel is decoded from the 4×4 block holding
    /// it, the same fetch an image load makes (texture::bcn), so every sample
    /// and gather4 filters decoded texels.
    fn fetch_raw(&self, level: u32, slice: u32, x: u32, y: u32, z: u32) -> [u32; 4] {
        let bytes = self
            .texel_address(level, slice, x, y, z)
            .and_then(|a| self.mem.read(a, self.df.bytes));
        match bytes {
            // The T# decode checked the (BCn format, number format) pair
            // (format::check) and the read returned the whole block, so the
            // decode cannot fail.
            Some(b) if self.levels.surface().block => {
                bcn::load_texel(self.df.code, self.nf, &b, x, y).unwrap_or([0; 4])
            }
            Some(b) => self.decoder.decode(&b).unwrap_or([0; 4]),
            None => [0; 4],
        }
    }

    /// The address of the element holding texel (x, y, z) of view level
    /// `level`, view slice `slice`; `None` past the address space. Inlined:
    /// a plain footprint asks it for two rows whose reads wait on it.
    #[inline(always)]
    fn texel_address(&self, level: u32, slice: u32, x: u32, y: u32, z: u32) -> Option<u64> {
        let res_level = u32::from(self.desc.base_level) + level;
        let res_slice = if self.shape.layered {
            self.desc.base_array + slice
        } else {
            0
        };
        self.levels
            .element_of_texel(res_level, res_slice, x, y, z)
            .and_then(|o| o.checked_add(self.desc.base_address))
    }

    /// A texel as the filter sees it: integers as raw bits (they are never
    /// blended); float classes as f32 with denormals flushed (sampling.md §3.3)
    /// and, with the S#'s FORCE_DEGAMMA on a UNORM image, the sRGB decode of X,
    /// Y, Z (sampling.md §2.1; sRGB number formats were decoded by the format).
    #[inline(always)]
    fn texel_value(&self, raw: [u32; 4]) -> [f32; 4] {
        let degamma = self.sampler.force_degamma && self.nf == NumFormat::Unorm;
        let mut out = raw.map(f32::from_bits);
        // Integers are not floats; a decoder that never yields a denormal
        // (`TexelDecoder::never_subnormal`) leaves the flush nothing to do.
        if self.integer() || (!degamma && self.decoder.never_subnormal()) {
            return out;
        }
        for (c, v) in out.iter_mut().enumerate() {
            *v = if degamma && c < 3 {
                srgb_to_linear(*v)
            } else {
                flush_denorm(*v)
            };
        }
        out
    }

    /// The value of one footprint tap: the border colour, or a fetched texel.
    ///
    /// WGSL twin: `VIEW_tap_value` in `shaders/sample_view.wgsl` (docs/gpu.md, "Twins").
    fn tap_value(&self, tap: Option<(u32, u32, u32, u32)>, level: u32) -> [f32; 4] {
        match tap {
            Some((slice, x, y, z)) => self.texel_value(self.fetch_raw(level, slice, x, y, z)),
            // A border tap: the border colour, raw (floats as f32 bits, integers
            // as integers) — `View::border` is `Some` whenever a border mode is
            // in use (checked by the caller).
            None => self.border.unwrap_or([0; 4]).map(f32::from_bits),
        }
    }

    /// The per-axis taps at one level for the body coordinates.
    ///
    /// WGSL twin: `view_taps` in `shaders/sample.wgsl` (docs/gpu.md, "Twins").
    fn taps(
        &self,
        read: &LevelRead,
        coords: [f32; 4],
        linear_override: Option<bool>,
    ) -> [AxisTaps; 3] {
        let size = self.level_size(read.level);
        // Loops, not `std::array::from_fn`, here and in the footprint: whether
        // a closure called through `from_fn` was inlined changed with the
        // compiler's partitioning of the crate, and with it the sampler's
        // speed by a quarter.
        let mut out = [filter::single_tap(0); 3];
        for (axis, out) in out.iter_mut().enumerate().take(self.shape.axes) {
            let s = if self.shape.cube {
                cube::face_coordinate(coords[axis])
            } else {
                coords[axis]
            };
            let mode = self.clamp_mode(axis);
            let s = address::mirror_coordinate(mode, s);
            let u = address::prepare(
                mode,
                coord::texel_fixed(s, size[axis], self.normalized),
                size[axis],
            );
            let linear = linear_override.unwrap_or(if axis == 2 {
                read.linear_z
            } else {
                read.linear_xy
            });
            *out = filter::axis_taps(u, coord::texel_offset(read.offset, axis), linear);
        }
        out
    }

    /// The address mode of an axis; cube faces clamp to their edge when
    /// seamless filtering is off (sampling.md §5.7 recommendation).
    ///
    /// WGSL twin: `clamp_mode` in `shaders/sample.wgsl` (docs/gpu.md, "Twins").
    fn clamp_mode(&self, axis: usize) -> u8 {
        if self.shape.cube {
            address::mode::CLAMP_LAST_TEXEL
        } else {
            self.sampler.clamp[axis] & 7
        }
    }

    /// Slice (arrays) or (cube, face) from the body's last coordinate.
    ///
    /// WGSL twin: `view_layer` in `shaders/sample.wgsl` (docs/gpu.md, "Twins").
    fn layer(&self, coords: [f32; 4]) -> (u32, u32) {
        let last = self.layers() - 1;
        if self.shape.cube {
            let (face, cube) = cube::face_and_cube(coords[2]);
            (cube.min(last), face)
        } else if self.shape.layered {
            (coord::array_slice(coords[self.shape.axes], last), 0)
        } else {
            (0, 0)
        }
    }

    /// Resolves one cube-map tap's integer indices to (slice, x, y, 0), or
    /// `Err(Corner)` for a cube corner (no texel). Cube taps never read the
    /// border. Taps of other shapes are resolved axis by axis
    /// ([`View::axis_wraps`]).
    ///
    /// WGSL twin: `view_resolve` in `shaders/sample.wgsl` (docs/gpu.md, "Twins").
    fn resolve_cube(
        &self,
        level: u32,
        layer: (u32, u32),
        ix: [i32; 3],
    ) -> Result<(u32, u32, u32, u32), Corner> {
        let n = self.level_size(level)[0];
        let (cube_index, face) = layer;
        let inside = (0..n as i32).contains(&ix[0]) && (0..n as i32).contains(&ix[1]);
        if self.sampler.disable_cube_wrap || inside {
            let e = |i: i32| i.clamp(0, n as i32 - 1) as u32;
            return Ok((cube_index * 6 + face, e(ix[0]), e(ix[1]), 0));
        }
        match cube::seamless(face, ix[0], ix[1], n) {
            Some(t) => Ok((cube_index * 6 + t.face, t.x, t.y, 0)),
            None => Err(Corner),
        }
    }

    /// The taps of each axis of a shape other than a cube map wrapped into the
    /// level by the axis's address mode ([`address::wrap`]), `Tap::Texel(0)`
    /// for axes the shape lacks. A tap's texel is the product of its axes'
    /// wraps, the border when any axis gives the border; each axis's (at most
    /// two) indices are wrapped once per footprint rather than once per tap.
    ///
    /// WGSL twin: `view_resolve` in `shaders/sample.wgsl` (docs/gpu.md,
    /// "Twins"), which wraps a tap's axes where it resolves the tap.
    fn axis_wraps(&self, level: u32, taps: &[AxisTaps; 3]) -> [[Tap; 2]; 3] {
        let size = self.level_size(level);
        let mut out = [[Tap::Texel(0); 2]; 3];
        for (axis, out) in out.iter_mut().enumerate().take(self.shape.axes) {
            let t = &taps[axis];
            for (i, out) in out.iter_mut().enumerate().take(t.count) {
                *out = address::wrap(self.clamp_mode(axis), t.index[i], size[axis], t.count == 2);
            }
        }
        out
    }

    /// The compared value of a texel: `[r; 4]` with r = 0 or 1 (the compare
    /// result replaces every component before DST_SEL; sampling.md §5.6).
    fn compared(&self, v: [f32; 4], cmp: Option<(f32, u8)>) -> [f32; 4] {
        match cmp {
            Some((reference, f)) => [compare::depth_compare(f, reference, v[0]); 4],
            None => v,
        }
    }

    /// All taps of a footprint at one level as (value, weight), in z, y, x
    /// order, compare applied, cube corners filled with the average of the
    /// footprint's other texels (Vulkan's rule; sampling.md §7 question 13).
    ///
    /// WGSL twin: `VIEW_footprint` in `shaders/sample_view.wgsl` (docs/gpu.md, "Twins").
    /// Written into `out` (emptied first) rather than returned: the 168-byte
    /// result was copied by a call of memcpy for every sample.
    fn footprint(
        &self,
        read: &LevelRead,
        coords: [f32; 4],
        taps: [AxisTaps; 3],
        out: &mut Footprint,
    ) {
        let layer = self.layer(coords);
        out.len = 0;
        let wraps = (!self.shape.cube).then(|| self.axis_wraps(read.level, &taps));
        // Bit k: tap k is a cube corner.
        let mut corners = 0u8;
        for k in 0..taps[2].count {
            for j in 0..taps[1].count {
                for i in 0..taps[0].count {
                    let w = taps[0].weight[i] * taps[1].weight[j] * taps[2].weight[k];
                    let tap = match &wraps {
                        Some(a) => match (a[0][i], a[1][j], a[2][k]) {
                            (Tap::Texel(x), Tap::Texel(y), Tap::Texel(z)) => {
                                Ok(Some((layer.0, x, y, z)))
                            }
                            _ => Ok(None),
                        },
                        None => {
                            let ix = [taps[0].index[i], taps[1].index[j], taps[2].index[k]];
                            self.resolve_cube(read.level, layer, ix).map(Some)
                        }
                    };
                    let value = match tap {
                        Ok(t) => self.compared(self.tap_value(t, read.level), read.compare),
                        Err(Corner) => {
                            corners |= 1 << out.len;
                            [0.0; 4]
                        }
                    };
                    out.taps[out.len] = (value, w);
                    out.len += 1;
                }
            }
        }
        if corners != 0 {
            let others = || {
                out.taps[..out.len]
                    .iter()
                    .enumerate()
                    .filter(|(k, _)| corners >> k & 1 == 0)
                    .map(|(_, t)| t.0)
            };
            let n = others().count().max(1) as f32;
            let average: [f32; 4] =
                std::array::from_fn(|ch| others().fold(0.0f32, |s, v| s + v[ch]) / n);
            for k in 0..out.len {
                if corners >> k & 1 == 1 {
                    out.taps[k].0 = average;
                }
            }
        }
    }

    /// [`View::footprint`] for the common case, as straight-line code: a 2D
    /// view or 2D array (not a cube map), not block-compressed, a float
    /// class, no depth compare, a bilinear footprint whose four taps all land
    /// on texels (no border), and memory read directly. The same taps in the
    /// same order — (i0, j0), (i1, j0), (i0, j1), (i1, j1) — with the same
    /// values and weights, from the same stage functions; `None` where the
    /// case does not apply, and the general footprint runs instead.
    /// `plain_footprints_equal_the_general_ones` (tests) holds the two equal.
    ///
    /// WGSL twin: `VIEW_plain_footprint` in `shaders/sample_view.wgsl`
    /// (docs/gpu.md, "Twins"), taken for views whose every tap is a texel.
    fn plain_footprint(
        &self,
        read: &LevelRead,
        coords: [f32; 4],
        taps: &[AxisTaps; 3],
    ) -> Option<[([f32; 4], u32); 4]> {
        if self.shape.axes != 2
            || self.shape.cube
            || read.compare.is_some()
            || self.integer()
            || taps[0].count != 2
            || taps[1].count != 2
            || self.levels.surface().block
        {
            return None;
        }
        let mem = self.mem.direct()?;
        let size = self.level_size(read.level);
        let wrap = |axis: usize, i: usize| match address::wrap(
            self.clamp_mode(axis),
            taps[axis].index[i],
            size[axis],
            true,
        ) {
            Tap::Texel(t) => Some(t),
            Tap::Border => None,
        };
        let (x0, x1, y0, y1) = (wrap(0, 0)?, wrap(0, 1)?, wrap(1, 0)?, wrap(1, 1)?);
        let slice = self.layer(coords).0;
        // Each row's address once, a texel's x from it: the wrapped x lies
        // inside the level, where the element of (x, y) is x elements past
        // that of (0, y) (`Levels::texel_offset`). The texels of a row with
        // no address (past the levels or the address space) read 0, as there.
        let row = |y: u32| self.texel_address(read.level, slice, 0, y, 0);
        let (row0, row1) = (row(y0), row(y1));
        let texel = |row: Option<u64>, x: u32| self.plain_texel(mem, row, x);
        // The 2D footprint's z axis is `filter::single_tap(0)`: weight ONE.
        let w = |i: usize, j: usize| taps[0].weight[i] * taps[1].weight[j] * taps[2].weight[0];
        Some([
            (texel(row0, x0), w(0, 0)),
            (texel(row0, x1), w(1, 0)),
            (texel(row1, x0), w(0, 1)),
            (texel(row1, x1), w(1, 1)),
        ])
    }

    /// A plain footprint's texel `x` of the row at `row` (0 where there is
    /// none, as in [`View::fetch_raw`]). Inlined into the footprint: as a
    /// call its result went through memory and stalled the footprint's copy
    /// of it.
    #[inline(always)]
    fn plain_texel(&self, mem: &crate::machine::Memory, row: Option<u64>, x: u32) -> [f32; 4] {
        let bytes = self.df.bytes;
        let raw = row
            .and_then(|r| r.checked_add(u64::from(x) * u64::from(bytes)))
            .and_then(|a| mem.read(a, bytes))
            .and_then(|b| self.decoder.decode(b))
            .unwrap_or([0; 4]);
        self.texel_value(raw)
    }

    /// One level's filtered value (float classes) or nearest texel (integers),
    /// as raw bits X, Y, Z, W before DST_SEL.
    ///
    /// WGSL twin: `VIEW_sample_level` in `shaders/sample_view.wgsl` (docs/gpu.md, "Twins").
    pub fn sample_level(&self, read: &LevelRead, coords: [f32; 4]) -> [f32; 4] {
        self.sample_level_via(read, coords, true)
    }

    /// [`View::sample_level`], through the plain footprint where it applies
    /// when `plain` is set, else always through the general one.
    fn sample_level_via(&self, read: &LevelRead, coords: [f32; 4], plain: bool) -> [f32; 4] {
        let taps = self.taps(read, coords, None);
        if plain {
            if let Some(fp) = self.plain_footprint(read, coords, &taps) {
                return self.blend(&fp);
            }
        }
        let mut fp = Footprint::EMPTY;
        self.footprint(read, coords, taps, &mut fp);
        let fp = fp.as_slice();
        if self.integer() && read.compare.is_none() {
            // Integer images are point-sampled: one tap (sampling.md §5.1).
            return fp.first().map(|t| t.0).unwrap_or([0.0; 4]);
        }
        self.blend(fp)
    }

    /// The filter's combination of a footprint's taps of non-zero weight.
    #[inline(always)]
    fn blend(&self, fp: &[([f32; 4], u32)]) -> [f32; 4] {
        // Usually every tap weighs something: combined as they are, without
        // the copy.
        if fp.iter().all(|t| t.1 != 0) {
            return filter::combine(fp, self.sampler.filter_mode);
        }
        let mut weighted = [([0.0; 4], 0); 8];
        let mut n = 0;
        for &t in fp.iter().filter(|t| t.1 != 0) {
            weighted[n] = t;
            n += 1;
        }
        filter::combine(&weighted[..n], self.sampler.filter_mode)
    }

    /// The four texels of the bilinear footprint of one level, in gather4
    /// order (i0, j1), (i1, j1), (i1, j0), (i0, j0) — "starting at the
    /// lower-left texel, counter-clockwise" (CLRX IMAGE_GATHER4; RDNA3 ISA;
    /// sampling.md §5.8). `point_footprint` is the gfx6–gfx8 integer-format
    /// quirk: the footprint starts at floor(u), not floor(u − ½) (Mesa
    /// `lower_gather4_integer`; sampling.md §5.1).
    ///
    /// WGSL twin: `VIEW_gather_level` in `shaders/sample_view.wgsl` (docs/gpu.md, "Twins").
    pub fn gather_level(
        &self,
        read: &LevelRead,
        coords: [f32; 4],
        point_footprint: bool,
    ) -> [[f32; 4]; 4] {
        let mut taps = self.taps(read, coords, Some(true));
        if point_footprint {
            // Shift every linear axis back by half a texel: q = u, not u − ½.
            let again = self.taps(read, coords, Some(false));
            for axis in 0..self.shape.axes.min(2) {
                taps[axis].index = [again[axis].index[0], again[axis].index[0] + 1];
            }
        }
        // z (3D) and the missing y of 1D images: one tap; for 1D both rows are row 0.
        if self.shape.axes < 3 {
            taps[2] = filter::single_tap(0);
        } else {
            let z = self.taps(read, coords, Some(false))[2];
            taps[2] = z;
        }
        if self.shape.axes == 1 {
            taps[1] = AxisTaps {
                index: [0, 0],
                weight: [128, 128],
                count: 2,
            };
        }
        let mut fp = Footprint::EMPTY;
        self.footprint(read, coords, taps, &mut fp);
        let fp = fp.as_slice();
        // footprint order: (i0,j0), (i1,j0), (i0,j1), (i1,j1).
        let at = |k: usize| fp.get(k).map(|t| t.0).unwrap_or([0.0; 4]);
        [at(2), at(3), at(1), at(0)]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::image::ImageType;
    use crate::machine::Memory;
    use crate::texture::descriptor::decode_sampler;
    use crate::texture::format::{check, DATA_FORMATS};
    use crate::texture::resource::surface_of;

    /// The plain footprint is a specialisation, not a second rule: over random
    /// 2D and 2D-array views (every non-block data format with each number
    /// format it takes, random samplers — address modes, border types, min/max
    /// reductions, FORCE_DEGAMMA — levels, slices, offsets and coordinates in
    /// and out of the image), sampling through it gives the general
    /// footprint's bits. Counts that it was taken, so that the test cannot
    /// pass by never reaching it.
    #[test]
    fn plain_footprints_equal_the_general_ones() {
        let mut seed = 0x9e37_79b9_u32;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 17;
            seed ^= seed << 5;
            seed
        };
        let bytes: Vec<u8> = (0..1 << 16).map(|_| next() as u8).collect();
        let memory = Memory { base: 0, bytes };
        let mem = MemAccess::ReadOnly(&memory);
        let nfs = [
            NumFormat::Unorm,
            NumFormat::Snorm,
            NumFormat::Uscaled,
            NumFormat::Sscaled,
            NumFormat::Uint,
            NumFormat::Float,
            NumFormat::Srgb,
        ];
        let (mut plain, mut cases) = (0, 0);
        for df in DATA_FORMATS
            .iter()
            .filter(|d| d.layout != crate::texture::format::Layout::Block)
        {
            for &nf in nfs.iter().filter(|&&nf| check(df, nf).is_ok()) {
                for _ in 0..40 {
                    let array = next() % 2 == 0;
                    let (width, height) = (1 + next() % 24, 1 + next() % 24);
                    let desc = ImageDesc {
                        base_address: u64::from(next() % 256) * 4,
                        min_lod: 0,
                        data_format: df.code,
                        num_format: 0,
                        width,
                        height,
                        depth: 1,
                        pitch: width + next() % 4,
                        dst_sel: [4, 5, 6, 7],
                        base_level: (next() % 2) as u8,
                        last_level: (next() % 4) as u8,
                        tiling: 0,
                        image_type: if array {
                            ImageType::D2Array
                        } else {
                            ImageType::D2
                        },
                        base_array: next() % 2,
                        last_array: 2 + next() % 2,
                    };
                    let Ok(surface) = surface_of(&desc) else {
                        continue;
                    };
                    let mut sampler = decode_sampler(&[next(), next(), next(), next()]);
                    if next() % 2 == 0 {
                        // Half the samplers in the modes without a border.
                        for mode in &mut sampler.clamp {
                            *mode %= 4;
                        }
                    }
                    let view = View {
                        desc: &desc,
                        sampler: &sampler,
                        levels: crate::texture::layout::Levels::of(&surface),
                        decoder: TexelDecoder::new(df, nf),
                        df,
                        nf,
                        shape: Shape::of(desc.image_type).unwrap(),
                        normalized: next() % 4 != 0,
                        border: address::border_color(sampler.border_type, nf.is_integer()),
                        mem: &mem,
                    };
                    for _ in 0..8 {
                        let coord = |n: &mut dyn FnMut() -> u32| (n() % 4000) as f32 / 1000.0 - 1.5;
                        let coords = [coord(&mut next), coord(&mut next), (next() % 4) as f32, 0.0];
                        let read = LevelRead {
                            level: next() % 3,
                            linear_xy: next() % 8 != 0,
                            linear_z: false,
                            offset: if next() % 2 == 0 { 0 } else { next() },
                            compare: None,
                        };
                        let taps = view.taps(&read, coords, None);
                        plain += usize::from(view.plain_footprint(&read, coords, &taps).is_some());
                        cases += 1;
                        let want = view
                            .sample_level_via(&read, coords, false)
                            .map(f32::to_bits);
                        let got = view.sample_level_via(&read, coords, true).map(f32::to_bits);
                        assert_eq!(
                            got, want,
                            "{df:?} {nf:?} {desc:?} {sampler:?} {read:?} {coords:?}"
                        );
                    }
                }
            }
        }
        assert!(
            plain * 3 > cases,
            "the plain footprint took {plain} of {cases} samples"
        );
    }
}
