module {
  tt.func public @selected(%src: !tt.ptr<f32>, %dst: !tt.ptr<f32>) attributes {tpx.pipeline = ["example-evict-last"]} {
    %v = tt.load %src : !tt.ptr<f32>
    tt.store %dst, %v : !tt.ptr<f32>
    tt.return
  }
}
