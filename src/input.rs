//! Reading program input: raw `.bin`, AMDGPU ELF code objects, `--hex` strings.
//!
//! Every loader returns either a [`Program`] (the code bytes, and the arch an ELF
//! code object names) or an [`InputError`] that says which file and which byte
//! offset is wrong. Nothing here panics on any input, and no allocation is sized
//! by a number read from the input: the file is read whole (after a size check)
//! and the ELF reader only borrows slices of it.
//!
//! Every file gcn-run reads (code, manifests, vISA programs, PNG images) goes
//! through [`open_regular`] / [`read_regular`]: a regular file only (a FIFO,
//! socket or device would block or never end), no larger than its [`FileKind`]'s
//! cap.

use crate::arch::Arch;
use object::read::elf::{FileHeader, SectionHeader};
use std::fmt;
use std::io::Read;
use std::path::Path;

/// The largest code file gcn-run reads (raw `.bin`, ELF code object, binary
/// vISA `.isa`). Real kernels are kilobytes; the cap keeps a mistaken argument
/// (a disk image) from exhausting memory.
pub const MAX_INPUT_BYTES: u64 = 64 << 20;

/// The largest text file gcn-run reads: a launch manifest (`.toml`) or vISA
/// text (`.visaasm`). Real ones are kilobytes; inline `hex` image data is what
/// makes a manifest large, and an image that big is better given as a PNG.
pub const MAX_TEXT_BYTES: u64 = 8 << 20;

/// The largest PNG file gcn-run reads for `init = { png = … }`. The decoded
/// image must also match the manifest's size and pass the image memory cap.
pub const MAX_PNG_BYTES: u64 = 256 << 20;

/// What a file gcn-run reads holds (for messages) and the most bytes it may have.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FileKind {
    /// What the file is, as messages name it (`code file`, `manifest`, …).
    pub what: &'static str,
    /// The most bytes gcn-run reads from it.
    pub cap: u64,
}

impl FileKind {
    /// A code file: raw dwords, an ELF code object, or a binary vISA object.
    pub const CODE: FileKind = FileKind {
        what: "code file",
        cap: MAX_INPUT_BYTES,
    };
    /// A launch manifest (AMD or Intel).
    pub const MANIFEST: FileKind = FileKind {
        what: "manifest",
        cap: MAX_TEXT_BYTES,
    };
    /// vISA text (`.visaasm`).
    pub const VISA_TEXT: FileKind = FileKind {
        what: "vISA text file",
        cap: MAX_TEXT_BYTES,
    };
    /// A PNG image (`init = { png = … }`).
    pub const PNG: FileKind = FileKind {
        what: "PNG file",
        cap: MAX_PNG_BYTES,
    };
}

/// `e_machine` of AMDGPU code objects (ELF ABI for AMDGPU; `object::elf::EM_AMDGPU`).
const EM_AMDGPU: u16 = object::elf::EM_AMDGPU;

/// Byte offsets of ELF header fields, used to point error messages at the field.
/// (System V ABI, ELF64 header layout.)
mod elf_offsets {
    /// `e_ident[EI_CLASS]`.
    pub const CLASS: usize = 4;
    /// `e_machine`.
    pub const MACHINE: usize = 0x12;
    /// `e_flags` in an ELF64 header.
    pub const FLAGS: usize = 0x30;
}

/// File-name extensions of ELF code objects. A file named like this must be ELF:
/// the check catches a raw dump saved under the wrong name, which would otherwise
/// decode as garbage.
const ELF_EXTENSIONS: &[&str] = &["o", "co", "hsaco", "elf", "so"];

/// What kind of input a program came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// Raw little-endian instruction dwords (`.bin`).
    Raw,
    /// The `.text` section of an AMDGPU ELF code object.
    Elf {
        /// The `EF_AMDGPU_MACH` code: `e_flags` bits 7:0.
        mach: u32,
    },
    /// Bytes given on the command line with `--hex`.
    Hex,
}

/// Loaded program code, ready for [`crate::gcn::decode_stream`].
#[derive(Clone, Debug)]
pub struct Program {
    /// How errors name this input: the file path as given, or `--hex`.
    pub name: String,
    /// The instruction bytes (for ELF: the `.text` section only).
    pub bytes: Vec<u8>,
    /// Where the bytes came from.
    pub format: Format,
    /// The arch the input names (an ELF code object's `e_flags`), if any.
    pub arch: Option<Arch>,
}

