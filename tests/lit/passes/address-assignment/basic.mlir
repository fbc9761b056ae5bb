// Buffers get byte offsets in their memory, aligned to what the toy device's load
// and store units need in its scratchpad (16 bytes: a 6-byte buffer is followed by
// one at 16). Within a program, buffers live from the op of the function body
// that first uses them to the op of their last use: the two pipelines of
// @local_schedule_0 run one after the other, so the second pipeline's buffers
// reuse the first's space, except where a buffer is used by both (%shared); %late,
// allocated at the start but used only by the second, takes the bytes %small has in
// the first (an alloc runs nothing).
// Each program starts from an empty scratchpad (@local_schedule_1 is at 0 again).
// A buffer without a memory space gets no address.

// RUN: ktc-opt %s --arch toy -p address-assignment | filecheck %s

module @local_schedule_0 {
  func.func @local_schedule_0(%a: memref<64xf16, "DDR">) {
    %shared = memref.alloc() : memref<8xf16, "L1">
    %late = memref.alloc() : memref<16xf16, "L1">
    ktdf.pipeline {
      %p:2 = ktdf.private -> (memref<3xf16, "L1">, memref<64xf16, "L1">) {
        %small = memref.alloc() : memref<3xf16, "L1">
        %first = memref.alloc() : memref<64xf16, "L1">
        ktdf.private_yield %small, %first : memref<3xf16, "L1">, memref<64xf16, "L1">
      }
      ktdf.stage depends_in(none) depends_out(none) {
        ktdf.data_transfer from %a[0] size [64] to %p#1[0] size [64] : memref<64xf16, "DDR">, memref<64xf16, "L1">
        ktdf.data_transfer from %p#1[0] size [8] to %shared[0] size [8] : memref<64xf16, "L1">, memref<8xf16, "L1">
        ktdf.data_transfer from %p#1[0] size [3] to %p#0[0] size [3] : memref<64xf16, "L1">, memref<3xf16, "L1">
      } {applicable_units = ["MNILU"]}
    }
    ktdf.pipeline {
      %p:1 = ktdf.private -> (memref<32xf16, "L1">) {
        %second = memref.alloc() : memref<32xf16, "L1">
        ktdf.private_yield %second : memref<32xf16, "L1">
      }
      ktdf.stage depends_in(none) depends_out(none) {
        ktdf.data_transfer from %shared[0] size [8] to %p#0[0] size [8] : memref<8xf16, "L1">, memref<32xf16, "L1">
        ktdf.data_transfer from %shared[0] size [8] to %late[0] size [8] : memref<8xf16, "L1">, memref<16xf16, "L1">
      } {applicable_units = ["MNILU"]}
    }
    %plain = memref.alloc() : memref<4xf16>
    func.return
  }
}
module @local_schedule_1 {
  func.func @local_schedule_1() {
    %other = memref.alloc() : memref<16xf32, #ktdp.memory_space<ct_local>>
    func.return
  }
}

// CHECK-LABEL: func.func @local_schedule_0(
// CHECK-NEXT:    memref.alloc() {ktdf.address = 0 : i64} : memref<8xf16, "L1">
// CHECK-NEXT:    memref.alloc() {ktdf.address = 16 : i64} : memref<16xf16, "L1">
// CHECK:         memref.alloc() {ktdf.address = 16 : i64} : memref<3xf16, "L1">
// CHECK-NEXT:    memref.alloc() {ktdf.address = 32 : i64} : memref<64xf16, "L1">
// CHECK:         memref.alloc() {ktdf.address = 48 : i64} : memref<32xf16, "L1">
// CHECK:         memref.alloc() : memref<4xf16>
// CHECK-LABEL: func.func @local_schedule_1(
// CHECK-NEXT:    memref.alloc() {ktdf.address = 0 : i64} : memref<16xf32, #ktdp.memory_space<ct_local>>
