// typed_buffer.s: typed buffer accesses on gfx900 (assets/typed_buffer.toml):
// MUBUF buffer_load_format_* / buffer_store_format_* through the V#'s format
// and DST_SEL, MTBUF tbuffer_* through the instruction's format with DST_SEL
// identity, range-checked element by element. typed_buffer_gfx10.s and
// typed_buffer_gfx11.s are the same program in those generations' spelling.
// v0 = lane (the index), v1 = lane × 4 (a byte offset).
  buffer_load_format_xyzw v[2:5], v0, s[8:11], 0 idxen
  buffer_load_format_xy v[6:7], v0, s[12:15], 0 idxen
  tbuffer_load_format_xyzw v[8:11], v0, s[8:11], 0 format:[BUF_DATA_FORMAT_8_8_8_8,BUF_NUM_FORMAT_SNORM] idxen
  buffer_load_format_xyz v[15:17], v0, s[40:43], 0 idxen
  buffer_load_format_xyz v[18:20], v0, s[44:47], 0 idxen
  buffer_load_format_d16_xyzw v[21:22], v0, s[8:11], 0 idxen
  buffer_load_format_d16_hi_x v23, v0, s[12:15], 0 idxen
  s_waitcnt vmcnt(0)
  tbuffer_store_format_xy v[8:9], v0, s[16:19], 0 format:[BUF_DATA_FORMAT_16_16,BUF_NUM_FORMAT_FLOAT] idxen
  buffer_store_format_xyzw v[2:5], v0, s[20:23], 0 idxen
  buffer_store_format_x v2, v0, s[24:27], 0 idxen
  tbuffer_store_format_d16_xy v24, v0, s[48:51], 0 format:[BUF_DATA_FORMAT_16_16,BUF_NUM_FORMAT_FLOAT] idxen
  s_waitcnt vmcnt(0)
  buffer_load_dword v12, v1, s[28:31], 0 offen
  buffer_load_dword v13, v1, s[32:35], 0 offen
  buffer_load_dword v14, v1, s[36:39], 0 offen
  buffer_load_dword v25, v1, s[52:55], 0 offen
  s_waitcnt vmcnt(0)
  s_endpgm
