// A two-core DataflowIR kernel that uses every dfir op: host-side symbol definitions,
// then the device side with its units, uniform maps and one program per engine kind
// (DMA in, load/store, SIMD, DMA out) talking through FIFOs and sync signals. It
// prints as written and survives a trip through its generic form.

// RUN: ktc-opt %s | filecheck %s
// RUN: ktc-opt %s --print-op-generic | ktc-opt | filecheck %s
// RUN: ktc-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC

// CHECK-LABEL: @scale
func.func @scale(%x: index, %y: index) attributes {grid = [2]} {
  // CHECK:      dfir.define_symbol 1 = %{{.*}} : index
  // CHECK:      dfir.define_symbol 2 = %{{.*}} : index
  dfir.define_symbol 1 = %x : index
  %c512 = arith.constant 512 : index
  %y_tail = arith.addi %y, %c512 : index
  dfir.define_symbol 2 = %y_tail : index
  // CHECK:      dfir.dataflow {
  dfir.dataflow {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c1024 = arith.constant 1024 : index
    // CHECK:      %[[DDR:[^ ]+]] = dfir.unit : !dfir.unit<"ddr">
    // CHECK-NEXT: %[[L1A:[^ ]+]] = dfir.unit core 0 : !dfir.unit<"l1">
    // CHECK-NEXT: %[[L1B:[^ ]+]] = dfir.unit core 1 : !dfir.unit<"l1">
    // CHECK-NEXT: %[[DMA0:[^ ]+]] = dfir.unit core 0 : !dfir.unit<"dma">
    // CHECK-NEXT: %[[DMA1:[^ ]+]] = dfir.unit core 1 : !dfir.unit<"dma">
    // CHECK-NEXT: %[[LSU0:[^ ]+]] = dfir.unit core 0 subcore 0 : !dfir.unit<"lsu">
    // CHECK-NEXT: %[[LSU1:[^ ]+]] = dfir.unit core 1 subcore 0 : !dfir.unit<"lsu">
    // CHECK-NEXT: %[[SFU0:[^ ]+]] = dfir.unit core 0 subcore 0 : !dfir.unit<"sfu">
    // CHECK-NEXT: %[[SFU1:[^ ]+]] = dfir.unit core 1 subcore 0 : !dfir.unit<"sfu">
    %ddr = dfir.unit : !dfir.unit<"ddr">
    %l1_0 = dfir.unit core 0 : !dfir.unit<"l1">
    %l1_1 = dfir.unit core 1 : !dfir.unit<"l1">
    %dma0 = dfir.unit core 0 : !dfir.unit<"dma">
    %dma1 = dfir.unit core 1 : !dfir.unit<"dma">
    %lsu0 = dfir.unit core 0 subcore 0 : !dfir.unit<"lsu">
    %lsu1 = dfir.unit core 1 subcore 0 : !dfir.unit<"lsu">
    %sfu0 = dfir.unit core 0 subcore 0 : !dfir.unit<"sfu">
    %sfu1 = dfir.unit core 1 subcore 0 : !dfir.unit<"sfu">
    // CHECK-NEXT: %[[X:[^ ]+]] = dfir.symbol 1 : index
    // CHECK-NEXT: %[[Y:[^ ]+]] = dfir.symbol 2 : index
    %xs = dfir.symbol 1 : index
    %ys = dfir.symbol 2 : index
    // CHECK-NEXT: %[[DMA_L1:[^ ]+]] = dfir.uniform_map [%[[DMA0]] -> %[[L1A]], %[[DMA1]] -> %[[L1B]]] : !dfir.uniform<"dma", !dfir.unit<"l1">>
    %dma_l1 = dfir.uniform_map [%dma0 -> %l1_0, %dma1 -> %l1_1] : !dfir.uniform<"dma", !dfir.unit<"l1">>
    // CHECK-NEXT: %[[DMA_LSU:[^ ]+]] = dfir.uniform_map [%[[DMA0]] -> %[[LSU0]], %[[DMA1]] -> %[[LSU1]]] : !dfir.uniform<"dma", !dfir.unit<"lsu">>
    %dma_lsu = dfir.uniform_map [%dma0 -> %lsu0, %dma1 -> %lsu1] : !dfir.uniform<"dma", !dfir.unit<"lsu">>
    // CHECK-NEXT: %[[OFFSET:[^ ]+]] = dfir.uniform_map [%[[DMA0]] -> %{{.*}}, %[[DMA1]] -> %{{.*}}] : !dfir.uniform<"dma", index>
    %offset = dfir.uniform_map [%dma0 -> %c0, %dma1 -> %c1024] : !dfir.uniform<"dma", index>
    %lsu_dma = dfir.uniform_map [%lsu0 -> %dma0, %lsu1 -> %dma1] : !dfir.uniform<"lsu", !dfir.unit<"dma">>
    %lsu_sfu = dfir.uniform_map [%lsu0 -> %sfu0, %lsu1 -> %sfu1] : !dfir.uniform<"lsu", !dfir.unit<"sfu">>
    %lsu_l1 = dfir.uniform_map [%lsu0 -> %l1_0, %lsu1 -> %l1_1] : !dfir.uniform<"lsu", !dfir.unit<"l1">>
    %sfu_lsu = dfir.uniform_map [%sfu0 -> %lsu0, %sfu1 -> %lsu1] : !dfir.uniform<"sfu", !dfir.unit<"lsu">>

    // CHECK:      dfir.program "dma" on (%[[DMA0]], %[[DMA1]]) {
    dfir.program "dma" on (%dma0, %dma1) {
      // CHECK-NEXT: %[[L1:[^ ]+]] = dfir.query %[[DMA_L1]] : !dfir.uniform<"dma", !dfir.unit<"l1">>
      // CHECK-NEXT: %[[PEER:[^ ]+]] = dfir.query %[[DMA_LSU]] : !dfir.uniform<"dma", !dfir.unit<"lsu">>
      // CHECK-NEXT: %[[OFF:[^ ]+]] = dfir.query %[[OFFSET]] : !dfir.uniform<"dma", index>
      %l1 = dfir.query %dma_l1 : !dfir.uniform<"dma", !dfir.unit<"l1">>
      %lsu = dfir.query %dma_lsu : !dfir.uniform<"dma", !dfir.unit<"lsu">>
      %off = dfir.query %offset : !dfir.uniform<"dma", index>
      // CHECK-NEXT: %[[IN_AT:[^ ]+]] = arith.addi %[[X]], %[[OFF]] : index
      // CHECK-NEXT: %[[IN:[^ ]+]] = dfir.view %[[DDR]][%[[IN_AT]]] : !dfir.unit<"ddr"> -> memref<4x64xf16, strided<[128, 1]>>
      // CHECK-NEXT: %[[BUF:[^ ]+]] = dfir.view %[[L1]][%{{.*}}] : !dfir.unit<"l1"> -> memref<4x64xf16>
      // CHECK-NEXT: dfir.dma %[[IN]] to %[[BUF]] : memref<4x64xf16, strided<[128, 1]>>, memref<4x64xf16>
      // CHECK-NEXT: dfir.sync_send %[[PEER]] id 1 : !dfir.unit<"lsu">
      // CHECK-NEXT: dfir.sync_recv %[[PEER]] id 2 : !dfir.unit<"lsu">
      %in_at = arith.addi %xs, %off : index
      %in = dfir.view %ddr[%in_at] : !dfir.unit<"ddr"> -> memref<4x64xf16, strided<[128, 1]>>
      %buf = dfir.view %l1[%c0] : !dfir.unit<"l1"> -> memref<4x64xf16>
      dfir.dma %in to %buf : memref<4x64xf16, strided<[128, 1]>>, memref<4x64xf16>
      dfir.sync_send %lsu id 1 : !dfir.unit<"lsu">
      dfir.sync_recv %lsu id 2 : !dfir.unit<"lsu">
      %out_at = arith.addi %ys, %off : index
      %out = dfir.view %ddr[%out_at] : !dfir.unit<"ddr"> -> memref<4x64xf16, strided<[128, 1]>>
      dfir.dma %buf to %out : memref<4x64xf16>, memref<4x64xf16, strided<[128, 1]>>
      // A block whose row count is known only at run time: a dynamic dimension.
      // CHECK:      %[[PART:[^ ]+]] = dfir.view %[[L1]][%{{.*}}] sizes(%[[OFF]]) : !dfir.unit<"l1"> -> memref<?x64xf16>
      // CHECK-NEXT: %[[PART_OUT:[^ ]+]] = dfir.view %[[DDR]][%{{.*}}] sizes(%[[OFF]]) : !dfir.unit<"ddr"> -> memref<?x64xf16, strided<[128, 1]>>
      // CHECK-NEXT: dfir.dma %[[PART]] to %[[PART_OUT]] : memref<?x64xf16>, memref<?x64xf16, strided<[128, 1]>>
      %part = dfir.view %l1[%c0] sizes(%off) : !dfir.unit<"l1"> -> memref<?x64xf16>
      %part_out = dfir.view %ddr[%out_at] sizes(%off) : !dfir.unit<"ddr"> -> memref<?x64xf16, strided<[128, 1]>>
      dfir.dma %part to %part_out : memref<?x64xf16>, memref<?x64xf16, strided<[128, 1]>>
      // A masked tail: the valid rows land at the block's start, zeros fill the rest.
      // CHECK:      %[[TAIL:[^ ]+]] = dfir.view %[[DDR]][%{{.*}}] sizes(%[[OFF]]) : !dfir.unit<"ddr"> -> memref<?x64xf16, strided<[128, 1]>>
      // CHECK-NEXT: dfir.dma %[[TAIL]] to %[[BUF]] zero_fill : memref<?x64xf16, strided<[128, 1]>>, memref<4x64xf16>
      %tail = dfir.view %ddr[%in_at] sizes(%off) : !dfir.unit<"ddr"> -> memref<?x64xf16, strided<[128, 1]>>
      dfir.dma %tail to %buf zero_fill : memref<?x64xf16, strided<[128, 1]>>, memref<4x64xf16>
      // An indirect access: an index read from the scratchpad, and a copy at the row it names.
      // CHECK:      %[[IDX:[^ ]+]] = dfir.load_index %{{.*}}[%[[OFF]]] : memref<8xi32>, i32
      // CHECK:      dfir.dma %{{.*}} to %[[BUF]] indirect : memref<4x64xf16, strided<[128, 1]>>, memref<4x64xf16>
      %ids = dfir.view %l1[%c0] : !dfir.unit<"l1"> -> memref<8xi32>
      %idx = dfir.load_index %ids[%off] : memref<8xi32>, i32
      %row = arith.index_cast %idx : i32 to index
      %row_at = arith.addi %xs, %row : index
      %named = dfir.view %ddr[%row_at] : !dfir.unit<"ddr"> -> memref<4x64xf16, strided<[128, 1]>>
      dfir.dma %named to %buf indirect : memref<4x64xf16, strided<[128, 1]>>, memref<4x64xf16>
    }

    // CHECK:      dfir.program "lsu" on (%[[LSU0]], %[[LSU1]]) {
    dfir.program "lsu" on (%lsu0, %lsu1) {
      %dma = dfir.query %lsu_dma : !dfir.uniform<"lsu", !dfir.unit<"dma">>
      %sfu = dfir.query %lsu_sfu : !dfir.uniform<"lsu", !dfir.unit<"sfu">>
      %l1 = dfir.query %lsu_l1 : !dfir.uniform<"lsu", !dfir.unit<"l1">>
      %buf = dfir.view %l1[%c0] : !dfir.unit<"l1"> -> memref<4x64xf16>
      dfir.sync_recv %dma id 1 : !dfir.unit<"dma">
      // CHECK:      scf.for %[[I:[^ ]+]] = {{.*}} {
      // CHECK-NEXT:   %[[V:[^ ]+]] = dfir.load %{{.*}}[%[[I]], %{{.*}}] : memref<4x64xf16>, vector<64xf16>
      // CHECK-NEXT:   dfir.send %[[V]] to %{{.*}} id 3 : vector<64xf16>, !dfir.unit<"sfu">
      // CHECK-NEXT:   %[[W:[^ ]+]] = dfir.receive from %{{.*}} id 4 : !dfir.unit<"sfu"> -> vector<64xf16>
      // CHECK-NEXT:   dfir.store %[[W]], %{{.*}}[%[[I]], %{{.*}}] : memref<4x64xf16>, vector<64xf16>
      scf.for %i = %c0 to %c4 step %c1 {
        %v = dfir.load %buf[%i, %c0] : memref<4x64xf16>, vector<64xf16>
        dfir.send %v to %sfu id 3 : vector<64xf16>, !dfir.unit<"sfu">
        %w = dfir.receive from %sfu id 4 : !dfir.unit<"sfu"> -> vector<64xf16>
        dfir.store %w, %buf[%i, %c0] : memref<4x64xf16>, vector<64xf16>
      }
      dfir.sync_send %dma id 2 : !dfir.unit<"dma">
    }

    // CHECK:      dfir.program "sfu" on (%[[SFU0]], %[[SFU1]]) {
    dfir.program "sfu" on (%sfu0, %sfu1) {
      %lsu = dfir.query %sfu_lsu : !dfir.uniform<"sfu", !dfir.unit<"lsu">>
      %half = arith.constant dense<5.000000e-01> : vector<64xf16>
      scf.for %i = %c0 to %c4 step %c1 {
        // CHECK:      %[[A:[^ ]+]] = dfir.receive from %{{.*}} id 3 : !dfir.unit<"lsu"> -> vector<64xf16>
        // CHECK-NEXT: %[[E:[^ ]+]] = dfir.compute <exp> %[[A]] : vector<64xf16>
        // CHECK-NEXT: %[[M:[^ ]+]] = dfir.compute <mul> %[[E]], %{{.*}} : vector<64xf16>
        // CHECK-NEXT: %[[F:[^ ]+]] = dfir.compute <fma> %[[A]], %[[M]], %[[E]] : vector<64xf16>
        // CHECK-NEXT: %[[R:[^ ]+]] = dfir.compute <max> %[[F]], %[[A]] : vector<64xf16>
        // CHECK-NEXT: dfir.send %[[R]] to %{{.*}} id 4 : vector<64xf16>, !dfir.unit<"lsu">
        %a = dfir.receive from %lsu id 3 : !dfir.unit<"lsu"> -> vector<64xf16>
        %e = dfir.compute <exp> %a : vector<64xf16>
        %m = dfir.compute <mul> %e, %half : vector<64xf16>
        %f = dfir.compute <fma> %a, %m, %e : vector<64xf16>
        %r = dfir.compute <max> %f, %a : vector<64xf16>
        dfir.send %r to %lsu id 4 : vector<64xf16>, !dfir.unit<"lsu">
      }
    }
  }
  func.return
}

