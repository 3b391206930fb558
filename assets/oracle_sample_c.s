// oracle_sample_c.s: IMAGE_SAMPLE_C_LZ per lane for the native-sampler
// oracle (tests/sampler_oracle.rs). v[4:7]: reference, s, t[, slice | face_id];
// s[4:11] T#, s[12:15] S#. The filtered compare result in v0.
// Regenerate with assets/regen.sh.

  image_sample_c_lz v0, v[4:7], s[4:11], s[12:15] dmask:0x1
  s_endpgm
