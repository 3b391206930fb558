// oracle_gather4.s: IMAGE_GATHER4_LZ of each component per lane for the
// native-sampler oracle (tests/sampler_oracle.rs). v[4:6]: s, t[, slice | face_id];
// s[4:11] T#, s[12:15] S#. Component X in v[0:3], Y in v[16:19], Z in v[20:23],
// W in v[24:27]. Regenerate with assets/regen.sh.

  image_gather4_lz v[0:3], v[4:6], s[4:11], s[12:15] dmask:0x1
  image_gather4_lz v[16:19], v[4:6], s[4:11], s[12:15] dmask:0x2
  image_gather4_lz v[20:23], v[4:6], s[4:11], s[12:15] dmask:0x4
  image_gather4_lz v[24:27], v[4:6], s[4:11], s[12:15] dmask:0x8
  s_endpgm
