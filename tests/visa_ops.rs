//! The Intel lowering's shared image operations (`visa::lower::sample::SHARED_OPS`)
//! are AMD's operations of the same name: same kind, same suffix flags, with and
//! without texel offsets — so the Intel path runs exactly the AMD semantics the
//! docs describe for that name.

use gcnrun::gcn::mimg_ops::by_name;
use gcnrun::visa::lower::sample::SHARED_OPS;

#[test]
fn shared_ops_are_the_amd_ops_of_their_name() {
    for s in SHARED_OPS {
        for offsets in [false, true] {
            let Some(op) = s.opcode(offsets) else {
                assert!(offsets, "{} has no plain form", s.visa);
                continue;
            };
            let amd =
                by_name(op.name).unwrap_or_else(|| panic!("{}: no AMD op `{}`", s.visa, op.name));
            assert_eq!(amd.sem, op, "{} ({})", s.visa, op.name);
        }
    }
    // Every AMD op with a sampler and an `_o` form that a listed op names has it.
    for s in SHARED_OPS {
        let with_o = format!("{}_o", s.name);
        assert_eq!(
            s.name_o.is_some(),
            by_name(&with_o).is_some(),
            "{}: `{with_o}`",
            s.visa
        );
    }
}
