// Example plugin (a): a TTIR pass with typed options, as a flag and in a
// textual pipeline.
// RUN: tpx-opt --load-plugin=%example_plugins/TpxExampleEvictionPolicy.so %s --tt-example-eviction-policy --mlir-print-debuginfo=false | FileCheck %s --check-prefix=LAST
// RUN: tpx-opt --load-plugin=%example_plugins/TpxExampleEvictionPolicy.so %s --pass-pipeline='builtin.module(tt-example-eviction-policy{policy=evict_first stores=true})' --mlir-print-debuginfo=false | FileCheck %s --check-prefix=FIRST
// RUN: not tpx-opt --load-plugin=%example_plugins/TpxExampleEvictionPolicy.so %s --tt-example-eviction-policy=policy=sometimes 2>&1 | FileCheck %s --check-prefix=BAD

// LAST: tt.load %{{.*}} evictionPolicy = evict_last
// LAST: tt.store %{{.*}}, %{{.*}} : !tt.ptr<f32>
// FIRST: tt.load %{{.*}} evictionPolicy = evict_first
// FIRST: tt.store %{{.*}} evictionPolicy = evict_first
// BAD: error: pass 'tt-example-eviction-policy' of plugin 'example-eviction-policy' failed on builtin.module: unknown policy 'sometimes'
tt.func public @copy(%src: !tt.ptr<f32>, %dst: !tt.ptr<f32>) {
  %v = tt.load %src : !tt.ptr<f32>
  tt.store %dst, %v : !tt.ptr<f32>
  tt.return
}
