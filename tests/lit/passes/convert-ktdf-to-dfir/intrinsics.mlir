// A spyreop intrinsic runs as the instructions a device pattern mapped it onto
// (ktdf_arch.instruction): softplus widens its operand to f32 and takes its beta and
// threshold as f32 constants after it, giving f16; exx2 is one instruction per
// result; the fused pair of exx2_fused is held in two vectors, which
// layernormscale_fused takes as its two operands.

// RUN: ktc-opt %s --arch toy -p convert-ktdf-to-dfir | filecheck %s

#id = affine_map<(d0) -> (d0)>
func.func @intrinsics() attributes {grid = [1]} {
  ktdf.pipeline {
    %p:4 = ktdf.private -> (!ktdf.fifo.slot<"L1LU" -> "SFU", 8xf16>, !ktdf.fifo.slot<"SFU" -> "L1SU", 8xf16>, !ktdf.token, memref<8xf16, "L1">) {
      %f = ktdf.fifo.allocate() : !ktdf.fifo.slot<"L1LU" -> "SFU", 8xf16>
      %g = ktdf.fifo.allocate() : !ktdf.fifo.slot<"SFU" -> "L1SU", 8xf16>
      %t = ktdf.create_token
      %x = memref.alloc() {ktdf.address = 0 : i64} : memref<8xf16, "L1">
      ktdf.private_yield %f, %g, %t, %x : !ktdf.fifo.slot<"L1LU" -> "SFU", 8xf16>, !ktdf.fifo.slot<"SFU" -> "L1SU", 8xf16>, !ktdf.token, memref<8xf16, "L1">
    }
    ktdf.stage depends_in(none) depends_out(none) {
      ktdf.data_transfer from %p#3[0] size [8] to %p#0 size [8] : memref<8xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 8xf16>
    } {applicable_units = ["L1LU"]}
    ktdf.stage depends_in(none) depends_out(%p#2) {
      %u = ktdf.read_from_fifo %p#0 : <"L1LU" -> "SFU", 8xf16> -> tensor<8xf16>
      %e = tensor.empty() : tensor<8xf16>
      %s = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%u : tensor<8xf16>) outs(%e : tensor<8xf16>) {
      ^bb0(%l: f16, %o: f16):
        %soft = spyreop.softplus %l beta 5.000000e-01 threshold 2.000000e+01 {ktdf_arch.instruction = "softplus", ktdf_arch.parameters = [5.000000e-01 : f32, 2.000000e+01 : f32]} : f16
        %mean, %squares = spyreop.exx2 %soft {ktdf_arch.instruction = ["exx2_mean", "exx2_squares"]} : f16
        %pair = spyreop.exx2_fused %squares {ktdf_arch.instruction = ["exx2_mean", "exx2_squares"]} : f16 -> !spyreop.fp16_fused
        %scale = spyreop.layernormscale_fused %pair {ktdf_arch.instruction = "layernormscale"} : !spyreop.fp16_fused -> f16
        %r = spyreop.realdiv %scale, %mean {ktdf_arch.instruction = "div"} : f16
        linalg.yield %r : f16
      } -> tensor<8xf16>
      ktdf.write_to_fifo %s, %p#1 : tensor<8xf16>, <"SFU" -> "L1SU", 8xf16>
    } {applicable_units = ["SFU"]}
    ktdf.stage depends_in(none) depends_out(none) {
      ktdf.data_transfer from %p#1 size [8] to %p#3[0] size [8] : !ktdf.fifo.slot<"SFU" -> "L1SU", 8xf16>, memref<8xf16, "L1">
    } {applicable_units = ["L1SU"]}
  }
  return
}

// CHECK:      dfir.program "SFU"
// CHECK:        %[[X:.+]] = dfir.receive from %{{.+}} id 1 : !dfir.unit<"L1LU"> -> vector<8xf16>
// CHECK-NEXT:   %[[W:.+]] = dfir.convert %[[X]] : vector<8xf16> -> vector<8xf32>
// CHECK-NEXT:   %[[BETA:.+]] = arith.constant dense<5.000000e-01> : vector<8xf32>
// CHECK-NEXT:   %[[THRESHOLD:.+]] = arith.constant dense<2.000000e+01> : vector<8xf32>
// CHECK-NEXT:   %[[SOFT:.+]] = dfir.compute <softplus> %[[W]], %[[BETA]], %[[THRESHOLD]] : vector<8xf32> -> vector<8xf16>
// CHECK-NEXT:   %[[MEAN:.+]] = dfir.compute <exx2_mean> %[[SOFT]] : vector<8xf16>
// CHECK-NEXT:   %[[SQUARES:.+]] = dfir.compute <exx2_squares> %[[SOFT]] : vector<8xf16>
// CHECK-NEXT:   %[[PM:.+]] = dfir.compute <exx2_mean> %[[SQUARES]] : vector<8xf16>
// CHECK-NEXT:   %[[PS:.+]] = dfir.compute <exx2_squares> %[[SQUARES]] : vector<8xf16>
// CHECK-NEXT:   %[[SCALE:.+]] = dfir.compute <layernormscale> %[[PM]], %[[PS]] : vector<8xf16>
// CHECK-NEXT:   %[[R:.+]] = dfir.compute <div> %[[SCALE]], %[[MEAN]] : vector<8xf16>
// CHECK-NEXT:   dfir.send %[[R]] to %{{.+}} id 2 : vector<8xf16>, !dfir.unit<"L1SU">
