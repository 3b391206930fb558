//! Register names as a manifest spells them: `s5`, `s[4:11]`, `v0`, `v[8:11]`,
//! `m0`, `exec`, `vcc`.

use std::fmt;

/// The highest SGPR index any generation addresses as a plain SGPR (gfx10:
/// s0–s105); a range past it is an error in a manifest.
pub const SGPR_COUNT: u32 = 106;
/// VGPRs per lane (v0–v255).
pub const VGPR_COUNT: u32 = 256;

/// A register, or a contiguous range of them, named in a manifest.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum RegRange {
    /// `count` SGPRs from `first`.
    Sgpr {
        /// First register.
        first: u32,
        /// Number of registers.
        count: u32,
    },
    /// `count` VGPRs from `first`.
    Vgpr {
        /// First register.
        first: u32,
        /// Number of registers.
        count: u32,
    },
    /// M0.
    M0,
    /// EXEC (64 bits).
    Exec,
    /// VCC (64 bits).
    Vcc,
}

/// A register name that does not parse: the name as written and what is wrong.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RegError {
    /// A range without its `:`.
    #[error("register range `{name}` needs the form x[a:b]")]
    Form {
        /// The name as written.
        name: String,
    },
    /// A range whose end is below its start.
    #[error("register range `{name}` ends before it starts")]
    Backwards {
        /// The name as written.
        name: String,
    },
    /// A register number that is not one.
    #[error("bad register number in `{name}`")]
    Number {
        /// The name as written.
        name: String,
    },
    /// A name of no register file.
    #[error("unknown register `{name}` (expected sN, s[a:b], vN, v[a:b], m0, exec or vcc)")]
    Unknown {
        /// The name as written.
        name: String,
    },
    /// A range past the end of its register file.
    #[error("register range `{name}` runs past the register file ({file}0–{file}{last})")]
    PastFile {
        /// The name as written.
        name: String,
        /// The file (`s` or `v`).
        file: char,
        /// Its last register.
        last: u32,
    },
}

impl RegRange {
    /// Parses a register name; the error says what is wrong.
    pub fn parse(name: &str) -> Result<RegRange, RegError> {
        let n = name.trim().to_ascii_lowercase();
        match n.as_str() {
            "m0" => return Ok(RegRange::M0),
            "exec" => return Ok(RegRange::Exec),
            "vcc" => return Ok(RegRange::Vcc),
            _ => {}
        }
        let (file, rest) = n.split_at(n.chars().next().map_or(0, char::len_utf8));
        let (first, count) =
            if let Some(inner) = rest.strip_prefix('[').and_then(|r| r.strip_suffix(']')) {
                let (a, b) = inner.split_once(':').ok_or_else(|| RegError::Form {
                    name: name.to_string(),
                })?;
                let a = parse_index(a, name)?;
                let b = parse_index(b, name)?;
                if b < a {
                    return Err(RegError::Backwards {
                        name: name.to_string(),
                    });
                }
                (a, b - a + 1)
            } else {
                (parse_index(rest, name)?, 1)
            };
        let (limit, letter, make): (u32, char, fn(u32, u32) -> RegRange) = match file {
            "s" => (SGPR_COUNT, 's', |first, count| RegRange::Sgpr {
                first,
                count,
            }),
            "v" => (VGPR_COUNT, 'v', |first, count| RegRange::Vgpr {
                first,
                count,
            }),
            _ => {
                return Err(RegError::Unknown {
                    name: name.to_string(),
                })
            }
        };
        if u64::from(first) + u64::from(count) > u64::from(limit) {
            return Err(RegError::PastFile {
                name: name.to_string(),
                file: letter,
                last: limit - 1,
            });
        }
        Ok(make(first, count))
    }

    /// Number of 32-bit values the range holds.
    pub fn dwords(self) -> u32 {
        match self {
            RegRange::Sgpr { count, .. } | RegRange::Vgpr { count, .. } => count,
            RegRange::M0 => 1,
            RegRange::Exec | RegRange::Vcc => 2,
        }
    }
}

fn parse_index(s: &str, name: &str) -> Result<u32, RegError> {
    let bad = || RegError::Number {
        name: name.to_string(),
    };
    let s = s.trim();
    if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()) || s.len() > 4 {
        return Err(bad());
    }
    s.parse().map_err(|_| bad())
}

impl fmt::Display for RegRange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            RegRange::Sgpr { first, count: 1 } => write!(f, "s{first}"),
            RegRange::Sgpr { first, count } => write!(f, "s[{}:{}]", first, first + count - 1),
            RegRange::Vgpr { first, count: 1 } => write!(f, "v{first}"),
            RegRange::Vgpr { first, count } => write!(f, "v[{}:{}]", first, first + count - 1),
            RegRange::M0 => f.write_str("m0"),
            RegRange::Exec => f.write_str("exec"),
            RegRange::Vcc => f.write_str("vcc"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_prints() {
        for (text, want) in [
            ("s5", RegRange::Sgpr { first: 5, count: 1 }),
            ("s[4:11]", RegRange::Sgpr { first: 4, count: 8 }),
            ("v[8:11]", RegRange::Vgpr { first: 8, count: 4 }),
            ("V0", RegRange::Vgpr { first: 0, count: 1 }),
            ("m0", RegRange::M0),
            ("exec", RegRange::Exec),
        ] {
            assert_eq!(RegRange::parse(text), Ok(want), "{text}");
            assert_eq!(RegRange::parse(&want.to_string()), Ok(want));
        }
    }

    #[test]
    fn rejects_bad_names() {
        for bad in [
            "",
            "s",
            "x3",
            "s[4]",
            "s[11:4]",
            "v256",
            "v[250:257]",
            "s106",
            "s[104:111]",
            "s99999999999",
            "v[-1:2]",
            "sé",
        ] {
            assert!(RegRange::parse(bad).is_err(), "{bad}");
        }
    }
}
