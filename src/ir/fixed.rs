//! The fixed-point constants of `v_exp` and `v_log`'s rules
//! (`cpu::alu::transcendental`), shared by the CPU and the WGSL the GPU back
//! end emits (`gpu::translate::whole`), so that both read the same bits.
//! Q2.62: a value v is stored as v × 2^62, rounded to nearest.

/// ln 2 in Q2.62.
pub const LN2: u64 = 0x2c5c_85fd_f473_de6b;
/// 2 / ln 2 in Q2.62.
pub const TWO_OVER_LN2: u64 = 0xb8aa_3b29_5c17_f0bc;
/// 2^(j/64) in Q2.62, j = 0 … 63 (computed to 80 decimal digits).
pub const EXP2_TABLE: [u64; 64] = [
    0x4000000000000000,
    0x40b268f9de0183ba,
    0x4166c34c5615d0ec,
    0x421d1461d66f2023,
    0x42d561b3e6243d8a,
    0x438fb0cb4f468808,
    0x444c0740496d4294,
    0x450a6abaa4b77ecd,
    0x45cae0f1f545eb73,
    0x468d6fadbf2dd4f3,
    0x47521cc5a2e6a9e0,
    0x4818ee218a3358ee,
    0x48e1e9b9d588e19b,
    0x49ad159789f37496,
    0x4a7a77d47f7b84b1,
    0x4b4a169b900c2d00,
    0x4c1bf828c6dc54b8,
    0x4cf022c9905bfd32,
    0x4dc69cdceaa72a9c,
    0x4e9f6cd3967fdba8,
    0x4f7a993048d088d7,
    0x50582887dcb8a7e1,
    0x513821818624b40c,
    0x521a8ad704f3404f,
    0x52ff6b54d8a89c75,
    0x53e6c9da74b29ab5,
    0x54d0ad5a753e077c,
    0x55bd1cdad49f699c,
    0x56ac1f752150a563,
    0x579dbc56b48521ba,
    0x5891fac0e95612c8,
    0x5988e20954889245,
    0x5a827999fcef3242,
    0x5b7ec8f19468bbc9,
    0x5c7dd7a3b17dcf75,
    0x5d7fad59099f22fe,
    0x5e8451cfac061b5f,
    0x5f8bccdb3d398841,
    0x6096266533384a2b,
    0x61a3666d124bb204,
    0x62b39508aa836d6f,
    0x63c6ba6455dcd8ae,
    0x64dcdec3371793d1,
    0x65f60a7f79393e2e,
    0x6712460a8fc24072,
    0x683199ed779592ca,
    0x69540ec8f895722d,
    0x6a79ad55e7f6fd10,
    0x6ba27e656b4eb57a,
    0x6cce8ae13c57ebdb,
    0x6dfddbcbed791bab,
    0x6f307a412f074892,
    0x70666f76154a7089,
    0x719fc4b95f452d29,
    0x72dc8373be41a454,
    0x741cb5281e25ee34,
    0x75606373ee921c97,
    0x76a7980f6cca15c2,
    0x77f25ccdee6d7ae6,
    0x7940bb9e2cffd89d,
    0x7a92be8a92436616,
    0x7be86fb985689ddc,
    0x7d41d96db915019d,
    0x7e9f06067a4360ba,
];

/// 2π in Q3.61 (computed to 60 decimal digits).
pub const TWO_PI_Q61: u64 = 0xc90f_daa2_2168_c235;

/// ⌊2^62 / k!⌋, k = 0 … 20: the Taylor coefficients of e^y (k ≤ 7), sin
/// and cos.
pub const INV_FACT: [u64; 21] = {
    let mut t = [0u64; 21];
    let mut f = 1u64;
    let mut k = 0;
    while k < 21 {
        if k > 0 {
            f *= k as u64;
        }
        t[k] = (1u64 << 62) / f;
        k += 1;
    }
    t
};

/// ⌊2^62 / (2i + 1)⌋, i = 0 … 12: the series of atanh(u) / u in u².
pub const INV_ODD: [u64; 13] = {
    let mut t = [0u64; 13];
    let mut i = 0;
    while i < 13 {
        t[i] = (1u64 << 62) / (2 * i as u64 + 1);
        i += 1;
    }
    t
};

/// The scalar constants as WGSL declarations (`const LN2_Q62 = vec2<u32>(…)`,
/// low word first), for the modules that use `shaders/alu_trans.wgsl`. The
/// tables reach the GPU in the host's table buffer instead
/// (`gpu::translate::tables`): lavapipe copies a WGSL `const` array at every
/// use.
pub fn wgsl_consts() -> String {
    let v = |x: u64| format!("vec2<u32>({}u, {}u)", x as u32, (x >> 32) as u32);
    let mut s = String::from("// ir::fixed: the constants of alu_trans.wgsl.\n");
    s.push_str(&format!("const LN2_Q62 = {};\n", v(LN2)));
    s.push_str(&format!("const TWO_OVER_LN2_Q62 = {};\n", v(TWO_OVER_LN2)));
    s.push_str(&format!("const TWO_PI_Q61 = {};\n", v(TWO_PI_Q61)));
    s
}
