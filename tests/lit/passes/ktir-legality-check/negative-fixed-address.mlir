// Views at constant addresses of device memory: one reaching past the device's
// memory is refused, naming the byte and the capacity, also when its sizes are
// computed from constants; a kernel with such a view that
// also takes a pointer argument is refused, since the runtime lays the pointer's
// array from address 0, over what the fixed view may reach.

// RUN: ktc-opt %s --split-input-file --verify-diagnostics --arch toy -p ktir-legality-check

#all = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>
func.func @too_far() {
  %at = arith.constant 1099511627776 : index
  // expected-error@+1 {{'ktdp.construct_memory_view' reaches byte 2199023255680 of device memory at its fixed address, beyond the}}
  %v = ktdp.construct_memory_view %at, sizes: [64], strides: [1] {coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<64xf16>
  return
}

// -----

#rows = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1023 >= 0, d1 >= 0, -d1 + 1023 >= 0)>
func.func @computed_sizes() {
  %at = arith.constant 0 : index
  %c32 = arith.constant 32 : index
  %n = arith.muli %c32, %c32 : index
  // expected-error@+1 {{'ktdp.construct_memory_view' reaches byte 2097152 of device memory at its fixed address, beyond the 1048576 bytes of DDR on device @toy}}
  %v = ktdp.construct_memory_view %at, sizes: [%n, %n], strides: [1024, 1] {coordinate_set = #rows, memory_space = #ktdp.memory_space<global>} : memref<1024x1024xf16>
  return
}

// -----

#all = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>
func.func @mixed(%x: index) {
  %at = arith.constant 1024 : index
  %p = ktdp.construct_memory_view %x, sizes: [64], strides: [1] {coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<64xf16>
  // expected-error@+1 {{'ktdp.construct_memory_view' is at the fixed element address 1024 of device memory while the kernel takes the pointer argument %x, whose array the runtime lays from address 0 and may overlap it; pass this array as a pointer argument too}}
  %v = ktdp.construct_memory_view %at, sizes: [64], strides: [1] {coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<64xf16>
  return
}
