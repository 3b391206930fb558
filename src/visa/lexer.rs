//! Splits one line of `.visaasm` text into tokens.
//!
//! vISA text is line-oriented (one statement per line), so the lexer works a
//! line at a time and the parser reports errors by line number. Names,
//! numbers and suffix words are all [`Tok::Word`]s: `V0059`, `0x3f800000`,
//! `32word` and `M1_NM` share one shape, and the parser decides what a word
//! means from where it stands.

/// One token and the byte range of the line it came from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Token {
    /// What the token is.
    pub tok: Tok,
    /// Byte offset of its first character in the line.
    pub start: usize,
    /// Byte offset just past its last character.
    pub end: usize,
}

/// Token kinds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Tok {
    /// A run of letters, digits, `_`, `%` and `$`.
    Word(String),
    /// A double-quoted string, without the quotes (no escapes in vISA text).
    Str(String),
    /// Any other single printable character: `( ) < > , ; . = ! : - { } [ ]`.
    Punct(char),
}

fn is_word_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_' || c == '%' || c == '$'
}

/// A character the lexer does not take (the caller adds the line number).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LexError {
    /// A `/` that does not start a `//` comment.
    #[error("stray `/` (comments start with `//`)")]
    StraySlash,
    /// A `"` without its closing `"`.
    #[error("unterminated string")]
    Unterminated,
    /// A character no token starts with.
    #[error("unexpected character {0:?}")]
    Unexpected(char),
}

/// Tokenizes `line`, dropping a `//` comment. Errors name the offending
/// character; the caller adds the line number.
pub fn lex(line: &str) -> Result<Vec<Token>, LexError> {
    let mut out = Vec::new();
    let mut chars = line.char_indices().peekable();
    while let Some(&(i, c)) = chars.peek() {
        if c.is_whitespace() {
            chars.next();
        } else if c == '/' {
            if line[i..].starts_with("//") {
                break;
            }
            return Err(LexError::StraySlash);
        } else if c == '"' {
            chars.next();
            let mut end = None;
            for (j, d) in chars.by_ref() {
                if d == '"' {
                    end = Some(j);
                    break;
                }
            }
            let Some(j) = end else {
                return Err(LexError::Unterminated);
            };
            out.push(Token {
                tok: Tok::Str(line[i + 1..j].to_string()),
                start: i,
                end: j + 1,
            });
        } else if is_word_char(c) {
            let mut end = i;
            while let Some(&(j, d)) = chars.peek() {
                if !is_word_char(d) {
                    break;
                }
                end = j + d.len_utf8();
                chars.next();
            }
            out.push(Token {
                tok: Tok::Word(line[i..end].to_string()),
                start: i,
                end,
            });
        } else if "()<>,;.=!:-{}[]".contains(c) {
            chars.next();
            out.push(Token {
                tok: Tok::Punct(c),
                start: i,
                end: i + 1,
            });
        } else {
            return Err(LexError::Unexpected(c));
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(line: &str) -> Vec<String> {
        lex(line)
            .unwrap()
            .into_iter()
            .map(|t| match t.tok {
                Tok::Word(w) => w,
                Tok::Str(s) => format!("\"{s}\""),
                Tok::Punct(c) => c.to_string(),
            })
            .collect()
    }

    #[test]
    fn visa_lexes_sampler_line() {
        assert_eq!(
            words("sample_lz.RGBA (M5, 16)  0x0:uw S0 T6 V0060.0 // c"),
            [
                "sample_lz",
                ".",
                "RGBA",
                "(",
                "M5",
                ",",
                "16",
                ")",
                "0x0",
                ":",
                "uw",
                "S0",
                "T6",
                "V0060",
                ".",
                "0"
            ]
        );
        assert_eq!(words(".kernel \"k\""), [".", "kernel", "\"k\""]);
    }

    #[test]
    fn visa_lex_errors() {
        assert!(lex("\"open").is_err());
        assert!(lex("a / b").is_err());
        assert!(lex("a # b").is_err());
    }
}
