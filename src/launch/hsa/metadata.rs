//! The AMDGPU metadata note of code objects V3–V5: a MessagePack map read
//! with `rmp-serde` (LLVM AMDGPUUsage, "Code Object V3 Metadata" … "Code
//! Object V5 Metadata"). Only the keys a launch needs are read; unknown keys
//! are ignored, as the runtime ignores them.

use serde::Deserialize;

/// The whole note.
#[derive(Clone, Debug, Deserialize)]
pub struct Metadata {
    /// `amdhsa.version`: `[1, 0]` is code object V3, `[1, 1]` V4, `[1, 2]` V5 (and V6).
    #[serde(rename = "amdhsa.version", default)]
    pub version: Vec<u64>,
    /// `amdhsa.target`, e.g. `amdgcn-amd-amdhsa--gfx900`.
    #[serde(rename = "amdhsa.target", default)]
    pub target: Option<String>,
    /// `amdhsa.kernels`.
    #[serde(rename = "amdhsa.kernels", default)]
    pub kernels: Vec<KernelMeta>,
}

/// One kernel's metadata map.
#[derive(Clone, Debug, Deserialize)]
pub struct KernelMeta {
    /// `.name`: the source-level name.
    #[serde(rename = ".name")]
    pub name: String,
    /// `.symbol`: the kernel descriptor's symbol (`<name>.kd`).
    #[serde(rename = ".symbol")]
    pub symbol: String,
    /// `.args`, in kernarg order.
    #[serde(rename = ".args", default)]
    pub args: Vec<ArgMeta>,
    /// `.kernarg_segment_size`.
    #[serde(rename = ".kernarg_segment_size")]
    pub kernarg_segment_size: u64,
    /// `.kernarg_segment_align`.
    #[serde(rename = ".kernarg_segment_align", default)]
    pub kernarg_segment_align: Option<u64>,
    /// `.group_segment_fixed_size`.
    #[serde(rename = ".group_segment_fixed_size")]
    pub group_segment_fixed_size: u64,
    /// `.private_segment_fixed_size`.
    #[serde(rename = ".private_segment_fixed_size")]
    pub private_segment_fixed_size: u64,
    /// `.wavefront_size`: 32 or 64.
    #[serde(rename = ".wavefront_size")]
    pub wavefront_size: u64,
    /// `.max_flat_workgroup_size`.
    #[serde(rename = ".max_flat_workgroup_size", default)]
    pub max_flat_workgroup_size: Option<u64>,
    /// `.reqd_workgroup_size`: the work-group size the kernel requires, if any.
    #[serde(rename = ".reqd_workgroup_size", default)]
    pub reqd_workgroup_size: Option<Vec<u64>>,
    /// `.uniform_work_group_size` (V5): 1 when every grid dimension must be a
    /// multiple of the work-group's.
    #[serde(rename = ".uniform_work_group_size", default)]
    pub uniform_work_group_size: Option<u64>,
}

/// One kernel argument's metadata map.
#[derive(Clone, Debug, Deserialize)]
pub struct ArgMeta {
    /// `.name` (OpenCL emits it with `-cl-kernel-arg-info`; HIP always).
    #[serde(rename = ".name", default)]
    pub name: Option<String>,
    /// `.type_name`.
    #[serde(rename = ".type_name", default)]
    pub type_name: Option<String>,
    /// `.offset` in the kernarg segment.
    #[serde(rename = ".offset")]
    pub offset: u64,
    /// `.size` in bytes.
    #[serde(rename = ".size")]
    pub size: u64,
    /// `.value_kind`.
    #[serde(rename = ".value_kind")]
    pub value_kind: String,
    /// `.address_space` of a pointer (`global`, `constant`, `local`, …).
    #[serde(rename = ".address_space", default)]
    pub address_space: Option<String>,
    /// `.access` of an image or pipe (`read_only`, `write_only`, `read_write`).
    #[serde(rename = ".access", default)]
    pub access: Option<String>,
    /// `.pointee_align` of a `dynamic_shared_pointer`.
    #[serde(rename = ".pointee_align", default)]
    pub pointee_align: Option<u64>,
}

/// What an argument is (`.value_kind`; AMDGPUUsage, "Code Object V3 Kernel
/// Argument Metadata Map" and the V5 additions).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ValueKind {
    /// `by_value`: the bytes themselves.
    ByValue,
    /// `global_buffer`: a 64-bit global address.
    GlobalBuffer,
    /// `dynamic_shared_pointer`: a 32-bit LDS offset of dynamically sized LDS.
    DynamicSharedPointer,
    /// `image`: the 64-bit address of an image object (T# and more).
    Image,
    /// `sampler`: the 64-bit address of a sampler object (S#).
    Sampler,
    /// A hidden argument the runtime sets.
    Hidden(Hidden),
}

