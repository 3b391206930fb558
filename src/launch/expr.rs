//! Per-lane initial values: expressions over `lane`, `wave`, `quad` and
//! `wave_size`, compiled once and evaluated per lane.
//!
//! # The language
//!
//! SPEC.md ("Launch manifest") fixes the arithmetic: integer arithmetic while
//! every operand is an integer (`/` truncates toward zero, `%` is the
//! remainder with the sign of the dividend), floating point (f64) as soon as
//! one operand is a float; a `u32` result wraps modulo 2^32, an `f32` result is
//! rounded to the nearest f32. Integers are 64-bit: an overflow, a division or
//! remainder by zero is an error (never a wrap, never a panic); float division
//! by zero gives ±inf or NaN as IEEE 754 says.
//!
//! | what | spelling |
//! | --- | --- |
//! | variables | `lane` (0..wave_size), `wave`, `quad` (= lane / 4), `wave_size` |
//! | integers | `42`, `0x2a` (64-bit signed; a literal past that range is an error) |
//! | floats | `0.5`, `.5`, `5.`, `1e-3`, `2.5E+2`, `inf`, `nan` (Rust's `f64` syntax) |
//! | truth values | `true`, `false`, and what comparisons give |
//! | operators, loosest first | `\|\|`; `&&`; `== != < <= > >=`; `+ -`; `* / %`; prefix `-` and `!`; `^` |
//! | the one function | `if(condition, then, else)` |
//!
//! Every binary operator associates to the left (`2 ^ 3 ^ 2` is `(2 ^ 3) ^ 2`)
//! and `^` binds tighter than a prefix minus (`-2 ^ 2` is `-(2 ^ 2)`), as in
//! the `evalexpr` crate these expressions were first evaluated with; `^` is a
//! power and always gives a float. Comparisons of an integer with a float
//! compare the numbers (`1 == 1.0` is true); `&&`, `||`, `!` and `if`'s
//! condition take truth values. Both branches of `if` and both sides of `&&`
//! and `||` are evaluated, so an error in either is an error. The result must
//! be a number.
//!
//! # Limits
//!
//! An expression may nest at most [`MAX_DEPTH`] levels, counting every open
//! parenthesis or `if(`, every operator still waiting for its right-hand
//! side, and every run of prefix operators; deeper text is refused in one
//! line. After constant folding it may take at most [`MAX_OPS`] steps per
//! lane (a sum of 200,000 literals folds to one constant and is accepted; a
//! sum of 200,000 `lane`s is refused).
//!
//! # How it runs
//!
//! One pass turns the text into tokens (`Lexer`) and the tokens into a
//! postfix program (`Compiler`, Dijkstra's shunting-yard algorithm with an
//! explicit operator stack): no recursion, so no input can overflow the Rust
//! stack, and every token is pushed and popped at most once, so compiling is
//! linear in the text. A run of one prefix operator (`- - - x`) is one stack
//! entry and compiles to at most two steps. Operations whose operands are all
//! constants are computed while compiling, so an expression that uses no
//! variable is one constant. [`LaneExpr::eval`] runs the program for one lane
//! over a value stack whose depth is known after compiling (a small array on
//! the Rust stack for all but deeply nested expressions);
//! [`LaneExpr::eval_lanes`] runs it once for all the lanes of a wave, one
//! column of values per stack slot, in storage reused from call to call. No
//! hashing, no allocation per lane.

use std::fmt;

/// The deepest nesting an expression may have (see the module docs).
pub const MAX_DEPTH: usize = 64;

/// The most steps a compiled expression may take per lane.
pub const MAX_OPS: usize = 1024;

/// Value-stack slots evaluated without a heap allocation.
const INLINE_STACK: usize = 16;

/// The most characters of an expression an error message repeats.
const SHOWN_CHARS: usize = 48;

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

/// The number an expression produced.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Number {
    /// Every operand was an integer.
    Int(i64),
    /// At least one operand was a float.
    Float(f64),
}

/// Why an expression is refused: it does not compile, or it gives no value
/// the register takes. Each names the expression (as written, shortened and
/// escaped to one line).
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum ExprError {
    /// The text does not compile (or a constant part of it cannot be computed).
    #[error("cannot parse expression `{}`: {source}", shown(text))]
    Parse {
        /// The expression.
        text: String,
        /// Why.
        source: ParseError,
    },
    /// The value is a truth value, not a number.
    #[error(
        "expression `{}` gives the truth value {value}, not a number",
        shown(text)
    )]
    TruthValue {
        /// The expression.
        text: String,
        /// The value.
        value: bool,
    },
    /// Evaluation fails for one lane.
    #[error(
        "expression `{}`: {source} at lane = {lane}, wave = {wave}",
        shown(text)
    )]
    Lane {
        /// The expression.
        text: String,
        /// Why.
        source: EvalError,
        /// The lane.
        lane: u32,
        /// The wave.
        wave: u32,
    },
    /// A float for a `u32` register (the SPEC gives no rounding for it).
    #[error("expression `{}` gives the float {value} for a u32 register; use f32 = … or integer arithmetic", shown(text))]
    FloatForU32 {
        /// The expression.
        text: String,
        /// The value.
        value: f64,
    },
}

/// Why an expression does not compile.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ParseError {
    /// What is wrong at a byte of the text.
    #[error("{message} (at byte {offset})")]
    At {
        /// The byte offset.
        offset: usize,
        /// What is wrong there.
        message: String,
    },
    /// A `(` or `if(` that is never closed.
    #[error("{what} is never closed")]
    Unclosed {
        /// What is open: a `(` or an `if(`.
        what: &'static str,
    },
    /// More than [`MAX_OPS`] steps per lane.
    #[error("the expression takes more than {MAX_OPS} steps per lane after folding its constants")]
    TooLong,
    /// A constant part cannot be computed.
    #[error(transparent)]
    Constant(#[from] EvalError),
}

