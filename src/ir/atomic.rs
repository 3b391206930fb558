//! The read-modify-write operations of atomics, whatever memory they act on
//! (their arithmetic is `texture::atomic`). The discriminants are the codes the
//! WGSL library switches on (`shaders/atomic.wgsl`).

/// The atomic operations of every generation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AtomicOp {
    /// `data`.
    Swap,
    /// `old == cmp ? data : old`.
    CmpSwap,
    /// `old + data` (wrapping).
    Add,
    /// `old − data` (wrapping).
    Sub,
    /// `data − old` (wrapping; gfx6/gfx7).
    Rsub,
    /// Signed minimum.
    Smin,
    /// Unsigned minimum.
    Umin,
    /// Signed maximum.
    Smax,
    /// Unsigned maximum.
    Umax,
    /// Bitwise and.
    And,
    /// Bitwise or.
    Or,
    /// Bitwise xor.
    Xor,
    /// `old >= data ? 0 : old + 1`.
    Inc,
    /// `(old == 0 || old > data) ? data : old − 1`.
    Dec,
    /// Float compare-swap: `old == cmp ? data : old` as floats.
    FCmpSwap,
    /// Float minimum.
    Fmin,
    /// Float maximum.
    Fmax,
}
