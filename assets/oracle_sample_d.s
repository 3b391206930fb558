// oracle_sample_d.s: one IMAGE_SAMPLE_D per lane for the native-sampler
// oracle (tests/sampler_oracle.rs), which sets every register itself.
// v[4:12]: ds/dh, dt/dh[, dr/dh], ds/dv, dt/dv[, dr/dv], s, t[, slice | r | face_id];
// s[4:11] T#, s[12:15] S#. Result in v[0:3]. Regenerate with assets/regen.sh.

  image_sample_d v[0:3], v[4:12], s[4:11], s[12:15] dmask:0xf
  s_endpgm
