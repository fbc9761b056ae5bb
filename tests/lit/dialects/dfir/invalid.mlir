// Each dfir verifier rejects IR that breaks its rule: the isolated device side, one
// program per kind on units of that kind, uniform maps that cover every instance,
// symbols defined once on the host, static views, vector accesses that fit, and
// send/receive and sync pairs whose ids, peer kinds and vector types match.

// RUN: ktc-opt %s --split-input-file --verify-diagnostics

func.func @f(%x: index) {
  // expected-error@+1 {{Operation using value defined out of its IsolatedFromAbove parent}}
  dfir.dataflow {
    %m = dfir.unit : !dfir.unit<"ddr">
    %v = dfir.view %m[%x] : !dfir.unit<"ddr"> -> memref<64xf16>
  }
  func.return
}

// -----

// expected-error@+1 {{more than one program for engine kind 'sfu'}}
dfir.dataflow {
  %s0 = dfir.unit core 0 : !dfir.unit<"sfu">
  %s1 = dfir.unit core 1 : !dfir.unit<"sfu">
  dfir.program "sfu" on (%s0) {
  }
  dfir.program "sfu" on (%s1) {
  }
}

// -----

// expected-error@+1 {{'sfu' unit core 0 subcore 1 is declared twice}}
dfir.dataflow {
  %s0 = dfir.unit core 0 subcore 1 : !dfir.unit<"sfu">
  %s1 = dfir.unit core 0 subcore 1 : !dfir.unit<"sfu">
}

// -----

dfir.dataflow {
  // expected-error@+1 {{a unit with a subcore needs a core}}
  %s = dfir.unit subcore 1 : !dfir.unit<"sfu">
}

// -----

dfir.dataflow {
  // expected-error@+1 {{core must be non-negative, got -1}}
  %s = dfir.unit core -1 : !dfir.unit<"sfu">
}

// -----

// expected-error@+1 {{'dfir.unit' expects parent op 'dfir.dataflow'}}
%s = dfir.unit core 0 : !dfir.unit<"sfu">

// -----

dfir.dataflow {
  %l = dfir.unit core 0 subcore 0 : !dfir.unit<"lsu">
  // expected-error@+1 {{operand is used with type !dfir.unit<"sfu">, but has been previously used or defined with type !dfir.unit<"lsu">}}
  dfir.program "sfu" on (%l) {
  }
}

// -----

dfir.dataflow {
  %l = dfir.unit core 0 subcore 0 : !dfir.unit<"lsu">
  // expected-error@+1 {{program for 'sfu' cannot run on 'lsu' unit core 0 subcore 0}}
  "dfir.program"(%l) <{kind = "sfu"}> ({
  ^bb0:
  }) : (!dfir.unit<"lsu">) -> ()
}

// -----

dfir.dataflow {
  // expected-error@+1 {{a program runs on at least one unit}}
  dfir.program "sfu" on () {
  }
}

// -----

dfir.dataflow {
  %s = dfir.unit core 0 : !dfir.unit<"sfu">
  // expected-error@+1 {{a unit is listed twice}}
  dfir.program "sfu" on (%s, %s) {
  }
}

// -----

dfir.dataflow {
  %s = dfir.unit core 0 : !dfir.unit<"sfu">
  // expected-error@+1 {{the program body takes no arguments}}
  "dfir.program"(%s) <{kind = "sfu"}> ({
  ^bb0(%arg0: !dfir.unit<"sfu">):
  }) : (!dfir.unit<"sfu">) -> ()
}

// -----

func.func @f(%s: !dfir.unit<"sfu">) {
  // expected-error@+1 {{'dfir.program' expects parent op 'dfir.dataflow'}}
  dfir.program "sfu" on (%s) {
  }
  func.return
}

// -----

dfir.dataflow {
  %s = dfir.unit core 0 : !dfir.unit<"sfu">
  %l = dfir.unit core 0 : !dfir.unit<"lsu">
  %c0 = arith.constant 0 : index
  // expected-error@+1 {{key 'lsu' unit core 0 is not of the map's kind 'sfu'}}
  %m = "dfir.uniform_map"(%s, %l, %c0, %c0) : (!dfir.unit<"sfu">, !dfir.unit<"lsu">, index, index) -> !dfir.uniform<"sfu", index>
}

