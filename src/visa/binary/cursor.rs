//! A bounds-checked little-endian reader over a byte slice. Every read names
//! the field it reads, so a short or corrupt file gives an error at the field's
//! offset instead of a panic; counts are checked against the bytes left before
//! anything is allocated for them.

use super::BinError;

/// A position in `bytes`, with an end it may not read past (the end of the
/// file, or of the instruction stream).
pub(crate) struct Cur<'a> {
    bytes: &'a [u8],
    pub(crate) pos: usize,
    end: usize,
}

pub(crate) type Res<T> = Result<T, BinError>;

impl<'a> Cur<'a> {
    /// A reader over the whole of `bytes`, starting at 0.
    pub(crate) fn new(bytes: &'a [u8]) -> Cur<'a> {
        Cur {
            bytes,
            pos: 0,
            end: bytes.len(),
        }
    }

    /// A reader over `bytes[start..end]` (clamped to the slice, so a bad range
    /// reads as empty rather than panicking; callers check ranges first).
    pub(crate) fn range(bytes: &'a [u8], start: usize, end: usize) -> Cur<'a> {
        let end = end.min(bytes.len());
        Cur {
            bytes,
            pos: start.min(end),
            end,
        }
    }

    /// Bytes left before the end.
    pub(crate) fn left(&self) -> usize {
        self.end.saturating_sub(self.pos)
    }

    /// Whether the reader is at its end.
    pub(crate) fn at_end(&self) -> bool {
        self.pos >= self.end
    }

    /// An error at `offset`.
    pub(crate) fn err_at(offset: usize, message: impl Into<String>) -> BinError {
        // Messages quote names read from the file, which may hold any byte: a
        // control character is escaped so that the error stays one line.
        let message = crate::input::one_line(&message.into());
        BinError { offset, message }
    }

    /// The next `n` bytes, for the field `what`.
    pub(crate) fn take(&mut self, n: usize, what: &str) -> Res<&'a [u8]> {
        if n > self.left() {
            return Err(Self::err_at(
                self.pos,
                format!("truncated: {what} needs {n} byte(s), {} left", self.left()),
            ));
        }
        let s = &self.bytes[self.pos..self.pos + n];
        self.pos += n;
        Ok(s)
    }

    fn array<const N: usize>(&mut self, what: &str) -> Res<[u8; N]> {
        let s = self.take(N, what)?;
        let mut a = [0u8; N];
        a.copy_from_slice(s);
        Ok(a)
    }

    pub(crate) fn u8(&mut self, what: &str) -> Res<u8> {
        Ok(self.array::<1>(what)?[0])
    }

    pub(crate) fn u16(&mut self, what: &str) -> Res<u16> {
        Ok(u16::from_le_bytes(self.array(what)?))
    }

    pub(crate) fn i16(&mut self, what: &str) -> Res<i16> {
        Ok(i16::from_le_bytes(self.array(what)?))
    }

    pub(crate) fn u32(&mut self, what: &str) -> Res<u32> {
        Ok(u32::from_le_bytes(self.array(what)?))
    }

    pub(crate) fn u64(&mut self, what: &str) -> Res<u64> {
        Ok(u64::from_le_bytes(self.array(what)?))
    }

    /// A NUL-terminated UTF-8 string.
    pub(crate) fn cstr(&mut self, what: &str) -> Res<&'a str> {
        let at = self.pos;
        let rest = &self.bytes[self.pos.min(self.end)..self.end];
        let Some(len) = rest.iter().position(|&b| b == 0) else {
            return Err(Self::err_at(
                at,
                format!("truncated: {what} has no terminating NUL"),
            ));
        };
        let s = std::str::from_utf8(&rest[..len])
            .map_err(|_| Self::err_at(at, format!("{what} is not UTF-8")))?;
        self.pos += len + 1;
        Ok(s)
    }

    /// Checks that `count` entries of at least `min_each` bytes each can fit in
    /// what is left, before anything is allocated for them; `at` is the offset
    /// of the count field.
    pub(crate) fn count(&self, count: u64, min_each: u64, at: usize, what: &str) -> Res<usize> {
        let need = count.saturating_mul(min_each);
        if need > self.left() as u64 {
            return Err(Self::err_at(
                at,
                format!(
                    "{what} count {count} needs at least {need} bytes, {} left",
                    self.left()
                ),
            ));
        }
        // `need` fits in the slice, so the count fits in usize.
        Ok(count as usize)
    }
}
