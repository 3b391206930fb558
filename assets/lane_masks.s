// lane_masks.s: lane masks of vector compares and carries on gfx900, wave64
// (assets/lane_masks.toml), read lane by lane (v_cndmask, v_addc) and whole
// (scalar moves, a branch on VCC): the GPU backend keeps a mask as each
// lane's bit until something reads it whole (docs/gpu.md, "Whole
// programs"). v0 = lane, v7 = 77, v10 = 0xfffffff0.
  v_cmp_gt_u32_e32 vcc, 20, v0            // lanes 0-19
  v_cndmask_b32_e64 v1, 0, 1, vcc          // read lane by lane only
  v_add_co_u32_e32 v2, vcc, v10, v0        // carries in lanes 16-63
  v_addc_co_u32_e32 v3, vcc, 0, v0, vcc    // carry in and out: VCC = 0
  v_cmp_lt_u32_e64 s[2:3], 40, v0          // lanes 41-63
  v_cndmask_b32_e64 v4, 0, 1, s[2:3]
  s_mov_b32 s2, 0x12345678                 // the low half replaced unread
  s_mov_b64 s[4:5], s[2:3]                 // read whole: the new s2, the mask's s3
  // Five masks waiting at once.
  v_cmp_eq_u32_e64 s[6:7], 1, v0           // lane 1
  v_cmp_eq_u32_e64 s[8:9], 33, v0          // lane 33
  v_cmp_le_u32_e64 s[10:11], 62, v0        // lanes 62, 63
  v_cmp_gt_u32_e64 s[12:13], 3, v0         // lanes 0-2
  v_cmp_ne_u32_e64 s[14:15], 0, v0         // all but lane 0
  v_cndmask_b32_e64 v5, 0, 1, s[6:7]
  v_cndmask_b32_e64 v6, 0, 1, s[14:15]
  // A mask read lane by lane after EXEC changed: each lane keeps the bit the
  // compare gave it.
  v_cmp_gt_u32_e32 vcc, 8, v0              // lanes 0-7
  s_mov_b32 exec_lo, 0xffff
  s_mov_b32 exec_hi, 0
  v_cndmask_b32_e64 v7, 5, 7, vcc          // lanes 0-15 only
  s_mov_b64 s[18:19], vcc
  s_mov_b64 exec, -1
  // A compare that a branch reads.
  v_cmp_eq_u32_e32 vcc, 70, v0             // no lane
  s_cbranch_vccz 1                         // over the next dword
  v_mov_b32 v8, 1                          // not run
  s_mov_b64 s[16:17], vcc
  v_mov_b32 v9, 2
  s_endpgm
