"""Writes a kernel of DEPTH scf.for loops nested in each other, each
carrying a tensor, to OUT: gen-nested-loops.py DEPTH OUT."""
import sys
d = int(sys.argv[1])
L=['module {','  tt.func public @k(%x: !tt.ptr<f32>, %z: !tt.ptr<f32>) {',
'    %r = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32>',
'    %xp = tt.splat %x : !tt.ptr<f32> -> tensor<128x!tt.ptr<f32>>',
'    %xa = tt.addptr %xp, %r : tensor<128x!tt.ptr<f32>>, tensor<128xi32>',
'    %xv = tt.load %xa : tensor<128x!tt.ptr<f32>>',
'    %lb = arith.constant 0 : i32','    %ub = arith.constant 2 : i32','    %st = arith.constant 1 : i32']
prev='%xv'
for i in range(d):
    L.append('    %%l%d = scf.for %%i%d = %%lb to %%ub step %%st iter_args(%%a%d = %s) -> (tensor<128xf32>) : i32 {'%(i,i,i,prev)); prev='%%a%d'%i
L.append('    %%in = arith.addf %%a%d, %%xv : tensor<128xf32>'%(d-1))
L.append('    scf.yield %in : tensor<128xf32>'); L.append('    }')
for i in reversed(range(d-1)):
    L.append('    scf.yield %%l%d : tensor<128xf32>'%(i+1)); L.append('    }')
L+=['    %zp = tt.splat %z : !tt.ptr<f32> -> tensor<128x!tt.ptr<f32>>',
'    %za = tt.addptr %zp, %r : tensor<128x!tt.ptr<f32>>, tensor<128xi32>',
'    tt.store %za, %l0 : tensor<128x!tt.ptr<f32>>','    tt.return','  }','}']
open(sys.argv[2], 'w').write('\n'.join(L) + '\n')
