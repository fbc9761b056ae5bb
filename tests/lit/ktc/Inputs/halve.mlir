// A hand-written DataflowIR kernel for the toy device (2 cores): y = x * 0.5 over
// `rows` rows of 64 f16, two rows per launch (one per core), the host looping over
// row pairs. Addresses are symbols computed on the host from the arguments (element
// indices, as in KTIR) and the launch-loop variable; each core's row offset is a
// per-instance uniform.
func.func @halve(%x: index, %y: index, %rows: index) attributes {grid = [2]} {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  scf.for %i = %c0 to %rows step %c2 {
    func.call @halve_rows(%x, %y, %i) : (index, index, index) -> ()
  }
  func.return
}

func.func @halve_rows(%x: index, %y: index, %i: index) {
  %c2 = arith.constant 2 : index
  %c64 = arith.constant 64 : index
  %row = arith.muli %i, %c64 : index
  %x_row = arith.addi %x, %row : index
  %x_bytes = arith.muli %x_row, %c2 : index
  dfir.define_symbol 1 = %x_bytes : index
  %y_row = arith.addi %y, %row : index
  %y_bytes = arith.muli %y_row, %c2 : index
  dfir.define_symbol 2 = %y_bytes : index
  dfir.dataflow {
    %c0 = arith.constant 0 : index
    %c128 = arith.constant 128 : index
    %ddr = dfir.unit : !dfir.unit<"DDR">
    %l1_0 = dfir.unit core 0 : !dfir.unit<"L1">
    %l1_1 = dfir.unit core 1 : !dfir.unit<"L1">
    %in0 = dfir.unit core 0 : !dfir.unit<"MNILU">
    %in1 = dfir.unit core 1 : !dfir.unit<"MNILU">
    %out0 = dfir.unit core 0 : !dfir.unit<"MNISU">
    %out1 = dfir.unit core 1 : !dfir.unit<"MNISU">
    %ld0 = dfir.unit core 0 subcore 0 : !dfir.unit<"L1LU">
    %ld1 = dfir.unit core 1 subcore 0 : !dfir.unit<"L1LU">
    %sfu0 = dfir.unit core 0 subcore 0 : !dfir.unit<"SFU">
    %sfu1 = dfir.unit core 1 subcore 0 : !dfir.unit<"SFU">
    %st0 = dfir.unit core 0 subcore 0 : !dfir.unit<"L1SU">
    %st1 = dfir.unit core 1 subcore 0 : !dfir.unit<"L1SU">
    %xs = dfir.symbol 1 : index
    %ys = dfir.symbol 2 : index
    %in_l1 = dfir.uniform_map [%in0 -> %l1_0, %in1 -> %l1_1] : !dfir.uniform<"MNILU", !dfir.unit<"L1">>
    %in_ld = dfir.uniform_map [%in0 -> %ld0, %in1 -> %ld1] : !dfir.uniform<"MNILU", !dfir.unit<"L1LU">>
    %in_off = dfir.uniform_map [%in0 -> %c0, %in1 -> %c128] : !dfir.uniform<"MNILU", index>
    %ld_in = dfir.uniform_map [%ld0 -> %in0, %ld1 -> %in1] : !dfir.uniform<"L1LU", !dfir.unit<"MNILU">>
    %ld_sfu = dfir.uniform_map [%ld0 -> %sfu0, %ld1 -> %sfu1] : !dfir.uniform<"L1LU", !dfir.unit<"SFU">>
    %ld_l1 = dfir.uniform_map [%ld0 -> %l1_0, %ld1 -> %l1_1] : !dfir.uniform<"L1LU", !dfir.unit<"L1">>
    %sfu_ld = dfir.uniform_map [%sfu0 -> %ld0, %sfu1 -> %ld1] : !dfir.uniform<"SFU", !dfir.unit<"L1LU">>
    %sfu_st = dfir.uniform_map [%sfu0 -> %st0, %sfu1 -> %st1] : !dfir.uniform<"SFU", !dfir.unit<"L1SU">>
    %st_sfu = dfir.uniform_map [%st0 -> %sfu0, %st1 -> %sfu1] : !dfir.uniform<"L1SU", !dfir.unit<"SFU">>
    %st_out = dfir.uniform_map [%st0 -> %out0, %st1 -> %out1] : !dfir.uniform<"L1SU", !dfir.unit<"MNISU">>
    %st_l1 = dfir.uniform_map [%st0 -> %l1_0, %st1 -> %l1_1] : !dfir.uniform<"L1SU", !dfir.unit<"L1">>
    %out_st = dfir.uniform_map [%out0 -> %st0, %out1 -> %st1] : !dfir.uniform<"MNISU", !dfir.unit<"L1SU">>
    %out_l1 = dfir.uniform_map [%out0 -> %l1_0, %out1 -> %l1_1] : !dfir.uniform<"MNISU", !dfir.unit<"L1">>
    %out_off = dfir.uniform_map [%out0 -> %c0, %out1 -> %c128] : !dfir.uniform<"MNISU", index>

    dfir.program "MNILU" on (%in0, %in1) {
      %l1 = dfir.query %in_l1 : !dfir.uniform<"MNILU", !dfir.unit<"L1">>
      %ld = dfir.query %in_ld : !dfir.uniform<"MNILU", !dfir.unit<"L1LU">>
      %off = dfir.query %in_off : !dfir.uniform<"MNILU", index>
      %at = arith.addi %xs, %off : index
      %src = dfir.view %ddr[%at] : !dfir.unit<"DDR"> -> memref<64xf16>
      %buf = dfir.view %l1[%c0] : !dfir.unit<"L1"> -> memref<64xf16>
      dfir.dma %src to %buf : memref<64xf16>, memref<64xf16>
      dfir.sync_send %ld id 1 : !dfir.unit<"L1LU">
    }

    dfir.program "L1LU" on (%ld0, %ld1) {
      %in = dfir.query %ld_in : !dfir.uniform<"L1LU", !dfir.unit<"MNILU">>
      %sfu = dfir.query %ld_sfu : !dfir.uniform<"L1LU", !dfir.unit<"SFU">>
      %l1 = dfir.query %ld_l1 : !dfir.uniform<"L1LU", !dfir.unit<"L1">>
      %buf = dfir.view %l1[%c0] : !dfir.unit<"L1"> -> memref<64xf16>
      dfir.sync_recv %in id 1 : !dfir.unit<"MNILU">
      %v = dfir.load %buf[%c0] : memref<64xf16>, vector<64xf16>
      dfir.send %v to %sfu id 2 : vector<64xf16>, !dfir.unit<"SFU">
    }

    dfir.program "SFU" on (%sfu0, %sfu1) {
      %ld = dfir.query %sfu_ld : !dfir.uniform<"SFU", !dfir.unit<"L1LU">>
      %st = dfir.query %sfu_st : !dfir.uniform<"SFU", !dfir.unit<"L1SU">>
      %half = arith.constant dense<5.000000e-01> : vector<64xf16>
      %a = dfir.receive from %ld id 2 : !dfir.unit<"L1LU"> -> vector<64xf16>
      %r = dfir.compute <mul> %a, %half : vector<64xf16>
      dfir.send %r to %st id 3 : vector<64xf16>, !dfir.unit<"L1SU">
    }

    dfir.program "L1SU" on (%st0, %st1) {
      %sfu = dfir.query %st_sfu : !dfir.uniform<"L1SU", !dfir.unit<"SFU">>
      %out = dfir.query %st_out : !dfir.uniform<"L1SU", !dfir.unit<"MNISU">>
      %l1 = dfir.query %st_l1 : !dfir.uniform<"L1SU", !dfir.unit<"L1">>
      %buf = dfir.view %l1[%c128] : !dfir.unit<"L1"> -> memref<64xf16>
      %w = dfir.receive from %sfu id 3 : !dfir.unit<"SFU"> -> vector<64xf16>
      dfir.store %w, %buf[%c0] : memref<64xf16>, vector<64xf16>
      dfir.sync_send %out id 4 : !dfir.unit<"MNISU">
    }

    dfir.program "MNISU" on (%out0, %out1) {
      %st = dfir.query %out_st : !dfir.uniform<"MNISU", !dfir.unit<"L1SU">>
      %l1 = dfir.query %out_l1 : !dfir.uniform<"MNISU", !dfir.unit<"L1">>
      %off = dfir.query %out_off : !dfir.uniform<"MNISU", index>
      %buf = dfir.view %l1[%c128] : !dfir.unit<"L1"> -> memref<64xf16>
      %at = arith.addi %ys, %off : index
      %dst = dfir.view %ddr[%at] : !dfir.unit<"DDR"> -> memref<64xf16>
      dfir.sync_recv %st id 4 : !dfir.unit<"L1SU">
      dfir.dma %buf to %dst : memref<64xf16>, memref<64xf16>
    }
  }
  func.return
}
