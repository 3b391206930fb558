//! Reading an HSA code object (an AMDGPU ELF64 shared object, as `ld.lld`
//! links it for `amdgcn-amd-amdhsa`): its processor, its kernels (the
//! `<name>.kd` kernel descriptor symbols), the AMDGPU metadata note and each
//! kernel's code (LLVM AMDGPUUsage, "ELF Code Object", "Symbols", "Note
//! Records").
//!
//! Everything is read through the `object` crate's ELF reader, which checks
//! every offset and size against the file; nothing here allocates by a size
//! the file states (the note and the code are borrowed from the file's bytes).

use super::descriptor::{KernelDescriptor, SIZE as KD_SIZE};
use object::read::elf::{FileHeader, SectionHeader, Sym};
use object::Endianness;

/// `NT_AMDGPU_METADATA`: the note type of the MessagePack metadata of code
/// objects V3 and later (AMDGPUUsage, "Code Object V3 Note Records").
pub const NT_AMDGPU_METADATA: u32 = 32;
/// `NT_AMD_HSA_METADATA`: code object V2's YAML metadata (owner "AMD").
const NT_AMD_HSA_METADATA: u32 = 10;

/// Where something in the code object is wrong: a byte offset in the file (or
/// none) and what.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ElfError {
    /// The file offset the problem is at, when there is one.
    pub offset: Option<usize>,
    /// What is wrong.
    pub message: String,
}

fn at(offset: usize, message: impl Into<String>) -> ElfError {
    ElfError {
        offset: Some(offset),
        message: message.into(),
    }
}

fn whole(message: impl Into<String>) -> ElfError {
    ElfError {
        offset: None,
        message: message.into(),
    }
}

/// A kernel descriptor symbol: the kernel's name (without `.kd`), where the
/// descriptor is, and the descriptor.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KernelSymbol {
    /// The symbol name without its `.kd` suffix (the metadata's `.name` is
    /// usually the same).
    pub name: String,
    /// The descriptor's virtual address.
    pub address: u64,
    /// The descriptor's offset in the file.
    pub file_offset: usize,
    /// The descriptor's 64 bytes.
    pub bytes: [u8; KD_SIZE],
}

