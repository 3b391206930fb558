//! How a CPU run reaches the launch's memory: directly, or — for a wave
//! (workgroup) of a parallel batch — speculatively, against a snapshot with
//! its own writes kept aside and every page it reads noted, so that the run
//! can be committed later in the documented serial order or thrown away and
//! run again (`cpu::run_with`, docs/semantics/core.md, "Parallel waves").
//!
//! A speculative run's result equals the serial one exactly when no page it
//! read was written by a wave before it in the same batch: everything it
//! read then holds the bytes the serial order would have shown it, and its
//! writes, applied byte by byte in wave order, land as the serial order's
//! would. [`Log::conflicts`] checks that condition at page
//! granularity ([`PAGE`] bytes); a false alarm (two waves touching different
//! bytes of one page) costs a serial re-run, never a different result.

use super::Memory;
use std::borrow::Cow;
use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasherDefault, Hasher};
use std::ops::Range;

/// Bytes per page of the speculative bookkeeping: small enough that
/// neighbouring waves' writes (a store per lane, 4 bytes × 64 lanes) rarely
/// share a page with another wave's reads.
pub const PAGE: u64 = 64;

/// The most pages one speculative run keeps aside (4 MiB of written bytes);
/// past it the run is abandoned and re-run directly, so that a batch of
/// runs never holds more than a bounded copy of memory.
const MAX_PAGES: usize = 1 << 16;

/// A hasher for page numbers: one multiply (Fibonacci hashing), since the
/// keys are not chosen by an adversary and SipHash's cost showed in runs.
#[derive(Default)]
pub struct PageHasher(u64);

impl Hasher for PageHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0.rotate_left(8) ^ u64::from(b)).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        }
    }
    fn write_u64(&mut self, n: u64) {
        self.0 = n.wrapping_mul(0x9e37_79b9_7f4a_7c15);
    }
}

/// Sets of page numbers ([`PageHasher`]).
pub type PageSet = HashSet<u64, BuildHasherDefault<PageHasher>>;

/// One page of a speculative run's writes: the page's bytes as the run sees
/// them (the snapshot's, overwritten by its own writes) and which of them it
/// wrote.
#[derive(Clone, Debug)]
struct Page {
    bytes: [u8; PAGE as usize],
    written: u64,
}

/// A speculative run's view: the snapshot and the run's [`Log`].
#[derive(Debug)]
pub struct Speculation<'a> {
    shared: &'a Memory,
    log: Log,
}

/// What a speculative run read and wrote, kept until its batch commits.
#[derive(Debug, Default)]
pub struct Log {
    /// Private copies of the pages written.
    pages: HashMap<u64, Page, BuildHasherDefault<PageHasher>>,
    /// Pages read, in order, consecutive repeats dropped.
    reads: std::cell::RefCell<Vec<u64>>,
    /// More than [`MAX_PAGES`] were written: the run must be redone.
    overflowed: bool,
}

