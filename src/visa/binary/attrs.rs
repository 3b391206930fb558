//! Attributes of kernels and variables: a string-pool name, a size byte and
//! that many value bytes. The binary does not say whether a value is an
//! integer or a string, so the attribute's name decides.

use super::cursor::{Cur, Res};
use super::symbols::Pool;
use crate::visa::AttrValue;

/// Kernel attributes whose value is a string; the rest are integers. This is
/// the table IGC's reader uses (`VISAAttributes.def`).
const STRING_ATTRS: &[&str] = &["OutputAsmPath", "AsmName"];
/// Values of the `Target` attribute (`VISATarget`), as the text spells them.
const TARGETS: &[&str] = &["cm", "3d"];

/// A raw attribute: its name and value bytes.
pub(crate) fn attribute<'a>(c: &mut Cur<'a>, pool: &Pool<'a>) -> Res<(String, &'a [u8])> {
    let name = pool.name(c, "attribute name index")?.to_string();
    let len = usize::from(c.u8("attribute size")?);
    Ok((name, c.take(len, "attribute value")?))
}

/// A kernel attribute's value: strings for the string attributes, `Target`
/// by name, little-endian integers otherwise.
pub(crate) fn kernel_attr_value(name: &str, bytes: &[u8]) -> Result<Option<AttrValue>, String> {
    if STRING_ATTRS.contains(&name) {
        return text_value(name, bytes).map(|s| Some(AttrValue::Str(s)));
    }
    let n = int_value(name, bytes)?;
    Ok(match (name, n) {
        (_, None) => None,
        ("Target", Some(t)) => Some(
            TARGETS
                .get(t as usize)
                .map_or(AttrValue::Int(t), |s| AttrValue::Str(s.to_string())),
        ),
        (_, Some(n)) => Some(AttrValue::Int(n)),
    })
}

/// An integer attribute of 0, 1, 2, 4 or 8 bytes (`None` for 0: a flag).
fn int_value(name: &str, bytes: &[u8]) -> Result<Option<i64>, String> {
    if !matches!(bytes.len(), 0 | 1 | 2 | 4 | 8) {
        return Err(format!(
            "attribute `{name}` has a {}-byte value; integer attributes have 0, 1, 2, 4 or 8",
            bytes.len()
        ));
    }
    if bytes.is_empty() {
        return Ok(None);
    }
    let mut b = [0u8; 8];
    b[..bytes.len()].copy_from_slice(bytes);
    i64::try_from(u64::from_le_bytes(b))
        .map(Some)
        .map_err(|_| format!("attribute `{name}` value is too large"))
}

/// A string attribute value: printable, so it prints as `"..."` in one line.
fn text_value(name: &str, bytes: &[u8]) -> Result<String, String> {
    match std::str::from_utf8(bytes) {
        Ok(s) if !s.chars().any(|ch| ch.is_control() || ch == '"') => Ok(s.to_string()),
        _ => Err(format!(
            "attribute `{name}` is not a printable string without quotes"
        )),
    }
}

/// A variable's attributes, as the text `attrs={...}` keeps them: `Name`,
/// `Name=int` or `Name="text"`, comma-separated; `None` when there are none.
pub(crate) fn var_attrs<'a>(c: &mut Cur<'a>, pool: &Pool<'a>) -> Res<Option<String>> {
    let at = c.pos;
    let n = u64::from(c.u8("attribute count")?);
    let n = c.count(n, 5, at, "attribute")?;
    if n == 0 {
        return Ok(None);
    }
    let mut parts = Vec::with_capacity(n);
    for _ in 0..n {
        let at = c.pos;
        let (name, bytes) = attribute(c, pool)?;
        let part = match int_value(&name, bytes) {
            Ok(None) => name,
            Ok(Some(v)) => format!("{name}={v}"),
            Err(_) => format!(
                "{name}=\"{}\"",
                text_value(&name, bytes).map_err(|m| Cur::err_at(at, m))?
            ),
        };
        parts.push(part);
    }
    Ok(Some(parts.join(", ")))
}
