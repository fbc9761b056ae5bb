// The kernel's own scratchpad data (a ct_local memory view at the constant element
// 8, 16 f16 elements: bytes 16..47) is kept clear in every program: the first buffer
// goes below it at 0 (16 bytes fit), the next ones above it from byte 48; a view in
// device memory reserves nothing.

// RUN: ktc-opt %s --arch toy -p address-assignment | filecheck %s

#vec = affine_set<(d0) : (d0 >= 0, -d0 + 15 >= 0)>
module @local_schedule_0 {
  func.func @local_schedule_0(%x: index) {
    %c8 = arith.constant 8 : index
    %kept = ktdp.construct_memory_view %c8, sizes: [16], strides: [1] {coordinate_set = #vec, memory_space = #ktdp.memory_space<ct_local>} : memref<16xf16, "L1">
    %global = ktdp.construct_memory_view %x, sizes: [16], strides: [1] {coordinate_set = #vec, memory_space = #ktdp.memory_space<global>} : memref<16xf16, "DDR">
    %below = memref.alloc() : memref<8xf16, "L1">
    %above = memref.alloc() : memref<16xf16, "L1">
    %next = memref.alloc() : memref<4xf16, "L1">
    ktdf.pipeline {
      ktdf.stage depends_in(none) depends_out(none) {
        ktdf.data_transfer from %global[0] size [8] to %below[0] size [8] : memref<16xf16, "DDR">, memref<8xf16, "L1">
        ktdf.data_transfer from %kept[0] size [16] to %above[0] size [16] : memref<16xf16, "L1">, memref<16xf16, "L1">
        ktdf.data_transfer from %kept[0] size [4] to %next[0] size [4] : memref<16xf16, "L1">, memref<4xf16, "L1">
      } {applicable_units = ["MNILU"]}
    }
    func.return
  }
}

// CHECK: %below = memref.alloc() {ktdf.address = 0 : i64}
// CHECK: %above = memref.alloc() {ktdf.address = 48 : i64}
// CHECK: %next = memref.alloc() {ktdf.address = 80 : i64}