/// Bad input: which file (or option), where, and what is wrong. Displays as
/// `NAME: offset 0x..: message` — the form of every gcn-run error line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InputError {
    /// The file path as given, or the option (`--hex`, `--arch`).
    pub name: String,
    /// The byte offset the problem is at, when there is one. For ELF input
    /// decoding errors it is relative to `.text`, like the disassembly listing.
    pub offset: Option<usize>,
    /// What is wrong.
    pub message: String,
}

impl InputError {
    /// An error at a byte offset of `name`.
    pub fn at(name: &str, offset: usize, message: impl Into<String>) -> InputError {
        InputError {
            name: name.to_string(),
            offset: Some(offset),
            message: message.into(),
        }
    }

    /// An error about `name` as a whole.
    pub fn whole(name: &str, message: impl Into<String>) -> InputError {
        InputError {
            name: name.to_string(),
            offset: None,
            message: message.into(),
        }
    }
}

impl fmt::Display for InputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.offset {
            Some(off) => write!(f, "{}: offset {off:#x}: {}", self.name, self.message),
            None => write!(f, "{}: {}", self.name, self.message),
        }
    }
}

impl std::error::Error for InputError {}

/// `s` with every control character escaped (`\n` → `\\n`), so that a
/// message quoting names or keys from the input stays one line.
pub fn one_line(s: &str) -> String {
    if !s.chars().any(char::is_control) {
        return s.to_string();
    }
    s.chars()
        .map(|c| {
            if c.is_control() {
                c.escape_default().to_string()
            } else {
                c.to_string()
            }
        })
        .collect()
}

/// Reads a program file: an ELF code object when the file starts with the ELF
/// magic, raw instruction dwords otherwise. The format is decided by content,
/// not by name; a file named `.o`/`.co`/`.hsaco` that is not ELF is an error.
pub fn load_file(path: &Path) -> Result<Program, InputError> {
    let name = path.display().to_string();
    let bytes = read_regular(path, FileKind::CODE)?;
    let elf_named = path
        .extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| ELF_EXTENSIONS.contains(&e.to_ascii_lowercase().as_str()));
    load_bytes(&name, bytes, elf_named)
}

/// Opens `path` for reading if it is a regular file of at most `kind.cap` bytes,
/// and returns it with its length. Anything else is a one-line error naming the
/// file: missing or unreadable, a directory, a FIFO, socket or device (whose
/// reads could block forever or never end), or too large.
///
/// The type and size are checked before opening (opening a FIFO for reading
/// blocks until a writer appears), and again on the opened file, in case the
/// path changed in between. On unix the file is opened with `O_NONBLOCK`, so
/// that even a FIFO swapped in after the first check cannot block the open;
/// the flag does not change reads of a regular file.
pub fn open_regular(path: &Path, kind: FileKind) -> Result<(std::fs::File, u64), InputError> {
    let name = path.display().to_string();
    let io = |e: std::io::Error| InputError::whole(&name, io_reason(&e));
    check_regular(&name, &std::fs::metadata(path).map_err(io)?, kind)?;
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NONBLOCK);
    }
    let file = options.open(path).map_err(io)?;
    let len = check_regular(&name, &file.metadata().map_err(io)?, kind)?;
    Ok((file, len))
}

/// Reads the whole of `path` (see [`open_regular`] for what is refused). At most
/// one byte past the cap is read, so a file that grows while it is read cannot
/// grow the buffer without bound either.
pub fn read_regular(path: &Path, kind: FileKind) -> Result<Vec<u8>, InputError> {
    let name = path.display().to_string();
    let (file, len) = open_regular(path, kind)?;
    let mut bytes = Vec::new();
    // `len` is at most the cap, checked: reserving it up front is bounded.
    bytes
        .try_reserve_exact(usize::try_from(len).unwrap_or(0))
        .map_err(|_| InputError::whole(&name, format!("cannot allocate {len} bytes to read it")))?;
    file.take(kind.cap + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| InputError::whole(&name, io_reason(&e)))?;
    if bytes.len() as u64 > kind.cap {
        return Err(too_large(&name, kind));
    }
    Ok(bytes)
}