/// Why an operation of an expression has no value.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum EvalError {
    /// An integer result past 64 bits.
    #[error("integer overflow: {operation}")]
    Overflow {
        /// The operation, as its operands read.
        operation: String,
    },
    /// An integer `/` or `%` by zero.
    #[error("division by zero: {dividend} {operator} 0")]
    DivisionByZero {
        /// The dividend.
        dividend: i64,
        /// `/` or `%`.
        operator: &'static str,
    },
    /// An operand of the wrong type.
    #[error("`{operator}` needs {needs}, not {got}")]
    Type {
        /// The operator (`-`, `!`, `if`, a binary operator).
        operator: &'static str,
        /// What it takes.
        needs: &'static str,
        /// What it got.
        got: String,
    },
    /// A compiled program that does not fit its value stack (a compiler bug).
    #[error("internal error: the value stack of a compiled expression")]
    Internal,
}

/// Reusable storage for [`LaneExpr::eval_lanes`]: after the first calls it
/// has grown to what the expressions need and no call allocates.
#[derive(Clone, Debug, Default)]
pub struct Scratch(Vec<Value>);

/// A compiled expression.
#[derive(Clone, Debug)]
pub struct LaneExpr {
    text: String,
    /// The postfix program.
    ops: Vec<Op>,
    /// The value-stack depth the program reaches.
    stack: usize,
}

/// A value while evaluating.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Value {
    Int(i64),
    Float(f64),
    Bool(bool),
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            Value::Int(i) => write!(f, "{i}"),
            Value::Float(x) => write!(f, "{x:?}"),
            Value::Bool(b) => write!(f, "{b}"),
        }
    }
}

/// A variable.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Var {
    Lane,
    Wave,
    Quad,
    WaveSize,
}

impl Var {
    fn named(word: &str) -> Option<Var> {
        Some(match word {
            "lane" => Var::Lane,
            "wave" => Var::Wave,
            "quad" => Var::Quad,
            "wave_size" => Var::WaveSize,
            _ => return None,
        })
    }

    fn value(self, v: LaneVars) -> i64 {
        i64::from(match self {
            Var::Lane => v.lane,
            Var::Wave => v.wave,
            Var::Quad => v.lane / 4,
            Var::WaveSize => v.wave_size,
        })
    }
}

/// Prefix operators. `NegNeg` and `NotNot` are the compiled form of an even
/// run of them: the value unchanged, after the checks one `-` or `!` makes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Unary {
    Neg,
    Not,
    NegNeg,
    NotNot,
}

/// Binary operators.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Binary {
    Or,
    And,
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    Add,
    Sub,
    Mul,
    Div,
    Rem,
    Pow,
}

/// The binding strength of prefix operators: between `* / %` and `^`
/// (except right after `^`, see `Compiler::run`).
const PREFIX_PRECEDENCE: u8 = 6;

impl Binary {
    /// Higher binds tighter; all binary operators associate to the left.
    fn precedence(self) -> u8 {
        match self {
            Binary::Or => 1,
            Binary::And => 2,
            Binary::Eq | Binary::Ne | Binary::Lt | Binary::Le | Binary::Gt | Binary::Ge => 3,
            Binary::Add | Binary::Sub => 4,
            Binary::Mul | Binary::Div | Binary::Rem => 5,
            Binary::Pow => 7,
        }
    }

    fn symbol(self) -> &'static str {
        match self {
            Binary::Or => "||",
            Binary::And => "&&",
            Binary::Eq => "==",
            Binary::Ne => "!=",
            Binary::Lt => "<",
            Binary::Le => "<=",
            Binary::Gt => ">",
            Binary::Ge => ">=",
            Binary::Add => "+",
            Binary::Sub => "-",
            Binary::Mul => "*",
            Binary::Div => "/",
            Binary::Rem => "%",
            Binary::Pow => "^",
        }
    }
}

/// One step of a compiled expression (postfix order).
#[derive(Clone, Copy, Debug, PartialEq)]
enum Op {
    /// Pushes a constant.
    Push(Value),
    /// Pushes a variable.
    Var(Var),
    /// Replaces the top value.
    Unary(Unary),
    /// Pops the right operand and replaces the left one.
    Binary(Binary),
    /// `if`: pops else and then, replaces the condition with one of them.
    Select,
}

