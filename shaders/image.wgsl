// image.wgsl — lane predicates and the image-op helpers of src/cpu/image.rs that
// are not per-surface constants (those the translator emits).

// Bit `lane` of EXEC (WaveState::active_lanes).
fn is_active(exec_lo: u32, exec_hi: u32, lane: u32) -> bool {
    if lane < 32u {
        return ((exec_lo >> lane) & 1u) == 1u;
    }
    return ((exec_hi >> (lane - 32u)) & 1u) == 1u;
}

// v >> s, 0 when s >= 32 (u32::checked_shr(..).unwrap_or(0)).
fn checked_shr(v: u32, s: u32) -> u32 {
    if s >= 32u {
        return 0u;
    }
    return v >> s;
}

// One size of IMAGE_GET_RESINFO (cpu::image::resinfo): max(1, size >> (BASE_LEVEL
// + level)) for a level inside the view, else 0.
fn resinfo_size(v: u32, level: u32, levels: u32, base_level: u32) -> u32 {
    if level >= levels {
        return 0u;
    }
    var rl = base_level + level;
    if rl < level {
        rl = 0xffffffffu;
    }
    return max(1u, checked_shr(v, rl));
}