/// [`read_regular`] for a text file: the bytes must be UTF-8 (an error names the
/// offset of the first bad byte).
pub fn read_text(path: &Path, kind: FileKind) -> Result<String, InputError> {
    let bytes = read_regular(path, kind)?;
    String::from_utf8(bytes).map_err(|e| {
        InputError::at(
            &path.display().to_string(),
            e.utf8_error().valid_up_to(),
            format!("the {} is not valid UTF-8 text", kind.what),
        )
    })
}

/// The length of a regular file of at most `kind.cap` bytes; anything else is
/// an error naming the file and what it is instead.
fn check_regular(name: &str, meta: &std::fs::Metadata, kind: FileKind) -> Result<u64, InputError> {
    let ft = meta.file_type();
    if !ft.is_file() {
        let what = if ft.is_dir() {
            "a directory"
        } else {
            special_file_kind(&ft)
        };
        return Err(InputError::whole(
            name,
            format!(
                "is {what}, not a {}: gcn-run reads regular files only",
                kind.what
            ),
        ));
    }
    if meta.len() > kind.cap {
        return Err(too_large(name, kind));
    }
    Ok(meta.len())
}

/// What a file that is neither a regular file nor a directory is.
fn special_file_kind(ft: &std::fs::FileType) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if ft.is_fifo() {
            return "a FIFO";
        }
        if ft.is_socket() {
            return "a socket";
        }
        if ft.is_char_device() {
            return "a character device";
        }
        if ft.is_block_device() {
            return "a block device";
        }
    }
    let _ = ft;
    "a special file"
}

/// The error for a file past its kind's cap, at the offset of the cap.
fn too_large(name: &str, kind: FileKind) -> InputError {
    InputError::at(
        name,
        usize::try_from(kind.cap).unwrap_or(usize::MAX),
        format!(
            "larger than the {} MiB gcn-run reads for a {}",
            kind.cap >> 20,
            kind.what
        ),
    )
}

/// The reason of an I/O error without the OS error number ("No such file or
/// directory", not "No such file or directory (os error 2)").
fn io_reason(e: &std::io::Error) -> String {
    let text = e.to_string();
    match text.find(" (os error") {
        Some(i) => text[..i].to_string(),
        None => text,
    }
}

/// Interprets file contents (see [`load_file`]); `elf_named` says the file name
/// promised an ELF code object.
pub fn load_bytes(name: &str, bytes: Vec<u8>, elf_named: bool) -> Result<Program, InputError> {
    if bytes.starts_with(&object::elf::ELFMAG) {
        return load_elf(name, &bytes);
    }
    if elf_named {
        return Err(InputError::at(
            name,
            0,
            "named like an ELF code object but does not start with the ELF magic 7f 45 4c 46",
        ));
    }
    check_code(name, &bytes)?;
    Ok(Program {
        name: name.to_string(),
        bytes,
        format: Format::Raw,
        arch: None,
    })
}

/// The checks every code buffer must pass before decoding: not empty, whole dwords.
fn check_code(name: &str, bytes: &[u8]) -> Result<(), InputError> {
    if bytes.is_empty() {
        return Err(InputError::at(name, 0, "empty: no code"));
    }
    let rest = bytes.len() % 4;
    if rest != 0 {
        return Err(InputError::at(
            name,
            bytes.len() - rest,
            format!(
                "{} bytes is not a whole number of dwords (instructions are dwords; {rest} trailing bytes)",
                bytes.len()
            ),
        ));
    }
    Ok(())
}

