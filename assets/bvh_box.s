// bvh_box.s: image_bvh*_intersect_ray on box nodes, gfx10.3 (gfx1030). Run with
// assets/bvh_box.toml (wave32) and assets/bvh_box_w64.toml (wave64); the
// expected values are worked out by hand in the manifest.
//
// v[8:18] = one ray: node pointer, extent, origin xyz, dir xyz, inv_dir xyz.
// s[4:7] the sorting BVH T#, s[8:11] the same BVH unsorted, s[12:15] a raw
// Mesa-style T# (base 0, size 2^42 units) for the 64-bit node pointer.
// Regenerate bvh_box.bin with assets/regen.sh.

  image_bvh_intersect_ray v[40:43], v[8:18], s[4:7]           // box32, sorted
  image_bvh_intersect_ray v[44:47], v[8:18], s[8:11]          // box32, unsorted
  v_mov_b32 v9, 4.0                                           // extent = 4: equality hits
  image_bvh_intersect_ray v[80:83], v[8:18], s[4:7]
  v_mov_b32 v9, 0x40600000                                    // extent = 3.5 cuts
  image_bvh_intersect_ray v[84:87], v[8:18], s[4:7]
  v_mov_b32 v9, 0x42c80000                                    // extent = 100 again
  v_mov_b32 v10, 0x40900000                                   // origin x = 4.5: inside
  image_bvh_intersect_ray v[88:91], v[8:18], s[4:7]
  v_mov_b32 v10, 0                                            // origin x = 0
  v_mov_b32 v8, 0x14                                          // the box16 node
  image_bvh_intersect_ray v[92:95], v[8:18], s[4:7]
  image_bvh_intersect_ray v[48:51], [v30, v29, v28, v27, v26, v25, v24, v23, v22, v21, v20], s[4:7]  // NSA
  image_bvh64_intersect_ray v[52:55], v[56:67], s[12:15]
  image_bvh_intersect_ray v[68:71], v[72:79], s[4:7] a16
  v_mov_b32 v8, 6                                             // an instance node
  s_mov_b32 exec_lo, 1                                        // lane 0 only
  s_mov_b32 exec_hi, 0
  image_bvh_intersect_ray v[96:99], v[8:18], s[4:7]
  s_endpgm
