// One load/store program whose loads record the index values that reach them: loop-
// carried values (one pair shifted, one pair swapped), loop results, an scf.if with a
// result in a loop, values from outside both loops used in the innermost one, and a
// rotation beside a swap among five loop-carried values.
func.func @control() {
  dfir.dataflow {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    %c5 = arith.constant 5 : index
    %c7 = arith.constant 7 : index
    %l1 = dfir.unit core 0 : !dfir.unit<"l1">
    %lsu = dfir.unit core 0 subcore 0 : !dfir.unit<"lsu">
    dfir.program "lsu" on (%lsu) {
      %buf = dfir.view %l1[%c0] : !dfir.unit<"l1"> -> memref<16x16xf16>
      %deep = dfir.view %l1[%c0] : !dfir.unit<"l1"> -> memref<2x2x2x2x8xf16>
      %r:2 = scf.for %i = %c0 to %c3 step %c1 iter_args(%a = %c0, %b = %c1) -> (index, index) {
        %v = dfir.load %buf[%a, %b] : memref<16x16xf16>, vector<8xf16>
        %s = arith.addi %a, %b : index
        scf.yield %b, %s : index, index
      }
      %w:2 = scf.for %i = %c0 to %c3 step %c1 iter_args(%x = %c1, %y = %c3) -> (index, index) {
        %v = dfir.load %buf[%x, %y] : memref<16x16xf16>, vector<8xf16>
        scf.yield %y, %x : index, index
      }
      %v2 = dfir.load %buf[%r#0, %r#1] : memref<16x16xf16>, vector<8xf16>
      %v3 = dfir.load %buf[%w#0, %w#1] : memref<16x16xf16>, vector<8xf16>
      %k = arith.addi %c5, %c1 : index
      scf.for %i = %c0 to %c3 step %c1 {
        %lt = arith.cmpi slt, %i, %c1 : index
        %q = scf.if %lt -> (index) {
          scf.yield %c5 : index
        } else {
          %e = arith.addi %c5, %c3 : index
          scf.yield %e : index
        }
        scf.for %j = %c0 to %c1 step %c1 {
          %t = arith.muli %i, %c3 : index
          %u = arith.subi %t, %k : index
          %v = dfir.load %buf[%q, %u] : memref<16x16xf16>, vector<8xf16>
        }
      }
      %p:5 = scf.for %i = %c0 to %c3 step %c1
          iter_args(%a = %c0, %b = %c1, %c = %c3, %d = %c5, %e = %c7)
          -> (index, index, index, index, index) {
        %v = dfir.load %deep[%a, %b, %c, %d, %e] : memref<2x2x2x2x8xf16>, vector<8xf16>
        scf.yield %b, %c, %a, %e, %d : index, index, index, index, index
      }
      %z = arith.constant 0 : i1
      scf.if %z {
        %v = dfir.load %buf[%c7, %c7] : memref<16x16xf16>, vector<8xf16>
      }
    }
  }
  func.return
}