/// Reads the `.text` section and the arch of an AMDGPU ELF64 code object.
fn load_elf(name: &str, data: &[u8]) -> Result<Program, InputError> {
    use object::elf::FileHeader64;
    use object::Endianness;

    match data.get(elf_offsets::CLASS) {
        Some(&object::elf::ELFCLASS64) => {}
        Some(&object::elf::ELFCLASS32) => {
            return Err(InputError::at(
                name,
                elf_offsets::CLASS,
                "32-bit ELF: AMDGPU code objects for GCN/RDNA are ELF64 (ELF32 AMDGPU is r600)",
            ))
        }
        _ => {
            return Err(InputError::at(
                name,
                elf_offsets::CLASS,
                "malformed ELF: bad EI_CLASS",
            ))
        }
    }
    let malformed = |e: object::read::Error| InputError::at(name, 0, format!("malformed ELF: {e}"));
    let header = FileHeader64::<Endianness>::parse(data).map_err(malformed)?;
    let endian = header.endian().map_err(malformed)?;
    let machine = header.e_machine(endian);
    if machine != EM_AMDGPU {
        return Err(InputError::at(
            name,
            elf_offsets::MACHINE,
            format!(
                "ELF e_machine is {machine}, not AMDGPU ({EM_AMDGPU}): not an AMDGPU code object"
            ),
        ));
    }
    // EF_AMDGPU_MACH is e_flags bits 7:0 (LLVM BinaryFormat/ELF.h, EF_AMDGPU_MACH mask 0xff).
    let mach = header.e_flags(endian) & 0xff;
    let sections = header.sections(endian, data).map_err(malformed)?;
    let Some((_, text)) = sections.section_by_name(endian, b".text") else {
        return Err(InputError::whole(
            name,
            "ELF code object has no .text section",
        ));
    };
    let text_offset = usize::try_from(text.sh_offset(endian)).unwrap_or(usize::MAX);
    let code = text.data(endian, data).map_err(|e| {
        InputError::at(
            name,
            text_offset,
            format!(".text section lies outside the file: {e}"),
        )
    })?;
    check_code(name, code).map_err(|mut e| {
        e.message = format!(".text section: {}", e.message);
        e
    })?;
    Ok(Program {
        name: name.to_string(),
        bytes: code.to_vec(),
        format: Format::Elf { mach },
        arch: Arch::from_elf_mach(mach),
    })
}

/// Parses `--hex` text into bytes in memory order.
///
/// Tokens are separated by white space, commas and brackets (so llvm-mc's
/// `[0x00,0x17,...]` pastes as is). A token is
/// - `0x` and 8 hex digits: one dword, stored little-endian (`0xf0001700` →
///   `00 17 00 f0`), the way instruction dwords are usually written;
/// - `0x` and 1–2 hex digits: one byte;
/// - an even number of hex digits without prefix: bytes in order
///   (`001700f0` → `00 17 00 f0`).
///
/// Errors name the character position of the bad token.
pub fn parse_hex(text: &str) -> Result<Vec<u8>, InputError> {
    const NAME: &str = "--hex";
    let mut out = Vec::new();
    for (pos, token) in tokens(text) {
        let bad = |why: &str| {
            InputError::whole(
                NAME,
                format!("character {}: token '{token}' {why}", pos + 1),
            )
        };
        let (digits, prefixed) = match token
            .strip_prefix("0x")
            .or_else(|| token.strip_prefix("0X"))
        {
            Some(d) => (d, true),
            None => (token, false),
        };
        if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_hexdigit()) {
            return Err(bad("is not hex"));
        }
        if prefixed {
            match digits.len() {
                1 | 2 => out.push(u8::from_str_radix(digits, 16).map_err(|_| bad("is not hex"))?),
                8 => {
                    let dword = u32::from_str_radix(digits, 16).map_err(|_| bad("is not hex"))?;
                    out.extend_from_slice(&dword.to_le_bytes());
                }
                _ => {
                    return Err(bad(
                        "has neither 2 hex digits (a byte) nor 8 (a little-endian dword)",
                    ))
                }
            }
        } else {
            if digits.len() % 2 != 0 {
                return Err(bad("has an odd number of hex digits"));
            }
            for pair in digits.as_bytes().chunks_exact(2) {
                let pair = std::str::from_utf8(pair).map_err(|_| bad("is not hex"))?;
                out.push(u8::from_str_radix(pair, 16).map_err(|_| bad("is not hex"))?);
            }
        }
    }
    if out.is_empty() {
        return Err(InputError::whole(NAME, "no bytes given"));
    }
    Ok(out)
}

/// Splits `--hex` text into (character position, token) pairs.
fn tokens(text: &str) -> impl Iterator<Item = (usize, &str)> {
    let is_sep = |c: char| c.is_whitespace() || matches!(c, ',' | '[' | ']');
    let mut rest = text.char_indices().peekable();
    std::iter::from_fn(move || {
        while rest.peek().is_some_and(|&(_, c)| is_sep(c)) {
            rest.next();
        }
        let &(start, _) = rest.peek()?;
        let mut end = text.len();
        while let Some(&(i, c)) = rest.peek() {
            if is_sep(c) {
                end = i;
                break;
            }
            rest.next();
        }
        let char_pos = text[..start].chars().count();
        Some((char_pos, &text[start..end]))
    })
}

