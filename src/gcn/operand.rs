//! Register and operand spelling in LLVM's assembler syntax, shared by every class.

/// A VGPR tuple: `v5` for one register, `v[5:8]` for several.
pub fn vgpr_range(first: u32, count: u32) -> String {
    if count <= 1 {
        format!("v{first}")
    } else {
        format!("v[{}:{}]", first, first + count - 1)
    }
}