impl LaneExpr {
    /// Compiles `text` and evaluates it once (lane 0 of wave 0, wave size 64),
    /// so that an expression that cannot evaluate (a dangling operator, an
    /// unknown variable, a truth value where a number belongs) is rejected
    /// when the manifest is read, not mid-launch. The error is one line.
    pub fn parse(text: &str) -> Result<LaneExpr, ExprError> {
        let (ops, stack) = Compiler::run(text).map_err(|source| ExprError::Parse {
            text: text.to_string(),
            source,
        })?;
        let e = LaneExpr {
            text: text.to_string(),
            ops,
            stack,
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

    /// True when the value can differ between waves (the expression reads
    /// `wave`): the others give every wave the same lane values.
    pub fn uses_wave(&self) -> bool {
        self.ops.contains(&Op::Var(Var::Wave))
    }

    /// The steps one lane takes (1 for a constant).
    pub fn steps(&self) -> usize {
        self.ops.len()
    }

    /// Evaluates for one lane.
    pub fn eval(&self, v: LaneVars) -> Result<Number, ExprError> {
        let value = if self.stack <= INLINE_STACK {
            self.exec(v, &mut [Value::Int(0); INLINE_STACK])
        } else {
            self.exec(v, &mut vec![Value::Int(0); self.stack])
        };
        match value {
            Ok(Value::Int(i)) => Ok(Number::Int(i)),
            Ok(Value::Float(f)) => Ok(Number::Float(f)),
            Ok(Value::Bool(b)) => Err(ExprError::TruthValue {
                text: self.text.clone(),
                value: b,
            }),
            Err(source) => Err(ExprError::Lane {
                text: self.text.clone(),
                source,
                lane: v.lane,
                wave: v.wave,
            }),
        }
    }

    /// Evaluates to a `u32` register value: integers wrap modulo 2^32 (so
    /// `lane - 20` is two's complement); a float result is an error, because the
    /// SPEC gives no rounding for it (write `f32 = …`, or an integer expression).
    pub fn eval_u32(&self, v: LaneVars) -> Result<u32, ExprError> {
        match self.eval(v)? {
            Number::Int(i) => Ok(i.rem_euclid(1 << 32) as u32),
            Number::Float(f) => Err(ExprError::FloatForU32 {
                text: self.text.clone(),
                value: f,
            }),
        }
    }

    /// Evaluates to the bits of an `f32`: the value rounded to the nearest f32
    /// (Rust's `as f32` rounds to nearest, ties to even; an integer goes
    /// through f64 first, as it always has).
    pub fn eval_f32_bits(&self, v: LaneVars) -> Result<u32, ExprError> {
        let f = match self.eval(v)? {
            Number::Int(i) => i as f64,
            Number::Float(f) => f,
        };
        Ok((f as f32).to_bits())
    }

    /// Evaluates lanes `0..wave_size` of wave `wave` into `out` (cleared
    /// first): `u32` values, or with `as_f32` the bits of `f32` values, as
    /// [`LaneExpr::eval_u32`] and [`LaneExpr::eval_f32_bits`] give them lane
    /// by lane. The program runs once over all the lanes (a column of
    /// values per stack slot in `scratch`, reused from call to call), so the
    /// cost per lane is a few machine operations per step. When some lane
    /// fails, the lanes are evaluated one by one to report the first failing
    /// lane exactly as [`LaneExpr::eval`] does.
    pub fn eval_lanes(
        &self,
        wave: u32,
        wave_size: u32,
        as_f32: bool,
        scratch: &mut Scratch,
        out: &mut Vec<u32>,
    ) -> Result<(), ExprError> {
        out.clear();
        if self.exec_column(wave, wave_size, &mut scratch.0).is_ok() {
            let lanes = scratch.0.get(..wave_size as usize).unwrap_or(&[]);
            for v in lanes {
                out.push(match (*v, as_f32) {
                    (Value::Int(i), false) => i.rem_euclid(1 << 32) as u32,
                    (Value::Int(i), true) => (i as f64 as f32).to_bits(),
                    (Value::Float(f), true) => (f as f32).to_bits(),
                    // A float for a u32 or a truth value: the error comes from
                    // the lane-by-lane evaluation below.
                    _ => break,
                });
            }
            if out.len() == wave_size as usize {
                return Ok(());
            }
        }
        out.clear();
        for lane in 0..wave_size {
            let vars = LaneVars {
                lane,
                wave,
                wave_size,
            };
            out.push(if as_f32 {
                self.eval_f32_bits(vars)?
            } else {
                self.eval_u32(vars)?
            });
        }
        Ok(())
    }

    /// [`LaneExpr::exec`] for lanes `0..wave_size` at once: `stack` holds one
    /// column of `wave_size` values per slot, the top column last. `Err(())`
    /// when some lane fails (which, and why, is `exec`'s to say).
    fn exec_column(&self, wave: u32, wave_size: u32, stack: &mut Vec<Value>) -> Result<(), ()> {
        let n = wave_size as usize;
        stack.clear();
        for op in &self.ops {
            let len = stack.len();
            match *op {
                Op::Push(x) => stack.extend(std::iter::repeat_n(x, n)),
                Op::Var(var) => stack.extend((0..wave_size).map(|lane| {
                    Value::Int(var.value(LaneVars {
                        lane,
                        wave,
                        wave_size,
                    }))
                })),
                Op::Unary(u) => {
                    for x in stack.get_mut(len.checked_sub(n).ok_or(())?..).ok_or(())? {
                        *x = unary(u, *x).map_err(drop)?;
                    }
                }
                Op::Binary(b) => {
                    let top = stack
                        .get_mut(len.checked_sub(2 * n).ok_or(())?..)
                        .ok_or(())?;
                    let (left, right) = top.split_at_mut(n);
                    binary_column(b, left, right)?;
                    stack.truncate(len - n);
                }
                Op::Select => {
                    let top = stack
                        .get_mut(len.checked_sub(3 * n).ok_or(())?..)
                        .ok_or(())?;
                    let (cond, rest) = top.split_at_mut(n);
                    let (then, other) = rest.split_at(n);
                    for ((c, t), e) in cond.iter_mut().zip(then).zip(other) {
                        *c = select(*c, *t, *e).map_err(drop)?;
                    }
                    stack.truncate(len - 2 * n);
                }
            }
        }
        if stack.len() == n {
            Ok(())
        } else {
            Err(())
        }
    }

    /// Runs the program on `stack` (at least `self.stack` slots). The
    /// compiler guarantees the depths; a slot outside `stack` would be a
    /// compiler bug, reported as an error rather than a panic.
    fn exec(&self, v: LaneVars, stack: &mut [Value]) -> Result<Value, EvalError> {
        const BUG: EvalError = EvalError::Internal;
        let mut sp = 0usize;
        for op in &self.ops {
            match *op {
                Op::Push(x) => {
                    *stack.get_mut(sp).ok_or(BUG)? = x;
                    sp += 1;
                }
                Op::Var(var) => {
                    *stack.get_mut(sp).ok_or(BUG)? = Value::Int(var.value(v));
                    sp += 1;
                }
                Op::Unary(u) => {
                    let x = stack.get_mut(sp.wrapping_sub(1)).ok_or(BUG)?;
                    *x = unary(u, *x)?;
                }
                Op::Binary(b) => {
                    sp = sp.checked_sub(1).ok_or(BUG)?;
                    let right = *stack.get(sp).ok_or(BUG)?;
                    let left = stack.get_mut(sp.wrapping_sub(1)).ok_or(BUG)?;
                    *left = binary(b, *left, right)?;
                }
                Op::Select => {
                    sp = sp.checked_sub(2).ok_or(BUG)?;
                    let (then, other) =
                        (*stack.get(sp).ok_or(BUG)?, *stack.get(sp + 1).ok_or(BUG)?);
                    let cond = stack.get_mut(sp.wrapping_sub(1)).ok_or(BUG)?;
                    *cond = select(*cond, then, other)?;
                }
            }
        }
        match (sp, stack.first()) {
            (1, Some(x)) => Ok(*x),
            _ => Err(BUG),
        }
    }
}

/// Up to [`SHOWN_CHARS`] characters of `text` for a message, control
/// characters escaped so that the message stays on one line.
fn shown(text: &str) -> String {
    let mut out = String::new();
    for (n, c) in text.chars().enumerate() {
        if n == SHOWN_CHARS {
            out.push('…');
            break;
        }
        if c.is_control() {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
    }
    out
}

fn type_name(v: Value) -> &'static str {
    match v {
        Value::Int(_) => "the integer",
        Value::Float(_) => "the float",
        Value::Bool(_) => "the truth value",
    }
}

fn as_f64(v: Value) -> Option<f64> {
    match v {
        Value::Int(i) => Some(i as f64),
        Value::Float(f) => Some(f),
        Value::Bool(_) => None,
    }
}

fn unary(u: Unary, x: Value) -> Result<Value, EvalError> {
    match (u, x) {
        // -(i64::MIN) has no i64; NegNeg makes the same check.
        (Unary::Neg | Unary::NegNeg, Value::Int(i)) => match i.checked_neg() {
            None => Err(EvalError::Overflow {
                operation: format!("-({i})"),
            }),
            Some(n) if u == Unary::Neg => Ok(Value::Int(n)),
            Some(_) => Ok(x),
        },
        (Unary::Neg, Value::Float(f)) => Ok(Value::Float(-f)),
        (Unary::NegNeg, Value::Float(_)) => Ok(x),
        (Unary::Not, Value::Bool(b)) => Ok(Value::Bool(!b)),
        (Unary::NotNot, Value::Bool(_)) => Ok(x),
        (Unary::Neg | Unary::NegNeg, Value::Bool(b)) => Err(EvalError::Type {
            operator: "-",
            needs: "a number",
            got: format!("the truth value {b}"),
        }),
        (Unary::Not | Unary::NotNot, n) => Err(EvalError::Type {
            operator: "!",
            needs: "a truth value",
            got: format!("{} {n}", type_name(n)),
        }),
    }
}

fn binary(op: Binary, a: Value, b: Value) -> Result<Value, EvalError> {
    let sym = op.symbol();
    let wrong = || {
        let need = match op {
            Binary::And | Binary::Or => "truth values",
            Binary::Eq | Binary::Ne => "two numbers or two truth values",
            _ => "numbers",
        };
        Err(EvalError::Type {
            operator: sym,
            needs: need,
            got: format!("{} {a} and {} {b}", type_name(a), type_name(b)),
        })
    };
    use Value::{Bool, Float, Int};
    Ok(match op {
        Binary::Or | Binary::And => match (a, b) {
            (Bool(x), Bool(y)) => Bool(if op == Binary::And { x && y } else { x || y }),
            _ => return wrong(),
        },
        Binary::Eq | Binary::Ne => {
            let equal = match (a, b) {
                (Int(x), Int(y)) => x == y,
                (Bool(x), Bool(y)) => x == y,
                (Bool(_), _) | (_, Bool(_)) => return wrong(),
                _ => as_f64(a) == as_f64(b),
            };
            Bool(equal == (op == Binary::Eq))
        }
        Binary::Lt | Binary::Le | Binary::Gt | Binary::Ge => {
            let ord = match (a, b) {
                (Int(x), Int(y)) => Some(x.cmp(&y)),
                (Bool(_), _) | (_, Bool(_)) => return wrong(),
                _ => as_f64(a).partial_cmp(&as_f64(b)),
            };
            // A NaN operand compares false every way (IEEE 754).
            Bool(ord.is_some_and(|o| match op {
                Binary::Lt => o.is_lt(),
                Binary::Le => o.is_le(),
                Binary::Gt => o.is_gt(),
                _ => o.is_ge(),
            }))
        }
        Binary::Pow => match (as_f64(a), as_f64(b)) {
            (Some(x), Some(y)) => Float(x.powf(y)),
            _ => return wrong(),
        },
        Binary::Add | Binary::Sub | Binary::Mul | Binary::Div | Binary::Rem => match (a, b) {
            (Int(x), Int(y)) => {
                let r = match op {
                    Binary::Add => x.checked_add(y),
                    Binary::Sub => x.checked_sub(y),
                    Binary::Mul => x.checked_mul(y),
                    Binary::Div => x.checked_div(y),
                    _ => x.checked_rem(y),
                };
                match r {
                    Some(r) => Int(r),
                    None if y == 0 && matches!(op, Binary::Div | Binary::Rem) => {
                        return Err(EvalError::DivisionByZero {
                            dividend: x,
                            operator: sym,
                        })
                    }
                    None => {
                        return Err(EvalError::Overflow {
                            operation: format!("{x} {sym} {y}"),
                        })
                    }
                }
            }
            _ => match (as_f64(a), as_f64(b)) {
                (Some(x), Some(y)) => Float(match op {
                    Binary::Add => x + y,
                    Binary::Sub => x - y,
                    Binary::Mul => x * y,
                    Binary::Div => x / y,
                    _ => x % y,
                }),
                _ => return wrong(),
            },
        },
    })
}

/// `left[i] = left[i] op right[i]` for every lane: the integer case of the
/// arithmetic operators inline (the common one), everything else through
/// [`binary`]. `Err(())` when a lane fails.
fn binary_column(op: Binary, left: &mut [Value], right: &[Value]) -> Result<(), ()> {
    macro_rules! int_op {
        ($f:ident) => {
            for (l, r) in left.iter_mut().zip(right) {
                *l = match (*l, *r) {
                    (Value::Int(x), Value::Int(y)) => Value::Int(x.$f(y).ok_or(())?),
                    (x, y) => binary(op, x, y).map_err(drop)?,
                };
            }
        };
    }
    match op {
        Binary::Add => int_op!(checked_add),
        Binary::Sub => int_op!(checked_sub),
        Binary::Mul => int_op!(checked_mul),
        Binary::Div => int_op!(checked_div),
        Binary::Rem => int_op!(checked_rem),
        _ => {
            for (l, r) in left.iter_mut().zip(right) {
                *l = binary(op, *l, *r).map_err(drop)?;
            }
        }
    }
    Ok(())
}

fn select(cond: Value, then: Value, other: Value) -> Result<Value, EvalError> {
    match cond {
        Value::Bool(c) => Ok(if c { then } else { other }),
        n => Err(EvalError::Type {
            operator: "if",
            needs: "a truth value first",
            got: format!("{} {n}", type_name(n)),
        }),
    }
}

/// A token, with the byte offset it starts at.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Tok<'a> {
    Value(Value),
    Var(Var),
    /// A name that is neither a variable nor a literal: a function when a
    /// `(` follows.
    Name(&'a str),
    /// `-`, which is binary or prefix by position.
    Minus,
    /// `!`.
    Bang,
    Binary(Binary),
    Open,
    Close,
    Comma,
}

/// Splits the text into tokens, one at a time. As in `evalexpr`, a word is a
/// maximal run of characters that are not whitespace, an operator character
/// or a parenthesis; a word is a number, `true`/`false`, a variable or a name.
struct Lexer<'a> {
    text: &'a str,
    at: usize,
}

/// Characters that end a word.
fn is_boundary(c: char) -> bool {
    c.is_whitespace() || "+-*/%^(),;=!<>&|\"".contains(c)
}

impl<'a> Lexer<'a> {
    /// The next token and its offset, or `None` at the end.
    fn next(&mut self) -> Result<Option<(usize, Tok<'a>)>, ParseError> {
        let rest = &self.text[self.at..];
        let trimmed = rest.trim_start();
        self.at += rest.len() - trimmed.len();
        let start = self.at;
        let Some(c) = trimmed.chars().next() else {
            return Ok(None);
        };
        let two = trimmed.get(..2).unwrap_or("");
        let (tok, len) = match (c, two) {
            (_, "==") => (Tok::Binary(Binary::Eq), 2),
            (_, "!=") => (Tok::Binary(Binary::Ne), 2),
            (_, "<=") => (Tok::Binary(Binary::Le), 2),
            (_, ">=") => (Tok::Binary(Binary::Ge), 2),
            (_, "&&") => (Tok::Binary(Binary::And), 2),
            (_, "||") => (Tok::Binary(Binary::Or), 2),
            ('<', _) => (Tok::Binary(Binary::Lt), 1),
            ('>', _) => (Tok::Binary(Binary::Gt), 1),
            ('+', _) => (Tok::Binary(Binary::Add), 1),
            ('-', _) => (Tok::Minus, 1),
            ('*', _) => (Tok::Binary(Binary::Mul), 1),
            ('/', _) => (Tok::Binary(Binary::Div), 1),
            ('%', _) => (Tok::Binary(Binary::Rem), 1),
            ('^', _) => (Tok::Binary(Binary::Pow), 1),
            ('!', _) => (Tok::Bang, 1),
            ('(', _) => (Tok::Open, 1),
            (')', _) => (Tok::Close, 1),
            (',', _) => (Tok::Comma, 1),
            ('=', _) => {
                return Err(at(
                    start,
                    "`=` assigns, which an expression cannot; compare with `==`",
                ))
            }
            ('&' | '|', _) => {
                return Err(at(
                    start,
                    format!("`{c}` alone is not an operator (`{c}{c}` is)"),
                ))
            }
            (';', _) => {
                return Err(at(
                    start,
                    "`;` chains statements, which an expression cannot",
                ))
            }
            ('"', _) => return Err(at(start, "a string is not a number")),
            _ => return self.word(start, trimmed).map(Some),
        };
        self.at += len;
        Ok(Some((start, tok)))
    }