// Horizontal reductions, splats of a one-element vector or of a scalar symbol, and
// element type conversions.
// CHECK-LABEL: @reduce
func.func @reduce(%eps: f16) {
  dfir.define_symbol 1 = %eps : f16
  dfir.dataflow {
    %s = dfir.unit core 0 : !dfir.unit<"sfu">
    %e = dfir.symbol 1 : f16
    // CHECK:      dfir.program "sfu"
    dfir.program "sfu" on (%s) {
      // CHECK:      %[[V:[^ ]+]] = arith.constant
      // CHECK-NEXT: %[[R:[^ ]+]] = dfir.reduce <max> %[[V]] : vector<256xf16> -> vector<1xf16>
      // CHECK-NEXT: %[[W:[^ ]+]] = dfir.splat %[[R]] : vector<1xf16> -> vector<64xf16>
      // CHECK-NEXT: %{{.*}} = dfir.splat %{{.*}} : f16 -> vector<64xf16>
      // CHECK-NEXT: %{{.*}} = dfir.convert %[[W]] : vector<64xf16> -> vector<64xf32>
      %v = arith.constant dense<1.000000e+00> : vector<256xf16>
      %r = dfir.reduce <max> %v : vector<256xf16> -> vector<1xf16>
      %w = dfir.splat %r : vector<1xf16> -> vector<64xf16>
      %x = dfir.splat %e : f16 -> vector<64xf16>
      %y = dfir.convert %w : vector<64xf16> -> vector<64xf32>
    }
  }
  func.return
}

