// A hand-written DataflowIR schedule for one core of the toy device: y = x * 0.5 over
// two rows of 8 f16 (one 16-byte FIFO beat each). The load unit queues both rows in
// its FIFO to the SIMD engine and only then signals it to start: the schedule assumes
// the FIFO holds two beats. On the toy device (2 beats) it runs; on
// toy_fifo_depth_1.mlir the second row never fits and every engine waits forever.
func.func @queue_two_rows(%x: index, %y: index) attributes {grid = [1]} {
  func.call @rows(%x, %y) : (index, index) -> ()
  func.return
}

func.func @rows(%x: index, %y: index) {
  %c2 = arith.constant 2 : index
  %x_bytes = arith.muli %x, %c2 : index
  dfir.define_symbol 1 = %x_bytes : index
  %y_bytes = arith.muli %y, %c2 : index
  dfir.define_symbol 2 = %y_bytes : index
  dfir.dataflow {
    %c0 = arith.constant 0 : index
    %c8 = arith.constant 8 : index
    %c64 = arith.constant 64 : index
    %ddr = dfir.unit : !dfir.unit<"DDR">
    %l1 = dfir.unit core 0 : !dfir.unit<"L1">
    %in = dfir.unit core 0 : !dfir.unit<"MNILU">
    %out = dfir.unit core 0 : !dfir.unit<"MNISU">
    %ld = dfir.unit core 0 subcore 0 : !dfir.unit<"L1LU">
    %sfu = dfir.unit core 0 subcore 0 : !dfir.unit<"SFU">
    %st = dfir.unit core 0 subcore 0 : !dfir.unit<"L1SU">
    %xs = dfir.symbol 1 : index
    %ys = dfir.symbol 2 : index

    dfir.program "MNILU" on (%in) {
      %src = dfir.view %ddr[%xs] : !dfir.unit<"DDR"> -> memref<16xf16>
      %buf = dfir.view %l1[%c0] : !dfir.unit<"L1"> -> memref<16xf16>
      dfir.dma %src to %buf : memref<16xf16>, memref<16xf16>
      dfir.sync_send %ld id 1 : !dfir.unit<"L1LU">
    }

    dfir.program "L1LU" on (%ld) {
      %buf = dfir.view %l1[%c0] : !dfir.unit<"L1"> -> memref<16xf16>
      dfir.sync_recv %in id 1 : !dfir.unit<"MNILU">
      %row0 = dfir.load %buf[%c0] : memref<16xf16>, vector<8xf16>
      %row1 = dfir.load %buf[%c8] : memref<16xf16>, vector<8xf16>
      dfir.send %row0 to %sfu id 2 : vector<8xf16>, !dfir.unit<"SFU">
      dfir.send %row1 to %sfu id 6 : vector<8xf16>, !dfir.unit<"SFU">
      dfir.sync_send %sfu id 5 : !dfir.unit<"SFU">
    }

    dfir.program "SFU" on (%sfu) {
      %half = arith.constant dense<5.000000e-01> : vector<8xf16>
      dfir.sync_recv %ld id 5 : !dfir.unit<"L1LU">
      %a = dfir.receive from %ld id 2 : !dfir.unit<"L1LU"> -> vector<8xf16>
      %b = dfir.receive from %ld id 6 : !dfir.unit<"L1LU"> -> vector<8xf16>
      %ra = dfir.compute <mul> %a, %half : vector<8xf16>
      %rb = dfir.compute <mul> %b, %half : vector<8xf16>
      dfir.send %ra to %st id 3 : vector<8xf16>, !dfir.unit<"L1SU">
      dfir.send %rb to %st id 7 : vector<8xf16>, !dfir.unit<"L1SU">
    }

    dfir.program "L1SU" on (%st) {
      %buf = dfir.view %l1[%c64] : !dfir.unit<"L1"> -> memref<16xf16>
      %ra = dfir.receive from %sfu id 3 : !dfir.unit<"SFU"> -> vector<8xf16>
      dfir.store %ra, %buf[%c0] : memref<16xf16>, vector<8xf16>
      %rb = dfir.receive from %sfu id 7 : !dfir.unit<"SFU"> -> vector<8xf16>
      dfir.store %rb, %buf[%c8] : memref<16xf16>, vector<8xf16>
      dfir.sync_send %out id 4 : !dfir.unit<"MNISU">
    }

    dfir.program "MNISU" on (%out) {
      %buf = dfir.view %l1[%c64] : !dfir.unit<"L1"> -> memref<16xf16>
      %dst = dfir.view %ddr[%ys] : !dfir.unit<"DDR"> -> memref<16xf16>
      dfir.sync_recv %st id 4 : !dfir.unit<"L1SU">
      dfir.dma %buf to %dst : memref<16xf16>, memref<16xf16>
    }
  }
  func.return
}