    /// The word at `start` (`rest` starts with it).
    fn word(&mut self, start: usize, rest: &'a str) -> Result<(usize, Tok<'a>), ParseError> {
        let len = rest.find(is_boundary).unwrap_or(rest.len());
        let word = &rest[..len];
        self.at += len;
        let tok = if let Some(hex) = word.strip_prefix("0x") {
            Tok::Value(Value::Int(i64::from_str_radix(hex, 16).map_err(|_| {
                at(
                    start,
                    format!("`{}` is not a hexadecimal integer below 2^63", shown(word)),
                )
            })?))
        } else if let Ok(i) = word.parse::<i64>() {
            Tok::Value(Value::Int(i))
        } else if word.bytes().all(|b| b.is_ascii_digit()) {
            return Err(at(
                start,
                format!(
                    "the integer `{}` does not fit in 64 bits (write a float, e.g. `1e20`)",
                    shown(word)
                ),
            ));
        } else if let Ok(f) = word.parse::<f64>() {
            Tok::Value(Value::Float(f))
        } else if let Some(f) = self.exponent(word, &rest[len..]) {
            Tok::Value(Value::Float(f))
        } else if let Ok(b) = word.parse::<bool>() {
            Tok::Value(Value::Bool(b))
        } else if let Some(v) = Var::named(word) {
            Tok::Var(v)
        } else {
            Tok::Name(word)
        };
        Ok((start, tok))
    }

