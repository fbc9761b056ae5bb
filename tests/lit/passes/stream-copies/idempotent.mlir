// Running the pass twice gives what running it once gives: the streamed copies leave
// no load of a direct tile that is only stored.

// RUN: ktc-opt %S/basic.mlir --arch toy -p stream-copies > %t.once
// RUN: ktc-opt %S/basic.mlir --arch toy -p stream-copies,stream-copies > %t.twice
// RUN: diff %t.once %t.twice