// -----

dfir.dataflow {
  %s = dfir.unit core 0 : !dfir.unit<"sfu">
  %c0 = arith.constant 0 : i32
  // expected-error@+1 {{value of type i32 in a map of index}}
  %m = "dfir.uniform_map"(%s, %c0) : (!dfir.unit<"sfu">, i32) -> !dfir.uniform<"sfu", index>
}

// -----

dfir.dataflow {
  %s = dfir.unit core 0 : !dfir.unit<"sfu">
  %c0 = arith.constant 0 : index
  // expected-error@+1 {{a unit has two entries}}
  %m = dfir.uniform_map [%s -> %c0, %s -> %c0] : !dfir.uniform<"sfu", index>
}

// -----

dfir.dataflow {
  // expected-error@+1 {{a uniform map has at least one entry}}
  %m = dfir.uniform_map [] : !dfir.uniform<"sfu", index>
}

// -----

dfir.dataflow {
  %s = dfir.unit core 0 : !dfir.unit<"sfu">
  %c0 = arith.constant 0 : index
  // expected-error@+1 {{expected a !dfir.uniform type, got !dfir.unit<"sfu">}}
  %m = dfir.uniform_map [%s -> %c0] : !dfir.unit<"sfu">
}

// -----

dfir.dataflow {
  %s = dfir.unit core 0 : !dfir.unit<"sfu">
  %l = dfir.unit core 0 : !dfir.unit<"lsu">
  %c0 = arith.constant 0 : index
  %m = dfir.uniform_map [%l -> %c0] : !dfir.uniform<"lsu", index>
  dfir.program "sfu" on (%s) {
    // expected-error@+1 {{map keyed by 'lsu' units queried in the 'sfu' program}}
    %v = dfir.query %m : !dfir.uniform<"lsu", index>
  }
}

// -----

dfir.dataflow {
  %s0 = dfir.unit core 0 subcore 0 : !dfir.unit<"sfu">
  %s1 = dfir.unit core 1 subcore 0 : !dfir.unit<"sfu">
  %c0 = arith.constant 0 : index
  %m = dfir.uniform_map [%s0 -> %c0] : !dfir.uniform<"sfu", index>
  dfir.program "sfu" on (%s0, %s1) {
    // expected-error@+1 {{the map has no entry for 'sfu' unit core 1 subcore 0}}
    %v = dfir.query %m : !dfir.uniform<"sfu", index>
  }
}

// -----

dfir.dataflow {
  %s = dfir.unit core 0 : !dfir.unit<"sfu">
  %c0 = arith.constant 0 : index
  %m = dfir.uniform_map [%s -> %c0] : !dfir.uniform<"sfu", index>
  dfir.program "sfu" on (%s) {
    // expected-error@+1 {{result type i32 is not the map's value type index}}
    %v = "dfir.query"(%m) : (!dfir.uniform<"sfu", index>) -> i32
  }
}

// -----

dfir.dataflow {
  %s = dfir.unit core 0 : !dfir.unit<"sfu">
  %c0 = arith.constant 0 : index
  %m = dfir.uniform_map [%s -> %c0] : !dfir.uniform<"sfu", index>
  // expected-error@+1 {{'dfir.query' expects ancestor op 'dfir.program'}}
  %v = dfir.query %m : !dfir.uniform<"sfu", index>
}

// -----

dfir.dataflow {
  %s = dfir.unit core 0 : !dfir.unit<"sfu">
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = dfir.uniform_map [%s -> %c0] : !dfir.uniform<"sfu", index>
  dfir.program "sfu" on (%s) {
    %r = scf.for %i = %c0 to %c1 step %c1 iter_args(%carried = %m) -> (!dfir.uniform<"sfu", index>) {
      // expected-error@+1 {{expects the map of a dfir.uniform_map}}
      %v = dfir.query %carried : !dfir.uniform<"sfu", index>
      scf.yield %carried : !dfir.uniform<"sfu", index>
    }
  }
}

// -----

