// One alloc can stand for several copies that live at once; it then gets the
// offset of the first and ktdf.copy_stride, the bytes between copies (the size
// rounded up to Spyre's 128-byte scratchpad alignment). A modulo(size : 2)
// pipeline rotates two copies of its private buffers; the two allocs of a
// double-buffered pair are live together; inside a ktdf.parallel over Spyre's 2
// sub-cores a scratchpad buffer (one L1 per core) has a copy per instance, while
// a buffer in the SFU's own register file (one per sub-core) has one; a device
// memory buffer has a copy per grid tile.

// RUN: ktc-opt %s --arch spyre -p address-assignment | filecheck %s

module @local_schedule_0 {
  func.func @local_schedule_0(%n: index) attributes {grid = [4]} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %ping = memref.alloc() : memref<64xf16, "L1">
    %pong = memref.alloc() : memref<64xf16, "L1">
    scf.for %i = %c0 to %c8 step %c1 {
      %phase = ktdf.buffer_phase(%i) {num_phases = 2 : i64} : index
      %buf = ktdf.select_memref %phase[%ping, %pong] : memref<64xf16, "L1">
      ktdf.pipeline modulo(size : 2) {
        %p:1 = ktdf.private -> (memref<100xf16, "L1">) {
          %rotating = memref.alloc() : memref<100xf16, "L1">
          ktdf.private_yield %rotating : memref<100xf16, "L1">
        }
        ktdf.stage depends_in(none) depends_out(none) {
          ktdf.data_transfer from %buf[0] size [64] to %p#0[0] size [64] : memref<64xf16, "L1">, memref<100xf16, "L1">
        } {applicable_units = ["L1LU"]}
      }
    }
    ktdf.parallel (%j, %inst) = (%c0) to (%c8) step (%c1) distribute(num_instances = 2) {
      %per_core = memref.alloc() : memref<64xf16, "L1">
      %per_subcore = memref.alloc() : memref<64xf16, "SFU_REG">
      ktdf.parallel_yield
    }
    %global = memref.alloc() : memref<256xf16, "DDR">
    func.return
  }
}

// CHECK-LABEL: func.func @local_schedule_0(
// CHECK:         memref.alloc() {ktdf.address = 0 : i64} : memref<64xf16, "L1">
// CHECK-NEXT:    memref.alloc() {ktdf.address = 128 : i64} : memref<64xf16, "L1">
// CHECK:         memref.alloc() {ktdf.address = 256 : i64, ktdf.copy_stride = 256 : i64} : memref<100xf16, "L1">
// CHECK:         memref.alloc() {ktdf.address = 0 : i64, ktdf.copy_stride = 128 : i64} : memref<64xf16, "L1">
// CHECK-NEXT:    memref.alloc() {ktdf.address = 0 : i64} : memref<64xf16, "SFU_REG">
// CHECK:         memref.alloc() {ktdf.address = 0 : i64, ktdf.copy_stride = 512 : i64} : memref<256xf16, "DDR">
