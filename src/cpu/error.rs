//! Why the interpreter stops: [`ExecError`] (the wave and offset, or the
//! launch as a whole) around [`OpError`] (what one operation refuses: the
//! shared refusals of `check`, `texture` and `machine`, and the interpreter's
//! own).

use crate::check::Refusal;
use crate::ir::budget;
use crate::ir::image::ImageType;
use crate::machine::LdsError;
use crate::texture::error::{FormatError, TextureError};
use crate::texture::format::NumFormat;

/// Why execution stopped early: an operation of one wave ([`ExecErrorKind::Op`],
/// with `wave` and `offset`), or a limit of the launch.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{}", self.display())]
pub struct ExecError {
    /// The wave (0 for a limit of the launch).
    pub wave: u32,
    /// Byte offset of the instruction (0 for a limit of the launch).
    pub offset: usize,
    /// What stopped it.
    pub kind: ExecErrorKind,
}

/// What stopped a run: an operation of one wave, or a limit of the launch
/// (whose error names no wave or offset: with waves running in parallel,
/// which one crosses first is not defined, and it does not matter).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ExecErrorKind {
    /// An operation failed (`wave` and `offset` name it).
    Op(OpError),
    /// The launch exceeded its work budget ([`crate::ir::budget`]).
    Budget(budget::Exceeded),
    /// [`super::Limits::interrupt`] was requested (Ctrl-C).
    Interrupted,
}

impl ExecError {
    fn display(&self) -> String {
        match &self.kind {
            ExecErrorKind::Op(e) => format!("wave {}, offset {:#x}: {e}", self.wave, self.offset),
            ExecErrorKind::Budget(e) => e.to_string(),
            ExecErrorKind::Interrupted => "interrupted".to_string(),
        }
    }

    /// The operation's error, when an operation failed.
    pub fn op(&self) -> Option<&OpError> {
        match &self.kind {
            ExecErrorKind::Op(e) => Some(e),
            _ => None,
        }
    }

    pub(super) fn budget(e: budget::Exceeded) -> ExecError {
        ExecError {
            wave: 0,
            offset: 0,
            kind: ExecErrorKind::Budget(e),
        }
    }

    pub(super) fn interrupted() -> ExecError {
        ExecError {
            wave: 0,
            offset: 0,
            kind: ExecErrorKind::Interrupted,
        }
    }
}

/// What one operation refuses.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum OpError {
    /// A refusal both back ends make ([`crate::check`]).
    #[error(transparent)]
    Refused(#[from] Refusal),
    /// The texture model refuses the resource.
    #[error(transparent)]
    Texture(#[from] TextureError),
    /// An M0 that addresses LDS in a way gcnrun refuses.
    #[error(transparent)]
    Lds(#[from] LdsError),
    /// A BVH node a lane cannot test.
    #[error("lane {lane}: {source}")]
    Bvh {
        /// The lane.
        lane: u32,
        /// What is wrong with its node.
        source: super::bvh::NodeError,
    },
    /// An Intel vISA operation the interpreter cannot execute as given.
    #[error(transparent)]
    Visa(#[from] super::visa::VisaExecError),
    /// An ALU, memory or wave operation of a whole program that the
    /// interpreter refuses (a mode or form it does not execute) or that
    /// faults (an access outside the launch's memory, a jump to no
    /// instruction); the message names what and where (`cpu::alu`,
    /// `cpu::memops`, `cpu::wave_ops`).
    #[error("{0}")]
    Program(String),
    /// An image operation the interpreter does not execute.
    #[error("`{op}` is not executed yet")]
    NotExecuted {
        /// The operation.
        op: &'static str,
    },
    /// A sampler path given an operation that is not a sampler instruction.
    #[error("`{op}` is not a sampler instruction")]
    NotSampler {
        /// The operation.
        op: &'static str,
    },
    /// A `_pck` load or store on a format without plain components.
    #[error("`{op}` on data format {data_format}: _pck forms need plain components")]
    PackedFormat {
        /// The operation.
        op: &'static str,
        /// The data format's name.
        data_format: &'static str,
    },
    /// A store to a block-compressed image.
    #[error("`{op}` on a {data_format} image: block-compressed images are read-only")]
    ReadOnlyBlock {
        /// The operation.
        op: &'static str,
        /// The data format's name.
        data_format: &'static str,
    },
    /// A texel the format model cannot read.
    #[error("unsupported format")]
    LoadFormat,
    /// A number format the format model cannot store.
    #[error("number format {num:?} cannot be stored")]
    StoreFormat {
        /// The number format.
        num: NumFormat,
    },
    /// A sampler operation whose address VGPRs are fewer than its layout reads.
    #[error("`{op}` on a {image_type:?} image needs {needed} address VGPRs, the instruction names {listed}")]
    SampleAddress {
        /// The operation.
        op: &'static str,
        /// The view's type.
        image_type: ImageType,
        /// The VGPRs the layout reads.
        needed: usize,
        /// The VGPRs the instruction names.
        listed: usize,
    },
}

impl From<FormatError> for OpError {
    fn from(e: FormatError) -> OpError {
        OpError::Texture(e.into())
    }
}