// A product on the matrix unit: a 4 x 8 lhs by an 8 x 16 rhs into a 4 x 16 f32
// accumulator, the shape [m, k, n] in brackets.
// CHECK-LABEL: @product
func.func @product() {
  dfir.dataflow {
    %p = dfir.unit core 0 : !dfir.unit<"pt">
    // CHECK:      dfir.program "pt"
    dfir.program "pt" on (%p) {
      // CHECK:      %{{.*}} = dfir.matmul %[[A:[^ ,]+]], %[[B:[^ ,]+]], %[[C:[^ ]+]] [4, 8, 16] : vector<32xf16>, vector<128xf16> -> vector<64xf32>
      %a = arith.constant dense<1.000000e+00> : vector<32xf16>
      %b = arith.constant dense<2.000000e+00> : vector<128xf16>
      %c = arith.constant dense<0.000000e+00> : vector<64xf32>
      %d = dfir.matmul %a, %b, %c [4, 8, 16] : vector<32xf16>, vector<128xf16> -> vector<64xf32>
      // CHECK-NEXT: %{{.*}} = dfir.matmul %[[A]], %[[B]], %[[C]] [4, 8, 16] transposed_rhs : vector<32xf16>, vector<128xf16> -> vector<64xf32>
      %e = dfir.matmul %a, %b, %c [4, 8, 16] transposed_rhs : vector<32xf16>, vector<128xf16> -> vector<64xf32>
    }
  }
  func.return
}

