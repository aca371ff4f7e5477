module {
  tt.func public @vadd(%x: !tt.ptr<f32> loc("x"), %y: !tt.ptr<f32> loc("y"), %z: !tt.ptr<f32> loc("z"), %n: i32 loc("n")) {
    %c64 = arith.constant 64 : i32
    %pid = tt.get_program_id x : i32
    %base = arith.muli %pid, %c64 : i32
    %range = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
    %b = tt.splat %base : i32 -> tensor<64xi32>
    %offs = arith.addi %b, %range : tensor<64xi32>
    %ns = tt.splat %n : i32 -> tensor<64xi32>
    %mask = arith.cmpi slt, %offs, %ns : tensor<64xi32>
    %xp = tt.splat %x : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>>
    %xa = tt.addptr %xp, %offs : tensor<64x!tt.ptr<f32>>, tensor<64xi32>
    %xv = tt.load %xa, %mask : tensor<64x!tt.ptr<f32>>
    %yp = tt.splat %y : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>>
    %ya = tt.addptr %yp, %offs : tensor<64x!tt.ptr<f32>>, tensor<64xi32>
    %yv = tt.load %ya, %mask : tensor<64x!tt.ptr<f32>>
    %sum = arith.addf %xv, %yv : tensor<64xf32>
    %zp = tt.splat %z : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>>
    %za = tt.addptr %zp, %offs : tensor<64x!tt.ptr<f32>>, tensor<64xi32>
    tt.store %za, %sum, %mask : tensor<64x!tt.ptr<f32>>
    tt.return
  }
}
