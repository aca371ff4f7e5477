#blocked = #tpxgpu.blocked<{sizePerThread = [1024], threadsPerWarp = [32], warpsPerCTA = [1024], order = [0]}>
module attributes {tpxgpu.codegen = "simt", "tpxgpu.num-warps" = 1024 : i32, "tpxgpu.threads-per-warp" = 32 : i32} {
  tt.func public @layernorm_fwd(%arg0: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg1: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg2: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg3: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg4: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg5: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg6: i32, %arg7: i32, %arg8: f32) attributes {noinline = false} {
    %c512_i32 = arith.constant 512 : i32
    %c0_i32 = arith.constant 0 : i32
    %cst = arith.constant 1.000000e+00 : f32
    %cst_0 = arith.constant dense<0.000000e+00> : tensor<512xf32, #blocked>
    %0 = tt.get_program_id x : i32
    %1 = arith.muli %0, %arg6 : i32
    %2 = tt.addptr %arg0, %1 : !tt.ptr<f32>, i32
    %3 = tt.addptr %arg1, %1 : !tt.ptr<f32>, i32
    %4 = arith.cmpi sgt, %arg7, %c0_i32 : i32
    %5 = tt.make_range {end = 512 : i32, start = 0 : i32} : tensor<512xi32, #blocked>
    %6 = tt.splat %c0_i32 : i32 -> tensor<512xi32, #blocked>
    %7 = arith.addi %6, %5 : tensor<512xi32, #blocked>
    %8 = tt.splat %arg7 : i32 -> tensor<512xi32, #blocked>
    %9 = arith.cmpi slt, %7, %8 : tensor<512xi32, #blocked>
    %10 = tt.splat %2 : !tt.ptr<f32> -> tensor<512x!tt.ptr<f32>, #blocked>
    %11 = tt.addptr %10, %7 : tensor<512x!tt.ptr<f32>, #blocked>, tensor<512xi32, #blocked>
    %12 = tt.splat %4 : i1 -> tensor<512xi1, #blocked>
    %13 = arith.andi %9, %12 : tensor<512xi1, #blocked>
    %14 = tt.load %11, %13, %cst_0 : tensor<512x!tt.ptr<f32>, #blocked>
    %15:2 = scf.for %arg9 = %c0_i32 to %arg7 step %c512_i32 iter_args(%arg10 = %cst_0, %arg11 = %14) -> (tensor<512xf32, #blocked>, tensor<512xf32, #blocked>)  : i32 {
      %38 = arith.addi %arg9, %c512_i32 : i32
      %39 = arith.cmpi slt, %38, %arg7 : i32
      %40 = tt.splat %38 : i32 -> tensor<512xi32, #blocked>
      %41 = arith.addi %40, %5 : tensor<512xi32, #blocked>
      %42 = arith.cmpi slt, %41, %8 : tensor<512xi32, #blocked>
      %43 = tt.addptr %10, %41 : tensor<512x!tt.ptr<f32>, #blocked>, tensor<512xi32, #blocked>
      %44 = tt.splat %39 : i1 -> tensor<512xi1, #blocked>
      %45 = arith.andi %42, %44 : tensor<512xi1, #blocked>
      %46 = tt.load %43, %45, %cst_0 : tensor<512x!tt.ptr<f32>, #blocked>
      %47 = arith.addf %arg10, %arg11 : tensor<512xf32, #blocked>
      scf.yield %47, %46 : tensor<512xf32, #blocked>, tensor<512xf32, #blocked>
    }
    %16 = "tt.reduce"(%15#0) <{axis = 0 : i32}> ({
    ^bb0(%arg9: f32, %arg10: f32):
      %38 = arith.addf %arg9, %arg10 : f32
      tt.reduce.return %38 : f32
    }) : (tensor<512xf32, #blocked>) -> f32
    %17 = arith.sitofp %arg7 : i32 to f32
    %18 = arith.divf %16, %17 : f32
    %19 = tt.splat %18 : f32 -> tensor<512xf32, #blocked>
    %20:2 = scf.for %arg9 = %c0_i32 to %arg7 step %c512_i32 iter_args(%arg10 = %cst_0, %arg11 = %14) -> (tensor<512xf32, #blocked>, tensor<512xf32, #blocked>)  : i32 {
      %38 = arith.addi %arg9, %c512_i32 : i32
      %39 = arith.cmpi slt, %38, %arg7 : i32
      %40 = tt.splat %38 : i32 -> tensor<512xi32, #blocked>
      %41 = arith.addi %40, %5 : tensor<512xi32, #blocked>
      %42 = arith.cmpi slt, %41, %8 : tensor<512xi32, #blocked>
      %43 = tt.addptr %10, %41 : tensor<512x!tt.ptr<f32>, #blocked>, tensor<512xi32, #blocked>
      %44 = tt.splat %39 : i1 -> tensor<512xi1, #blocked>
      %45 = arith.andi %42, %44 : tensor<512xi1, #blocked>
      %46 = tt.load %43, %45, %cst_0 : tensor<512x!tt.ptr<f32>, #blocked>
      %47 = tt.splat %arg9 : i32 -> tensor<512xi32, #blocked>
      %48 = arith.addi %47, %5 : tensor<512xi32, #blocked>
      %49 = arith.cmpi slt, %48, %8 : tensor<512xi32, #blocked>
      %50 = arith.subf %arg11, %19 : tensor<512xf32, #blocked>
      %51 = arith.select %49, %50, %cst_0 : tensor<512xi1, #blocked>, tensor<512xf32, #blocked>
      %52 = arith.mulf %51, %51 : tensor<512xf32, #blocked>
      %53 = arith.addf %arg10, %52 : tensor<512xf32, #blocked>
      scf.yield %53, %46 : tensor<512xf32, #blocked>, tensor<512xf32, #blocked>
    }
    %21 = "tt.reduce"(%20#0) <{axis = 0 : i32}> ({
    ^bb0(%arg9: f32, %arg10: f32):
      %38 = arith.addf %arg9, %arg10 : f32
      tt.reduce.return %38 : f32
    }) : (tensor<512xf32, #blocked>) -> f32
    %22 = arith.divf %21, %17 : f32
    %23 = arith.addf %22, %arg8 : f32
    %24 = math.sqrt %23 : f32
    %25 = arith.divf %cst, %24 : f32
    %26 = tt.addptr %arg4, %0 : !tt.ptr<f32>, i32
    tt.store %26, %18 : !tt.ptr<f32>
    %27 = tt.addptr %arg5, %0 : !tt.ptr<f32>, i32
    tt.store %27, %25 : !tt.ptr<f32>
    %28 = tt.splat %arg2 : !tt.ptr<f32> -> tensor<512x!tt.ptr<f32>, #blocked>
    %29 = tt.addptr %28, %7 : tensor<512x!tt.ptr<f32>, #blocked>, tensor<512xi32, #blocked>
    %30 = tt.load %29, %13 : tensor<512x!tt.ptr<f32>, #blocked>
    %31 = tt.splat %arg3 : !tt.ptr<f32> -> tensor<512x!tt.ptr<f32>, #blocked>
    %32 = tt.addptr %31, %7 : tensor<512x!tt.ptr<f32>, #blocked>, tensor<512xi32, #blocked>
    %33 = tt.load %32, %13 : tensor<512x!tt.ptr<f32>, #blocked>
    %34 = tt.load %11, %13, %cst_0 : tensor<512x!tt.ptr<f32>, #blocked>
    %35 = tt.splat %3 : !tt.ptr<f32> -> tensor<512x!tt.ptr<f32>, #blocked>
    %36 = tt.splat %25 : f32 -> tensor<512xf32, #blocked>
    %37:3 = scf.for %arg9 = %c0_i32 to %arg7 step %c512_i32 iter_args(%arg10 = %30, %arg11 = %33, %arg12 = %34) -> (tensor<512xf32, #blocked>, tensor<512xf32, #blocked>, tensor<512xf32, #blocked>)  : i32 {
      %38 = arith.addi %arg9, %c512_i32 : i32
      %39 = arith.cmpi slt, %38, %arg7 : i32
      %40 = tt.splat %38 : i32 -> tensor<512xi32, #blocked>
      %41 = arith.addi %40, %5 : tensor<512xi32, #blocked>
      %42 = arith.cmpi slt, %41, %8 : tensor<512xi32, #blocked>
      %43 = tt.addptr %28, %41 : tensor<512x!tt.ptr<f32>, #blocked>, tensor<512xi32, #blocked>
      %44 = tt.splat %39 : i1 -> tensor<512xi1, #blocked>
      %45 = arith.andi %42, %44 : tensor<512xi1, #blocked>
      %46 = tt.load %43, %45 : tensor<512x!tt.ptr<f32>, #blocked>
      %47 = tt.addptr %31, %41 : tensor<512x!tt.ptr<f32>, #blocked>, tensor<512xi32, #blocked>
      %48 = tt.load %47, %45 : tensor<512x!tt.ptr<f32>, #blocked>
      %49 = tt.addptr %10, %41 : tensor<512x!tt.ptr<f32>, #blocked>, tensor<512xi32, #blocked>
      %50 = tt.load %49, %45, %cst_0 : tensor<512x!tt.ptr<f32>, #blocked>
      %51 = tt.splat %arg9 : i32 -> tensor<512xi32, #blocked>
      %52 = arith.addi %51, %5 : tensor<512xi32, #blocked>
      %53 = arith.cmpi slt, %52, %8 : tensor<512xi32, #blocked>
      %54 = tt.addptr %35, %52 : tensor<512x!tt.ptr<f32>, #blocked>, tensor<512xi32, #blocked>
      %55 = arith.subf %arg12, %19 : tensor<512xf32, #blocked>
      %56 = arith.mulf %55, %36 : tensor<512xf32, #blocked>
      %57 = arith.mulf %56, %arg10 : tensor<512xf32, #blocked>
      %58 = arith.addf %57, %arg11 : tensor<512xf32, #blocked>
      tt.store %54, %58, %53 : tensor<512x!tt.ptr<f32>, #blocked>
      scf.yield %46, %48, %50 : tensor<512xf32, #blocked>, tensor<512xf32, #blocked>, tensor<512xf32, #blocked>
    }
    tt.return
  }
}