    /// `1e-3`: a word ending in `e` or `E` the lexer cut at the exponent's
    /// sign. When the word, the sign and the next word read as a float, the
    /// two words and the sign are consumed.
    fn exponent(&mut self, word: &str, after: &str) -> Option<f64> {
        if !(word.ends_with('e') || word.ends_with('E')) {
            return None;
        }
        let sign = after.chars().next().filter(|c| *c == '+' || *c == '-')?;
        let tail = &after[1..];
        let len = tail.find(is_boundary).unwrap_or(tail.len());
        let f = format!("{word}{sign}{}", &tail[..len])
            .parse::<f64>()
            .ok()?;
        self.at += 1 + len;
        Some(f)
    }
}

/// An error message with the byte offset it concerns.
fn at(offset: usize, message: impl fmt::Display) -> ParseError {
    ParseError::At {
        offset,
        message: message.to_string(),
    }
}

/// An entry of the compiler's operator stack: something opened and not yet
/// closed. Each counts one level of [`MAX_DEPTH`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Pending {
    /// A binary operator waiting for its right operand.
    Binary(Binary),
    /// A run of `count` copies of one prefix operator (`Neg` or `Not`), and
    /// how tightly it binds.
    Prefix(Unary, usize, u8),
    /// `(`.
    Paren,
    /// `if(` with the arguments read so far.
    Call(usize),
}

