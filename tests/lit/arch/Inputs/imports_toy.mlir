// Declares the toy device by importing its file, with a clock of its own: the
// declaration's attributes apply over the definition's.

ktdf_arch.device @my_toy attributes {ktdf_arch.clock_mhz = 250} import("../../../../arch/toy.mlir")
