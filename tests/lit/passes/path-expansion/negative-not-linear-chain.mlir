// Path expansion needs the stages of a pipeline in one linear chain of token
// dependencies: each stage waits for at most one stage and is waited for by at
// most one, every token it waits for is released in the pipeline, and all stages
// hang in one chain. Each case fails at the stage or pipeline that breaks it.

// RUN: ktc-opt %s --split-input-file --arch toy -p path-expansion --verify-diagnostics

func.func @fan_out(%v: f16) {
  ktdf.pipeline {
    %t:3 = ktdf.private -> (!ktdf.token, !ktdf.token, !ktdf.token) {
      %t0 = ktdf.create_token
      %t1 = ktdf.create_token
      %t2 = ktdf.create_token
      ktdf.private_yield %t0, %t1, %t2 : !ktdf.token, !ktdf.token, !ktdf.token
    }
    // expected-error@+1 {{'ktdf.stage' is waited for by 2 stages; path-expansion needs the stages in a linear chain}}
    ktdf.stage depends_in(none) depends_out(%t#0) {
      %a = arith.addf %v, %v : f16
    } {applicable_units = ["SFU"]}
    ktdf.stage depends_in(%t#0) depends_out(%t#1) {
      %b = arith.addf %v, %v : f16
    } {applicable_units = ["SFU"]}
    ktdf.stage depends_in(%t#0) depends_out(%t#2) {
      %c = arith.addf %v, %v : f16
    } {applicable_units = ["SFU"]}
  }
  func.return
}

// -----

func.func @fan_in(%v: f16) {
  ktdf.pipeline {
    %t:2 = ktdf.private -> (!ktdf.token, !ktdf.token) {
      %t0 = ktdf.create_token
      %t1 = ktdf.create_token
      ktdf.private_yield %t0, %t1 : !ktdf.token, !ktdf.token
    }
    ktdf.stage depends_in(none) depends_out(%t#0) {
      %a = arith.addf %v, %v : f16
    } {applicable_units = ["SFU"]}
    ktdf.stage depends_in(none) depends_out(%t#1) {
      %b = arith.addf %v, %v : f16
    } {applicable_units = ["SFU"]}
    // expected-error@+1 {{'ktdf.stage' waits for 2 stages; path-expansion needs the stages in a linear chain}}
    ktdf.stage depends_in(%t#0, %t#1) depends_out(none) {
      %c = arith.addf %v, %v : f16
    } {applicable_units = ["SFU"]}
  }
  func.return
}

// -----

func.func @never_released(%v: f16) {
  ktdf.pipeline {
    %t:2 = ktdf.private -> (!ktdf.token, !ktdf.token) {
      %t0 = ktdf.create_token
      %t1 = ktdf.create_token
      ktdf.private_yield %t0, %t1 : !ktdf.token, !ktdf.token
    }
    ktdf.stage depends_in(none) depends_out(%t#0) {
      %a = arith.addf %v, %v : f16
    } {applicable_units = ["SFU"]}
    // expected-error@+1 {{'ktdf.stage' waits for a token no stage of its pipeline releases}}
    ktdf.stage depends_in(%t#1) depends_out(none) {
      %b = arith.addf %v, %v : f16
    } {applicable_units = ["SFU"]}
  }
  func.return
}

// -----

func.func @released_twice(%v: f16) {
  ktdf.pipeline {
    %t:1 = ktdf.private -> (!ktdf.token) {
      %t0 = ktdf.create_token
      ktdf.private_yield %t0 : !ktdf.token
    }
    ktdf.stage depends_in(none) depends_out(%t#0) {
      %a = arith.addf %v, %v : f16
    } {applicable_units = ["SFU"]}
    // expected-error@+1 {{'ktdf.stage' releases a token another stage of its pipeline releases too}}
    ktdf.stage depends_in(none) depends_out(%t#0) {
      %b = arith.addf %v, %v : f16
    } {applicable_units = ["SFU"]}
  }
  func.return
}

// -----

func.func @two_chains(%v: f16) {
  // expected-error@+1 {{'ktdf.pipeline' has 2 stages that wait for no other stage; path-expansion needs the stages in a linear chain}}
  ktdf.pipeline {
    ktdf.stage depends_in(none) depends_out(none) {
      %a = arith.addf %v, %v : f16
    } {applicable_units = ["SFU"]}
    ktdf.stage depends_in(none) depends_out(none) {
      %b = arith.addf %v, %v : f16
    } {applicable_units = ["SFU"]}
  }
  func.return
}

// -----

func.func @cycle(%v: f16) {
  // expected-error@+1 {{'ktdf.pipeline' has stages that wait for each other in a cycle}}
  ktdf.pipeline {
    %t:2 = ktdf.private -> (!ktdf.token, !ktdf.token) {
      %t0 = ktdf.create_token
      %t1 = ktdf.create_token
      ktdf.private_yield %t0, %t1 : !ktdf.token, !ktdf.token
    }
    ktdf.stage depends_in(none) depends_out(none) {
      %a = arith.addf %v, %v : f16
    } {applicable_units = ["SFU"]}
    ktdf.stage depends_in(%t#1) depends_out(%t#0) {
      %b = arith.addf %v, %v : f16
    } {applicable_units = ["SFU"]}
    ktdf.stage depends_in(%t#0) depends_out(%t#1) {
      %c = arith.addf %v, %v : f16
    } {applicable_units = ["SFU"]}
  }
  func.return
}
