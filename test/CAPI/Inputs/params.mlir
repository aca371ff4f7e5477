module {
  tt.func public @params(%p: !tt.ptr<f32> loc("p"), %b: i1 loc("b"), %c: i8 loc("c"), %s: i16 loc("s"), %h: f16 loc("h"), %bf: bf16 loc("bf"), %i: i32 loc("i"), %l: i64 loc("l"), %f: f32 loc("f"), %d: f64 loc("d"), %q: !tt.ptr<i1> loc("q")) {
    %0 = arith.uitofp %b : i1 to f32
    %1 = arith.sitofp %c : i8 to f32
    %2 = arith.sitofp %s : i16 to f32
    %3 = arith.extf %h : f16 to f32
    %4 = arith.extf %bf : bf16 to f32
    %5 = arith.sitofp %i : i32 to f32
    %6 = arith.sitofp %l : i64 to f32
    %7 = arith.truncf %d : f64 to f32
    %a0 = arith.addf %0, %1 : f32
    %a1 = arith.addf %a0, %2 : f32
    %a2 = arith.addf %a1, %3 : f32
    %a3 = arith.addf %a2, %4 : f32
    %a4 = arith.addf %a3, %5 : f32
    %a5 = arith.addf %a4, %6 : f32
    %a6 = arith.addf %a5, %7 : f32
    %a7 = arith.addf %a6, %f : f32
    tt.store %p, %a7 : !tt.ptr<f32>
    tt.return
  }
}
