// A kernel on the NVIDIA one-thread path (8-bit floats keep it off the SIMT
// code generator), whose nvvm.kernel entry tpx-nvidia-emit-kernel adds.
module {
  tt.func public @copy_f8(%p: !tt.ptr<f8E4M3FN>, %q: !tt.ptr<f8E4M3FN>) {
    %v = tt.load %p : !tt.ptr<f8E4M3FN>
    tt.store %q, %v : !tt.ptr<f8E4M3FN>
    tt.return
  }
}
