// A kernel without runtime arguments, such as one this pass has already lowered, is
// left as it is: a second run prints what the first did.

// RUN: ktc-opt %s -p lower-runtime-args > %t
// RUN: ktc-opt %t -p lower-runtime-args | diff %t -
// RUN: filecheck %s < %t

func.func private @use(index, index)
func.func @kernel(%x: index, %m_arg: !ktdp.runtime_arg<index, granularity=4>) {
  %m = ktdp.runtime_arg_extract value from %m_arg : !ktdp.runtime_arg<index, granularity=4> -> index
  %g = ktdp.runtime_arg_extract granularity from %m_arg : !ktdp.runtime_arg<index, granularity=4> -> index
  func.call @use(%m, %g) : (index, index) -> ()
  func.return
}

// CHECK:      func.func @kernel(%x: index, %m_arg: index) {
// CHECK-NEXT:   %g = arith.constant 4 : index
// CHECK-NEXT:   call @use(%m_arg, %g) : (index, index) -> ()