// Empty bodies print as "{ }"; discardable attributes print after "attributes".
// CHECK-LABEL: @idle
func.func @idle() {
  // CHECK-NEXT: dfir.dataflow attributes {note = "idle"} {
  // CHECK-NEXT:   %[[S:[^ ]+]] = dfir.unit core 0 : !dfir.unit<"sfu">
  // CHECK-NEXT:   dfir.program "sfu" on (%[[S]]) attributes {note = "idle"} {
  // CHECK-NEXT:   }
  // CHECK-NEXT: }
  dfir.dataflow attributes {note = "idle"} {
    %s = dfir.unit core 0 : !dfir.unit<"sfu">
    dfir.program "sfu" on (%s) attributes {note = "idle"} {
    }
  }
  func.return
}

// GENERIC:      "dfir.define_symbol"(%{{.*}}) <{id = 1 : i64}> : (index) -> ()
// GENERIC:      "dfir.dataflow"() ({
// GENERIC:      "dfir.unit"() : () -> !dfir.unit<"ddr">
// GENERIC-NEXT: "dfir.unit"() <{core = 0 : i64}> : () -> !dfir.unit<"l1">
// GENERIC:      "dfir.unit"() <{core = 0 : i64, subcore = 0 : i64}> : () -> !dfir.unit<"lsu">
// GENERIC:      "dfir.symbol"() <{id = 1 : i64}> : () -> index
// GENERIC:      "dfir.uniform_map"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) : (!dfir.unit<"dma">, !dfir.unit<"dma">, !dfir.unit<"l1">, !dfir.unit<"l1">) -> !dfir.uniform<"dma", !dfir.unit<"l1">>
// GENERIC:      "dfir.program"(%{{.*}}, %{{.*}}) <{kind = "dma"}> ({
// GENERIC-NEXT: "dfir.query"(%{{.*}}) : (!dfir.uniform<"dma", !dfir.unit<"l1">>) -> !dfir.unit<"l1">
// GENERIC:      "dfir.view"(%{{.*}}, %{{.*}}) : (!dfir.unit<"ddr">, index) -> memref<4x64xf16, strided<[128, 1]>>
// GENERIC:      "dfir.dma"(%{{.*}}, %{{.*}}) : (memref<4x64xf16, strided<[128, 1]>>, memref<4x64xf16>) -> ()
// GENERIC-NEXT: "dfir.sync_send"(%{{.*}}) <{id = 1 : i64}> : (!dfir.unit<"lsu">) -> ()
// GENERIC:      }) : (!dfir.unit<"dma">, !dfir.unit<"dma">) -> ()
// GENERIC:      "dfir.load"(%{{.*}}, %{{.*}}, %{{.*}}) : (memref<4x64xf16>, index, index) -> vector<64xf16>
// GENERIC-NEXT: "dfir.send"(%{{.*}}, %{{.*}}) <{id = 3 : i64}> : (vector<64xf16>, !dfir.unit<"sfu">) -> ()
// GENERIC-NEXT: "dfir.receive"(%{{.*}}) <{id = 4 : i64}> : (!dfir.unit<"sfu">) -> vector<64xf16>
// GENERIC-NEXT: "dfir.store"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) : (vector<64xf16>, memref<4x64xf16>, index, index) -> ()
// GENERIC:      "dfir.compute"(%{{.*}}) <{kind = #dfir.compute_kind<exp>}> : (vector<64xf16>) -> vector<64xf16>
// GENERIC:      "dfir.compute"(%{{.*}}, %{{.*}}, %{{.*}}) <{kind = #dfir.compute_kind<fma>}> : (vector<64xf16>, vector<64xf16>, vector<64xf16>) -> vector<64xf16>
// GENERIC:      "dfir.reduce"(%{{.*}}) <{kind = #dfir.reduce_kind<max>}> : (vector<256xf16>) -> vector<1xf16>