dfir.dataflow {
  %c0 = arith.constant 0 : index
  // expected-error@+1 {{a symbol is defined by host code, outside 'dfir.dataflow'}}
  dfir.define_symbol 1 = %c0 : index
}

// -----

func.func @f(%x: index, %y: index) {
  dfir.define_symbol 1 = %x : index
  // expected-error@+1 {{symbol 1 is defined twice}}
  dfir.define_symbol 1 = %y : index
  func.return
}

// -----

func.func @f(%x: index) {
  dfir.define_symbol 1 = %x : index
  dfir.dataflow {
    // expected-error@+1 {{symbol 3 is not defined}}
    %s = dfir.symbol 3 : index
  }
  func.return
}

// -----

func.func @f(%x: index) {
  dfir.define_symbol 1 = %x : index
  dfir.dataflow {
    // expected-error@+1 {{symbol 1 is defined as index, used as i64}}
    %s = dfir.symbol 1 : i64
  }
  func.return
}

// -----

func.func @f(%x: vector<2xf32>) {
  // expected-error@+1 {{a symbol is an index, an integer or a float, got vector<2xf32>}}
  dfir.define_symbol 1 = %x : vector<2xf32>
  func.return
}

// -----

func.func @f(%x: index) {
  dfir.define_symbol 1 = %x : index
  // expected-error@+1 {{'dfir.symbol' expects ancestor op 'dfir.dataflow'}}
  %s = dfir.symbol 1 : index
  func.return
}

// -----

dfir.dataflow {
  %m = dfir.unit : !dfir.unit<"ddr">
  %c0 = arith.constant 0 : index
  // expected-error@+1 {{memref<?x64xf16> has 1 dynamic dimensions, but 0 sizes are given}}
  %v = dfir.view %m[%c0] : !dfir.unit<"ddr"> -> memref<?x64xf16>
}

// -----

dfir.dataflow {
  %m = dfir.unit : !dfir.unit<"ddr">
  %c0 = arith.constant 0 : index
  // expected-error@+1 {{a row-major view is dynamic only in its outermost dimension, got memref<4x?xf16>}}
  %v = dfir.view %m[%c0] sizes(%c0) : !dfir.unit<"ddr"> -> memref<4x?xf16>
}

// -----

dfir.dataflow {
  %m = dfir.unit : !dfir.unit<"ddr">
  %c0 = arith.constant 0 : index
  // expected-error@+1 {{a view's strides are static and its offset is 0, got strided<[128, 1], offset: 64>}}
  %v = dfir.view %m[%c0] : !dfir.unit<"ddr"> -> memref<4x64xf16, strided<[128, 1], offset: 64>>
}

// -----

dfir.dataflow {
  %m = dfir.unit : !dfir.unit<"ddr">
  %c0 = arith.constant 0 : index
  // expected-error@+1 {{a view's strides are static and its offset is 0, got strided<[128, 1], offset: ?>}}
  %v = dfir.view %m[%c0] : !dfir.unit<"ddr"> -> memref<4x64xf16, strided<[128, 1], offset: ?>>
}

// -----

dfir.dataflow {
  %m = dfir.unit : !dfir.unit<"ddr">
  %c0 = arith.constant 0 : index
  // expected-error@+1 {{a view's strides are static and its offset is 0, got strided<[?, 1]>}}
  %v = dfir.view %m[%c0] : !dfir.unit<"ddr"> -> memref<4x64xf16, strided<[?, 1]>>
}

// -----

dfir.dataflow {
  %m = dfir.unit : !dfir.unit<"ddr">
  %c0 = arith.constant 0 : index
  // expected-error@+1 {{a view is row-major or strided, got layout affine_map<(d0, d1) -> (d1, d0)>}}
  %v = dfir.view %m[%c0] : !dfir.unit<"ddr"> -> memref<4x64xf16, affine_map<(d0, d1) -> (d1, d0)>>
}

// -----

dfir.dataflow {
  %m = dfir.unit core 0 : !dfir.unit<"l1">
  %l = dfir.unit core 0 : !dfir.unit<"lsu">
  %c0 = arith.constant 0 : index
  %buf = dfir.view %m[%c0] : !dfir.unit<"l1"> -> memref<4x64xf16>
  dfir.program "lsu" on (%l) {
    // expected-error@+1 {{expects 2 indices for memref<4x64xf16>, got 1}}
    %v = dfir.load %buf[%c0] : memref<4x64xf16>, vector<64xf16>
  }
}

