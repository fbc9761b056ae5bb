// verify-schedule closes the ktir-to-schedule pipeline: a kernel scheduled for
// toy, spyre or the line4 chip passes it, while the three-stage form before path
// expansion, whose FIFOs run from device memory straight to the SIMD engine, fails.

// RUN: ktc-opt %s --arch toy -p ktir-to-schedule | filecheck %s --check-prefix=TOY
// RUN: ktc-opt %s --arch spyre -p ktir-to-schedule | filecheck %s --check-prefix=TOY
// RUN: ktc-opt %s --arch %S/../../arch/Inputs/line4.mlir -p ktir-to-schedule | filecheck %s --check-prefix=LINE4
// RUN: not ktc-opt %s --arch toy -p ktir-legality-check,compute-group-extraction,materialize-phase-buffers,generalize-and-fuse,lower-ktdp-views,tile-to-simd-width,construct-three-stage-pipeline,verify-schedule 2>&1 | filecheck %s --check-prefix=UNEXPANDED

#vector = affine_set<(d0) : (d0 >= 0, -d0 + 255 >= 0)>
#identity = affine_map<(d0) -> (d0)>
func.func @double(%x: index, %y: index) attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %x_view = ktdp.construct_memory_view %x, sizes: [256], strides: [1] {coordinate_set = #vector, memory_space = #ktdp.memory_space<global>} : memref<256xf16>
  %y_view = ktdp.construct_memory_view %y, sizes: [256], strides: [1] {coordinate_set = #vector, memory_space = #ktdp.memory_space<global>} : memref<256xf16>
  %x_tile = ktdp.construct_access_tile %x_view[%c0] {access_tile_set = #vector, access_tile_order = #identity} : memref<256xf16> -> !ktdp.access_tile<256xindex>
  %y_tile = ktdp.construct_access_tile %y_view[%c0] {access_tile_set = #vector, access_tile_order = #identity} : memref<256xf16> -> !ktdp.access_tile<256xindex>
  %v = ktdp.load %x_tile : !ktdp.access_tile<256xindex> -> tensor<256xf16>
  %twice = arith.addf %v, %v : tensor<256xf16>
  ktdp.store %twice, %y_tile : tensor<256xf16>, !ktdp.access_tile<256xindex>
  return
}

// TOY:         ktdf.pipeline
// TOY:         {applicable_units = ["MNILU"]}
// TOY:         {applicable_units = ["L1LU"]}
// TOY:         {applicable_units = ["SFU"]}
// TOY:         {applicable_units = ["L1SU"]}
// TOY:         {applicable_units = ["MNISU"]}

// LINE4:       ktdf.pipeline
// LINE4:       {applicable_units = ["DMA"]}
// LINE4:       !ktdf.fifo.slot<"SPM" -> "VPU", 32xf16>
// LINE4:       {applicable_units = ["VPU"]}
// LINE4:       {applicable_units = ["DMA"]}

// UNEXPANDED:  error: 'ktdf.fifo.allocate' makes a FIFO from "DDR" to "SFU", which are not neighbours on device @toy (no datapath DDR -> SFU)
