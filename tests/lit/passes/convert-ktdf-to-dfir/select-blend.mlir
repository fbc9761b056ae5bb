// On an engine without a select instruction (toy's SFU) a select is a blend by min
// and max: with m the 0/1 mask, M = (m - 0.5) * inf is +inf where the condition holds
// and -inf elsewhere, -M = (m - 0.5) * -inf, and select(c, a, b) = max(min(a, M),
// min(b, -M)); a value that is the constant -inf leaves min(a, M); a condition of
// constant positions gives M and -M as constant vectors. Spyre, which has the select
// instruction, keeps it for all three.

// RUN: ktc-opt %s --arch toy -p convert-ktdf-to-dfir | filecheck %s
// RUN: ktc-opt %s --arch spyre -p convert-ktdf-to-dfir | filecheck %s --check-prefix=SPYRE

#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @select_blend(%n: index) attributes {grid = [1]} {
  ktdf.pipeline {
    %p:6 = ktdf.private -> (!ktdf.fifo.slot<"L1LU" -> "SFU", 8xf16>, !ktdf.fifo.slot<"L1LU" -> "SFU", 8xf16>, !ktdf.fifo.slot<"SFU" -> "L1SU", 8xf16>, !ktdf.token, memref<8xf16, "L1">, memref<8xf16, "L1">) {
      %f:2 = ktdf.fifo.allocate() : !ktdf.fifo.slot<"L1LU" -> "SFU", 8xf16>, !ktdf.fifo.slot<"L1LU" -> "SFU", 8xf16>
      %g = ktdf.fifo.allocate() : !ktdf.fifo.slot<"SFU" -> "L1SU", 8xf16>
      %t = ktdf.create_token
      %x = memref.alloc() {ktdf.address = 0 : i64} : memref<8xf16, "L1">
      %y = memref.alloc() {ktdf.address = 64 : i64} : memref<8xf16, "L1">
      ktdf.private_yield %f#0, %f#1, %g, %t, %x, %y : !ktdf.fifo.slot<"L1LU" -> "SFU", 8xf16>, !ktdf.fifo.slot<"L1LU" -> "SFU", 8xf16>, !ktdf.fifo.slot<"SFU" -> "L1SU", 8xf16>, !ktdf.token, memref<8xf16, "L1">, memref<8xf16, "L1">
    }
    ktdf.stage depends_in(none) depends_out(none) {
      ktdf.data_transfer from %p#4[0] size [8] to %p#0 size [8] : memref<8xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 8xf16>
      ktdf.data_transfer from %p#5[0] size [8] to %p#1 size [8] : memref<8xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 8xf16>
    } {applicable_units = ["L1LU"]}
    ktdf.stage depends_in(none) depends_out(%p#3) {
      %u = ktdf.read_from_fifo %p#0 : <"L1LU" -> "SFU", 8xf16> -> tensor<2x4xf16>
      %v = ktdf.read_from_fifo %p#1 : <"L1LU" -> "SFU", 8xf16> -> tensor<2x4xf16>
      %e = tensor.empty() : tensor<2x4xf16>
      %s = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%u, %v : tensor<2x4xf16>, tensor<2x4xf16>) outs(%e : tensor<2x4xf16>) {
      ^bb0(%a: f16, %b: f16, %o: f16):
        %c2 = arith.constant 2 : index
        %r = linalg.index 0 : index
        %c = linalg.index 1 : index
        %r2 = arith.muli %r, %c2 : index
        %key = arith.addi %c, %n : index
        %keep = arith.cmpi sle, %key, %r2 : index
        %blend = arith.select %keep, %a, %b : f16
        %minus_inf = arith.constant 0xFC00 : f16
        %masked = arith.select %keep, %blend, %minus_inf : f16
        %band = arith.cmpi ule, %c, %r2 : index
        %m = arith.select %band, %masked, %b : f16
        linalg.yield %m : f16
      } -> tensor<2x4xf16>
      ktdf.write_to_fifo %s, %p#2 : tensor<2x4xf16>, <"SFU" -> "L1SU", 8xf16>
    } {applicable_units = ["SFU"]}
    ktdf.stage depends_in(none) depends_out(none) {
      ktdf.data_transfer from %p#2 size [8] to %p#4[0] size [8] : !ktdf.fifo.slot<"SFU" -> "L1SU", 8xf16>, memref<8xf16, "L1">
    } {applicable_units = ["L1SU"]}
  }
  return
}