/// Shunting-yard from tokens to the postfix program, folding constants.
struct Compiler {
    ops: Vec<Op>,
    /// Per operand on the evaluation stack as it stands after `ops`: whether
    /// it is a constant (then it is exactly the last `Push` of its part of
    /// `ops`, and an operation on constants only can be computed now).
    constant: Vec<bool>,
    pending: Vec<Pending>,
}

impl Compiler {
    /// Compiles `text`: the postfix program and the stack depth it reaches.
    fn run(text: &str) -> Result<(Vec<Op>, usize), ParseError> {
        let mut c = Compiler {
            ops: Vec::new(),
            constant: Vec::new(),
            pending: Vec::new(),
        };
        let mut lexer = Lexer { text, at: 0 };
        // True where a value must come next (start, after an operator, `(`
        // or `,`); false after a value (where an operator must come).
        let mut want_value = true;
        // True when the token before was a prefix operator: a run of one
        // prefix operator is one operator-stack entry.
        let mut prefix_run = false;
        loop {
            let Some((offset, tok)) = lexer.next()? else {
                if want_value {
                    return Err(at(
                        text.len(),
                        "the expression ends where a value is expected",
                    ));
                }
                break;
            };
            let this_prefix = want_value && matches!(tok, Tok::Minus | Tok::Bang);
            match (want_value, tok) {
                (true, Tok::Value(v)) => {
                    c.emit(Op::Push(v), true)?;
                    want_value = false;
                }
                (true, Tok::Var(v)) => {
                    c.emit(Op::Var(v), false)?;
                    want_value = false;
                }
                (true, Tok::Name(name)) => {
                    let next = lexer.next()?;
                    match (name, next) {
                        ("if", Some((_, Tok::Open))) => c.open(Pending::Call(0), offset)?,
                        ("if", _) => {
                            return Err(at(offset, "`if` takes its arguments in parentheses: `if(condition, then, else)`"))
                        }
                        (_, Some((_, Tok::Open))) => {
                            return Err(at(
                                offset,
                                format!("unknown function `{}` (the one function is `if(condition, then, else)`)", shown(name)),
                            ))
                        }
                        _ => {
                            return Err(at(
                                offset,
                                format!("unknown variable `{}` (lane, wave, quad, wave_size)", shown(name)),
                            ))
                        }
                    }
                }
                (true, Tok::Minus | Tok::Bang) => {
                    let u = if tok == Tok::Minus {
                        Unary::Neg
                    } else {
                        Unary::Not
                    };
                    // Right after `^`, a prefix operator binds only the operand
                    // that follows it (`2 ^ -3 ^ 2` is `(2 ^ -3) ^ 2`, as in
                    // evalexpr): it takes the precedence of the operator before.
                    let binds = match c.pending.last() {
                        Some(Pending::Binary(b)) => b.precedence().max(PREFIX_PRECEDENCE),
                        Some(Pending::Prefix(_, _, p)) => *p,
                        _ => PREFIX_PRECEDENCE,
                    };
                    match c.pending.last_mut() {
                        Some(Pending::Prefix(p, n, _)) if prefix_run && *p == u => *n += 1,
                        _ => c.open(Pending::Prefix(u, 1, binds), offset)?,
                    }
                }
                (true, Tok::Open) => c.open(Pending::Paren, offset)?,
                (true, Tok::Binary(b)) => {
                    return Err(at(
                        offset,
                        format!("`{}` where a value is expected", b.symbol()),
                    ))
                }
                (true, Tok::Close | Tok::Comma) => {
                    return Err(at(offset, "a value is missing before this"))
                }
                (false, Tok::Binary(_) | Tok::Minus) => {
                    let b = match tok {
                        Tok::Binary(b) => b,
                        _ => Binary::Sub,
                    };
                    c.reduce(b.precedence())?;
                    c.open(Pending::Binary(b), offset)?;
                    want_value = true;
                }
                (false, Tok::Close) => match c.close(offset)? {
                    Pending::Paren => {}
                    Pending::Call(n) if n + 1 == 3 => c.select()?,
                    Pending::Call(n) => {
                        return Err(at(offset, format!("`if` takes 3 arguments, not {}", n + 1)))
                    }
                    _ => return Err(at(offset, "internal error: unbalanced operator stack")),
                },
                (false, Tok::Comma) => match c.close(offset)? {
                    Pending::Call(n) if n < 2 => {
                        c.pending.push(Pending::Call(n + 1));
                        want_value = true;
                    }
                    Pending::Call(_) => return Err(at(offset, "`if` takes 3 arguments")),
                    _ => return Err(at(offset, "`,` outside the arguments of `if`")),
                },
                (false, Tok::Bang) => return Err(at(offset, "`!` where an operator is expected")),
                (false, Tok::Value(_) | Tok::Var(_) | Tok::Name(_) | Tok::Open) => {
                    return Err(at(
                        offset,
                        "a value follows a value with no operator between them",
                    ))
                }
            }
            prefix_run = this_prefix;
        }
        c.reduce(0)?;
        if let Some(p) = c.pending.last() {
            return Err(ParseError::Unclosed {
                what: if *p == Pending::Paren {
                    "a `(`"
                } else {
                    "`if(`"
                },
            });
        }
        let stack = max_stack(&c.ops);
        Ok((c.ops, stack))
    }

