// sample_cube.s: cube maps on gfx9 (gfx900): face selection by face_id, bilinear
// filtering across a face edge (seamless and not), a corner, cube arrays, gather4
// at a corner. Run with assets/sample_cube.toml; every expected value is derived there.
//
// Cube coordinates are what the v_cube* sequence leaves: s' = sc/|ma| + 1.5,
// t' = tc/|ma| + 1.5 (1.0..2.0 spans the face), face_id = 8 * cube + face.
// s[4:11] T# "faces": 2x2 cube, texel = 10 * face + 2y + x (float)
// s[20:27] T# "cubes": 2x2 cube array of 2 cubes, texel = 100 * cube + 10 * face + 2y + x
// s[12:15] point, s[16:19] bilinear (seamless), s[28:31] bilinear, seamless off.
// Regenerate sample_cube.bin with assets/regen.sh.

  image_sample_lz v15, v[0:2], s[4:11], s[12:15] dmask:0x1 da       // point, every face
  image_sample_lz v16, v[3:5], s[4:11], s[16:19] dmask:0x1 da       // bilinear at the face centre
  image_sample_lz v17, v[6:8], s[4:11], s[16:19] dmask:0x1 da       // across the left edge
  image_sample_lz v18, v[6:8], s[4:11], s[28:31] dmask:0x1 da       // the same, seamless off
  image_sample_lz v19, v[9:11], s[4:11], s[16:19] dmask:0x1 da      // the top-left corner
  image_sample_lz v20, v[12:14], s[20:27], s[12:15] dmask:0x1 da    // cube array
  image_gather4_lz v[21:24], v[9:11], s[4:11], s[16:19] dmask:0x1 da // gather at the corner
  s_endpgm
