//! The manifest expression compiler (`gcnrun::launch::expr`): property tests
//! against an independent tree evaluator of the SPEC rules, deep and long
//! inputs (refused past the nesting limit in one line, never a stack
//! overflow; long flat sums and long unary chains handled in a bounded number
//! of per-lane steps), and the same inputs through the binary in `[vgpr]` and
//! in an Intel payload (issue 13, items 1 and 2).

use gcnrun::launch::expr::{ExprError, LaneExpr, LaneVars, Number, Scratch, MAX_DEPTH, MAX_OPS};
use proptest::prelude::*;
use std::path::PathBuf;
use std::process::Command;

const BIN: &str = env!("CARGO_BIN_EXE_gcn-run");

/// An expression tree, printed two ways and evaluated by [`Ast::eval`].
#[derive(Clone, Debug)]
enum Ast {
    Int(i64),
    Float(f64),
    Bool(bool),
    Var(&'static str),
    Neg(Box<Ast>),
    Not(Box<Ast>),
    Bin(&'static str, Box<Ast>, Box<Ast>),
    If(Box<Ast>, Box<Ast>, Box<Ast>),
}

/// Binary operators and their binding strength (higher binds tighter);
/// prefix operators bind at 6.
const OPS: &[(&str, u8)] = &[
    ("||", 1),
    ("&&", 2),
    ("==", 3),
    ("!=", 3),
    ("<", 3),
    ("<=", 3),
    (">", 3),
    (">=", 3),
    ("+", 4),
    ("-", 4),
    ("*", 5),
    ("/", 5),
    ("%", 5),
    ("^", 7),
];

fn precedence(op: &str) -> u8 {
    OPS.iter().find(|(o, _)| *o == op).map_or(0, |(_, p)| *p)
}

/// A value of the reference evaluator.
#[derive(Clone, Copy, Debug, PartialEq)]
enum V {
    I(i64),
    F(f64),
    B(bool),
}

impl Ast {
    /// Fully parenthesised.
    fn full(&self) -> String {
        match self {
            // A negative literal is a prefix minus when read back:
            // parenthesised like `Neg`, so that `(-0.125) ^ 0.0` is not read
            // as `-(0.125 ^ 0.0)`.
            Ast::Int(i) if *i < 0 => format!("({i})"),
            Ast::Float(f) if f.is_sign_negative() => format!("({f:?})"),
            Ast::Int(i) => format!("{i}"),
            Ast::Float(f) => format!("{f:?}"),
            Ast::Bool(b) => format!("{b}"),
            Ast::Var(v) => v.to_string(),
            Ast::Neg(a) => format!("(-{})", a.full()),
            Ast::Not(a) => format!("(!{})", a.full()),
            Ast::Bin(op, a, b) => format!("({} {op} {})", a.full(), b.full()),
            Ast::If(c, t, e) => format!("if({}, {}, {})", c.full(), t.full(), e.full()),
        }
    }

    /// The binding strength of the printed form's top operator (9: an atom).
    fn strength(&self) -> u8 {
        match self {
            Ast::Neg(_) | Ast::Not(_) => 6,
            Ast::Bin(op, ..) => precedence(op),
            // A negative literal prints with a minus sign.
            Ast::Int(i) if *i < 0 => 6,
            Ast::Float(f) if f.is_sign_negative() => 6,
            _ => 9,
        }
    }

    /// With only the parentheses the precedence rules need (all binary
    /// operators associate to the left).
    fn minimal(&self) -> String {
        let wrap = |a: &Ast, need: bool| {
            if need {
                format!("({})", a.minimal())
            } else {
                a.minimal()
            }
        };
        match self {
            Ast::Neg(a) => format!("-{}", wrap(a, a.strength() < 6)),
            Ast::Not(a) => format!("!{}", wrap(a, a.strength() < 6)),
            Ast::Bin(op, a, b) => {
                let p = precedence(op);
                // `^` takes a prefix operand only in parentheses here (the
                // compiler's rule for a prefix after `^` is pinned apart).
                let left = a.strength() < p || (p == 7 && a.strength() == 6);
                let right = b.strength() <= p;
                format!("{} {op} {}", wrap(a, left), wrap(b, right))
            }
            Ast::If(c, t, e) => format!("if({}, {}, {})", c.minimal(), t.minimal(), e.minimal()),
            // Literals bare: `strength` already makes their parents wrap a
            // negative one where the precedence needs it.
            Ast::Int(i) => format!("{i}"),
            Ast::Float(f) => format!("{f:?}"),
            _ => self.full(),
        }
    }

    /// The SPEC rules, evaluated on the tree: checked 64-bit integers, f64 as
    /// soon as one operand is a float, numeric comparisons, eager `if`.
    fn eval(&self, lane: u32, wave: u32, wave_size: u32) -> Result<V, ()> {
        let num = |v: V| match v {
            V::I(i) => Ok(i as f64),
            V::F(f) => Ok(f),
            V::B(_) => Err(()),
        };
        Ok(match self {
            Ast::Int(i) => V::I(*i),
            Ast::Float(f) => V::F(*f),
            Ast::Bool(b) => V::B(*b),
            Ast::Var(v) => V::I(i64::from(match *v {
                "lane" => lane,
                "wave" => wave,
                "quad" => lane / 4,
                _ => wave_size,
            })),
            Ast::Neg(a) => match a.eval(lane, wave, wave_size)? {
                V::I(i) => V::I(i.checked_neg().ok_or(())?),
                V::F(f) => V::F(-f),
                V::B(_) => return Err(()),
            },
            Ast::Not(a) => match a.eval(lane, wave, wave_size)? {
                V::B(b) => V::B(!b),
                _ => return Err(()),
            },
            Ast::If(c, t, e) => {
                let (c, t, e) = (
                    c.eval(lane, wave, wave_size)?,
                    t.eval(lane, wave, wave_size)?,
                    e.eval(lane, wave, wave_size)?,
                );
                match c {
                    V::B(true) => t,
                    V::B(false) => e,
                    _ => return Err(()),
                }
            }
            Ast::Bin(op, a, b) => {
                let (x, y) = (
                    a.eval(lane, wave, wave_size)?,
                    b.eval(lane, wave, wave_size)?,
                );
                match *op {
                    "||" | "&&" => match (x, y) {
                        (V::B(p), V::B(q)) => V::B(if *op == "&&" { p && q } else { p || q }),
                        _ => return Err(()),
                    },
                    "==" | "!=" => {
                        let eq = match (x, y) {
                            (V::I(p), V::I(q)) => p == q,
                            (V::B(p), V::B(q)) => p == q,
                            (V::B(_), _) | (_, V::B(_)) => return Err(()),
                            _ => num(x)? == num(y)?,
                        };
                        V::B(eq == (*op == "=="))
                    }
                    "<" | "<=" | ">" | ">=" => {
                        let o = match (x, y) {
                            (V::I(p), V::I(q)) => Some(p.cmp(&q)),
                            _ => num(x)?.partial_cmp(&num(y)?),
                        };
                        V::B(o.is_some_and(|o| match *op {
                            "<" => o.is_lt(),
                            "<=" => o.is_le(),
                            ">" => o.is_gt(),
                            _ => o.is_ge(),
                        }))
                    }
                    "^" => V::F(num(x)?.powf(num(y)?)),
                    _ => match (x, y) {
                        (V::I(p), V::I(q)) => V::I(
                            match *op {
                                "+" => p.checked_add(q),
                                "-" => p.checked_sub(q),
                                "*" => p.checked_mul(q),
                                "/" => p.checked_div(q),
                                _ => p.checked_rem(q),
                            }
                            .ok_or(())?,
                        ),
                        _ => {
                            let (p, q) = (num(x)?, num(y)?);
                            V::F(match *op {
                                "+" => p + q,
                                "-" => p - q,
                                "*" => p * q,
                                "/" => p / q,
                                _ => p % q,
                            })
                        }
                    },
                }
            }
        })
    }
}

fn ast() -> impl Strategy<Value = Ast> {
    let leaf = prop_oneof![
        (-20i64..300).prop_map(Ast::Int),
        prop_oneof![Just(i64::MAX), Just(1i64 << 40), Just(2_654_435_761)].prop_map(Ast::Int),
        (-64i32..64).prop_map(|h| Ast::Float(f64::from(h) / 8.0)),
        any::<bool>().prop_map(Ast::Bool),
        prop_oneof![Just("lane"), Just("wave"), Just("quad"), Just("wave_size")].prop_map(Ast::Var),
    ];
    leaf.prop_recursive(6, 64, 3, |inner| {
        prop_oneof![
            inner.clone().prop_map(|a| Ast::Neg(Box::new(a))),
            inner.clone().prop_map(|a| Ast::Not(Box::new(a))),
            (0..OPS.len(), inner.clone(), inner.clone()).prop_map(|(k, a, b)| Ast::Bin(
                OPS[k].0,
                Box::new(a),
                Box::new(b)
            )),
            (inner.clone(), inner.clone(), inner).prop_map(|(c, t, e)| Ast::If(
                Box::new(c),
                Box::new(t),
                Box::new(e)
            )),
        ]
    })
}

/// What the compiler's per-lane result should be, from the reference.
fn expected(a: &Ast, lane: u32, wave: u32, wave_size: u32) -> Option<Number> {
    match a.eval(lane, wave, wave_size) {
        Ok(V::I(i)) => Some(Number::Int(i)),
        Ok(V::F(f)) => Some(Number::Float(f)),
        _ => None,
    }
}

/// Equal numbers, NaN equal to NaN.
fn same(a: Option<Number>, b: Option<Number>) -> bool {
    match (a, b) {
        (Some(Number::Float(x)), Some(Number::Float(y))) => x == y || (x.is_nan() && y.is_nan()),
        _ => a == b,
    }
}

const LANES: [(u32, u32, u32); 5] = [
    (0, 0, 64),
    (1, 0, 64),
    (6, 3, 64),
    (31, 7, 32),
    (63, 16383, 64),
];

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    /// Both printed forms compile to what the reference computes, lane by
    /// lane; an expression that fails at lane 0 of wave 0 is refused when
    /// read, in one line.
    #[test]
    fn random_expressions_follow_the_reference(a in ast()) {
        let at_parse = expected(&a, 0, 0, 64);
        for text in [a.full(), a.minimal()] {
            match LaneExpr::parse(&text) {
                Err(m) => {
                    let m = m.to_string();
                    prop_assert!(at_parse.is_none(), "{text}: refused ({m}), reference {at_parse:?}");
                    prop_assert_eq!(m.lines().count(), 1);
                }
                Ok(e) => {
                    prop_assert!(at_parse.is_some(), "{text}: accepted, reference fails");
                    for (lane, wave, wave_size) in LANES {
                        let got = e.eval(LaneVars { lane, wave, wave_size }).ok();
                        let want = expected(&a, lane, wave, wave_size);
                        prop_assert!(same(got, want), "{text} at lane {lane} wave {wave}: {got:?} vs {want:?}");
                    }
                }
            }
        }
    }

    /// All lanes at once give what each lane gives alone, errors included.
    #[test]
    fn column_evaluation_equals_lane_evaluation(a in ast(), wave in 0u32..5000, wide in any::<bool>(), f32 in any::<bool>()) {
        let Ok(e) = LaneExpr::parse(&a.minimal()) else { return Ok(()) };
        let wave_size = if wide { 64 } else { 32 };
        let mut out = Vec::new();
        let got = e.eval_lanes(wave, wave_size, f32, &mut Scratch::default(), &mut out);
        let want: Result<Vec<u32>, ExprError> = (0..wave_size)
            .map(|lane| {
                let v = LaneVars { lane, wave, wave_size };
                if f32 { e.eval_f32_bits(v) } else { e.eval_u32(v) }
            })
            .collect();
        // Errors compare by their text: one may carry a NaN value, which is
        // not equal to itself.
        prop_assert_eq!(
            got.map(|()| out).map_err(|e| e.to_string()),
            want.map_err(|e| e.to_string())
        );
    }

    /// Nesting: up to the limit is fine, past it is one line naming the
    /// limit, however deep (no stack overflow), for parentheses, `if(` and
    /// right-nested operators alike.
    #[test]
    fn nesting_is_limited_in_one_line(depth in 0usize..3 * MAX_DEPTH, form in 0..3u32) {
        let text = match form {
            0 => format!("{}lane{}", "(".repeat(depth), ")".repeat(depth)),
            1 => format!("{}lane{}", "if(true, ".repeat(depth), ", 0)".repeat(depth)),
            // `1 - (1 - (…))`: an open parenthesis and a waiting `-` per level.
            _ => format!("{}lane{}", "1 - (".repeat(depth), ")".repeat(depth)),
        };
        let levels = if form == 2 { 2 * depth } else { depth };
        match LaneExpr::parse(&text) {
            Ok(_) => prop_assert!(levels <= MAX_DEPTH, "{levels} levels accepted"),
            Err(m) => {
                let m = m.to_string();
                prop_assert!(levels > MAX_DEPTH, "{levels} levels refused: {m}");
                prop_assert!(m.contains(&format!("nests deeper than {MAX_DEPTH} levels")), "{}", m);
                prop_assert_eq!(m.lines().count(), 1);
                prop_assert!(m.len() < 300, "{}", m);
            }
        }
    }

    /// Any text over the expression alphabet: an answer, never a panic; a
    /// refusal is one line.
    #[test]
    fn any_text_is_an_answer(text in "[-+*/%^()!<>=&|, 0-9a-z_.\"\\n]{0,120}") {
        if let Err(m) = LaneExpr::parse(&text) {
            let m = m.to_string();
            prop_assert_eq!(m.lines().count(), 1, "{}", m);
        }
    }

}

proptest! {
    // Each case builds and compiles up to a few hundred thousand characters.
    #![proptest_config(ProptestConfig::with_cases(24))]

    /// Long flat sums and long runs of one prefix operator, at any length:
    /// a constant sum folds to one step; the same over `lane` is refused once
    /// it takes more than MAX_OPS steps; a run of minus signs is at most two
    /// steps and keeps its parity.
    #[test]
    fn long_inputs_take_bounded_steps(n in 1usize..200_000) {
        let sum = vec!["1"; n].join("+");
        let e = LaneExpr::parse(&sum).unwrap();
        prop_assert_eq!(e.steps(), 1);
        prop_assert_eq!(e.eval(LaneVars { lane: 0, wave: 0, wave_size: 64 }), Ok(Number::Int(n as i64)));
        let lanes = vec!["lane"; n].join("+");
        // n lanes and n - 1 additions.
        match LaneExpr::parse(&lanes) {
            Ok(e) => prop_assert!(2 * n - 1 <= MAX_OPS && e.steps() == 2 * n - 1),
            Err(m) => {
                let m = m.to_string();
                prop_assert!(2 * n - 1 > MAX_OPS);
                prop_assert!(m.contains(&format!("more than {MAX_OPS} steps")), "{}", m);
            }
        }
        let minus = format!("{}lane", "-".repeat(n));
        let e = LaneExpr::parse(&minus).unwrap();
        prop_assert!(e.steps() <= 2);
        let want = if n % 2 == 0 { 7 } else { -7 };
        prop_assert_eq!(e.eval(LaneVars { lane: 7, wave: 0, wave_size: 64 }), Ok(Number::Int(want)));
    }
}

/// The rules the reference above does not draw: a prefix minus right after
/// `^` binds only its operand (evalexpr's reading), the others around `^`.
#[test]
fn power_and_prefix_minus() {
    let v = |t: &str| {
        LaneExpr::parse(t)
            .unwrap()
            .eval(LaneVars {
                lane: 0,
                wave: 0,
                wave_size: 64,
            })
            .unwrap()
    };
    assert_eq!(v("2 ^ -3 ^ 2"), Number::Float(2f64.powi(-6)));
    assert_eq!(v("-2 ^ 2"), Number::Float(-4.0));
    assert_eq!(v("2 * -3 ^ 2"), Number::Float(-18.0));
    // Alternating prefix operators are one level each.
    let m = LaneExpr::parse(&format!("{}true", "-!".repeat(MAX_DEPTH)))
        .unwrap_err()
        .to_string();
    assert!(m.contains("nests deeper"), "{m}");
}

/// A scratch directory for this binary's manifests.
fn scratch(name: &str) -> PathBuf {
    let d = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join("expr")
        .join(name);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// Runs a manifest: (exit code, stdout, stderr).
fn run(dir: &std::path::Path, manifest: &str, args: &[&str]) -> (Option<i32>, String, String) {
    let m = dir.join("m.toml");
    std::fs::write(&m, manifest).unwrap();
    let out = Command::new(BIN).arg(&m).args(args).output().unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// The inputs in `[vgpr]`: 100,000 nested parentheses (was a stack
/// overflow, exit 134) are one line naming the register, exit 2; a flat sum
/// of 60,001 terms and a chain of 100,000 minus signs run.
#[test]
fn hostile_vgpr_expressions_through_the_binary() {
    let dir = scratch("vgpr");
    let head = "arch = \"gfx6\"\nhex = \"000081bf\"\n[vgpr]\n";
    let deep = format!("{}lane{}", "(".repeat(100_000), ")".repeat(100_000));
    let (code, _, err) = run(&dir, &format!("{head}v0 = {{ u32 = \"{deep}\" }}\n"), &[]);
    assert_eq!(code, Some(2), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("field `vgpr.\"v0\"`"), "{err}");
    assert!(err.contains("nests deeper than 64 levels"), "{err}");
    let sum = vec!["1"; 60_001].join("+");
    let minus = format!("{}lane", "-".repeat(100_000));
    let odd = format!("{}lane", "-".repeat(99_999));
    let (code, out, err) = run(
        &dir,
        &format!("{head}v0 = {{ u32 = \"{sum}\" }}\nv1 = {{ u32 = \"{minus}\" }}\nv2 = {{ u32 = \"{odd}\" }}\n"),
        &["--dump", "v0,v1,v2", "--json"],
    );
    assert_eq!(code, Some(0), "{err}");
    let doc: serde_json::Value = serde_json::from_str(&out).unwrap();
    let lane = |r: &str, k: usize| doc["registers"][r][k].as_u64();
    assert_eq!(lane("v0", 5), Some(60_001));
    assert_eq!(lane("v1", 5), Some(5));
    assert_eq!(lane("v2", 5), Some(u64::from(5u32.wrapping_neg())));
    // Per-lane errors name the register, the lane and the wave.
    let (code, _, err) = run(
        &dir,
        &format!("{head}v0 = {{ u32 = \"7 / (lane - 3)\" }}\n"),
        &[],
    );
    assert_eq!(code, Some(2), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.contains("division by zero") && err.contains("lane = 3, wave = 0"),
        "{err}"
    );
}

/// The same in an Intel payload.
#[test]
fn hostile_payload_expressions_through_the_binary() {
    let dir = scratch("intel");
    std::fs::write(
        dir.join("k.visaasm"),
        ".version 4.1\n.kernel \"k\"\n.decl U v_type=G type=f num_elts=16 align=GRF\n.input U offset=32 size=64\n.kernel_attr SimdSize=16\n    ret (M1, 1)\n",
    )
    .unwrap();
    let head = "code = \"k.visaasm\"\n[intel]\n[intel.input]\n";
    let deep = format!("{}lane{}", "(".repeat(100_000), ")".repeat(100_000));
    let (code, _, err) = run(&dir, &format!("{head}U = {{ f = \"{deep}\" }}\n"), &[]);
    assert_eq!(code, Some(2), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.contains("intel.input.U") && err.contains("nests deeper than 64 levels"),
        "{err}"
    );
    let minus = format!("{}lane", "-".repeat(100_001));
    let (code, out, err) = run(
        &dir,
        &format!("{head}U = {{ f = \"{minus}\" }}\n"),
        &["--dump", "U", "--json"],
    );
    assert_eq!(code, Some(0), "{err}");
    let doc: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(
        doc["variables"]["U"]["threads"][0][3].as_f64(),
        Some(-3.0),
        "{out}"
    );
}
