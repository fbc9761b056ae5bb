// One load-add-store chain becomes one program: the kernel keeps only the call,
// the program module gets the kernel's grid, the address arithmetic, views and
// access tiles it needs (cloned) and the kernel arguments it uses, and the device
// declaration stays at the top level whatever the device.

// RUN: ktc-opt %s -p compute-group-extraction --arch toy | filecheck %s
// RUN: ktc-opt %s -p compute-group-extraction --arch spyre | filecheck %s --check-prefix=SPYRE
// RUN: ktc-opt %s -p compute-group-extraction --arch %root/tests/lit/arch/Inputs/line4.mlir | filecheck %s --check-prefix=LINE4

#view = affine_set<(d0, d1) : (d0 >= 0, -d0 + 95 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#tile = affine_set<(d0, d1) : (d0 >= 0, -d0 + 2 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#order = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @add(%A: index, %B: index, %C: index) attributes {grid = [2, 2]} {
    %c0 = arith.constant 0 : index
    %c3 = arith.constant 3 : index
    %id = ktdp.get_compute_tile_id : index
    %row = arith.muli %id, %c3 : index
    %A_view = ktdp.construct_memory_view %A, sizes: [96, 64], strides: [64, 1] {coordinate_set = #view, memory_space = #ktdp.memory_space<global>} : memref<96x64xf16>
    %B_view = ktdp.construct_memory_view %B, sizes: [96, 64], strides: [64, 1] {coordinate_set = #view, memory_space = #ktdp.memory_space<global>} : memref<96x64xf16>
    %C_view = ktdp.construct_memory_view %C, sizes: [96, 64], strides: [64, 1] {coordinate_set = #view, memory_space = #ktdp.memory_space<global>} : memref<96x64xf16>
    %A_tile = ktdp.construct_access_tile %A_view[%row, %c0] {access_tile_set = #tile, access_tile_order = #order} : memref<96x64xf16> -> !ktdp.access_tile<3x64xindex>
    %B_tile = ktdp.construct_access_tile %B_view[%row, %c0] {access_tile_set = #tile, access_tile_order = #order} : memref<96x64xf16> -> !ktdp.access_tile<3x64xindex>
    %a = ktdp.load %A_tile : !ktdp.access_tile<3x64xindex> -> tensor<3x64xf16>
    %b = ktdp.load %B_tile : !ktdp.access_tile<3x64xindex> -> tensor<3x64xf16>
    %init = tensor.empty() : tensor<3x64xf16>
    %sum = linalg.add ins(%a, %b : tensor<3x64xf16>, tensor<3x64xf16>) outs(%init : tensor<3x64xf16>) -> tensor<3x64xf16>
    %C_tile = ktdp.construct_access_tile %C_view[%row, %c0] {access_tile_set = #tile, access_tile_order = #order} : memref<96x64xf16> -> !ktdp.access_tile<3x64xindex>
    ktdp.store %sum, %C_tile : tensor<3x64xf16>, !ktdp.access_tile<3x64xindex>
    return
  }
}

// CHECK-LABEL: module {
// CHECK-NEXT:    ktdf_arch.device @toy import("toy")
// CHECK-NEXT:    module {
// CHECK-NEXT:      func.func @add(%A: index, %B: index, %C: index) attributes {grid = [2, 2]} {
// CHECK-NEXT:        call @local_schedule_0(%A, %B, %C) : (index, index, index) -> ()
// CHECK-NEXT:        return
// CHECK-NEXT:      }
// CHECK-NEXT:      func.func private @local_schedule_0(index, index, index) -> ()
// CHECK-NEXT:    }
// CHECK-NEXT:    module @local_schedule_0 {
// CHECK-NEXT:      func.func @local_schedule_0(%A: index, %B: index, %C: index) attributes {grid = [2, 2]} {
// CHECK-NEXT:        %c0 = arith.constant 0 : index
// CHECK-NEXT:        %c3 = arith.constant 3 : index
// CHECK-NEXT:        %id = ktdp.get_compute_tile_id : index
// CHECK-NEXT:        %row = arith.muli %id, %c3 : index
// CHECK-NEXT:        %A_view = ktdp.construct_memory_view %A, {{.*}} : memref<96x64xf16>
// CHECK-NEXT:        %B_view = ktdp.construct_memory_view %B, {{.*}} : memref<96x64xf16>
// CHECK-NEXT:        %C_view = ktdp.construct_memory_view %C, {{.*}} : memref<96x64xf16>
// CHECK-NEXT:        %A_tile = ktdp.construct_access_tile %A_view[%row, %c0] {{.*}} -> !ktdp.access_tile<3x64xindex>
// CHECK-NEXT:        %B_tile = ktdp.construct_access_tile %B_view[%row, %c0] {{.*}} -> !ktdp.access_tile<3x64xindex>
// CHECK-NEXT:        %a = ktdp.load %A_tile : <3x64xindex> -> tensor<3x64xf16>
// CHECK-NEXT:        %b = ktdp.load %B_tile : <3x64xindex> -> tensor<3x64xf16>
// CHECK-NEXT:        %init = tensor.empty() : tensor<3x64xf16>
// CHECK-NEXT:        %sum = linalg.add ins(%a, %b : tensor<3x64xf16>, tensor<3x64xf16>) outs(%init : tensor<3x64xf16>) -> tensor<3x64xf16>
// CHECK-NEXT:        %C_tile = ktdp.construct_access_tile %C_view[%row, %c0] {{.*}} -> !ktdp.access_tile<3x64xindex>
// CHECK-NEXT:        ktdp.store %sum, %C_tile : tensor<3x64xf16>, <3x64xindex>
// CHECK-NEXT:        return
// CHECK-NEXT:      }
// CHECK-NEXT:    }
// CHECK-NEXT:  }

// SPYRE:      module {
// SPYRE-NEXT:   ktdf_arch.device @spyre import("spyre")
// SPYRE-NEXT:   module {
// SPYRE:          call @local_schedule_0(%A, %B, %C)
// SPYRE:        module @local_schedule_0 {

// LINE4:      module {
// LINE4-NEXT:   ktdf_arch.device @line4 import("{{.*}}Inputs/line4.mlir")
// LINE4-NEXT:   module {
// LINE4:          call @local_schedule_0(%A, %B, %C)
// LINE4:        module @local_schedule_0 {