/// The hidden arguments (set by the runtime, not by the program).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Hidden {
    /// `hidden_global_offset_{x,y,z}`.
    GlobalOffset(usize),
    /// `hidden_block_count_{x,y,z}` (V5).
    BlockCount(usize),
    /// `hidden_group_size_{x,y,z}` (V5).
    GroupSize(usize),
    /// `hidden_remainder_{x,y,z}` (V5).
    Remainder(usize),
    /// `hidden_grid_dims` (V5).
    GridDims,
    /// `hidden_dynamic_lds_size` (V5).
    DynamicLdsSize,
    /// `hidden_queue_ptr` (V5).
    QueuePtr,
    /// `hidden_private_base` (V5).
    PrivateBase,
    /// `hidden_shared_base` (V5).
    SharedBase,
    /// Arguments gcnrun leaves zero: `hidden_none`, the printf and hostcall
    /// buffers, the default queue, the completion action, the multigrid
    /// sync argument, the heap (the name is kept for reports).
    Zero(&'static str),
}

impl ValueKind {
    /// The kind a `.value_kind` string names; `None` for kinds gcnrun does
    /// not run (`pipe`, `queue`, and anything unknown).
    pub fn parse(s: &str) -> Option<ValueKind> {
        use Hidden::*;
        let xyz = |rest: &str| match rest {
            "x" => Some(0),
            "y" => Some(1),
            "z" => Some(2),
            _ => None,
        };
        Some(match s {
            "by_value" => ValueKind::ByValue,
            "global_buffer" => ValueKind::GlobalBuffer,
            "dynamic_shared_pointer" => ValueKind::DynamicSharedPointer,
            "image" => ValueKind::Image,
            "sampler" => ValueKind::Sampler,
            "hidden_grid_dims" => ValueKind::Hidden(GridDims),
            "hidden_dynamic_lds_size" => ValueKind::Hidden(DynamicLdsSize),
            "hidden_queue_ptr" => ValueKind::Hidden(QueuePtr),
            "hidden_private_base" => ValueKind::Hidden(PrivateBase),
            "hidden_shared_base" => ValueKind::Hidden(SharedBase),
            "hidden_none" => ValueKind::Hidden(Zero("hidden_none")),
            "hidden_printf_buffer" => ValueKind::Hidden(Zero("hidden_printf_buffer")),
            "hidden_hostcall_buffer" => ValueKind::Hidden(Zero("hidden_hostcall_buffer")),
            "hidden_default_queue" => ValueKind::Hidden(Zero("hidden_default_queue")),
            "hidden_completion_action" => ValueKind::Hidden(Zero("hidden_completion_action")),
            "hidden_multigrid_sync_arg" => ValueKind::Hidden(Zero("hidden_multigrid_sync_arg")),
            "hidden_heap_v1" => ValueKind::Hidden(Zero("hidden_heap_v1")),
            _ => {
                if let Some(d) = s.strip_prefix("hidden_global_offset_").and_then(xyz) {
                    ValueKind::Hidden(GlobalOffset(d))
                } else if let Some(d) = s.strip_prefix("hidden_block_count_").and_then(xyz) {
                    ValueKind::Hidden(BlockCount(d))
                } else if let Some(d) = s.strip_prefix("hidden_group_size_").and_then(xyz) {
                    ValueKind::Hidden(GroupSize(d))
                } else if let Some(d) = s.strip_prefix("hidden_remainder_").and_then(xyz) {
                    ValueKind::Hidden(Remainder(d))
                } else {
                    return None;
                }
            }
        })
    }
}

/// Reads the note's MessagePack. A note that is not a map of the expected
/// shape is an error naming what was wrong (rmp-serde checks every length
/// against the bytes there are, and nests at most 1024 levels).
pub fn parse(desc: &[u8]) -> Result<Metadata, String> {
    rmp_serde::from_slice(desc).map_err(|e| format!("the AMDGPU metadata note is not valid: {e}"))
}

/// The code object version the metadata's `amdhsa.version` stands for
/// (`[1, 0]` → 3, `[1, 1]` → 4, `[1, 2]` → 5; AMDGPUUsage), if gcnrun reads it.
pub fn code_object_version(m: &Metadata) -> Result<u32, String> {
    match m.version.as_slice() {
        [1, 0] => Ok(3),
        [1, 1] => Ok(4),
        [1, 2] => Ok(5),
        [1, n] if *n > 2 => Ok(5),
        v => Err(format!(
            "amdhsa.version {v:?} is not a code object V3–V5 version ([1, 0] … [1, 2])"
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn value_kinds() {
        assert_eq!(
            ValueKind::parse("global_buffer"),
            Some(ValueKind::GlobalBuffer)
        );
        assert_eq!(
            ValueKind::parse("hidden_remainder_z"),
            Some(ValueKind::Hidden(Hidden::Remainder(2)))
        );
        assert_eq!(
            ValueKind::parse("hidden_global_offset_y"),
            Some(ValueKind::Hidden(Hidden::GlobalOffset(1)))
        );
        assert_eq!(ValueKind::parse("hidden_block_count_w"), None);
        assert_eq!(ValueKind::parse("pipe"), None);
        assert_eq!(ValueKind::parse("queue"), None);
    }

    #[test]
    fn not_messagepack_is_an_error() {
        assert!(parse(&[0xc1]).is_err());
        assert!(parse(&[]).is_err());
        // A map of the right shape but a version gcnrun does not read.
        let m = Metadata {
            version: vec![2, 0],
            target: None,
            kernels: vec![],
        };
        assert!(code_object_version(&m).is_err());
    }
}
