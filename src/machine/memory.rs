//! Image memory: one flat byte range at a base address, shared by all waves.

/// A flat memory region `[base, base + bytes.len())`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Memory {
    /// Address of `bytes[0]`.
    pub base: u64,
    /// Contents.
    pub bytes: Vec<u8>,
}

impl Memory {
    /// `len` bytes at address `addr`, or `None` outside the region.
    pub fn read(&self, addr: u64, len: u32) -> Option<&[u8]> {
        let start = usize::try_from(addr.checked_sub(self.base)?).ok()?;
        self.bytes.get(start..start.checked_add(len as usize)?)
    }

    /// Writes `data` at `addr`; a write outside the region is dropped.
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