/// A code object, read: what a kernel launch needs from it.
#[derive(Clone, Debug)]
pub struct CodeObject<'a> {
    /// `EF_AMDGPU_MACH` (`e_flags` bits 7:0).
    pub mach: u32,
    /// The kernel descriptor symbols, in symbol-table order.
    pub kernels: Vec<KernelSymbol>,
    /// The desc of the `NT_AMDGPU_METADATA` note (MessagePack), and its file offset.
    pub metadata: Option<(&'a [u8], usize)>,
    /// Executable sections: virtual address, file offset, bytes.
    code: Vec<(u64, usize, &'a [u8])>,
    /// Function symbols: address and size.
    functions: Vec<(u64, u64)>,
}

/// True when `bytes` are an AMDGPU ELF that carries HSA kernels: a `.kd`
/// symbol or an AMDGPU metadata note. Anything else (a raw `.bin`, an
/// `llvm-mc -filetype=obj` object) runs as code in the default environment.
///
/// Only those two things are looked for: a code object that is otherwise
/// broken (a relocatable object, a descriptor outside the file, a V2 note)
/// still counts, so that [`parse`] refuses it by name instead of its `.text`
/// running as raw code.
pub fn is_code_object(bytes: &[u8]) -> bool {
    scan(bytes).unwrap_or(false)
}

/// [`is_code_object`]'s look: a `.kd` object symbol or an AMDGPU/AMD note.
fn scan(data: &[u8]) -> Option<bool> {
    use object::elf::FileHeader64;
    if !data.starts_with(&object::elf::ELFMAG) || data.get(4) != Some(&object::elf::ELFCLASS64) {
        return Some(false);
    }
    let header = FileHeader64::<Endianness>::parse(data).ok()?;
    let endian = header.endian().ok()?;
    if header.e_machine(endian) != object::elf::EM_AMDGPU {
        return Some(false);
    }
    let sections = header.sections(endian, data).ok()?;
    for s in sections.iter() {
        if s.sh_type(endian) != object::elf::SHT_NOTE {
            continue;
        }
        if let Ok(Some(mut notes)) = s.notes(endian, data) {
            while let Ok(Some(n)) = notes.next() {
                if n.name() == b"AMDGPU"
                    || n.name() == b"AMD" && n.n_type(endian) == NT_AMD_HSA_METADATA
                {
                    return Some(true);
                }
            }
        }
    }
    for kind in [object::elf::SHT_SYMTAB, object::elf::SHT_DYNSYM] {
        let Ok(symtab) = sections.symbols(endian, data, kind) else {
            continue;
        };
        for sym in symtab.iter() {
            if sym.st_type() == object::elf::STT_OBJECT
                && sym
                    .name(endian, symtab.strings())
                    .is_ok_and(|n| n.ends_with(b".kd"))
            {
                return Some(true);
            }
        }
    }
    Some(false)
}

/// Reads the code object in `data`.
pub fn parse(data: &[u8]) -> Result<CodeObject<'_>, ElfError> {
    use object::elf::FileHeader64;
    let malformed = |e: object::read::Error| at(0, format!("malformed ELF: {e}"));
    if !data.starts_with(&object::elf::ELFMAG) {
        return Err(at(0, "not an ELF file (no 7f 45 4c 46 magic)"));
    }
    if data.get(4) != Some(&object::elf::ELFCLASS64) {
        return Err(at(4, "not ELF64: AMDGPU code objects are ELF64"));
    }
    let header = FileHeader64::<Endianness>::parse(data).map_err(malformed)?;
    let endian = header.endian().map_err(malformed)?;
    if header.e_machine(endian) != object::elf::EM_AMDGPU {
        return Err(at(0x12, "e_machine is not EM_AMDGPU (224)"));
    }
    let mach = header.e_flags(endian) & 0xff;
    let sections = header.sections(endian, data).map_err(malformed)?;
    let relocatable = header.e_type(endian) == object::elf::ET_REL;
    // Section contents by address (executables) and the code sections.
    let mut loaded: Vec<(u64, usize, &[u8])> = Vec::new();
    let mut code = Vec::new();
    let mut metadata = None;
    for s in sections.iter() {
        let ty = s.sh_type(endian);
        if ty == object::elf::SHT_NOTE {
            if let Some(mut notes) = s.notes(endian, data).map_err(malformed)? {
                while let Some(n) = notes.next().map_err(malformed)? {
                    let offset = s.sh_offset(endian) as usize;
                    if n.name() == b"AMDGPU" && n.n_type(endian) == NT_AMDGPU_METADATA {
                        let desc = n.desc();
                        let desc_offset = offset_in(data, desc).unwrap_or(offset);
                        metadata = Some((desc, desc_offset));
                    } else if n.name() == b"AMD" && n.n_type(endian) == NT_AMD_HSA_METADATA {
                        return Err(at(
                            offset,
                            "a code object V2 (YAML metadata, NT_AMD_HSA_METADATA): gcnrun reads code objects V3 and later (MessagePack metadata); rebuild with -mcode-object-version=4 or 5",
                        ));
                    }
                }
            }
            continue;
        }
        if ty != object::elf::SHT_PROGBITS {
            continue;
        }
        let Ok(bytes) = s.data(endian, data) else {
            return Err(at(
                s.sh_offset(endian) as usize,
                "a section lies outside the file",
            ));
        };
        let entry = (s.sh_addr(endian), s.sh_offset(endian) as usize, bytes);
        loaded.push(entry);
        if s.sh_flags(endian) & u64::from(object::elf::SHF_EXECINSTR) != 0 {
            code.push(entry);
        }
    }
    let mut symtab = sections
        .symbols(endian, data, object::elf::SHT_SYMTAB)
        .map_err(malformed)?;
    if symtab.is_empty() {
        symtab = sections
            .symbols(endian, data, object::elf::SHT_DYNSYM)
            .map_err(malformed)?;
    }
    let mut kernels = Vec::new();
    let mut functions = Vec::new();
    for sym in symtab.iter() {
        let Ok(name) = sym.name(endian, symtab.strings()) else {
            continue;
        };
        let value = sym.st_value(endian);
        if sym.st_type() == object::elf::STT_FUNC {
            functions.push((value, sym.st_size(endian)));
        }
        let Some(kernel) = name.strip_suffix(b".kd") else {
            continue;
        };
        if sym.st_type() != object::elf::STT_OBJECT {
            continue;
        }
        let name = String::from_utf8_lossy(kernel).into_owned();
        if relocatable {
            return Err(whole(format!(
                "kernel `{name}`: a relocatable object (ET_REL) whose kernel descriptor is not yet relocated; link it into a code object (clang links with ld.lld; or ld.lld -shared k.o -o k.hsaco)"
            )));
        }
        let Some(file_offset) = file_offset(&loaded, value, KD_SIZE as u64) else {
            return Err(whole(format!(
                "kernel `{name}`: its descriptor `{name}.kd` at address {value:#x} lies in no section of the file"
            )));
        };
        let mut bytes = [0u8; KD_SIZE];
        bytes.copy_from_slice(&data[file_offset..file_offset + KD_SIZE]);
        kernels.push(KernelSymbol {
            name,
            address: value,
            file_offset,
            bytes,
        });
    }
    Ok(CodeObject {
        mach,
        kernels,
        metadata,
        code,
        functions,
    })
}

