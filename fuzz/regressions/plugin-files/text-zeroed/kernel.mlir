module {
  tt.func public @copy(%src: !tt.ptr<f32>, %dst: !tt.ptr<f32>) {
    %v = tt.load %src : !tt.ptr<f32>
    tt.store %dst, %v : !tt.ptr<f32>
    tt.return
  }
}
