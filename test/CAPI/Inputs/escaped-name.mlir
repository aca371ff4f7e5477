module {
  tt.func public @"k-x"(%p: !tt.ptr<f32> loc("p"), %v: f32 loc("v")) {
    tt.store %p, %v : !tt.ptr<f32>
    tt.return
  }
}
