// A kernel whose buffers do not fit is rejected at the first buffer that ends
// past the scratchpad, naming the memory and its capacity, with a table of the
// buffers live at the peak: a double-buffered pair of 16 KiB and three 16 KiB
// buffers of a modulo(size : 2) pipeline, two copies each, need 128 KiB of the
// toy device's 64 KiB; %b is the first past the end. A buffer of an earlier step
// of the program (%before) is not live then and is not listed.

// RUN: not ktc-opt %s --arch toy -p address-assignment 2>&1 | filecheck %s

module @local_schedule_0 {
  func.func @local_schedule_0(%x: memref<128x256xf16, "DDR">) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %before = memref.alloc() : memref<32x256xf16, "L1">
    memref.dealloc %before : memref<32x256xf16, "L1">
    %ping = memref.alloc() : memref<32x256xf16, "L1">
    %pong = memref.alloc() : memref<32x256xf16, "L1">
    scf.for %i = %c0 to %c4 step %c1 {
      %phase = ktdf.buffer_phase(%i) {num_phases = 2 : i64} : index
      %in = ktdf.select_memref %phase[%ping, %pong] : memref<32x256xf16, "L1">
      ktdf.pipeline modulo(size : 2) {
        %p:3 = ktdf.private -> (memref<32x256xf16, "L1">, memref<32x256xf16, "L1">, memref<32x256xf16, "L1">) {
          %a = memref.alloc() : memref<32x256xf16, "L1">
          %b = memref.alloc() : memref<32x256xf16, "L1">
          %c = memref.alloc() : memref<32x256xf16, "L1">
          ktdf.private_yield %a, %b, %c : memref<32x256xf16, "L1">, memref<32x256xf16, "L1">, memref<32x256xf16, "L1">
        }
        ktdf.stage depends_in(none) depends_out(none) {
          ktdf.data_transfer from %x[0, 0] size [32, 256] to %in[0, 0] size [32, 256] : memref<128x256xf16, "DDR">, memref<32x256xf16, "L1">
        } {applicable_units = ["MNILU"]}
      }
    }
    func.return
  }
}

// CHECK:      negative-oversized.mlir:25:11: error: @local_schedule_0 does not fit in L1 of device @toy, which holds 65536 bytes: the 5 buffers live at its peak take 131072 bytes and end at byte 131072
// CHECK-NEXT:      address       bytes  buffer
// CHECK-NEXT:            0       16384  %ping memref<32x256xf16, "L1"> at {{.*}}negative-oversized.mlir:17:5
// CHECK-NEXT:        16384       16384  %pong memref<32x256xf16, "L1"> at {{.*}}negative-oversized.mlir:18:5
// CHECK-NEXT:        32768       32768  %a memref<32x256xf16, "L1"> at {{.*}}negative-oversized.mlir:24:11 (2 copies)
// CHECK-NEXT:        65536       32768  %b memref<32x256xf16, "L1"> at {{.*}}negative-oversized.mlir:25:11 (2 copies)
// CHECK-NEXT:        98304       32768  %c memref<32x256xf16, "L1"> at {{.*}}negative-oversized.mlir:26:11 (2 copies)