    /// Pushes an operator-stack entry, refusing nesting past [`MAX_DEPTH`].
    fn open(&mut self, p: Pending, offset: usize) -> Result<(), ParseError> {
        if self.pending.len() == MAX_DEPTH {
            return Err(at(
                offset,
                format!("expression nests deeper than {MAX_DEPTH} levels"),
            ));
        }
        self.pending.push(p);
        Ok(())
    }

    /// Applies the pending operators that bind at least as tightly as
    /// `precedence` (all left-associative), down to the innermost `(`/`if(`.
    fn reduce(&mut self, precedence: u8) -> Result<(), ParseError> {
        while let Some(&top) = self.pending.last() {
            match top {
                Pending::Binary(b) if b.precedence() >= precedence => {
                    self.pending.pop();
                    self.binary(b)?;
                }
                Pending::Prefix(u, n, p) if p >= precedence => {
                    self.pending.pop();
                    self.prefix(u, n)?;
                }
                _ => break,
            }
        }
        Ok(())
    }

    /// At `)` or `,`: applies everything down to the innermost `(`/`if(` and
    /// removes that entry.
    fn close(&mut self, offset: usize) -> Result<Pending, ParseError> {
        self.reduce(0)?;
        self.pending
            .pop()
            .ok_or_else(|| at(offset, "no `(` or `if(` is open here"))
    }

    /// Appends a step that pushes one operand.
    fn emit(&mut self, op: Op, constant: bool) -> Result<(), ParseError> {
        if self.ops.len() >= MAX_OPS {
            return Err(ParseError::TooLong);
        }
        self.ops.push(op);
        self.constant.push(constant);
        Ok(())
    }

    /// The last `k` operands, constant: their values, removed from `ops`.
    fn take_constants<const K: usize>(&mut self) -> Option<[Value; K]> {
        let n = self.constant.len();
        if n < K || !self.constant[n - K..].iter().all(|c| *c) {
            return None;
        }
        let mut out = [Value::Int(0); K];
        for slot in out.iter_mut().rev() {
            match self.ops.pop() {
                Some(Op::Push(v)) => *slot = v,
                _ => return None,
            }
            self.constant.pop();
        }
        Some(out)
    }

    /// Consumes `k` operands and pushes the result of `op` on them.
    fn combine(&mut self, k: usize, op: Op) -> Result<(), ParseError> {
        let n = self.constant.len().saturating_sub(k);
        self.constant.truncate(n);
        self.emit(op, false)
    }

    fn binary(&mut self, b: Binary) -> Result<(), ParseError> {
        match self.take_constants::<2>() {
            Some([x, y]) => self.emit(Op::Push(binary(b, x, y)?), true),
            None => self.combine(2, Op::Binary(b)),
        }
    }

    /// `n` copies of `u` (`Neg` or `Not`): one step when odd, the checking
    /// no-op when even.
    fn prefix(&mut self, u: Unary, n: usize) -> Result<(), ParseError> {
        let step = match (u, n % 2) {
            (_, 1) => u,
            (Unary::Neg, _) => Unary::NegNeg,
            _ => Unary::NotNot,
        };
        match self.take_constants::<1>() {
            Some([x]) => self.emit(Op::Push(unary(step, x)?), true),
            None => self.combine(1, Op::Unary(step)),
        }
    }

    fn select(&mut self) -> Result<(), ParseError> {
        match self.take_constants::<3>() {
            Some([c, t, e]) => self.emit(Op::Push(select(c, t, e)?), true),
            None => self.combine(3, Op::Select),
        }
    }
}

