// typed_buffer_gfx10.s: assets/typed_buffer.s in gfx10/gfx11 spelling (MTBUF's
// unified BUF_FMT_* formats), assembled for gfx1030 (typed_buffer_gfx10.bin,
// assets/typed_buffer_gfx10.toml) and gfx1100 (typed_buffer_gfx11.bin,
// assets/typed_buffer_gfx11.toml). v0 = lane (the index), v1 = lane × 4.
  buffer_load_format_xyzw v[2:5], v0, s[8:11], 0 idxen
  buffer_load_format_xy v[6:7], v0, s[12:15], 0 idxen
  tbuffer_load_format_xyzw v[8:11], v0, s[8:11], 0 format:[BUF_FMT_8_8_8_8_SNORM] idxen
  buffer_load_format_xyz v[15:17], v0, s[40:43], 0 idxen
  buffer_load_format_xyz v[18:20], v0, s[44:47], 0 idxen
  buffer_load_format_d16_xyzw v[21:22], v0, s[8:11], 0 idxen
  buffer_load_format_d16_hi_x v23, v0, s[12:15], 0 idxen
  s_waitcnt vmcnt(0)
  tbuffer_store_format_xy v[8:9], v0, s[16:19], 0 format:[BUF_FMT_16_16_FLOAT] idxen
  buffer_store_format_xyzw v[2:5], v0, s[20:23], 0 idxen
  buffer_store_format_x v2, v0, s[24:27], 0 idxen
  tbuffer_store_format_d16_xy v24, v0, s[48:51], 0 format:[BUF_FMT_16_16_FLOAT] idxen
  s_waitcnt vmcnt(0)
  buffer_load_dword v12, v1, s[28:31], 0 offen
  buffer_load_dword v13, v1, s[32:35], 0 offen
  buffer_load_dword v14, v1, s[36:39], 0 offen
  buffer_load_dword v25, v1, s[52:55], 0 offen
  s_waitcnt vmcnt(0)
  s_endpgm