/// A program from `--hex` text; the bytes must be whole dwords.
pub fn from_hex(text: &str) -> Result<Program, InputError> {
    let bytes = parse_hex(text)?;
    check_code("--hex", &bytes)?;
    Ok(Program {
        name: "--hex".to_string(),
        bytes,
        format: Format::Hex,
        arch: None,
    })
}

/// The arch to decode `program` with: `--arch` when given (it overrides a code
/// object's own), else the code object's, else gfx6 (LLVM's default, SPEC.md).
///
/// An unknown `--arch` name is an error listing every valid name; so is a code
/// object whose `EF_AMDGPU_MACH` names no processor gcnrun knows (it would
/// decode with the wrong rules otherwise).
pub fn resolve_arch(option: Option<&str>, program: &Program) -> Result<Arch, InputError> {
    if let Some(name) = option {
        return Arch::parse(name).ok_or_else(|| {
            InputError::whole(
                "--arch",
                format!(
                    "unknown architecture '{name}'; valid names: {}",
                    Arch::known_names().join(" ")
                ),
            )
        });
    }
    match (program.format, program.arch) {
        (_, Some(arch)) => Ok(arch),
        (Format::Elf { mach }, None) => Err(InputError::at(
            &program.name,
            elf_offsets::FLAGS,
            format!(
                "e_flags names EF_AMDGPU_MACH {mach:#05x}, a processor gcnrun does not know; pass --arch"
            ),
        )),
        _ => Ok(Arch::default_arch()),
    }
}

/// When `program` decodes with an arch nobody chose — no `--arch`, and none
/// read from a code object (raw `.bin` and `--hex` carry none) — the note that
/// says which was assumed: `arch not given: decoded as gfx6 (tahiti); pass
/// --arch`. gfx9 code read as gfx6 lists as plausible garbage, so the
/// assumption is always said (a `;` comment atop a listing, a line on stderr
/// otherwise). `None` when the arch was given or read.
pub fn assumed_arch_note(option: Option<&str>, program: &Program) -> Option<String> {
    if option.is_some() || program.arch.is_some() || matches!(program.format, Format::Elf { .. }) {
        return None;
    }
    let arch = Arch::default_arch();
    Some(format!(
        "arch not given: decoded as {arch} ({}); pass --arch",
        arch.mcpu
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The three spellings the SPEC names all give the same memory-order bytes.
    #[test]
    fn hex_spellings_agree() {
        let spaced = parse_hex("00 17 00 f0 ed 04 07 00").unwrap();
        assert_eq!(parse_hex("001700f0ed040700").unwrap(), spaced);
        assert_eq!(
            parse_hex("0x00,0x17,0x00,0xf0,0xed,0x04,0x07,0x00").unwrap(),
            spaced
        );
        assert_eq!(parse_hex("0xf0001700 0x000704ed").unwrap(), spaced);
        assert_eq!(
            parse_hex("[0x00,0x17,0x00,0xf0, 0xed,0x4,0x7,0x0]").unwrap(),
            spaced
        );
    }

    #[test]
    fn bad_hex_names_the_position() {
        let e = parse_hex("00 17 zz").unwrap_err();
        assert!(e.to_string().contains("character 7"), "{e}");
        assert!(parse_hex("0x123").is_err());
        assert!(parse_hex("abc").is_err());
        assert!(parse_hex(" , ").is_err());
        assert!(parse_hex("0x").is_err());
        assert!(parse_hex("é").is_err());
        assert!(from_hex("00 17 00").is_err());
    }

    #[test]
    fn raw_checks() {
        assert_eq!(load_bytes("x", vec![], false).unwrap_err().offset, Some(0));
        assert_eq!(
            load_bytes("x", vec![0; 6], false).unwrap_err().offset,
            Some(4)
        );
        assert!(load_bytes("x.o", vec![0; 8], true).is_err());
        assert!(load_bytes("x.bin", vec![0; 8], false).is_ok());
    }

    #[test]
    fn truncated_elf_is_an_error() {
        let mut head = object::elf::ELFMAG.to_vec();
        assert!(load_bytes("x", head.clone(), false).is_err());
        head.extend_from_slice(&[2, 1, 1, 0]);
        assert!(load_bytes("x", head, false).is_err());
    }
}
