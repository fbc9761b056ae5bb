// Running the pass twice gives what running it once gives: a tile at the origin of
// a memref.reinterpret_cast, or of a whole scratchpad buffer, is a view already,
// and a view typed with its memory keeps its type.

// RUN: ktc-opt %S/basic.mlir --arch toy -p lower-ktdp-views > %t.once
// RUN: ktc-opt %t.once -p lower-ktdp-views | diff %t.once -
// RUN: ktc-opt %S/basic.mlir --arch toy -p lower-ktdp-views,lower-ktdp-views | diff %t.once -
// RUN: filecheck %s < %t.once

// CHECK-COUNT-4: memref.reinterpret_cast
// CHECK-NOT:     memref.reinterpret_cast
