// A FIFO write moves past no op with an effect: not past a receive (it could wait on
// the engine the write feeds), a signal, a store or a region op, and not ahead of its
// own vector's load; a loop whose bounds are not constants stays a loop.

// RUN: ktc-opt %s --arch toy -p unroll-short-loops | filecheck %s

module {
  func.func @barriers(%n: index) attributes {grid = [1]} {
    dfir.define_symbol 1 = %n : index
    dfir.dataflow {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %l1 = dfir.unit core 0 : !dfir.unit<"L1">
      %lu = dfir.unit core 0 : !dfir.unit<"L1LU">
      %simd = dfir.unit core 0 : !dfir.unit<"SFU">
      %to_lu = dfir.uniform_map [%simd -> %lu] : !dfir.uniform<"SFU", !dfir.unit<"L1LU">>
      %lu_to = dfir.uniform_map [%lu -> %simd] : !dfir.uniform<"L1LU", !dfir.unit<"SFU">>
      %lu_l1 = dfir.uniform_map [%lu -> %l1] : !dfir.uniform<"L1LU", !dfir.unit<"L1">>
      %bound = dfir.symbol 1 : index
      dfir.program "L1LU" on (%lu) {
        %to = dfir.query %lu_to : !dfir.uniform<"L1LU", !dfir.unit<"SFU">>
        %mem = dfir.query %lu_l1 : !dfir.uniform<"L1LU", !dfir.unit<"L1">>
        scf.for %i = %c0 to %bound step %c1 {
          %view = dfir.view %mem[%c0] : !dfir.unit<"L1"> -> memref<8xf16>
          %a = dfir.load %view[%c0] : memref<8xf16>, vector<8xf16>
          dfir.send %a to %to id 1 : vector<8xf16>, !dfir.unit<"SFU">
          %back = dfir.receive from %to id 2 : !dfir.unit<"SFU"> -> vector<8xf16>
          %b = dfir.load %view[%c0] : memref<8xf16>, vector<8xf16>
          dfir.send %b to %to id 3 : vector<8xf16>, !dfir.unit<"SFU">
          dfir.store %back, %view[%c0] : memref<8xf16>, vector<8xf16>
          %c = dfir.load %view[%c0] : memref<8xf16>, vector<8xf16>
          dfir.send %c to %to id 4 : vector<8xf16>, !dfir.unit<"SFU">
        }
      }
      dfir.program "SFU" on (%simd) {
        %in = dfir.query %to_lu : !dfir.uniform<"SFU", !dfir.unit<"L1LU">>
        scf.for %i = %c0 to %bound step %c1 {
          %x = dfir.receive from %in id 1 : !dfir.unit<"L1LU"> -> vector<8xf16>
          dfir.send %x to %in id 2 : vector<8xf16>, !dfir.unit<"L1LU">
          %y = dfir.receive from %in id 3 : !dfir.unit<"L1LU"> -> vector<8xf16>
          %z = dfir.receive from %in id 4 : !dfir.unit<"L1LU"> -> vector<8xf16>
        }
      }
    }
    return
  }
}

// CHECK:      dfir.program "L1LU"
// CHECK:        scf.for
// CHECK:          %[[A:.+]] = dfir.load
// CHECK-NEXT:     dfir.send %[[A]] to %{{.+}} id 1 :
// CHECK-NEXT:     dfir.receive
// CHECK-NEXT:     %[[B:.+]] = dfir.load
// CHECK-NEXT:     dfir.send %[[B]] to %{{.+}} id 3 :
// CHECK-NEXT:     dfir.store
// CHECK-NEXT:     %[[C:.+]] = dfir.load
// CHECK-NEXT:     dfir.send %[[C]] to %{{.+}} id 4 :
