// Each runtime argument becomes an argument of its underlying type: its value is the
// argument itself, its granularity and upper bound are index constants, and the
// function type follows; other arguments are untouched.

// RUN: ktc-opt %s -p lower-runtime-args | filecheck %s

!m = !ktdp.runtime_arg<index, granularity=32, upperbound=300>
!n = !ktdp.runtime_arg<i32, upperbound=8>
func.func private @use(index, index, index, i32)
func.func @kernel(%x: index, %m_arg: !m, %n_arg: !n) {
  %m = ktdp.runtime_arg_extract value from %m_arg : !m -> index
  %g = ktdp.runtime_arg_extract granularity from %m_arg : !m -> index
  %u = ktdp.runtime_arg_extract upperbound from %m_arg : !m -> index
  %n = ktdp.runtime_arg_extract value from %n_arg : !n -> i32
  func.call @use(%m, %g, %u, %n) : (index, index, index, i32) -> ()
  func.return
}

// CHECK-LABEL: func.func @kernel(%x: index, %m_arg: index, %n_arg: i32) {
// CHECK-NEXT:    %g = arith.constant 32 : index
// CHECK-NEXT:    %u = arith.constant 300 : index
// CHECK-NEXT:    call @use(%m_arg, %g, %u, %n_arg) : (index, index, index, i32) -> ()
// CHECK-NOT:     ktdp.runtime_arg
