// Global atomics: a counter, min/max, exchange and compare-and-swap.
__kernel void atomics(__global int *counter, __global int *mn, __global uint *mx,
                      __global int *xchg, __global int *cas, __global int *out) {
  int i = get_global_id(0);
  int old = atomic_add(counter, 1);
  atomic_min(mn, i - 100);
  atomic_max(mx, (uint)i * 3u);
  out[i] = old + atomic_xchg(xchg, i) + atomic_cmpxchg(cas, i, i + 1);
  atomic_inc(counter + 1);
  atomic_and(counter + 2, ~(1 << (i & 31)));
  atomic_or(counter + 3, 1 << (i & 31));
}
