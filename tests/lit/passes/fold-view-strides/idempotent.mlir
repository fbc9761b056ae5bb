// Folding twice gives what folding once gives: the folded views have only the
// strides that depend on arguments left as operands.

// RUN: ktc-opt %S/basic.mlir -p fold-view-strides > %t.once
// RUN: ktc-opt %S/basic.mlir -p fold-view-strides,fold-view-strides > %t.twice
// RUN: diff %t.once %t.twice