/// The deepest the value stack gets running `ops`.
fn max_stack(ops: &[Op]) -> usize {
    let (mut depth, mut most) = (0usize, 0usize);
    for op in ops {
        match op {
            Op::Push(_) | Op::Var(_) => depth += 1,
            Op::Unary(_) => {}
            Op::Binary(_) => depth = depth.saturating_sub(1),
            Op::Select => depth = depth.saturating_sub(2),
        }
        most = most.max(depth);
    }
    most
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

    fn value(text: &str) -> Number {
        LaneExpr::parse(text)
            .unwrap_or_else(|e| panic!("{text}: {e}"))
            .eval(at(5))
            .unwrap()
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
        // Truncation toward zero and the dividend's sign: -7 / 2 = -3, -7 % 2 = -1.
        assert_eq!(value("-7 / 2"), Number::Int(-3));
        assert_eq!(value("-7 % 2"), Number::Int(-1));
        assert_eq!(value("0xdeadbeef"), Number::Int(0xdead_beef));
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
        assert_eq!(value("1e-3"), Number::Float(0.001));
        assert_eq!(value("2.5E+2"), Number::Float(250.0));
        assert_eq!(value("-7.5 % 2"), Number::Float(-1.5));
        assert_eq!(value("1 / 0.0"), Number::Float(f64::INFINITY));
        // `^` is a power, always a float, binding tighter than a prefix minus.
        assert_eq!(value("2 ^ 3"), Number::Float(8.0));
        assert_eq!(value("-2 ^ 2"), Number::Float(-4.0));
        assert_eq!(value("2 ^ 3 ^ 2"), Number::Float(64.0));
    }

    #[test]
    fn precedence_comparisons_and_if() {
        assert_eq!(value("1 + 2 * 3"), Number::Int(7));
        assert_eq!(value("(1 + 2) * 3"), Number::Int(9));
        assert_eq!(value("10 - 4 - 3"), Number::Int(3));
        assert_eq!(value("-lane * 2"), Number::Int(-10));
        assert_eq!(value("if(lane == 5, 1, 2)"), Number::Int(1));
        assert_eq!(
            value("if(lane >= 4 && lane <= 6 || false, 0.5, 0.0)"),
            Number::Float(0.5)
        );
        assert_eq!(value("if(!(lane != 5), 3, 4)"), Number::Int(3));
        // An integer equals the same float.
        assert_eq!(value("if(lane == 5.0, 1, 0)"), Number::Int(1));
        assert_eq!(value("if(nan == nan, 1, 0)"), Number::Int(0));
    }

    #[test]
    fn bad_expressions_are_errors() {
        for bad in [
            "lane +",
            "nope + 1",
            "lane = 3",
            "1 / 0",
            "(lane",
            "lane)",
            "\"text\"",
            "",
            "1 2",
            "if(1, 2, 3)",
            "if(true, 2)",
            "if(true, 2, 3, 4)",
            "min(1, 2)",
            "1, 2",
            "lane == 1",
            "!3",
            "-true",
            "true + 1",
            "9223372036854775807 + 1",
            "-9223372036854775807 - 2",
            "99999999999999999999",
            "0xffffffffffffffff",
            "+1",
            "1 ; 2",
            "1 & 2",
            "()",
        ] {
            let e = LaneExpr::parse(bad);
            assert!(e.is_err(), "{bad:?} gave {e:?}");
            assert_eq!(e.unwrap_err().to_string().lines().count(), 1, "{bad:?}");
        }
        // Fails only for some lanes: accepted at parse time, an error for lane 4.
        let e = LaneExpr::parse("1 / (lane - 4)").unwrap();
        let m = e.eval(at(4)).unwrap_err();
        assert!(
            matches!(
                m,
                ExprError::Lane {
                    source: EvalError::DivisionByZero { .. },
                    lane: 4,
                    ..
                }
            ),
            "{m}"
        );
        let m = m.to_string();
        assert!(
            m.contains("division by zero") && m.contains("lane = 4"),
            "{m}"
        );
        // Overflow on one lane only (lane 0, which parsing evaluates).
        let e = LaneExpr::parse("(lane - 9223372036854775807 - 1) * -1").unwrap_err();
        assert!(
            matches!(
                e,
                ExprError::Lane {
                    source: EvalError::Overflow { .. },
                    lane: 0,
                    ..
                }
            ),
            "{e}"
        );
    }

    #[test]
    fn constants_fold_to_one_step() {
        for text in [
            "1 + 2 * 3",
            "if(1 < 2, 0.5, 0.25) * 4",
            "---5",
            "if(!!true == true, 1, 2)",
        ] {
            assert_eq!(LaneExpr::parse(text).unwrap().steps(), 1, "{text}");
        }
        assert!(!LaneExpr::parse("lane + 1").unwrap().uses_wave());
        assert!(LaneExpr::parse("lane + wave").unwrap().uses_wave());
    }

    #[test]
    fn long_and_deep_inputs() {
        // 200,000 terms of a constant sum fold while they are read.
        let sum = vec!["1"; 200_000].join("+");
        assert_eq!(value(&sum), Number::Int(200_000));
        // The same over a variable is more steps than a lane may take.
        let lanes = vec!["lane"; 200_000].join("+");
        let m = LaneExpr::parse(&lanes).unwrap_err().to_string();
        assert!(m.contains(&format!("more than {MAX_OPS} steps")), "{m}");
        assert!(m.chars().count() < 300, "{m}");
        // A run of 200,000 minus signs is one entry and at most two steps.
        for (n, want) in [(200_000, 5), (199_999, -5)] {
            let text = format!("{}lane", "-".repeat(n));
            let e = LaneExpr::parse(&text).unwrap();
            assert!(e.steps() <= 3, "{}", e.steps());
            assert_eq!(e.eval(at(5)), Ok(Number::Int(want)));
        }
        // Nesting: MAX_DEPTH open parentheses are fine, one more is refused.
        let ok = format!("{}lane{}", "(".repeat(MAX_DEPTH), ")".repeat(MAX_DEPTH));
        assert_eq!(value(&ok), Number::Int(5));
        let deep = format!("{}lane{}", "(".repeat(100_000), ")".repeat(100_000));
        let m = LaneExpr::parse(&deep).unwrap_err().to_string();
        assert!(m.contains("nests deeper than 64 levels"), "{m}");
    }
}