// -----

dfir.dataflow {
  %m = dfir.unit core 0 : !dfir.unit<"l1">
  %l = dfir.unit core 0 : !dfir.unit<"lsu">
  %c0 = arith.constant 0 : index
  %buf = dfir.view %m[%c0] : !dfir.unit<"l1"> -> memref<4x64xf16>
  dfir.program "lsu" on (%l) {
    // expected-error@+1 {{expects a one-dimensional vector, got vector<2x32xf16>}}
    %v = dfir.load %buf[%c0, %c0] : memref<4x64xf16>, vector<2x32xf16>
  }
}

// -----

dfir.dataflow {
  %m = dfir.unit core 0 : !dfir.unit<"l1">
  %l = dfir.unit core 0 : !dfir.unit<"lsu">
  %c0 = arith.constant 0 : index
  %buf = dfir.view %m[%c0] : !dfir.unit<"l1"> -> memref<4x64xf16>
  dfir.program "lsu" on (%l) {
    // expected-error@+1 {{vector<64xf32> does not hold the elements of memref<4x64xf16>}}
    %v = dfir.load %buf[%c0, %c0] : memref<4x64xf16>, vector<64xf32>
  }
}

// -----

dfir.dataflow {
  %m = dfir.unit core 0 : !dfir.unit<"l1">
  %l = dfir.unit core 0 : !dfir.unit<"lsu">
  %c0 = arith.constant 0 : index
  %buf = dfir.view %m[%c0] : !dfir.unit<"l1"> -> memref<4x64xf16>
  dfir.program "lsu" on (%l) {
    %v = dfir.load %buf[%c0, %c0] : memref<4x64xf16>, vector<64xf16>
    %narrow = dfir.view %m[%c0] : !dfir.unit<"l1"> -> memref<64x32xf16>
    // expected-error@+1 {{vector<64xf16> is longer than the innermost dimension of memref<64x32xf16>}}
    dfir.store %v, %narrow[%c0, %c0] : memref<64x32xf16>, vector<64xf16>
  }
}

// -----

dfir.dataflow {
  %m = dfir.unit core 0 : !dfir.unit<"l1">
  %c0 = arith.constant 0 : index
  %buf = dfir.view %m[%c0] : !dfir.unit<"l1"> -> memref<4x64xf16>
  // expected-error@+1 {{'dfir.load' expects ancestor op 'dfir.program'}}
  %v = dfir.load %buf[%c0, %c0] : memref<4x64xf16>, vector<64xf16>
}

// -----

dfir.dataflow {
  %ddr = dfir.unit : !dfir.unit<"ddr">
  %d = dfir.unit core 0 : !dfir.unit<"dma">
  %c0 = arith.constant 0 : index
  %a = dfir.view %ddr[%c0] : !dfir.unit<"ddr"> -> memref<4x64xf16>
  %b = dfir.view %ddr[%c0] : !dfir.unit<"ddr"> -> memref<64x4xf16>
  dfir.program "dma" on (%d) {
    // expected-error@+1 {{copies memref<4x64xf16> into memref<64x4xf16> of another shape}}
    dfir.dma %a to %b : memref<4x64xf16>, memref<64x4xf16>
  }
}

// -----

dfir.dataflow {
  %ddr = dfir.unit : !dfir.unit<"ddr">
  %d = dfir.unit core 0 : !dfir.unit<"dma">
  %c0 = arith.constant 0 : index
  %a = dfir.view %ddr[%c0] : !dfir.unit<"ddr"> -> memref<4x64xf16>
  %b = dfir.view %ddr[%c0] : !dfir.unit<"ddr"> -> memref<4x64xf32>
  dfir.program "dma" on (%d) {
    // expected-error@+1 {{copies memref<4x64xf16> into memref<4x64xf32> of another element type}}
    dfir.dma %a to %b : memref<4x64xf16>, memref<4x64xf32>
  }
}

// -----