/// The file offset of `len` bytes at virtual address `addr`, if one section holds them.
fn file_offset(sections: &[(u64, usize, &[u8])], addr: u64, len: u64) -> Option<usize> {
    sections.iter().find_map(|(start, offset, bytes)| {
        let rel = addr.checked_sub(*start)?;
        (rel.checked_add(len)? <= bytes.len() as u64).then(|| offset + rel as usize)
    })
}

/// Where `part` (a slice of `whole`) starts in it.
fn offset_in(whole: &[u8], part: &[u8]) -> Option<usize> {
    (part.as_ptr() as usize).checked_sub(whole.as_ptr() as usize)
}

/// A kernel's code: the instruction bytes from its entry to the end of its
/// function symbol (or of its section when the symbol is missing), and
/// the entry's virtual address.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KernelCode<'a> {
    /// The entry's virtual address (`.kd` address + entry byte offset).
    pub entry: u64,
    /// The entry's file offset.
    pub file_offset: usize,
    /// The bytes.
    pub bytes: &'a [u8],
    /// The code of the kernel with every other function of its section
    /// that is not a kernel (the functions it may call through
    /// `s_swappc_b64`): the start address of the range and its bytes, which
    /// hold the kernel's. `None` when the section has no such function.
    pub with_functions: Option<(u64, &'a [u8])>,
}

impl<'a> CodeObject<'a> {
    /// The code of the kernel whose descriptor `k` is: from the entry the
    /// descriptor names (its address plus `kernel_code_entry_byte_offset`) to
    /// the end of the function there.
    pub fn kernel_code(&self, k: &KernelSymbol) -> Result<KernelCode<'a>, ElfError> {
        let d = KernelDescriptor::parse(&k.bytes);
        let field = k.file_offset + 16;
        let entry = k
            .address
            .checked_add_signed(d.kernel_code_entry_byte_offset)
            .ok_or_else(|| {
                at(
                    field,
                    format!(
                        "kernel `{}`: kernel_code_entry_byte_offset {} points outside the address space",
                        k.name, d.kernel_code_entry_byte_offset
                    ),
                )
            })?;
        let (start, offset, bytes) = self
            .code
            .iter()
            .find(|(start, _, bytes)| {
                entry
                    .checked_sub(*start)
                    .is_some_and(|rel| rel < bytes.len() as u64)
            })
            .ok_or_else(|| {
                at(
                    field,
                    format!(
                        "kernel `{}`: kernel_code_entry_byte_offset {} puts the entry at {entry:#x}, in no executable section",
                        k.name, d.kernel_code_entry_byte_offset
                    ),
                )
            })?;
        let rel = (entry - start) as usize;
        let rest = &bytes[rel..];
        let len = self
            .functions
            .iter()
            .find(|(addr, size)| *addr == entry && *size > 0)
            .map_or(rest.len(), |(_, size)| {
                (*size).min(rest.len() as u64) as usize
            });
        // The other kernels' entries, which are no callee's.
        let entries: Vec<u64> = self
            .kernels
            .iter()
            .filter_map(|k| {
                let d = KernelDescriptor::parse(&k.bytes);
                k.address
                    .checked_add_signed(d.kernel_code_entry_byte_offset)
            })
            .collect();
        let section_end = start + bytes.len() as u64;
        let (mut lo, mut hi) = (entry, entry + len as u64);
        let mut any = false;
        for &(addr, size) in &self.functions {
            let end = addr.saturating_add(size);
            if size > 0 && addr >= *start && end <= section_end && !entries.contains(&addr) {
                lo = lo.min(addr);
                hi = hi.max(end);
                any = true;
            }
        }
        let with_functions =
            any.then(|| (lo, &bytes[(lo - start) as usize..(hi - start) as usize]));
        Ok(KernelCode {
            entry,
            file_offset: offset + rel,
            bytes: &rest[..len],
            with_functions,
        })
    }
}
