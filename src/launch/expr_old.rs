//! Per-lane initial values: expressions over `lane`, `wave`, `quad`, `wave_size`.
//!
//! SPEC.md: integer arithmetic while every operand is an integer (`/` truncates, `%`
//! is the remainder), floating point as soon as one operand is; a `u32` result
//! wraps modulo 2^32, an `f32` result is rounded to the nearest f32. Parsing and
//! evaluation are the `evalexpr` crate's; this module only fixes the variables
//! and the conversions. Expressions are compiled once and evaluated per lane.

use evalexpr::{
    build_operator_tree, ContextWithMutableVariables, DefaultNumericTypes, Node, Value,
};

/// The variables an expression may use, for one lane.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LaneVars {
    /// Lane index within the wave (0..wave_size).
    pub lane: u32,
    /// Wave index within the launch.
    pub wave: u32,
    /// Wave size (64, or 32 on gfx10+).
    pub wave_size: u32,
}

/// A compiled expression.
#[derive(Clone, Debug)]
pub struct LaneExpr {
    text: String,
    node: Node<DefaultNumericTypes>,
}

/// The number an expression produced.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Number {
    /// Every operand was an integer.
    Int(i64),
    /// At least one operand was a float.
    Float(f64),
}

impl LaneExpr {
    /// Compiles `text` and evaluates it once (lane 0 of wave 0), so that an
    /// expression that cannot evaluate (a dangling operator, an unknown variable,
    /// an assignment) is rejected when the manifest is read, not mid-launch.
    pub fn parse(text: &str) -> Result<LaneExpr, String> {
        let node = build_operator_tree::<DefaultNumericTypes>(text)
            .map_err(|e| format!("cannot parse expression `{text}`: {e}"))?;
        let e = LaneExpr {
            text: text.to_string(),
            node,
        };
        e.eval(LaneVars {
            lane: 0,
            wave: 0,
            wave_size: 64,
        })?;
        Ok(e)
    }

    /// The expression as written.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// Evaluates for one lane.
    pub fn eval(&self, v: LaneVars) -> Result<Number, String> {
        let mut ctx = evalexpr::HashMapContext::<DefaultNumericTypes>::new();
        let vars = [
            ("lane", v.lane),
            ("wave", v.wave),
            ("quad", v.lane / 4),
            ("wave_size", v.wave_size),
        ];
        for (name, value) in vars {
            ctx.set_value(name.into(), Value::from_int(i64::from(value)))
                .map_err(|e| e.to_string())?;
        }
        match self.node.eval_with_context(&ctx) {
            Ok(Value::Int(i)) => Ok(Number::Int(i)),
            Ok(Value::Float(f)) => Ok(Number::Float(f)),
            Ok(other) => Err(format!(
                "expression `{}` gives {other:?}, not a number",
                self.text
            )),
            Err(e) => Err(format!("expression `{}`: {e}", self.text)),
        }
    }

    /// Evaluates to a `u32` register value: integers wrap modulo 2^32 (so
    /// `lane - 20` is two's complement); a float result is an error, because the
    /// SPEC gives no rounding for it (write `f32 = …`, or an integer expression).
    pub fn eval_u32(&self, v: LaneVars) -> Result<u32, String> {
        match self.eval(v)? {
            Number::Int(i) => Ok(i.rem_euclid(1 << 32) as u32),
            Number::Float(f) => Err(format!(
                "expression `{}` gives the float {f} for a u32 register; use f32 = … or integer arithmetic",
                self.text
            )),
        }
    }

    /// Evaluates to the bits of an `f32`: the value rounded to the nearest f32
    /// (Rust's `as f32` rounds to nearest, ties to even).
    pub fn eval_f32_bits(&self, v: LaneVars) -> Result<u32, String> {
        let f = match self.eval(v)? {
            Number::Int(i) => i as f64,
            Number::Float(f) => f,
        };
        Ok((f as f32).to_bits())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(lane: u32) -> LaneVars {
        LaneVars {
            lane,
            wave: 3,
            wave_size: 64,
        }
    }

    #[test]
    fn integer_rules() {
        // 7 / 2 truncates to 3 while both operands are integers.
        assert_eq!(LaneExpr::parse("lane / 2").unwrap().eval_u32(at(7)), Ok(3));
        assert_eq!(LaneExpr::parse("lane % 8").unwrap().eval_u32(at(13)), Ok(5));
        // 5 - 20 = -15 wraps to 2^32 - 15.
        assert_eq!(
            LaneExpr::parse("lane - 20").unwrap().eval_u32(at(5)),
            Ok(0xffff_fff1)
        );
        assert_eq!(LaneExpr::parse("quad").unwrap().eval_u32(at(13)), Ok(3));
        assert_eq!(
            LaneExpr::parse("wave * wave_size").unwrap().eval_u32(at(0)),
            Ok(192)
        );
    }

    #[test]
    fn float_rules() {
        // (13 % 8 + 0.5) / 8 = 5.5 / 8 = 0.6875, exact in f32.
        let e = LaneExpr::parse("((lane % 8) + 0.5) / 8").unwrap();
        assert_eq!(e.eval_f32_bits(at(13)), Ok(0.6875f32.to_bits()));
        // 0.1 is rounded to the nearest f32 (0x3dcccccd).
        assert_eq!(
            LaneExpr::parse("0.1").unwrap().eval_f32_bits(at(0)),
            Ok(0x3dcc_cccd)
        );
        assert!(LaneExpr::parse("lane / 64.0")
            .unwrap()
            .eval_u32(at(1))
            .is_err());
    }

    #[test]
    fn bad_expressions_are_errors() {
        for bad in [
            "lane +", "nope + 1", "lane = 3", "1 / 0", "(lane", "\"text\"",
        ] {
            assert!(LaneExpr::parse(bad).is_err(), "{bad}");
        }
        // Fails only for some lanes: accepted at parse time, an error for lane 4.
        let e = LaneExpr::parse("1 / (lane - 4)").unwrap();
        assert!(e.eval(at(4)).is_err());
    }
}