dfir.dataflow {
  %ddr = dfir.unit : !dfir.unit<"ddr">
  %d = dfir.unit core 0 : !dfir.unit<"dma">
  %c0 = arith.constant 0 : index
  %a = dfir.view %ddr[%c0] : !dfir.unit<"ddr"> -> memref<4x64xf16>
  %b = dfir.view %ddr[%c0] : !dfir.unit<"ddr"> -> memref<4x32xf16>
  dfir.program "dma" on (%d) {
    // expected-error@+1 {{fills memref<4x32xf16> from memref<4x64xf16>, which does not fit in it}}
    dfir.dma %a to %b zero_fill : memref<4x64xf16>, memref<4x32xf16>
  }
}

// -----

dfir.dataflow {
  %d = dfir.unit core 0 : !dfir.unit<"dma">
  %l = dfir.unit core 0 : !dfir.unit<"lsu">
  dfir.program "dma" on (%d) {
    // expected-error@+1 {{id 1 pairs with 0 'dfir.sync_recv' ops, expected exactly one}}
    dfir.sync_send %l id 1 : !dfir.unit<"lsu">
  }
  dfir.program "lsu" on (%l) {
    dfir.sync_recv %d id 2 : !dfir.unit<"dma">
  }
}

// -----

dfir.dataflow {
  %d = dfir.unit core 0 : !dfir.unit<"dma">
  %l = dfir.unit core 0 : !dfir.unit<"lsu">
  dfir.program "dma" on (%d) {
    dfir.sync_send %l id 1 : !dfir.unit<"lsu">
    dfir.sync_send %l id 1 : !dfir.unit<"lsu">
  }
  dfir.program "lsu" on (%l) {
    // expected-error@+1 {{id 1 pairs with 2 'dfir.sync_send' ops, expected exactly one}}
    dfir.sync_recv %d id 1 : !dfir.unit<"dma">
  }
}

// -----

dfir.dataflow {
  %d = dfir.unit core 0 : !dfir.unit<"dma">
  %l = dfir.unit core 0 : !dfir.unit<"lsu">
  %s = dfir.unit core 0 : !dfir.unit<"sfu">
  dfir.program "dma" on (%d) {
    // expected-error@+1 {{peer is a 'lsu' unit, but the 'dfir.sync_recv' with id 1 is in the 'sfu' program}}
    dfir.sync_send %l id 1 : !dfir.unit<"lsu">
  }
  dfir.program "sfu" on (%s) {
    dfir.sync_recv %d id 1 : !dfir.unit<"dma">
  }
}

// -----

dfir.dataflow {
  %d = dfir.unit core 0 : !dfir.unit<"dma">
  %l = dfir.unit core 0 : !dfir.unit<"lsu">
  %s = dfir.unit core 0 : !dfir.unit<"sfu">
  dfir.program "dma" on (%d) {
    // expected-error@+1 {{the 'dfir.sync_recv' with id 1 expects a 'sfu' peer, not 'dma'}}
    dfir.sync_send %l id 1 : !dfir.unit<"lsu">
  }
  dfir.program "lsu" on (%l) {
    dfir.sync_recv %s id 1 : !dfir.unit<"sfu">
  }
}

// -----

dfir.dataflow {
  %l = dfir.unit core 0 : !dfir.unit<"lsu">
  %s = dfir.unit core 0 : !dfir.unit<"sfu">
  dfir.program "lsu" on (%l) {
    %v = arith.constant dense<0.0> : vector<64xf16>
    // expected-error@+1 {{carries vector<64xf16>, but the 'dfir.receive' with id 3 carries vector<32xf16>}}
    dfir.send %v to %s id 3 : vector<64xf16>, !dfir.unit<"sfu">
  }
  dfir.program "sfu" on (%s) {
    %w = dfir.receive from %l id 3 : !dfir.unit<"lsu"> -> vector<32xf16>
  }
}

// -----

dfir.dataflow {
  %l = dfir.unit core 0 : !dfir.unit<"lsu">
  %s = dfir.unit core 0 : !dfir.unit<"sfu">
  dfir.program "sfu" on (%s) {
    // expected-error@+1 {{id 3 pairs with 0 'dfir.send' ops, expected exactly one}}
    %w = dfir.receive from %l id 3 : !dfir.unit<"lsu"> -> vector<32xf16>
  }
}

