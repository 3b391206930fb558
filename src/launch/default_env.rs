//! The embedded default environment: what a bare `.bin` runs with (README,
//! "The default environment").
//!
//! A 64×64 picture is covered by 64 waves of 64 lanes; each wave is an 8×8 tile
//! whose lanes form 2×2 quads the way a pixel shader's do
//! (lane = 16·qy + 4·qx + 2·dy + dx). Bound resources:
//!
//! | registers | holds |
//! |---|---|
//! | `s[4:11]`  | T# of `input`: 64×64 8_8_8_8 UNORM, a gradient (R = x, G = y) |
//! | `s[12:15]` | S# of a bilinear, clamp-to-edge sampler |
//! | `s[16:23]` | T# of `output`: 64×64 8_8_8_8 UNORM, zero — written to PNG by `--out` |
//! | `v0` | lane id |
//! | `v1`, `v2` | pixel x, y (u32) |
//! | `v3`, `v4` | normalised pixel centre (x + 0.5) / 64, (y + 0.5) / 64 (f32) |

use super::expr::LaneExpr;
use super::manifest::{CodeSource, ImageInit, ImageSpec, Launch, SamplerSpec, SgprInit, VgprInit};
use super::regs::RegRange;
use crate::arch::Arch;

/// Picture size of the default environment.
pub const SIZE: u32 = 64;

fn expr(text: &str) -> LaneExpr {
    // The expressions below are constants of this module; a failure is a bug here.
    LaneExpr::parse(text).unwrap_or_else(|e| panic!("default environment expression: {e}"))
}

/// The default launch for `arch`.
pub fn default_launch(arch: Arch) -> Launch {
    let image = |name: &str, init: ImageInit| ImageSpec {
        name: name.into(),
        dim: 1,
        buffer: false,
        width: SIZE,
        height: SIZE,
        depth: 1,
        layers: 1,
        mips: 1,
        samples: 1,
        data_format: 10,
        num_format: 0,
        init,
    };
    let x = "(wave % 8) * 8 + ((lane / 4) % 4) * 2 + lane % 2";
    let y = "(wave / 8) * 8 + (lane / 16) * 2 + (lane / 2) % 2";
    Launch {
        arch,
        code: CodeSource::Bytes(Vec::new()),
        waves: (SIZE / 8) * (SIZE / 8),
        wave_size: 64,
        sgpr: vec![
            (
                RegRange::Sgpr { first: 4, count: 8 },
                SgprInit::Image("input".into()),
            ),
            (
                RegRange::Sgpr {
                    first: 12,
                    count: 4,
                },
                SgprInit::Sampler("linear".into()),
            ),
            (
                RegRange::Sgpr {
                    first: 16,
                    count: 8,
                },
                SgprInit::Image("output".into()),
            ),
        ],
        vgpr: vec![
            (
                RegRange::Vgpr { first: 0, count: 1 },
                VgprInit::U32(expr("lane")),
            ),
            (
                RegRange::Vgpr { first: 1, count: 1 },
                VgprInit::U32(expr(x)),
            ),
            (
                RegRange::Vgpr { first: 2, count: 1 },
                VgprInit::U32(expr(y)),
            ),
            (
                RegRange::Vgpr { first: 3, count: 1 },
                VgprInit::F32(expr(&format!("(({x}) + 0.5) / {SIZE}.0"))),
            ),
            (
                RegRange::Vgpr { first: 4, count: 1 },
                VgprInit::F32(expr(&format!("(({y}) + 0.5) / {SIZE}.0"))),
            ),
        ],
        images: vec![
            image("input", ImageInit::Gradient),
            image("output", ImageInit::Zero),
        ],
        samplers: vec![SamplerSpec {
            name: "linear".into(),
            mag: 1,
            min: 1,
            mip: 0,
            address: [2, 2, 2],
            compare: 0,
            border: 0,
            lod_bias: 0,
            min_lod: 0,
            max_lod: 0xfff,
            max_aniso: 0,
            z_filter: 0,
            reduction: 0,
            unnormalized: false,
            force_degamma: false,
            disable_cube_wrap: false,
        }],
        buffers: Vec::new(),
        lds: Vec::new(),
        expect: Vec::new(),
        mem_cap: None,
        max_steps: None,
        draw: None,
    }
}
