// carry_gfx6.s: the carry out of gfx6's v_add_i32, v_sub_i32 and
// v_subrev_i32 (assets/carry_gfx6.toml), an unsigned carry or borrow
// despite the names, as v_addc_u32 and v_subb_u32 consume it for 64-bit
// arithmetic (docs/errata.md, A5). v0 = lane, v10 = 0xfffffff0,
// v11 = 0x7fffffff.
  v_add_i32_e32 v1, vcc, v10, v0          // carries in lanes 16-63
  v_addc_u32_e32 v2, vcc, 0, v0, vcc      // lane + carry
  v_sub_i32_e32 v3, vcc, 0, v0            // borrows in lanes 1-63
  v_subb_u32_e32 v4, vcc, 0, v0, vcc      // -lane - borrow
  v_subrev_i32_e32 v5, vcc, 32, v0        // lane - 32: borrows in lanes 0-31
  s_mov_b64 s[2:3], vcc
  v_add_i32_e64 v6, s[4:5], v11, v0       // 0x7fffffff + lane: signed overflow, no carry
  v_cndmask_b32_e64 v7, 0, 1, s[4:5]
  s_endpgm
