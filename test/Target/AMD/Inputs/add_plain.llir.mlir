// add.llir.mlir without device-library calls: y[i] = x[i] + 1.
module attributes {"tpxgpu.block-threads" = 64 : i32, "tpxgpu.shared-bytes" = 0 : i64} {
  llvm.func @add(%x: !llvm.ptr<1>, %y: !llvm.ptr<1>, %n: i32) attributes {rocdl.kernel, rocdl.flat_work_group_size = "64,64"} {
    %c64 = llvm.mlir.constant(64 : i32) : i32
    %one = llvm.mlir.constant(1.0 : f32) : f32
    %tid = rocdl.workitem.id.x : i32
    %bid = rocdl.workgroup.id.x : i32
    %base = llvm.mul %bid, %c64 : i32
    %i = llvm.add %base, %tid : i32
    %inside = llvm.icmp "slt" %i, %n : i32
    llvm.cond_br %inside, ^body, ^done
  ^body:
    %p = llvm.getelementptr %x[%i] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, f32
    %v = llvm.load %p : !llvm.ptr<1> -> f32
    %e = llvm.fadd %v, %one : f32
    %q = llvm.getelementptr %y[%i] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, f32
    llvm.store %e, %q : f32, !llvm.ptr<1>
    llvm.br ^done
  ^done:
    llvm.return
  }
}
