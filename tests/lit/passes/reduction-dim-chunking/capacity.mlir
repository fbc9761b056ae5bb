// The long rows of long_row_sum take the whole 64 KiB scratchpad of the toy device:
// without reduction-dim-chunking, address-assignment rejects the kernel; with it the
// rows are staged in chunks, the kernel fits and is lowered to DataflowIR.

// RUN: not ktc-opt %S/Inputs/long_row_sum.mlir --arch toy -p ktir-to-schedule,stage-coarsening,reduction-loop-exposure,map-reduction-partials,broadcast-promotion,double-buffering,parallelize-loops-across-instances,tile-size-selection,canonicalize,address-assignment 2>&1 | filecheck %s --check-prefix=WITHOUT
// RUN: ktc-opt %S/Inputs/long_row_sum.mlir --arch toy -p ktir-to-schedule,stage-coarsening,reduction-dim-chunking,reduction-loop-exposure,map-reduction-partials,broadcast-promotion,double-buffering,parallelize-loops-across-instances,tile-size-selection,canonicalize,address-assignment,normalize-grid-to-1d,convert-ktdf-to-dfir | filecheck %s --check-prefix=WITH

// WITHOUT: error: @local_schedule_0 does not fit in L1 of device @toy, which holds 65536 bytes
// WITHOUT: 65536  memref<?x1x16384xf32, "L1">

// WITH:      L1_capacity = 65536 : i64, L1_peak_bytes = 24592 : i64
// WITH:      dfir.program "SFU"
// WITH:        scf.for
// WITH:          dfir.send {{.*}} id {{[0-9]+}} : vector<1xf32>, !dfir.unit<"L1SU">
// WITH:          scf.for
// WITH:            dfir.receive from {{.*}} -> vector<4xf32>
// WITH:            dfir.compute <add>
// WITH:          dfir.reduce <add>
// WITH:          %[[PARTIAL:.*]] = dfir.receive from {{.*}} -> vector<1xf32>
// WITH-NEXT:     %[[SUM:.*]] = dfir.compute <add> %[[PARTIAL]], %{{.*}} : vector<1xf32>
// WITH-NEXT:     dfir.send %[[SUM]] to
