module {
  tt.func public @twice(%x: i32, %y: i32, %p: !tt.ptr<i32>, %q: !tt.ptr<i32>) {
    %a = arith.addi %x, %y : i32
    %b = arith.addi %x, %y : i32
    tt.store %p, %a : !tt.ptr<i32>
    tt.store %q, %b : !tt.ptr<i32>
    tt.return
  }
}