// -----

dfir.dataflow {
  %s = dfir.unit core 0 : !dfir.unit<"sfu">
  // expected-error@+1 {{'dfir.sync_send' expects ancestor op 'dfir.program'}}
  dfir.sync_send %s id 1 : !dfir.unit<"sfu">
}

// -----

dfir.dataflow {
  %s = dfir.unit core 0 : !dfir.unit<"sfu">
  dfir.program "sfu" on (%s) {
    %v = arith.constant dense<0.0> : vector<64xf16>
    // expected-error@+1 {{'add' takes 2 operands, got 1}}
    %r = dfir.compute <add> %v : vector<64xf16>
  }
}

// -----

dfir.dataflow {
  %s = dfir.unit core 0 : !dfir.unit<"sfu">
  dfir.program "sfu" on (%s) {
    %v = arith.constant dense<0.0> : vector<64xf16>
    // expected-error@+1 {{'fma' takes 3 operands, got 2}}
    %r = dfir.compute <fma> %v, %v : vector<64xf16>
  }
}

// -----

dfir.dataflow {
  %s = dfir.unit core 0 : !dfir.unit<"sfu">
  dfir.program "sfu" on (%s) {
    %v = arith.constant dense<0.0> : vector<2x32xf16>
    // expected-error@+1 {{expects a one-dimensional vector, got vector<2x32xf16>}}
    %r = dfir.compute <exp> %v : vector<2x32xf16>
  }
}

// -----

dfir.dataflow {
  %s = dfir.unit core 0 : !dfir.unit<"sfu">
  dfir.program "sfu" on (%s) {
    %v = arith.constant 0.0 : f16
    // expected-error@+1 {{f16 should be of base attribute vector}}
    %r = dfir.compute <exp> %v : f16
  }
}

// -----

