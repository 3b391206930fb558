// oracle_sample_b.s: one IMAGE_SAMPLE_B per lane for the native-sampler
// oracle (tests/sampler_oracle.rs): implicit (coarse quad) derivatives plus a
// shader bias. v[4:7]: bias, s, t[, slice | face_id]; s[4:11] T#, s[12:15] S#.
// Result in v[0:3]. Regenerate with assets/regen.sh.

  image_sample_b v[0:3], v[4:7], s[4:11], s[12:15] dmask:0xf
  s_endpgm
