// Running the pass on its own output changes nothing: the one store left is of the
// last product, which no load of the same place follows.

// RUN: ktc-opt %S/basic.mlir --arch spyre -p chain-matrix-products | ktc-opt --arch spyre -p chain-matrix-products | filecheck %S/basic.mlir