dfir.dataflow {
  %s = dfir.unit core 0 : !dfir.unit<"sfu">
  dfir.program "sfu" on (%s) {
    %v = arith.constant dense<0.0> : vector<64xf16>
    %w = arith.constant dense<0.0> : vector<64xf32>
    // expected-error@+1 {{'dfir.compute' op expects operands of one type}}
    %r = "dfir.compute"(%v, %w) <{kind = #dfir.compute_kind<add>}> : (vector<64xf16>, vector<64xf32>) -> vector<64xf16>
  }
}

// -----

dfir.dataflow {
  %s = dfir.unit core 0 : !dfir.unit<"sfu">
  dfir.program "sfu" on (%s) {
    %w = arith.constant dense<0.0> : vector<64xf32>
    // expected-error@+1 {{'exp' gives the type of its operands, not vector<64xf16>}}
    %r = dfir.compute <exp> %w : vector<64xf32> -> vector<64xf16>
  }
}

// -----

dfir.dataflow {
  %s = dfir.unit core 0 : !dfir.unit<"sfu">
  dfir.program "sfu" on (%s) {
    %v = arith.constant dense<0.0> : vector<64xf16>
    // expected-error@+1 {{'softplus' computes on f32 vectors of the result's length, got vector<64xf16>}}
    %r = dfir.compute <softplus> %v, %v, %v : vector<64xf16>
  }
}

// -----

dfir.dataflow {
  %s = dfir.unit core 0 : !dfir.unit<"sfu">
  dfir.program "sfu" on (%s) {
    %v = arith.constant dense<0.0> : vector<64xf16>
    // expected-error@+1 {{Expected `add`, `sub`, `mul`, `div`, `max`, `min`, `neg`}}
    %r = dfir.compute <pow> %v, %v : vector<64xf16>
  }
}

// -----

dfir.dataflow {
  %s = dfir.unit core 0 : !dfir.unit<"sfu">
  dfir.program "sfu" on (%s) {
    %m = dfir.unit : !dfir.unit<"ddr">
  }
}
// expected-error@-3 {{'dfir.unit' expects parent op 'dfir.dataflow'}}

// -----

dfir.dataflow {
  %s = dfir.unit core 0 : !dfir.unit<"sfu">
  dfir.program "sfu" on (%s) {
    %v = arith.constant dense<1.000000e+00> : vector<64xf16>
    // expected-error@+1 {{a reduction yields one element, got vector<2xf16>}}
    %r = dfir.reduce <add> %v : vector<64xf16> -> vector<2xf16>
  }
}

// -----

dfir.dataflow {
  %s = dfir.unit core 0 : !dfir.unit<"sfu">
  dfir.program "sfu" on (%s) {
    %v = arith.constant dense<1.000000e+00> : vector<2xf16>
    // expected-error@+1 {{splats a one-element vector, got vector<2xf16>}}
    %w = dfir.splat %v : vector<2xf16> -> vector<64xf16>
  }
}

// -----

dfir.dataflow {
  %s = dfir.unit core 0 : !dfir.unit<"sfu">
  dfir.program "sfu" on (%s) {
    %v = arith.constant dense<1.000000e+00> : vector<64xf16>
    // expected-error@+1 {{converts vector<64xf16> into vector<32xf32> of another shape}}
    %w = dfir.convert %v : vector<64xf16> -> vector<32xf32>
  }
}

// -----

dfir.dataflow {
  %p = dfir.unit core 0 : !dfir.unit<"pt">
  dfir.program "pt" on (%p) {
    %a = arith.constant dense<1.000000e+00> : vector<32xf16>
    %b = arith.constant dense<2.000000e+00> : vector<128xf16>
    %c = arith.constant dense<0.000000e+00> : vector<64xf32>
    // expected-error@+1 {{a 4 x 8 by 8 x 8 product takes vectors of 32, 64 and 32 elements, got vector<128xf16>}}
    %d = dfir.matmul %a, %b, %c [4, 8, 8] : vector<32xf16>, vector<128xf16> -> vector<64xf32>
  }
}

// -----

dfir.dataflow {
  %p = dfir.unit core 0 : !dfir.unit<"pt">
  dfir.program "pt" on (%p) {
    %a = arith.constant dense<1.000000e+00> : vector<32xf16>
    %b = arith.constant dense<2.000000e+00> : vector<128xf32>
    %c = arith.constant dense<0.000000e+00> : vector<64xf32>
    // expected-error@+1 {{expects both operands of one element type}}
    %d = dfir.matmul %a, %b, %c [4, 8, 16] : vector<32xf16>, vector<128xf32> -> vector<64xf32>
  }
}

// -----

dfir.dataflow {
  %p = dfir.unit core 0 : !dfir.unit<"pt">
  dfir.program "pt" on (%p) {
    %a = arith.constant dense<1.000000e+00> : vector<32xf16>
    %b = arith.constant dense<2.000000e+00> : vector<128xf16>
    %c = arith.constant dense<0.000000e+00> : vector<64xf32>
    // expected-error@+1 {{expects a shape [m, k, n] of positive sizes, got [4, 8]}}
    %d = dfir.matmul %a, %b, %c [4, 8] : vector<32xf16>, vector<128xf16> -> vector<64xf32>
  }
}

// -----

dfir.dataflow {
  %l1 = dfir.unit core 0 : !dfir.unit<"l1">
  %d = dfir.unit core 0 : !dfir.unit<"dma">
  %c0 = arith.constant 0 : index
  %ids = dfir.view %l1[%c0] : !dfir.unit<"l1"> -> memref<8xi32>
  dfir.program "dma" on (%d) {
    // expected-error@+1 {{reads i64 from memref<8xi32>}}
    %i = dfir.load_index %ids[%c0] : memref<8xi32>, i64
  }
}

// -----

dfir.dataflow {
  %l1 = dfir.unit core 0 : !dfir.unit<"l1">
  %d = dfir.unit core 0 : !dfir.unit<"dma">
  %c0 = arith.constant 0 : index
  %ids = dfir.view %l1[%c0] : !dfir.unit<"l1"> -> memref<2x4xi32>
  dfir.program "dma" on (%d) {
    // expected-error@+1 {{1 indices into memref<2x4xi32>}}
    %i = dfir.load_index %ids[%c0] : memref<2x4xi32>, i32
  }
}
