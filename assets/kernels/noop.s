// noop: a kernel of one s_endpgm, with a buffer argument, for the parts of
// a kernel launch that do not need the kernel to compute (the run JSON, its
// buffers, --dump, [kernel.expect], --out). regen.sh assembles it with
// llvm-mc-19 and links it with ld.lld-19.
.amdgcn_target "amdgcn-amd-amdhsa--gfx900"
.amdhsa_code_object_version 5
.text
.globl noop
.p2align 8
.type noop,@function
noop:
  s_endpgm
.size noop, .-noop

.rodata
.p2align 6
.amdhsa_kernel noop
  .amdhsa_user_sgpr_kernarg_segment_ptr 1
  .amdhsa_system_sgpr_workgroup_id_x 1
  .amdhsa_next_free_vgpr 1
  .amdhsa_next_free_sgpr 8
.end_amdhsa_kernel

.amdgpu_metadata
---
amdhsa.version: [ 1, 2 ]
amdhsa.kernels:
  - .name: noop
    .symbol: noop.kd
    .kernarg_segment_size: 8
    .kernarg_segment_align: 8
    .group_segment_fixed_size: 0
    .private_segment_fixed_size: 0
    .wavefront_size: 64
    .sgpr_count: 8
    .vgpr_count: 1
    .max_flat_workgroup_size: 256
    .args:
      - { .name: out, .offset: 0, .size: 8, .value_kind: global_buffer, .address_space: global }
...
.end_amdgpu_metadata
