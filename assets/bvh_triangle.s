// bvh_triangle.s: image_bvh_intersect_ray on triangle nodes, gfx10.3 (gfx1030):
// both triangle return modes, node types 0 and 1, and the A16 form. Run with
// assets/bvh_triangle.toml (wave32); the expected values are worked out by hand
// in the manifest.
//
// v[8:18] = one ray: node pointer, extent, origin xyz, dir xyz, inv_dir xyz;
// v[52:59] the same ray in the A16 form. s[4:7] returns barycentrics, s[8:11]
// the triangle ID and hit status.
// Regenerate bvh_triangle.bin with assets/regen.sh.

  image_bvh_intersect_ray v[40:43], v[8:18], s[4:7]           // type 0, barycentrics
  image_bvh_intersect_ray v[44:47], v[8:18], s[8:11]          // type 0, hit status
  image_bvh_intersect_ray v[48:51], v[52:59], s[4:7] a16      // type 0, A16
  v_mov_b32 v8, 1                                             // triangle 1 of the node
  image_bvh_intersect_ray v[60:63], v[8:18], s[4:7]
  s_endpgm