// Spyre's intrinsic instructions: softplus computes on f32 (the data widened, its
// beta and threshold f32 constants) and gives f16, which the type list spells out;
// the other kinds keep the one-type form.
// CHECK-LABEL: @intrinsics
func.func @intrinsics() {
  dfir.dataflow {
    %s = dfir.unit core 0 : !dfir.unit<"sfu">
    dfir.program "sfu" on (%s) {
      %x = arith.constant dense<1.000000e+00> : vector<64xf16>
      %w = dfir.convert %x : vector<64xf16> -> vector<64xf32>
      %beta = arith.constant dense<5.000000e-01> : vector<64xf32>
      %threshold = arith.constant dense<2.000000e+01> : vector<64xf32>
      // CHECK:      %[[Y:[^ ]+]] = dfir.compute <softplus> %{{.*}}, %{{.*}}, %{{.*}} : vector<64xf32> -> vector<64xf16>
      // CHECK-NEXT: %{{.*}} = dfir.compute <cmp_ge> %[[Y]], %{{.*}} : vector<64xf16>
      // CHECK-NEXT: %{{.*}} = dfir.compute <layernormnorm> %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : vector<64xf16>
      %y = dfir.compute <softplus> %w, %beta, %threshold : vector<64xf32> -> vector<64xf16>
      %c = dfir.compute <cmp_ge> %y, %x : vector<64xf16>
      %n = dfir.compute <layernormnorm> %y, %x, %c, %x, %y : vector<64xf16>
    }
  }
  func.return
}
