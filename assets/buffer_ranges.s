// buffer_ranges.s: MUBUF loads, stores and atomics and s_buffer_load
// through V#s (assets/buffer_ranges.toml; gfx900 and, as
// buffer_ranges_gfx10.bin, gfx1030). v0 = lane × 4, v1 = lane, v9 = 1.
  buffer_load_dword v2, v0, s[8:11], 0 offen
  buffer_load_dwordx4 v[4:7], v0, s[8:11], 0 offen offset:8
  buffer_load_dword v3, v1, s[12:15], 0 idxen offset:4
  s_mov_b32 s0, 8
  buffer_load_dword v8, v0, s[8:11], s0 offen
  buffer_store_dword v1, v0, s[16:19], 0 offen
  buffer_atomic_add v9, v0, s[16:19], 0 offen glc
  buffer_load_dword v10, v0, s[16:19], 0 offen
  buffer_load_dword v11, v0, s[28:31], 0 offen
  buffer_load_ubyte v12, v1, s[8:11], 0 offen offset:60
  s_buffer_load_dwordx2 s[20:21], s[8:11], 0x38
  s_buffer_load_dwordx4 s[24:27], s[8:11], 0x38
  buffer_load_short_d16 v13, v1, s[8:11], 0 offen
  buffer_load_short_d16_hi v14, v1, s[8:11], 0 offen offset:8
  buffer_load_sbyte_d16_hi v15, v1, s[8:11], 0 offen offset:60
  s_waitcnt vmcnt(0) lgkmcnt(0)
  s_endpgm