// CHECK:      dfir.program "SFU"
// CHECK:        %[[A:.+]] = dfir.receive
// CHECK-NEXT:   %[[B:.+]] = dfir.receive
// CHECK:        %[[KEEP:.+]] = dfir.compute <min> %{{.+}}, %{{.+}} : vector<8xf32>
// CHECK-NEXT:   %[[K16:.+]] = dfir.convert %[[KEEP]] : vector<8xf32> -> vector<8xf16>
// CHECK-NEXT:   %[[HALF:.+]] = arith.constant dense<5.000000e-01> : vector<8xf16>
// CHECK-NEXT:   %[[SIGNED:.+]] = dfir.compute <sub> %[[K16]], %[[HALF]] : vector<8xf16>
// CHECK-NEXT:   %[[INF:.+]] = arith.constant dense<0x7C00> : vector<8xf16>
// CHECK-NEXT:   %[[M:.+]] = dfir.compute <mul> %[[SIGNED]], %[[INF]] : vector<8xf16>
// CHECK-NEXT:   %[[AM:.+]] = dfir.compute <min> %[[A]], %[[M]] : vector<8xf16>
// CHECK-NEXT:   %[[NINF:.+]] = arith.constant dense<0xFC00> : vector<8xf16>
// CHECK-NEXT:   %[[NM:.+]] = dfir.compute <mul> %[[SIGNED]], %[[NINF]] : vector<8xf16>
// CHECK-NEXT:   %[[BM:.+]] = dfir.compute <min> %[[B]], %[[NM]] : vector<8xf16>
// CHECK-NEXT:   %[[BLEND:.+]] = dfir.compute <max> %[[AM]], %[[BM]] : vector<8xf16>
// CHECK:        %[[SIGNED2:.+]] = dfir.compute <sub> %{{.+}}, %{{.+}} : vector<8xf16>
// CHECK-NEXT:   %[[INF2:.+]] = arith.constant dense<0x7C00> : vector<8xf16>
// CHECK-NEXT:   %[[M2:.+]] = dfir.compute <mul> %[[SIGNED2]], %[[INF2]] : vector<8xf16>
// CHECK-NEXT:   %[[MASKED:.+]] = dfir.compute <min> %[[BLEND]], %[[M2]] : vector<8xf16>
// CHECK-NEXT:   %[[BAND:.+]] = arith.constant dense<[0x7C00, 0xFC00, 0xFC00, 0xFC00, 0x7C00, 0x7C00, 0x7C00, 0xFC00]> : vector<8xf16>
// CHECK-NEXT:   %[[KEPT:.+]] = dfir.compute <min> %[[MASKED]], %[[BAND]] : vector<8xf16>
// CHECK-NEXT:   %[[NBAND:.+]] = arith.constant dense<[0xFC00, 0x7C00, 0x7C00, 0x7C00, 0xFC00, 0xFC00, 0xFC00, 0x7C00]> : vector<8xf16>
// CHECK-NEXT:   %[[OTHER:.+]] = dfir.compute <min> %[[B]], %[[NBAND]] : vector<8xf16>
// CHECK-NEXT:   %[[OUT:.+]] = dfir.compute <max> %[[KEPT]], %[[OTHER]] : vector<8xf16>
// CHECK-NEXT:   dfir.send %[[OUT]]
// CHECK-NOT:    <select>

// SPYRE:      dfir.program "SFU"
// SPYRE-COUNT-3: dfir.compute <select>
// SPYRE-NOT:  dfir.compute <min> %{{.+}} : vector<8xf16>
// SPYRE:      dfir.send
