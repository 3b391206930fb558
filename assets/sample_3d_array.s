// sample_3d_array.s: 3D images (trilinear, Z_FILTER, z offsets) and arrays
// (slice rounding and clamping, 1D arrays) on gfx9 (gfx900). Run with
// assets/sample_3d_array.toml; every expected value is derived there.
//
// s[4:11] T# "vol": 2x2x2 float, 4z + 2y + x; s[20:27] T# "arr": 2D array 2x1, 3
// layers, 10 * layer + x; s[28:35] T# "arr1d": 1D array, 2 texels, 2 layers, 10 * layer + x.
// s[12:15] bilinear (Z_FILTER none: z follows x/y), s[16:19] bilinear with Z_FILTER
// point, s[36:39] point.
// Regenerate sample_3d_array.bin with assets/regen.sh.

  image_sample_lz v15, v[0:2], s[4:11], s[12:15] dmask:0x1          // trilinear at the centre
  image_sample_lz v16, v[0:2], s[4:11], s[16:19] dmask:0x1          // bilinear in x/y, point in z
  image_sample_lz v17, v[3:5], s[4:11], s[36:39] dmask:0x1          // point
  image_sample_lz_o v18, v[9:12], s[4:11], s[36:39] dmask:0x1       // point with offsets
  image_sample_lz v19, v[6:8], s[20:27], s[36:39] dmask:0x1 da      // 2D array slices
  image_sample_lz v20, v[13:14], s[28:35], s[12:15] dmask:0x1 da    // 1D array, linear in x
  s_endpgm
