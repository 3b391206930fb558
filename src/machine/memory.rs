//! Image memory: one flat byte range at a base address, shared by all waves;
//! and the fallible allocation every input-sized buffer of the machine state
//! goes through ([`try_zeroed`]) and its error ([`AllocError`]).

/// `len` zeroed elements, or an [`AllocError`] when the machine cannot give
/// them: sizes come from the input (image and buffer bytes under `--mem-cap`,
/// the waves of a launch), and a refused allocation must be a one-line error,
/// not an abort (README, "Memory").
///
/// The allocation is first tried untouched (`try_reserve_exact`, which fails
/// where the system refuses the address space); only then is the vector made
/// with `vec!`, whose zero pages the system provides lazily, so that memory a
/// run never writes is never resident.
pub fn try_zeroed<T: Clone + Default>(len: usize) -> Result<Vec<T>, AllocError> {
    Vec::<T>::new()
        .try_reserve_exact(len)
        .map_err(|_| AllocError::new(len as u64 * std::mem::size_of::<T>() as u64))?;
    Ok(vec![T::default(); len])
}

/// An allocation the machine refused: how many bytes were asked for. What
/// they were for is the caller's to say (it wraps this error with the name
/// of the state, buffer or image it was building).
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("cannot allocate {bytes} bytes: the machine does not have the memory")]
pub struct AllocError {
    /// The bytes asked for.
    pub bytes: u64,
}

impl AllocError {
    /// The refusal of `bytes`.
    pub fn new(bytes: u64) -> AllocError {
        AllocError { bytes }
    }
}

/// A flat memory region `[base, base + bytes.len())`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Memory {
    /// Address of `bytes[0]`.
    pub base: u64,
    /// Contents.
    pub bytes: Vec<u8>,
}

impl Memory {
    /// Grows the region to `len` bytes, the new ones zero; an error (nothing
    /// changed) when the machine cannot give the memory.
    pub fn try_grow(&mut self, len: u64) -> Result<(), AllocError> {
        let Ok(len) = usize::try_from(len) else {
            return Err(AllocError::new(len));
        };
        let more = len.saturating_sub(self.bytes.len());
        self.bytes
            .try_reserve_exact(more)
            .map_err(|_| AllocError::new(len as u64))?;
        self.bytes.resize(len.max(self.bytes.len()), 0);
        Ok(())
    }

    /// A copy, or an error when the machine cannot give the memory.
    pub fn try_clone(&self) -> Result<Memory, AllocError> {
        let mut bytes = Vec::new();
        bytes
            .try_reserve_exact(self.bytes.len())
            .map_err(|_| AllocError::new(self.bytes.len() as u64))?;
        bytes.extend_from_slice(&self.bytes);
        Ok(Memory {
            base: self.base,
            bytes,
        })
    }

    /// The addresses the region holds.
    pub fn range(&self) -> std::ops::Range<u64> {
        self.base..self.base + self.bytes.len() as u64
    }

    /// `len` bytes at address `addr`, or `None` outside the region.
    ///
    /// WGSL twins: `mem_in_range` (whether it is `Some`), `mem_read_texel` in
    /// `shaders/memory.wgsl` (docs/gpu.md, "Twins").
    pub fn read(&self, addr: u64, len: u32) -> Option<&[u8]> {
        let start = usize::try_from(addr.checked_sub(self.base)?).ok()?;
        self.bytes.get(start..start.checked_add(len as usize)?)
    }

    /// Writes `data` at `addr`; a write outside the region is dropped.
    ///
    /// WGSL twin: `mem_write_texel` in `shaders/memory.wgsl` (docs/gpu.md, "Twins").
    pub fn write(&mut self, addr: u64, data: &[u8]) {
        let Some(start) = addr
            .checked_sub(self.base)
            .and_then(|s| usize::try_from(s).ok())
        else {
            return;
        };
        if let Some(dst) = start
            .checked_add(data.len())
            .and_then(|end| self.bytes.get_mut(start..end))
        {
            dst.copy_from_slice(data);
        }
    }
}
