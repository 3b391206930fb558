// format_load.s: IMAGE_LOAD only, for the number formats that cannot be stored
// (USCALED, SSCALED, SRGB) on gfx9 (gfx900); see format_sweep.s.
// Regenerate format_load.bin with assets/regen.sh.

  image_load v[4:7], v[0:1], s[4:11] dmask:0xf unorm
  image_load v[16:18], v[0:1], s[4:11] dmask:0x9 unorm tfe
  s_endpgm