/// Memory as a CPU run reaches it.
#[derive(Debug)]
pub enum MemAccess<'a> {
    /// Reads and writes go to the launch's memory.
    Direct(&'a mut Memory),
    /// Reads of memory that no run writes (a program that only reads it, or
    /// never reaches it, run in parallel); a write here is a bug of the
    /// caller and is dropped.
    ReadOnly(&'a Memory),
    /// A speculative run of a parallel batch.
    Speculative(Box<Speculation<'a>>),
}

impl<'a> MemAccess<'a> {
    /// A speculative view of `mem`, which must not change while it lives.
    pub fn speculative(mem: &'a Memory) -> MemAccess<'a> {
        // Room for a wave's usual writes and reads, so that the tables do
        // not grow step by step in every speculative run.
        let log = Log {
            pages: HashMap::with_capacity_and_hasher(32, Default::default()),
            reads: std::cell::RefCell::new(Vec::with_capacity(64)),
            overflowed: false,
        };
        MemAccess::Speculative(Box::new(Speculation { shared: mem, log }))
    }

    /// The addresses memory holds.
    pub fn range(&self) -> Range<u64> {
        match self {
            MemAccess::Direct(m) => m.range(),
            MemAccess::ReadOnly(m) => m.range(),
            MemAccess::Speculative(s) => s.shared.range(),
        }
    }

    /// Whether `[addr, addr + len)` lies inside memory.
    pub fn contains(&self, addr: u64, len: u32) -> bool {
        let r = self.range();
        addr >= r.start && addr.checked_add(u64::from(len)).is_some_and(|e| e <= r.end)
    }

    /// `len` bytes at `addr`, or `None` outside memory ([`Memory::read`]).
    pub fn read(&self, addr: u64, len: u32) -> Option<Cow<'_, [u8]>> {
        match self {
            MemAccess::Direct(m) => m.read(addr, len).map(Cow::Borrowed),
            MemAccess::ReadOnly(m) => m.read(addr, len).map(Cow::Borrowed),
            MemAccess::Speculative(s) => s.read(addr, len),
        }
    }

    /// The memory itself when it is read directly (not speculatively), for
    /// readers that fetch many small pieces and would otherwise pay for the
    /// dispatch on every read (`cpu::sample::view`'s plain footprints).
    pub fn direct(&self) -> Option<&Memory> {
        match self {
            MemAccess::Direct(m) => Some(m),
            MemAccess::ReadOnly(m) => Some(m),
            MemAccess::Speculative(_) => None,
        }
    }

    /// Writes `data` at `addr`; a write outside memory is dropped
    /// ([`Memory::write`]).
    pub fn write(&mut self, addr: u64, data: &[u8]) {
        match self {
            MemAccess::Direct(m) => m.write(addr, data),
            MemAccess::ReadOnly(_) => debug_assert!(false, "a write through MemAccess::ReadOnly"),
            MemAccess::Speculative(s) => s.write(addr, data),
        }
    }

    /// What a speculative run read and wrote (`None` for direct access).
    pub fn into_log(self) -> Option<Log> {
        match self {
            MemAccess::Direct(_) | MemAccess::ReadOnly(_) => None,
            MemAccess::Speculative(s) => Some(s.log),
        }
    }
}

/// The pages `[addr, addr + len)` touches (`len` ≥ 1).
fn pages_of(addr: u64, len: u64) -> Range<u64> {
    addr / PAGE..(addr + len - 1) / PAGE + 1
}

impl Speculation<'_> {
    fn read(&self, addr: u64, len: u32) -> Option<Cow<'_, [u8]>> {
        let snap = self.shared.read(addr, len)?;
        if len == 0 {
            return Some(Cow::Borrowed(snap));
        }
        let pages = pages_of(addr, u64::from(len));
        {
            let mut reads = self.log.reads.borrow_mut();
            for p in pages.clone() {
                if reads.last() != Some(&p) {
                    reads.push(p);
                }
            }
        }
        if self.log.pages.is_empty() || !pages.clone().any(|p| self.log.pages.contains_key(&p)) {
            return Some(Cow::Borrowed(snap));
        }
        let mut out = snap.to_vec();
        for (i, b) in out.iter_mut().enumerate() {
            let a = addr + i as u64;
            if let Some(page) = self.log.pages.get(&(a / PAGE)) {
                *b = page.bytes[(a % PAGE) as usize];
            }
        }
        Some(Cow::Owned(out))
    }

    fn write(&mut self, addr: u64, data: &[u8]) {
        if data.is_empty() || self.shared.read(addr, data.len() as u32).is_none() {
            return;
        }
        let (mut a, mut rest) = (addr, data);
        while !rest.is_empty() {
            let (p, at) = (a / PAGE, (a % PAGE) as usize);
            let n = rest.len().min(PAGE as usize - at);
            if !self.log.pages.contains_key(&p) {
                if self.log.pages.len() >= MAX_PAGES {
                    self.log.overflowed = true;
                    return;
                }
                // The snapshot's bytes of the page (the part memory holds).
                let mut bytes = [0; PAGE as usize];
                let r = self.shared.range();
                let (lo, hi) = ((p * PAGE).max(r.start), ((p + 1) * PAGE).min(r.end));
                if let Some(s) = self.shared.read(lo, (hi - lo) as u32) {
                    let from = (lo - p * PAGE) as usize;
                    bytes[from..from + s.len()].copy_from_slice(s);
                }
                self.log.pages.insert(p, Page { bytes, written: 0 });
            }
            let page = self.log.pages.get_mut(&p).expect("inserted above");
            page.bytes[at..at + n].copy_from_slice(&rest[..n]);
            page.written |= (((1u128 << n) - 1) as u64) << at;
            (a, rest) = (a + n as u64, &rest[n..]);
        }
    }
}

