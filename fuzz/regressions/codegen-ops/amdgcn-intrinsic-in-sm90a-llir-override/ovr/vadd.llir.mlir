module attributes {"tpxgpu.block-threads" = 128 : i32, tpxgpu.codegen = "simt", "tpxgpu.num-warps" = 4 : i32, "tpxgpu.threads-per-warp" = 32 : i32} {
  llvm.func @vadd(%arg0: !llvm.ptr<1>, %arg1: !llvm.ptr<1>, %arg2: !llvm.ptr<1>, %arg3: i32) attributes {nvvm.kernel, nvvm.reqntid = array<i32: 128, 1, 1>} {
    %0 = llvm.mlir.constant(28 : i32) : i32
    %1 = llvm.mlir.constant(3 : i32) : i32
    %2 = llvm.mlir.constant(2 : i32) : i32
    %3 = llvm.mlir.constant(8 : i32) : i32
    %4 = llvm.mlir.constant(4 : i32) : i32
    %5 = llvm.mlir.constant(1 : i32) : i32
    %6 = llvm.mlir.constant(0 : i32) : i32
    %7 = llvm.mlir.constant(5 : i32) : i32
    %8 = llvm.mlir.constant(31 : i32) : i32
    %9 = llvm.mlir.constant(16 : i32) : i32
    %10 = nvvm.read.ptx.sreg.ctaid.x : i32
    %11 = llvm.mul %10, %9 : i32
    %12 = nvvm.read.ptx.sreg.tid.x : i32
    %13 = llvm.and %12, %8 : i32
    %14 = llvm.lshr %13, %6 : i32
    %15 = llvm.and %14, %5 : i32
    %16 = llvm.mul %15, %4 : i32
    %17 = llvm.xor %6, %16 : i32
    %18 = llvm.lshr %13, %5 : i32
    %19 = llvm.and %18, %5 : i32
    %20 = llvm.mul %19, %3 : i32
    %21 = llvm.xor %17, %20 : i32
    %22 = llvm.add %21, %6 : i32
    %23 = llvm.xor %21, %5 : i32
    %24 = llvm.add %23, %6 : i32
    %25 = llvm.xor %21, %2 : i32
    %26 = llvm.add %25, %6 : i32
    %27 = llvm.xor %21, %1 : i32
    %28 = llvm.add %27, %6 : i32
    %29 = llvm.add %11, %22 : i32
    %30 = llvm.add %11, %24 : i32
    %31 = llvm.add %11, %26 : i32
    %32 = llvm.add %11, %28 : i32
    %33 = llvm.icmp "slt" %29, %arg3 : i32
    %34 = llvm.icmp "slt" %30, %arg3 : i32
    %35 = llvm.icmp "slt" %31, %arg3 : i32
    %36 = llvm.icmp "slt" %32, %arg3 : i32
    %37 = llvm.getelementptr %arg2[%29] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, f32
    %38 = llvm.getelementptr %arg2[%30] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, f32
    %39 = llvm.getelementptr %arg2[%31] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, f32
    %40 = llvm.getelementptr %arg2[%32] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, f32
    %41 = llvm.getelementptr %arg0[%29] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, f32
    %42 = llvm.getelementptr %arg0[%30] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, f32
    %43 = llvm.getelementptr %arg0[%31] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, f32
    %44 = llvm.getelementptr %arg0[%32] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, f32
    %45 = llvm.inline_asm "@$2 ld.global.b32 $0, [ $1 ];\0A\09@!$2 mov.b32 $0, $3;", "=r,l,b,r" %41, %33, %6 : (!llvm.ptr<1>, i1, i32) -> i32
    %46 = llvm.bitcast %45 : i32 to f32
    %47 = llvm.inline_asm "@$2 ld.global.b32 $0, [ $1 ];\0A\09@!$2 mov.b32 $0, $3;", "=r,l,b,r" %42, %34, %6 : (!llvm.ptr<1>, i1, i32) -> i32
    %48 = llvm.bitcast %47 : i32 to f32
    %49 = llvm.inline_asm "@$2 ld.global.b32 $0, [ $1 ];\0A\09@!$2 mov.b32 $0, $3;", "=r,l,b,r" %43, %35, %6 : (!llvm.ptr<1>, i1, i32) -> i32
    %50 = llvm.bitcast %49 : i32 to f32
    %51 = llvm.inline_asm "@$2 ld.global.b32 $0, [ $1 ];\0A\09@!$2 mov.b32 $0, $3;", "=r,l,b,r" %44, %36, %6 : (!llvm.ptr<1>, i1, i32) -> i32
    %52 = llvm.bitcast %51 : i32 to f32
    %53 = llvm.getelementptr %arg1[%29] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, f32
    %54 = llvm.getelementptr %arg1[%30] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, f32
    %55 = llvm.getelementptr %arg1[%31] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, f32
    %56 = llvm.getelementptr %arg1[%32] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, f32
    %57 = llvm.inline_asm "@$2 ld.global.b32 $0, [ $1 ];\0A\09@!$2 mov.b32 $0, $3;", "=r,l,b,r" %53, %33, %6 : (!llvm.ptr<1>, i1, i32) -> i32
    %58 = llvm.bitcast %57 : i32 to f32
    %59 = llvm.inline_asm "@$2 ld.global.b32 $0, [ $1 ];\0A\09@!$2 mov.b32 $0, $3;", "=r,l,b,r" %54, %34, %6 : (!llvm.ptr<1>, i1, i32) -> i32
    %60 = llvm.bitcast %59 : i32 to f32
    %61 = llvm.inline_asm "@$2 ld.global.b32 $0, [ $1 ];\0A\09@!$2 mov.b32 $0, $3;", "=r,l,b,r" %55, %35, %6 : (!llvm.ptr<1>, i1, i32) -> i32
    %62 = llvm.bitcast %61 : i32 to f32
    %63 = llvm.inline_asm "@$2 ld.global.b32 $0, [ $1 ];\0A\09@!$2 mov.b32 $0, $3;", "=r,l,b,r" %56, %36, %6 : (!llvm.ptr<1>, i1, i32) -> i32
    %64 = llvm.bitcast %63 : i32 to f32
    %65 = llvm.fadd %46, %58 : f32
    %66 = llvm.fadd %48, %60 : f32
    %67 = llvm.fadd %50, %62 : f32
    %68 = llvm.fadd %52, %64 : f32
    %69 = llvm.lshr %12, %7 : i32
    %70 = llvm.and %13, %0 : i32
    %71 = llvm.icmp "eq" %70, %6 : i32
    %72 = llvm.and %69, %1 : i32
    %73 = llvm.icmp "eq" %72, %6 : i32
    %74 = llvm.and %71, %73 : i1
    %75 = llvm.and %74, %33 : i1
    %76 = llvm.bitcast %65 : f32 to i32
    llvm.inline_asm has_side_effects "@$2 st.global.b32 [ $0 ], $1;", "l,r,b" %37, %76, %75 : (!llvm.ptr<1>, i32, i1) -> ()
    %77 = llvm.and %74, %34 : i1
    %78 = llvm.bitcast %66 : f32 to i32
    llvm.inline_asm has_side_effects "@$2 st.global.b32 [ $0 ], $1;", "l,r,b" %38, %78, %77 : (!llvm.ptr<1>, i32, i1) -> ()
    %79 = llvm.and %74, %35 : i1
    %80 = llvm.bitcast %67 : f32 to i32
    llvm.inline_asm has_side_effects "@$2 st.global.b32 [ $0 ], $1;", "l,r,b" %39, %80, %79 : (!llvm.ptr<1>, i32, i1) -> ()
    %81 = llvm.and %74, %36 : i1
    %82 = llvm.bitcast %68 : f32 to i32
    llvm.inline_asm has_side_effects "@$2 st.global.b32 [ $0 ], $1;", "l,r,b" %40, %82, %81 : (!llvm.ptr<1>, i32, i1) -> ()
    llvm.call_intrinsic "llvm.amdgcn.s.barrier"() : () -> ()
    llvm.return
  }
}
