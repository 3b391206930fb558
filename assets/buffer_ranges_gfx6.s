// buffer_ranges_gfx6.s: buffer_ranges.s for tahiti (gfx6), whose SMRD
// immediate offsets count dwords (0xe = byte 56); assets/buffer_ranges_gfx6.toml.
// v0 = lane × 4, v1 = lane, v9 = 1.
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
  s_buffer_load_dwordx2 s[20:21], s[8:11], 0xe
  s_buffer_load_dwordx4 s[24:27], s[8:11], 0xe
  s_waitcnt vmcnt(0) lgkmcnt(0)
  s_endpgm