impl Log {
    /// Whether the run must be redone after the writes of the waves before
    /// it in its batch (`written`, pages): it read one of those pages, or it
    /// wrote more than a speculation keeps.
    pub fn conflicts(&self, written: &PageSet) -> bool {
        self.overflowed
            || (!written.is_empty() && self.reads.borrow().iter().any(|p| written.contains(p)))
    }

    /// Applies the run's writes to `mem` (the snapshot it ran against, with
    /// the writes of the waves before it applied) and adds its pages to
    /// `written`.
    pub fn commit(self, mem: &mut Memory, written: &mut PageSet) {
        for (p, page) in self.pages {
            written.insert(p);
            let mut mask = page.written;
            while mask != 0 {
                let first = mask.trailing_zeros() as usize;
                let run = (mask >> first).trailing_ones() as usize;
                mem.write(p * PAGE + first as u64, &page.bytes[first..first + run]);
                let bits = (((1u128 << run) - 1) as u64) << first;
                mask &= !bits;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn memory() -> Memory {
        Memory {
            base: 0x1000,
            bytes: (0..=255).collect(),
        }
    }

    #[test]
    fn a_speculation_reads_its_own_writes_and_commits_only_them() {
        let mem = memory();
        let mut s = MemAccess::speculative(&mem);
        s.write(0x103e, &[0xaa, 0xbb, 0xcc]);
        assert_eq!(
            &*s.read(0x103c, 6).unwrap(),
            &[0x3c, 0x3d, 0xaa, 0xbb, 0xcc, 0x41]
        );
        // Out of memory: dropped and None, as for Memory.
        s.write(0x10ff, &[1, 2]);
        assert!(s.read(0x10ff, 2).is_none());
        let spec = s.into_log().unwrap();
        // Another wave wrote byte 0x1000 meanwhile; the commit keeps it.
        let mut after = memory();
        after.write(0x1000, &[0x77]);
        let mut written = PageSet::default();
        written.insert(0x1000 / PAGE);
        assert!(spec.conflicts(&written), "it read page 0x1000/64");
        spec.commit(&mut after, &mut written);
        let mut want = memory();
        want.write(0x1000, &[0x77]);
        want.write(0x103e, &[0xaa, 0xbb, 0xcc]);
        assert_eq!(after, want);
        assert!(written.contains(&(0x1040 / PAGE)));
    }

    #[test]
    fn writes_alone_do_not_conflict() {
        let mem = memory();
        let mut s = MemAccess::speculative(&mem);
        s.write(0x1000, &[9; 8]);
        let spec = s.into_log().unwrap();
        let written: PageSet = [0x1000 / PAGE].into_iter().collect();
        assert!(!spec.conflicts(&written));
    }

    #[test]
    fn a_full_page_commits_whole() {
        let mem = memory();
        let mut s = MemAccess::speculative(&mem);
        s.write(0x1040, &[5; 64]);
        let mut after = memory();
        s.into_log()
            .unwrap()
            .commit(&mut after, &mut PageSet::default());
        assert_eq!(after.read(0x1040, 64).unwrap(), &[5; 64]);
        assert_eq!(after.read(0x103f, 1).unwrap(), &[0x3f]);
        assert_eq!(after.read(0x1080, 1).unwrap(), &[0x80]);
    }
}
