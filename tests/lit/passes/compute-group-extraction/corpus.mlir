// On the corpus kernels in scope, each kernel becomes an orchestrator and programs:
// vector_add (static and dynamic sizes) is one straight-line program; softmax is one
// program per row (max-reduce, sub, exp, sum-reduce and div stay together, called
// from the row loop); layernorm's mean/variance loops, the mean and rstd stores and
// the normalisation loop are one program per row, since every store depends on the
// row's loads; add-with-control-flow calls its program from the row loop, with the
// default grid.

// REQUIRES: corpus
// RUN: ktc-opt %corpus/ktir-cpu/triton-ktir/vector_add_ktir.mlir -p compute-group-extraction --arch toy | filecheck %s --check-prefix=ADD
// RUN: ktc-opt %corpus/ktir-cpu/triton-ktir/vector_add_dynamic_ktir.mlir -p compute-group-extraction --arch toy | filecheck %s --check-prefix=DYN
// RUN: ktc-opt %corpus/ktir-cpu/triton-ktir/softmax_fwd_ktir.mlir -p compute-group-extraction --arch spyre | filecheck %s --check-prefix=SOFTMAX
// RUN: ktc-opt %corpus/ktir-cpu/triton-ktir/layernorm_fwd_ktir.mlir -p compute-group-extraction --arch toy | filecheck %s --check-prefix=LAYERNORM
// RUN: ktc-opt %corpus/ktir-cpu/rfc/add-with-control-flow.mlir -p compute-group-extraction --arch toy | filecheck %s --check-prefix=CONTROL

// ADD:      func.func @add_kernel(%x_ptr: index, %y_ptr: index, %output_ptr: index, %BLOCK_SIZE: index) attributes {grid = [32, 1]} {
// ADD-NEXT:   call @local_schedule_0(%x_ptr, %y_ptr, %output_ptr, %BLOCK_SIZE) : (index, index, index, index) -> ()
// ADD-NEXT:   return
// ADD:      func.func private @local_schedule_0(index, index, index, index) -> ()
// ADD:      module @local_schedule_0 {
// ADD-NEXT:   func.func @local_schedule_0(%x_ptr: index, %y_ptr: index, %output_ptr: index, %BLOCK_SIZE: index) attributes {grid = [32, 1]} {
// ADD-NEXT:     %core_id = ktdp.get_compute_tile_id : index
// ADD-NEXT:     %offset = arith.muli %core_id, %BLOCK_SIZE : index
// ADD:          %x = ktdp.load %x_tile
// ADD-NEXT:     %y = ktdp.load %y_tile
// ADD-NEXT:     %output = arith.addf %x, %y
// ADD:          ktdp.store %output, %output_tile
// ADD-NOT:    module @local_schedule_1

// DYN:      func.func @add_kernel_dynamic(%x_ptr: index, %y_ptr: index, %output_ptr: index, %n_elements: i32) attributes {grid = [1]} {
// DYN-NEXT:   call @local_schedule_0(%x_ptr, %y_ptr, %output_ptr, %n_elements) : (index, index, index, i32) -> ()
// DYN-NEXT:   return
// DYN:      func.func @local_schedule_0(%x_ptr: index, %y_ptr: index, %output_ptr: index, %n_elements: i32) attributes {grid = [1]} {
// DYN:        %n = arith.index_cast %n_elements : i32 to index
// DYN-NEXT:   %x_view = ktdp.construct_memory_view %x_ptr, sizes: [%n]
// DYN:        ktdp.store %output, %output_tile
// DYN-NOT:  module @local_schedule_1

// SOFTMAX:      ktdf_arch.device @spyre
// SOFTMAX:      func.func @softmax_kernel(%output_ptr: index, %input_ptr: index, %n_rows: index) attributes {grid = [32, 1]} {
// SOFTMAX-NEXT:   %core_id = ktdp.get_compute_tile_id : index
// SOFTMAX-NEXT:   %c32_i32 = arith.constant 32 : index
// SOFTMAX-NEXT:   scf.for %row = %core_id to %n_rows step %c32_i32 {
// SOFTMAX-NEXT:     func.call @local_schedule_0(%output_ptr, %input_ptr, %row) : (index, index, index) -> ()
// SOFTMAX-NEXT:   }
// SOFTMAX-NEXT:   return
// SOFTMAX:      func.func @local_schedule_0(%output_ptr: index, %input_ptr: index, %row: index) attributes {grid = [32, 1]} {
// SOFTMAX:        %input_row = ktdp.load %input_acc
// SOFTMAX:        %reduce_max = linalg.reduce { arith.maxnumf } ins(%input_row
// SOFTMAX:        %input_minus_max = arith.subf %input_row, %max_row
// SOFTMAX-NEXT:   %numerator = math.exp %input_minus_max
// SOFTMAX:        %reduce_add = linalg.reduce { arith.addf } ins(%numerator
// SOFTMAX:        %softmax_output = arith.divf %numerator, %denominator_row
// SOFTMAX:        ktdp.store %softmax_output, %output_acc
// SOFTMAX-NOT:  module @local_schedule_1

// LAYERNORM:      scf.for %row = %core_id to %c1151_i32 step %c32_i32 {
// LAYERNORM-NEXT:   func.call @local_schedule_0(%X, %Y, %W, %B, %Mean, %Rstd, %N, %eps, %BLOCK_SIZE, %row) : (index, index, index, index, index, index, index, f16, index, index) -> ()
// LAYERNORM-NEXT: }
// LAYERNORM:      func.func @local_schedule_0(%X: index, %Y: index, %W: index, %B: index, %Mean: index, %Rstd: index, %N: index, %eps: f16, %BLOCK_SIZE: index, %row: index) attributes {grid = [32, 1]} {
// LAYERNORM:        %sum_block = scf.for %col = %c0_i32 to %N step %BLOCK_SIZE iter_args(%sum_iter = %zero_block)
// LAYERNORM:        %mean = arith.divf %reduce_sum, %N_tensor
// LAYERNORM:        %var_block = scf.for %col = %c0_i32 to %N step %BLOCK_SIZE iter_args(%var_iter = %zero_block)
// LAYERNORM:        %rstd = arith.divf %f1_tensor, %var_sqrt
// LAYERNORM:        ktdp.store %mean, %Mean_acc
// LAYERNORM-NEXT:   ktdp.store %rstd, %Rstd_acc
// LAYERNORM-NEXT:   scf.for %col = %c0_i32 to %N step %BLOCK_SIZE {
// LAYERNORM:          %x_hat = arith.mulf %x_minus_mean, %rstd_block
// LAYERNORM:          ktdp.store %y, %Y_acc
// LAYERNORM-NOT:  module @local_schedule_1

// CONTROL:      func.func @add() {
// CONTROL:        scf.for %i = %c0 to %tile_size step %c1 {
// CONTROL-NEXT:     func.call @local_schedule_0(%i) : (index) -> ()
// CONTROL-NEXT:   }
// CONTROL:      func.func @local_schedule_0(%i: index) attributes {grid = [1]} {
// CONTROL:        %current_row = arith.addi %start_row, %i : index
// CONTROL:        %C_data_tile = linalg.add ins(%A_data_tile, %B_data_tile
// CONTROL:        ktdp.store %C_data_tile, %C_access_tile
