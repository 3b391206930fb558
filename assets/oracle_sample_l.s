// oracle_sample_l.s: one IMAGE_SAMPLE_L per lane for the native-sampler
// oracle (tests/sampler_oracle.rs), which sets every register itself.
// v[4:7]: s, t[, slice | r | face_id], lod; s[4:11] T#, s[12:15] S#.
// Result X, Y, Z, W in v[0:3]. Regenerate oracle_sample_l.bin with assets/regen.sh.

  image_sample_l v[0:3], v[4:7], s[4:11], s[12:15] dmask:0xf
  s_endpgm
