module {
  tt.func public @a(%p: !tt.ptr<f32>) {
    tt.return
  }
  tt.func public @b(%p: !tt.ptr<f32>) {
    tt.return
  }
  tt.func public @c(%p: !tt.ptr<f32>) {
    tt.return
  }
}
